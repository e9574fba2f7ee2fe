// Designer: the workload, a preset or a sweep, the estimate, and the engine's own checks inline.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  EngineError, useEngine, type HostInfo, type EngineInfoResult, type FieldProblem, type PresetInfo, type SweepEstimate, type SweepStarted,
  type TargetDevice,
} from '../api';
import { formatDuration, sizeInput } from '../lib/units';
import { ConfirmOverwrite, DevicePicker } from './DevicePicker';
import {
  FACTOR_CHOICES, MIXED_PATTERNS, formFromWorkload, initialSweep, parseTags, problemsByField, sweepParams, workloadInput,
  type SweepForm, type WorkloadForm,
} from './designer-form';

const CHECK_DELAY_MS = 250;

interface Props {
  info: EngineInfoResult;
  running: boolean;
  onStarted: (started: SweepStarted) => void;
}

export function Designer({ info, running, onStarted }: Props) {
  const engine = useEngine();
  const [form, setForm] = useState<WorkloadForm>(() => formFromWorkload(info.defaults));
  const [sweep, setSweep] = useState<SweepForm>(initialSweep);
  const [presets, setPresets] = useState<PresetInfo[]>([]);
  const [hosts, setHosts] = useState<HostInfo[]>([]);
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [estimate, setEstimate] = useState<SweepEstimate | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const [devices, setDevices] = useState<TargetDevice[]>([]);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    engine.call('presets.list', {}).then((r) => setPresets(r.presets), () => setPresets([]));
    engine.call('hosts.list', {}).then((r) => setHosts(r.hosts), () => setHosts([]));
    engine.call('devices.list', {}).then((r) => setDevices(r.devices), () => setDevices([]));
  }, [engine]);

  const params = useMemo(() => sweepParams(form, sweep), [form, sweep]);
  const tagProblem = parseTags(sweep.tags).problem;

  useEffect(() => {
    let current = true;
    const timer = setTimeout(async () => {
      const found: FieldProblem[] = [];
      const [checked, planned] = await Promise.allSettled([
        engine.call('workload.validate', { workload: workloadInput(form), check_target: sweep.hosts.length === 0 }),
        engine.call('sweep.estimate', params),
      ]);
      if (checked.status === 'fulfilled') found.push(...checked.value.problems);
      if (planned.status === 'rejected' && planned.reason instanceof EngineError) found.push(...planned.reason.problems);
      if (!current) return;
      setProblems(found);
      setEstimate(planned.status === 'fulfilled' ? planned.value : null);
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [engine, form, params, sweep.hosts.length]);

  const byField = problemsByField(tagProblem ? [...problems, tagProblem] : problems);
  const set = (name: keyof WorkloadForm) => (value: string | boolean) => setForm((f) => ({ ...f, [name]: value }));
  // On a block device the overwrite is confirmed in a dialog naming it, not by a checkbox.
  const device = estimate?.device ?? null;
  const overwrites = device !== null && estimate!.overwrite_bytes > 0 && !form.allow_overwrite;
  const blocking = [...byField.keys()].filter((name) => !(overwrites && name === 'allow_overwrite'));
  const blocked = blocking.length > 0 || running || starting;

  async function start(confirmed = false) {
    if (overwrites && !confirmed) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    setStarting(true);
    setStartError(null);
    try {
      onStarted(await engine.call('sweep.start', confirmed ? sweepParams({ ...form, allow_overwrite: true }, sweep) : params));
    } catch (error) {
      if (error instanceof EngineError && error.problems.length) setProblems(error.problems);
      setStartError(error instanceof Error ? error.message : String(error));
    } finally {
      setStarting(false);
    }
  }

  const field = (name: keyof WorkloadForm, label: string, control: ReactNode, hint?: string) => (
    <Field name={name} label={label} hint={hint ?? info.field_rules[name]?.allowed} messages={byField.get(name)}>{control}</Field>
  );
  const text = (name: keyof WorkloadForm, props: Record<string, string> = {}) => (
    <input id={`field-${name}`} value={String(form[name])} onChange={(e) => set(name)(e.target.value)}
      aria-invalid={byField.has(name)} aria-describedby={`help-${name}`} {...props} />
  );

  return (
    <section className="designer" aria-labelledby="designer-title">
      <h2 id="designer-title">Design a measurement</h2>
      <form onSubmit={(e) => { e.preventDefault(); if (!blocked) void start(); }}>
        <fieldset>
          <legend>Workload</legend>
          <div className="grid">
            {field('block_size_bytes', 'Access size', text('block_size_bytes', { list: 'sizes', inputMode: 'text' }), 'bytes per I/O, e.g. 4k, 16k, 128k, 1m')}
            {field('pattern', 'Pattern', (
              <select id="field-pattern" value={form.pattern} onChange={(e) => set('pattern')(e.target.value)} aria-describedby="help-pattern">
                <option value="randread">random read</option>
                <option value="randwrite">random write</option>
                <option value="randrw">random read/write mix</option>
                <option value="read">sequential read</option>
                <option value="write">sequential write</option>
                <option value="rw">sequential read/write mix</option>
              </select>
            ), 'random or sequential; the mixes take a read share')}
            {field('read_pct', 'Read/write mix (% reads)', text('read_pct', MIXED_PATTERNS.includes(form.pattern) ? { inputMode: 'numeric' } : { disabled: 'disabled' }),
              MIXED_PATTERNS.includes(form.pattern) ? '0 to 100 % reads' : 'fixed by the pattern; choose a read/write mix to set it')}
            {field('queue_depth', 'Queue depth', text('queue_depth', { inputMode: 'numeric' }), 'outstanding I/Os per job, 1 to 4096')}
            {field('numjobs', 'Jobs (numjobs)', text('numjobs', { inputMode: 'numeric' }), 'parallel processes, 1 to 256')}
            {field('runtime_s', 'Runtime', text('runtime_s'), 'measured time per point, e.g. 10s, 2m')}
            {field('ramp_s', 'Ramp (warm-up)', text('ramp_s'), 'not measured, e.g. 2s')}
            {field('size_bytes', 'Test size', text('size_bytes'), 'the test file or region, e.g. 256m, 1g')}
          </div>
          <datalist id="sizes">{['512', '4k', '16k', '64k', '128k', '1m', '4m'].map((s) => <option key={s} value={s} />)}</datalist>
        </fieldset>
        <fieldset>
          <legend>Where and how</legend>
          <div className="grid">
            {field('target', 'Target', text('target', { placeholder: info.default_target }),
              `a folder (a test file is created and removed), a file, or a block device; empty: ${info.default_target}`)}
            {field('engine', 'Engine', (
              <select id="field-engine" value={form.engine} onChange={(e) => set('engine')(e.target.value)} aria-describedby="help-engine">
                <option value="auto">auto</option>
                <option value="fio">fio</option>
                <option value="portable">portable</option>
              </select>
            ), engineHint(info, form.engine))}
          </div>
          {sweep.hosts.length === 0 && (
            <DevicePicker devices={devices} target={form.target.trim()}
              onPick={(d) => setForm((f) => ({ ...f, target: d.path, size_bytes: sizeInput(d.size_bytes), allow_overwrite: false }))} />
          )}
          {!device && (form.allow_overwrite || byField.has('allow_overwrite') || (sweep.hosts.length > 0 && sweep.remoteDevice.trim() !== '')) && (
            <Field name="allow_overwrite" label="" messages={byField.get('allow_overwrite')} hint="reads need no confirmation; a mounted device is never written">
              <label className="check"><input id="field-allow_overwrite" type="checkbox" checked={form.allow_overwrite}
                onChange={(e) => set('allow_overwrite')(e.target.checked)} /> Allow writes to this target — destroys its contents</label>
            </Field>
          )}
          <Field name="direct" label="" messages={byField.get('direct')} hint="leave unticked for device numbers">
            <label className="check"><input id="field-direct" type="checkbox" checked={!form.direct}
              onChange={(e) => set('direct')(!e.target.checked)} /> Measure through the page cache (buffered; not device numbers)</label>
          </Field>
        </fieldset>
        <HostPicker hosts={hosts} sweep={sweep} setSweep={setSweep} byField={byField} />
        <SweepBuilder sweep={sweep} setSweep={setSweep} presets={presets} byField={byField} />
        <div className="start-row">
          <EstimateLine estimate={estimate} />
          {estimate?.region && <p className="hint" data-testid="device-region">{estimate.region}</p>}
          <button type="submit" className="primary" disabled={blocked} aria-describedby="start-help">{starting ? 'Starting…' : 'Start'}</button>
          <span id="start-help" className="hint">
            {running ? 'a sweep is running: cancel it or wait' : blocking.length ? 'fix the highlighted fields to start'
              : overwrites ? 'Start asks you to confirm the overwrite' : ''}
          </span>
        </div>
        {confirming && estimate && device && (
          <ConfirmOverwrite estimate={estimate} device={device} onConfirm={() => void start(true)} onCancel={() => setConfirming(false)} />
        )}
        {startError && <p role="alert" className="error">Could not start: {startError}</p>}
        {estimate && estimate.points.length > 1 && (
          <details className="points">
            <summary>{estimate.points.length} points{estimate.repeats > 1 ? ` × ${estimate.repeats} repeats` : ''}</summary>
            <ol>{estimate.points.map((p, i) => <li key={i}>{p.label}</li>)}</ol>
          </details>
        )}
      </form>
    </section>
  );
}

function engineHint(info: EngineInfoResult, choice: string): string {
  if (choice === 'portable') return info.portable_available ? 'the portable engine' : `unavailable: ${info.portable_reason}`;
  if (info.fio_path) return `${choice === 'auto' ? 'auto chooses fio: ' : ''}${info.fio_version} at ${info.fio_path}`;
  if (choice === 'fio') return 'fio is not installed: apt install fio, brew install fio or winget install fio';
  return info.portable_available ? 'auto chooses the portable engine: fio is not installed'
    : 'neither fio nor the portable engine is available: install fio (apt/brew/winget install fio)';
}

function Field(props: { name: string; label: string; hint?: string; messages?: string[]; children: ReactNode }) {
  return (
    <div className={`field${props.messages ? ' invalid' : ''}`}>
      {props.label && <label htmlFor={`field-${props.name}`}>{props.label}</label>}
      {props.children}
      {props.messages?.map((m) => <p key={m} className="problem" role="alert" data-field={props.name}>{m}</p>)}
      {props.hint && <p id={`help-${props.name}`} className="hint">{props.hint}</p>}
    </div>
  );
}

function EstimateLine({ estimate }: { estimate: SweepEstimate | null }) {
  if (!estimate) return <p className="estimate" aria-live="polite">Estimated duration: –</p>;
  return (
    <p className="estimate" aria-live="polite" data-testid="estimate">
      {estimate.total_points} point{estimate.total_points === 1 ? '' : 's'}, estimated <strong>{formatDuration(estimate.estimated_s)}</strong>
    </p>
  );
}

function HostPicker({ hosts, sweep, setSweep, byField }: { hosts: HostInfo[]; byField: Map<string, string[]> } & Pick<SweepProps, 'sweep' | 'setSweep'>) {
  if (hosts.length === 0) return null;
  const update = (patch: Partial<SweepForm>) => setSweep((s) => ({ ...s, ...patch }));
  const messages = ['host', 'hosts', 'rbd', 'remote_dirs'].flatMap((f) => byField.get(f) ?? []);
  return (
    <fieldset>
      <legend>Run on</legend>
      <p className="hint">Tick hosts to run on all of them at once (synchronised start, per-host and aggregate results); none ticked: this machine.</p>
      <div className="segmented" role="group" aria-label="Hosts">
        {hosts.map((h) => (
          <label key={h.name} className="check">
            <input type="checkbox" checked={sweep.hosts.includes(h.name)}
              onChange={(e) => update({ hosts: e.target.checked ? [...sweep.hosts, h.name] : sweep.hosts.filter((x) => x !== h.name) })} />
            {h.name}
          </label>
        ))}
      </div>
      {sweep.hosts.length > 0 && (
        <div className="grid">
          <div className="field">
            <label htmlFor="field-remote-dir">Folder on each host</label>
            <input id="field-remote-dir" value={sweep.remoteDir} placeholder="the engine's remote scratch folder" onChange={(e) => update({ remoteDir: e.target.value })} />
            <p className="hint">on the SSD under test; the test file is created and removed there</p>
          </div>
          <div className="field">
            <label htmlFor="field-remote-device">Block device on each host (optional)</label>
            <input id="field-remote-device" value={sweep.remoteDevice} placeholder="/dev/nvme1n1" onChange={(e) => update({ remoteDevice: e.target.value })} />
            <p className="hint">measured in place of a test file, over the test size; a write needs the overwrite box ticked, and a device in use is never written</p>
          </div>
          <div className="field">
            <label htmlFor="field-rbd">Ceph RBD image (optional)</label>
            <input id="field-rbd" value={sweep.rbd} placeholder="rbd/img-{host}" onChange={(e) => update({ rbd: e.target.value })} />
            <p className="hint">POOL/IMAGE through fio's rbd engine; {'{host}'} gives each host its own image</p>
          </div>
        </div>
      )}
      {messages.map((m) => <p key={m} className="problem" role="alert">{m}</p>)}
    </fieldset>
  );
}

interface SweepProps {
  sweep: SweepForm;
  setSweep: (update: (s: SweepForm) => SweepForm) => void;
  presets: PresetInfo[];
  byField: Map<string, string[]>;
}

function SweepBuilder({ sweep, setSweep, presets, byField }: SweepProps) {
  const update = (patch: Partial<SweepForm>) => setSweep((s) => ({ ...s, ...patch }));
  const sweepProblems = ['preset', 'vary', 'repeat', 'repeats', 'tags', ...sweep.factors.map((f) => f.field)]
    .flatMap((f) => (f === 'tags' || sweep.kind !== 'single' ? byField.get(f) ?? [] : []));
  return (
    <fieldset>
      <legend>Sweep</legend>
      <div className="segmented" role="radiogroup" aria-label="What to run">
        {(['single', 'preset', 'custom'] as const).map((kind) => (
          <label key={kind} className="check">
            <input type="radio" name="sweep-kind" value={kind} checked={sweep.kind === kind} onChange={() => update({ kind })} />
            {{ single: 'this workload once', preset: 'a preset', custom: 'vary factors' }[kind]}
          </label>
        ))}
      </div>
      {sweep.kind === 'preset' && (
        <div className="field">
          <label htmlFor="field-preset">Preset</label>
          <select id="field-preset" value={sweep.preset} onChange={(e) => update({ preset: e.target.value })}>
            {presets.map((p) => <option key={p.name} value={p.name}>{p.name} ({p.points} points)</option>)}
          </select>
          <p className="hint">{presets.find((p) => p.name === sweep.preset)?.description}; runtime, ramp, size and target come from above</p>
        </div>
      )}
      {sweep.kind === 'custom' && (
        <div className="factors">
          {sweep.factors.map((row, i) => (
            <div key={i} className="factor-row">
              <label htmlFor={`factor-${i}`} className="sr-only">factor {i + 1}</label>
              <select id={`factor-${i}`} value={row.field} onChange={(e) => update({ factors: sweep.factors.map((f, j) => j === i ? { ...f, field: e.target.value } : f) })}>
                {FACTOR_CHOICES.map((c) => <option key={c.field} value={c.field}>{c.label}</option>)}
              </select>
              <label htmlFor={`factor-values-${i}`} className="sr-only">values of factor {i + 1}</label>
              <input id={`factor-values-${i}`} value={row.values} placeholder={FACTOR_CHOICES.find((c) => c.field === row.field)?.example}
                onChange={(e) => update({ factors: sweep.factors.map((f, j) => j === i ? { ...f, values: e.target.value } : f) })} />
              <button type="button" onClick={() => update({ factors: sweep.factors.filter((_, j) => j !== i) })} aria-label={`remove factor ${i + 1}`}>Remove</button>
            </div>
          ))}
          <button type="button" onClick={() => update({ factors: [...sweep.factors, { field: 'queue_depth', values: '' }] })}>Add factor</button>
          <div className="segmented" role="radiogroup" aria-label="How to combine factors">
            <label className="check"><input type="radio" name="mode" checked={sweep.mode === 'one-at-a-time'} onChange={() => update({ mode: 'one-at-a-time' })} /> one factor at a time</label>
            <label className="check"><input type="radio" name="mode" checked={sweep.mode === 'grid'} onChange={() => update({ mode: 'grid' })} /> every combination (grid)</label>
          </div>
        </div>
      )}
      <div className="grid">
        <div className="field">
          <label htmlFor="field-repeats">Repeats</label>
          <input id="field-repeats" inputMode="numeric" value={sweep.repeats} onChange={(e) => update({ repeats: e.target.value })} />
          <p className="hint">each point measured this many times (mean ± 95 % CI)</p>
        </div>
        <div className="field">
          <label htmlFor="field-tags">Tags</label>
          <input id="field-tags" value={sweep.tags} placeholder="interface=NVMe nodes=3" onChange={(e) => update({ tags: e.target.value })} />
          <p className="hint">key=value, to find and compare runs later</p>
        </div>
      </div>
      {sweepProblems.map((m) => <p key={m} className="problem" role="alert">{m}</p>)}
    </fieldset>
  );
}
