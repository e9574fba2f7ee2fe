// The Curves form: the workload and the rates, checked by the engine as they are typed (`curve.check`),
// every bad field's message beside it at once, in the shared field style; Start waits until none is bad.
import { useMemo, useState } from 'react';
import {
  EngineError, useEngine, useEngineQuery, type FieldProblem, type SweepStarted,
} from '../api';
import { formatDuration } from '../lib/units';
import { useSettled } from '../lib/use-settled';
import { SelectField, TextField, problemsByField, unplaced, useFieldRules } from './Field';
import { CURVE_FIELD, curveRequest, type CurveForm as Form } from './curve-form';

const CHECK_DELAY_MS = 250;

interface Props {
  form: Form;
  setForm: (update: (form: Form) => Form) => void;
  onStarted: (sweep: SweepStarted) => void;
}

export function CurveForm({ form, setForm, onStarted }: Props) {
  const engine = useEngine();
  const rules = useFieldRules();
  const [message, setMessage] = useState('');
  const request = useMemo(() => curveRequest(form), [form]);
  const checked = useEngineQuery('curve.check', useSettled(request, CHECK_DELAY_MS));
  const check = checked.data;
  // A refused start names its fields until the form changes; the check's own problems otherwise.
  type Refusal = { request: typeof request; problems: FieldProblem[] };
  const [refused, setRefused] = useState<Refusal | null>(null);
  const problems = refused?.request === request ? refused.problems : checked.problems;

  async function start(): Promise<void> {
    setMessage('');
    try {
      onStarted(await engine.call('curve.start', request));
    } catch (error) {
      if (error instanceof EngineError && error.problems.length) {
        setRefused({ request, problems: error.problems });
      }
      else setMessage(error instanceof Error ? error.message : String(error));
    }
  }

  const byField = problemsByField(problems, CURVE_FIELD);
  const set = <K extends keyof Form>(name: K) => (value: string) => setForm((f) => ({ ...f, [name]: value as Form[K] }));
  const text = (name: keyof Form, label: string, hint: string, placeholder?: string) => (
    <TextField name={name} id={`curve-${name}`} label={label} hint={hint} placeholder={placeholder} value={form[name]}
      onChange={set(name)} messages={byField.get(name)} />
  );
  const choice = (name: 'pattern' | 'engine', label: string, hint: string) => (
    <SelectField name={name} id={`curve-${name}`} label={label} hint={hint} value={form[name]} onChange={set(name)}
      messages={byField.get(name)} choices={rules[name]?.choices ?? [{ value: form[name], label: form[name] }]} />
  );
  const others = unplaced(problems, [...Object.keys(form), ...Object.keys(CURVE_FIELD)]);

  return (
    <form className="designer curve-form" onSubmit={(e) => {
      e.preventDefault();
      if (problems.length === 0 && check !== null) start().catch(() => undefined);
    }}>
      <div className="grid">
        {text('target', 'Curve target', 'a folder, a file or a block device', 'default scratch folder')}
        {choice('pattern', 'Curve pattern', 'random or sequential; a mix reads half')}
        {text('block_size_bytes', 'Curve access size', 'bytes per I/O, e.g. 4k, 128k')}
        {text('queue_depth', 'Curve queue depth', 'outstanding I/Os at every rate, 1 to 4096')}
        {text('runtime_s', 'Curve runtime per point', 'measured time of each rate, e.g. 10s')}
        {text('ramp_s', 'Curve ramp', 'not measured, e.g. 2s')}
        {text('size_bytes', 'Curve test size', 'the test file or region, e.g. 256m')}
        {choice('engine', 'Curve engine', 'fio or the portable engine; auto takes fio where installed')}
        {text('points', 'Points (% of maximum)', 'offered rates as whole % of the measured maximum, e.g. 10,50,90')}
        {text('stop', 'Stop latency (p99)', 'stop once p99 passes this (blank: run every point)', 'e.g. 5ms')}
      </div>
      {others.map((m) => <p key={m} className="problem" role="alert">{m}</p>)}
      <div className="start-row">
        <p className="estimate" aria-live="polite" data-testid="curve-estimate">
          {check ? <>{check.label}: {check.points} points, at least <strong>{formatDuration(check.estimated_s)}</strong></> : 'Estimated duration: –'}
        </p>
        <button type="submit" className="primary" disabled={problems.length > 0 || check === null}>Start curve</button>
      </div>
      {message && <p role="alert" className="error">{message}</p>}
    </form>
  );
}
