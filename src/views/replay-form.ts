// The replay form as typed and the request the engine plans it from (`replay.estimate`, `replay.start`).
// Nothing is judged here: the engine's planner checks every field and names it. Numbers typed as numbers
// are sent as numbers (the RPC reads JSON strictly); anything else is sent as typed for the engine to name.
import type { HostsMode, OffsetMapping, ReplayRequest, ReplayTiming, TraceFormat } from '../api';

export interface ReplayForm {
  trace: string;
  format: TraceFormat | 'auto';
  disks: string;
  trace_hosts: string;
  start_s: string;
  end_s: string;
  timing: ReplayTiming;
  lanes: string;
  mapping: OffsetMapping;
  target: string;
  size_bytes: string;
  engine: 'auto' | 'fio' | 'portable';
  repeats: string;
  /** Consent to write into an existing file (a device is confirmed in a dialog at the start). */
  allow_overwrite: boolean;
  /** SSH hosts to replay on, all started at once; empty: this machine. */
  hosts: string[];
  /** On hosts: the whole trace on each, or one trace split across them. */
  hosts_mode: HostsMode;
  remote_dir: string;
  /** A block device replayed on by every ticked host instead of a test file. */
  remote_device: string;
}

export const INITIAL_REPLAY: ReplayForm = {
  trace: '', format: 'auto', disks: '', trace_hosts: '', start_s: '', end_s: '', timing: 'as-recorded',
  lanes: '16', mapping: 'exact', target: '', size_bytes: '', engine: 'auto', repeats: '1', allow_overwrite: false,
  hosts: [], hosts_mode: 'whole', remote_dir: '', remote_device: '',
};

const blank = (text: string): string | null => (text.trim() === '' ? null : text.trim());
const list = (text: string): string[] => text.split(',').map((s) => s.trim()).filter(Boolean);

/** A number as typed, or the text itself for the engine to name (blank: the engine's default). */
function typed(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/** The request for a described trace (null: no trace named yet). */
export function replayRequest(form: ReplayForm, allowOverwrite = form.allow_overwrite): ReplayRequest | null {
  const trace = blank(form.trace);
  if (trace === null) return null;
  const start = typed(form.start_s);
  const end = typed(form.end_s);
  return {
    trace,
    format: form.format === 'auto' ? null : form.format,
    selection: {
      hosts: list(form.trace_hosts), disks: list(form.disks),
      ...(start !== undefined ? { start_s: start as number } : {}),
      ...(end !== undefined ? { end_s: end as number } : {}),
    },
    timing: form.timing,
    ...(typed(form.lanes) !== undefined ? { lanes: typed(form.lanes) as number } : {}),
    mapping: form.mapping,
    target: form.hosts.length ? null : blank(form.target),
    size_bytes: blank(form.size_bytes),
    engine: form.engine === 'auto' || form.hosts.length ? null : form.engine,
    ...(typed(form.repeats) !== undefined ? { repeats: typed(form.repeats) as number } : {}),
    allow_overwrite: allowOverwrite,
    ...onHosts(form),
  };
}

/** The hosts' part of the request: the hosts, how they share the trace, their folder or device. */
function onHosts(form: ReplayForm): Partial<ReplayRequest> {
  if (!form.hosts.length) return {};
  const device = blank(form.remote_device);
  return {
    hosts: form.hosts, hosts_mode: form.hosts_mode, remote_dir: blank(form.remote_dir) ?? '',
    ...(device ? { remote_devices: Object.fromEntries(form.hosts.map((h) => [h, device])) } : {}),
  };
}

/** The engine's field names this form shows under another input (the rest are its own names). */
export const REPLAY_FIELD: Record<string, keyof ReplayForm> = {
  selection: 'disks', direct: 'target', offset_bytes: 'size_bytes', remote_dirs: 'remote_dir',
  remote_devices: 'remote_device',
};
