// The designer's form as typed (strings), and how it becomes the engine's params.
import type { FieldRule, SweepMode, SweepRequest, Workload, WorkloadInput } from '../api';
import { sizeInput } from '../lib/units';

export interface WorkloadForm {
  pattern: NonNullable<WorkloadInput['pattern']>;
  read_pct: string;
  block_size_bytes: string;
  queue_depth: string;
  numjobs: string;
  runtime_s: string;
  ramp_s: string;
  size_bytes: string;
  target: string;
  engine: NonNullable<WorkloadInput['engine']>;
  allow_overwrite: boolean;
  direct: boolean;
}

export interface FactorRow {
  field: string;
  values: string;
}

export interface SweepForm {
  kind: 'single' | 'preset' | 'custom';
  preset: string;
  factors: FactorRow[];
  mode: SweepMode;
  repeats: string;
  tags: string;
  /** SSH hosts to run on at once; empty: this machine. */
  hosts: string[];
  remoteDir: string;
  /** A block device measured on every ticked host instead of a test file. */
  remoteDevice: string;
  rbd: string;
  /** The cool-down between points, as typed (°C; idle and longest wait as durations). */
  coolTo: string;
  coolIdle: string;
  coolMax: string;
}

/** Whether a field counts with the form as it stands, by the engine's rule (engine.info's
 *  applies_with: the read share only with a mixed pattern; a pure one fixes it). */
export function applies(
  rules: Record<string, FieldRule>, name: string, form: WorkloadForm,
): boolean {
  const when = rules[name]?.applies_with ?? {};
  return Object.entries(when)
    .every(([field, values]) => values.includes(String(form[field as keyof WorkloadForm])));
}

export const FACTOR_CHOICES: { field: string; label: string; example: string }[] = [
  { field: 'block_size_bytes', label: 'access size', example: '4k, 16k, 128k' },
  { field: 'read_pct', label: 'read %', example: '100, 70, 50, 0' },
  { field: 'queue_depth', label: 'queue depth', example: '1, 10, 100' },
  { field: 'numjobs', label: 'jobs', example: '1, 8, 16' },
  { field: 'pattern', label: 'pattern', example: 'randread, read' },
];

export function formFromWorkload(w: Workload): WorkloadForm {
  return {
    pattern: w.pattern,
    read_pct: String(w.read_pct),
    block_size_bytes: sizeInput(w.block_size_bytes),
    queue_depth: String(w.queue_depth),
    numjobs: String(w.numjobs),
    runtime_s: `${w.runtime_s}s`,
    ramp_s: `${w.ramp_s}s`,
    size_bytes: sizeInput(w.size_bytes),
    target: w.target,
    engine: w.engine,
    allow_overwrite: w.allow_overwrite,
    direct: w.direct,
  };
}

export const initialSweep: SweepForm = {
  kind: 'single', preset: 'student', factors: [{ field: 'block_size_bytes', values: '4k, 16k, 128k' }],
  mode: 'one-at-a-time', repeats: '1', tags: '', hosts: [], remoteDir: '', remoteDevice: '', rbd: '',
  coolTo: '', coolIdle: '', coolMax: '',
};

/** Only what the user filled in; the engine parses units and applies its defaults. */
export function workloadInput(
  form: WorkloadForm, rules: Record<string, FieldRule>,
): WorkloadInput {
  const input: Record<string, string | boolean> = {};
  const text = ['pattern', 'block_size_bytes', 'queue_depth', 'numjobs', 'runtime_s', 'ramp_s', 'size_bytes', 'target', 'engine'] as const;
  for (const name of text) {
    const value = form[name].trim();
    if (value) input[name] = value;
  }
  const share = form.read_pct.trim();
  if (applies(rules, 'read_pct', form) && share) input.read_pct = share;
  if (form.allow_overwrite) input.allow_overwrite = true;
  if (!form.direct) input.direct = false;
  return input;
}

export function sweepRequest(
  form: WorkloadForm, sweep: SweepForm, rules: Record<string, FieldRule>,
): SweepRequest {
  // Tags and repeats go as typed: the engine reads them by its one rule and names what is wrong.
  const params: SweepRequest = {
    base: workloadInput(form, rules), mode: sweep.mode,
    repeats: Number(sweep.repeats.trim() || '1'),
    tags: sweep.tags,
  };
  if (sweep.kind === 'preset') params.preset = sweep.preset;
  if (sweep.hosts.length) {
    params.hosts = sweep.hosts;
    if (sweep.remoteDir.trim()) params.remote_dir = sweep.remoteDir.trim();
    if (sweep.rbd.trim()) params.rbd = sweep.rbd.trim();
    if (sweep.remoteDevice.trim()) params.remote_devices = Object.fromEntries(sweep.hosts.map((h) => [h, sweep.remoteDevice.trim()]));
  }
  const typed = { cool_to_c: sweep.coolTo, cool_idle_s: sweep.coolIdle, cool_max_s: sweep.coolMax };
  const cool = Object.entries(typed)
    .map(([name, value]): [string, string] => [name, value.trim()]).filter(([, value]) => value);
  if (cool.length) params.cool_down = Object.fromEntries(cool);
  if (sweep.kind === 'custom') {
    params.factors = Object.fromEntries(sweep.factors.filter((f) => f.values.trim()).map((f) => [
      f.field, f.values.split(',').map((v) => v.trim()).filter(Boolean),
    ]));
  }
  return params;
}
