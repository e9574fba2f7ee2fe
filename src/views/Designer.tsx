// Designer: the workload, a preset or a sweep, the estimate, and the engine's own checks inline.
import { useEffect, useMemo, useState } from 'react';
import {
  EngineError, useEngine, type HostInfo, type EngineInfoResult, type FieldProblem, type PresetInfo, type SweepEstimate, type SweepStarted,
  type TargetDevice,
} from '../api';
import { formatDuration, sizeInput } from '../lib/units';
import { CoolDownFields } from './CoolDownFields';
import { ConfirmOverwrite, DevicePicker } from './DevicePicker';
import { Field, SelectField, TextField, problemsByField } from './Field';
import { HostPicker, SweepBuilder } from './SweepBuilder';
import { useKept } from '../state/kept';
import {
  applies, formFromWorkload, initialSweep, sweepRequest, workloadInput,
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
  const [form, setForm] = useKept<WorkloadForm>('designer.workload', () => formFromWorkload(info.defaults));
  const [sweep, setSweep] = useKept<SweepForm>('designer.sweep', initialSweep);
  const [presets, setPresets] = useState<PresetInfo[]>([]);
  const [hosts, setHosts] = useState<HostInfo[]>([]);
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [estimate, setEstimate] = useState<SweepEstimate | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const [devices, setDevices] = useState<TargetDevice[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [listed, setListed] = useState(false);
  const [checkedFor, setCheckedFor] = useState<unknown>(null);

  useEffect(() => {
    void Promise.allSettled([
      engine.call('presets.list', {}).then((r) => setPresets(r.presets), () => setPresets([])),
      engine.call('hosts.list', {}).then((r) => setHosts(r.hosts), () => setHosts([])),
      engine.call('devices.list', {}).then((r) => setDevices(r.devices), () => setDevices([])),
    ]).then(() => setListed(true));
  }, [engine]);

  const rules = info.field_rules;
  const params = useMemo(() => sweepRequest(form, sweep, rules), [form, sweep, rules]);

  useEffect(() => {
    let current = true;
    const check = async () => {
      const found: FieldProblem[] = [];
      const [checked, planned] = await Promise.allSettled([
        engine.call('workload.validate', {
          workload: workloadInput(form, rules), check_target: sweep.hosts.length === 0,
        }),
        engine.call('sweep.estimate', params),
      ]);
      if (checked.status === 'fulfilled') found.push(...checked.value.problems);
      if (planned.status === 'rejected' && planned.reason instanceof EngineError) found.push(...planned.reason.problems);
      if (!current) return;
      setProblems(found);
      setEstimate(planned.status === 'fulfilled' ? planned.value : null);
      setCheckedFor(params);
    };
    const timer = setTimeout(() => void check(), CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [engine, form, params, rules, sweep.hosts.length]);

  const byField = problemsByField(problems);
  const set = (name: keyof WorkloadForm) => (value: string | boolean) => setForm((f) => ({ ...f, [name]: value }));
  // On a block device the overwrite is confirmed in a dialog naming it, not by a checkbox.
  const device = estimate?.device ?? null;
  const overwrites = device !== null && estimate!.overwrite_bytes > 0 && !form.allow_overwrite;
  const blocking = [...byField.keys()].filter((name) => !(overwrites && name === 'allow_overwrite'));
  const blocked = blocking.length > 0 || running || starting;
  // The lists have arrived and the engine has checked what is on screen: nothing above the
  // pointer is about to move (the e2e specs wait for this before they click).
  const settled = listed && checkedFor === params;

  async function start(confirmed = false) {
    if (overwrites && !confirmed) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    setStarting(true);
    setStartError(null);
    try {
      const overwrite = { ...form, allow_overwrite: true };
      const asked = confirmed ? sweepRequest(overwrite, sweep, rules) : params;
      onStarted(await engine.call('sweep.start', asked));
    } catch (error) {
      if (error instanceof EngineError && error.problems.length) setProblems(error.problems);
      setStartError(error instanceof Error ? error.message : String(error));
    } finally {
      setStarting(false);
    }
  }

  type TextName = Exclude<keyof WorkloadForm, 'allow_overwrite' | 'direct' | 'pattern' | 'engine'>;
  const text = (name: TextName, label: string, hint: string, props: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField name={name} label={label} hint={hint} value={form[name]} onChange={set(name)} messages={byField.get(name)} {...props} />
  );
  const choice = (name: 'pattern' | 'engine', label: string, hint: string) => (
    <SelectField name={name} label={label} hint={hint} value={form[name]} onChange={set(name)} messages={byField.get(name)}
      choices={info.field_rules[name]?.choices ?? []} />
  );
  const mixed = applies(rules, 'read_pct', form);

  return (
    <section className="designer" aria-labelledby="designer-title" data-settled={settled}>
      <h2 id="designer-title">Design a measurement</h2>
      <form onSubmit={(e) => { e.preventDefault(); if (!blocked) void start(); }}>
        <fieldset>
          <legend>Workload</legend>
          <div className="grid">
            {text('block_size_bytes', 'Access size', 'bytes per I/O, e.g. 4k, 16k, 128k, 1m', { list: 'sizes' })}
            {choice('pattern', 'Pattern', 'random or sequential; the mixes take a read share')}
            {text('read_pct', 'Read/write mix (% reads)', mixed ? '0 to 100 % reads' : 'fixed by the pattern; choose a read/write mix to set it',
              mixed ? { inputMode: 'numeric' } : { disabled: true })}
            {text('queue_depth', 'Queue depth', 'outstanding I/Os per job, 1 to 4096', { inputMode: 'numeric' })}
            {text('numjobs', 'Jobs (numjobs)', 'parallel processes, 1 to 256', { inputMode: 'numeric' })}
            {text('runtime_s', 'Runtime', 'measured time per point, e.g. 10s, 2m')}
            {text('ramp_s', 'Ramp (warm-up)', 'not measured, e.g. 2s')}
            {text('size_bytes', 'Test size', 'the test file or region, e.g. 256m, 1g')}
          </div>
          <datalist id="sizes">{['512', '4k', '16k', '64k', '128k', '1m', '4m'].map((s) => <option key={s} value={s} />)}</datalist>
        </fieldset>
        <fieldset>
          <legend>Where and how</legend>
          <div className="grid">
            {text('target', 'Target', `a folder (a test file is created and removed), a file, or a block device; empty: ${info.default_target}`,
              { placeholder: info.default_target })}
            {choice('engine', 'Engine', engineHint(info, form.engine))}
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
        <CoolDownFields sweep={sweep} setSweep={setSweep} byField={byField} />
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

function EstimateLine({ estimate }: { estimate: SweepEstimate | null }) {
  if (!estimate) return <p className="estimate" aria-live="polite">Estimated duration: –</p>;
  return (
    <p className="estimate" aria-live="polite" data-testid="estimate">
      {estimate.total_points} point{estimate.total_points === 1 ? '' : 's'}, estimated <strong>{formatDuration(estimate.estimated_s)}</strong>
      {estimate.cool_down && <span data-testid="cool-down-estimate">; {estimate.cool_down}</span>}
    </p>
  );
}
