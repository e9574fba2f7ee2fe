// The sustained-write form as typed (strings, sent as typed: "1m", "64g", "10s,5m") and the
// request the engine plans it from (`sustain.estimate`, `sustain.start`). Nothing is judged here:
// the engine's one planner checks every field and names it.
import type { SustainRequest } from '../api';

export interface SustainForm {
  target: string;
  pattern: 'write' | 'randwrite';
  block_size_bytes: string;
  queue_depth: string;
  size_bytes: string;
  write_bytes: string;
  idle_s: string;
  recovery_bytes: string;
  engine: 'auto' | 'fio' | 'portable';
  /** Consent to write into an existing file (a device is confirmed in a dialog at the start). */
  allow_overwrite: boolean;
}

/** Blank fields take the engine's defaults (1 MiB sequential at QD8, the region once). */
export const INITIAL_SUSTAIN: SustainForm = {
  target: '', pattern: 'write', block_size_bytes: '1m', queue_depth: '8', size_bytes: '',
  write_bytes: '', idle_s: '10s,30s,60s,5m', recovery_bytes: '', engine: 'auto',
  allow_overwrite: false,
};

const blank = (text: string): string | null => (text.trim() === '' ? null : text.trim());

export function sustainRequest(
  form: SustainForm, allowOverwrite = form.allow_overwrite,
): SustainRequest {
  const idle = form.idle_s.split(',').map((s) => s.trim()).filter(Boolean);
  return {
    target: blank(form.target),
    pattern: form.pattern,
    block_size_bytes: blank(form.block_size_bytes),
    queue_depth: blank(form.queue_depth),
    size_bytes: blank(form.size_bytes),
    write_bytes: blank(form.write_bytes),
    // blank takes the engine's intervals; "none" asks for the fill alone
    idle_s: form.idle_s.trim() === '' ? null : form.idle_s.trim() === 'none' ? [] : idle,
    recovery_bytes: blank(form.recovery_bytes),
    engine: form.engine === 'auto' ? null : form.engine,
    allow_overwrite: allowOverwrite,
  };
}

/** The engine's field names this form shows under another input (the rest are its own names). */
export const SUSTAIN_FIELD: Record<string, keyof SustainForm> = { offset_bytes: 'size_bytes' };
