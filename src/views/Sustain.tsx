// Sustained writes: where a drive's write speed falls (a cache filling up), how far, and how fast
// it comes back after idle time. The form says what the engine will write, for how long and what it
// costs the drive's rated endurance before anything starts; a device is written only once
// confirmed; the fill is drawn live against the bytes written; then the engine's phases, verdict
// and recovery.
import { useMemo } from 'react';
import {
  type SustainEstimate, type SustainInfo, type TargetDevice,
} from '../api';
import { formatBytes, formatDuration, sizeInput } from '../lib/units';
import { useKept } from '../state/kept';
import { useTestKind, type KindView } from '../state/test-kind';
import { DevicePicker, useDevices, useOverwriteConsent } from './DevicePicker';
import { Field, SelectField, TextField, problemsByField, unplaced, useFieldRules } from './Field';
import { SustainProgress, sustainProgress, type SustainProgressState } from './SustainProgress';
import { SustainReport } from './SustainReport';
import { INITIAL_SUSTAIN, SUSTAIN_FIELD, sustainRequest, type SustainForm } from './sustain-form';

const NO_TESTS: SustainInfo[] = [];
const PATTERNS = [{ value: 'write', label: 'sequential' }, { value: 'randwrite', label: 'random' }];
const CONSENT = 'allow_overwrite';

/** A sustained-write test as this view follows it: the fill from its events, the engine's answer
 * read again as each write ends (the verdict exists once the fill is done), also after a reload. */
const SUSTAIN_VIEW: KindView<'sustain', SustainProgressState> = {
  progress: sustainProgress,
  resumed: (s) => ({ ...sustainProgress(null, null), sustain_id: s.sustain_id }),
  reread: ['sustain_step_done', 'sustain_finished'],
  readWhileRunning: true,
  consent: CONSENT,
};

export function Sustain({ busy }: { busy: boolean }) {
  const rules = useFieldRules();
  const [form, setForm] = useKept<SustainForm>('sustain', INITIAL_SUSTAIN);
  const devices = useDevices();
  const request = useMemo(() => sustainRequest(form), [form]);
  const sustain = useTestKind('sustain', request, SUSTAIN_VIEW);
  const { estimate, problems, progress, shown, running } = sustain;

  const byField = problemsByField(problems, SUSTAIN_FIELD);
  const others = unplaced(problems, [...Object.keys(form), ...Object.keys(SUSTAIN_FIELD)]);
  // Only consent is asked in the dialog; every other problem blocks the start.
  const { device, needsConfirm, blocking, start, dialog } = useOverwriteConsent(estimate, form.allow_overwrite,
    problems, (confirmed) => sustain.start(sustainRequest(form, confirmed || form.allow_overwrite)), CONSENT);
  const blocked = busy || running || blocking.length > 0 || estimate === null;
  type TextName = Exclude<keyof SustainForm, 'pattern' | 'engine' | 'allow_overwrite'>;
  const set = (name: TextName | 'pattern' | 'engine') => (value: string) =>
    setForm((f) => ({ ...f, [name]: value }));
  const text = (name: TextName, label: string, hint: string, placeholder?: string) => (
    <TextField name={name} id={`sustain-${name}`} label={label} hint={hint}
      placeholder={placeholder} value={form[name]} onChange={set(name)}
      messages={byField.get(name)} />
  );
  const pick = (d: TargetDevice) => setForm((f) => ({
    ...f, target: d.path, size_bytes: sizeInput(d.size_bytes), allow_overwrite: false,
  }));

  const resumable = shown !== null && shown.status !== 'done' && shown.status !== 'running'
    && !running && !busy;

  return (
    <section aria-labelledby="sustain-title" className="sustain">
      <h2 id="sustain-title">Sustained writes</h2>
      <p className="hint">Writes far past a drive&apos;s cache and logs the speed each second: the
        engine finds where it falls (change points, not a threshold), how far, and how much comes
        back after idle time. A short write measures only the cache.</p>
      <form className="designer" onSubmit={(e) => { e.preventDefault(); void start(); }}>
        <fieldset>
          <legend>Where</legend>
          <div className="grid">
            {text('target', 'Sustain target', 'a folder (a test file bounded by its free space), a '
              + 'file, or a whole block device', 'default scratch folder')}
            <DevicePicker devices={devices} target={form.target} onPick={pick} />
            {text('size_bytes', 'Region', 'the test file or device region (blank: the free space '
              + 'less a margin, or the whole device)')}
            {!device && !sustain.asking && (form.allow_overwrite || byField.has(CONSENT)) && (
              <ConsentField checked={form.allow_overwrite} messages={byField.get(CONSENT)}
                onChange={(allow) => setForm((f) => ({ ...f, allow_overwrite: allow }))} />
            )}
          </div>
        </fieldset>
        <fieldset>
          <legend>What</legend>
          <div className="grid">
            <SelectField name="pattern" id="sustain-pattern" label="Sustain pattern"
              value={form.pattern} onChange={set('pattern')} messages={byField.get('pattern')}
              choices={PATTERNS} hint="reviewers fill with large sequential writes" />
            {text('block_size_bytes', 'Sustain access size', 'bytes per write, e.g. 1m')}
            {text('queue_depth', 'Sustain queue depth', 'outstanding writes, e.g. 8')}
            {text('write_bytes', 'Amount to write', 'the fill, e.g. 64g (blank: the region once)')}
            {text('idle_s', 'Idle intervals', 'idle before each recovery write, e.g. '
              + '10s,30s,60s,5m ("none": the fill only)')}
            {text('recovery_bytes', 'Recovery write',
              'each write after idle time (blank: 1.5 × the cache found)')}
            <SelectField name="engine" id="sustain-engine" label="Sustain engine"
              value={form.engine} onChange={set('engine')} messages={byField.get('engine')}
              choices={rules.engine?.choices ?? [{ value: 'auto', label: 'auto' }]} />
          </div>
        </fieldset>
        {others.map((m) => <p key={m} className="problem" role="alert">{m}</p>)}
        {needsConfirm && <p className="hint">Start asks you to confirm the overwrite.</p>}
        <EstimateLine estimate={estimate} />
        <div className="start-row">
          {estimate?.fill_words && <p className="hint" data-testid="sustain-fill-words">{estimate.fill_words}</p>}
          <button type="submit" className="primary" disabled={blocked}>Start sustained writes</button>
        </div>
        {running && (
          <button type="button" onClick={() => void sustain.cancel()}>
            Cancel
          </button>
        )}
        {sustain.error && <p role="alert" className="error">{sustain.error}</p>}
      </form>
      {dialog}
      {progress && <SustainProgress state={progress} />}
      <EarlierTests tests={sustain.tests?.tests ?? NO_TESTS} shown={shown?.id ?? null}
        onOpen={(id) => void sustain.open(id)} />
      {resumable && (
        <p className="hint">
          {/* continues a test that stopped: the recovery writes not yet done (a cut fill is run again) */}
          <button type="button" onClick={() => void sustain.resume(shown.id)}>Resume test #{shown.id}</button>
          {shown.test_file && <>
            {' '}This test&apos;s file is kept until the test is done, for the fill to go on: {shown.test_file}
            {' '}({formatBytes(shown.test_file_bytes)}); delete it to give the space back instead.</>}
        </p>
      )}
      {shown && <SustainReport result={shown} />}
    </section>
  );
}

interface ConsentProps { checked: boolean; messages?: string[]; onChange: (allow: boolean) => void }

/** Consent to write into a file that is not ssdprof's own test file (a device gets a dialog). */
function ConsentField({ checked, messages, onChange }: ConsentProps) {
  return (
    <Field name={CONSENT} label="" messages={messages}
      hint="a file that is not ssdprof's own test file">
      <label className="check">
        <input id="field-allow_overwrite" type="checkbox" checked={checked}
          onChange={(e) => onChange(e.target.checked)} />
        {' '}Allow writes to this file — destroys its contents
      </label>
    </Field>
  );
}

interface EarlierProps { tests: SustainInfo[]; shown: number | null; onOpen: (id: number) => void }

function EarlierTests({ tests, shown, onOpen }: EarlierProps) {
  if (tests.length === 0) return null;
  const found = (t: SustainInfo) =>
    (t.cache_bytes !== null ? `cache ${formatBytes(t.cache_bytes)}` : t.verdict.replace('_', ' '));
  return (
    <div className="field inline">
      <label htmlFor="sustain-open">Earlier tests</label>
      <select id="sustain-open" value={shown ?? ''}
        onChange={(e) => { if (e.target.value) onOpen(Number(e.target.value)); }}>
        <option value="">—</option>
        {tests.map((t) => (
          <option key={t.id} value={t.id}>
            #{t.id} {t.name} — {t.status}, {found(t)}, {t.recovery_done} of {t.recovery_total}
            {' '}recovery writes
          </option>
        ))}
      </select>
    </div>
  );
}

function EstimateLine({ estimate }: { estimate: SustainEstimate | null }) {
  if (!estimate) return <p className="estimate" aria-live="polite">Estimated: –</p>;
  const idle = estimate.parameters.idle_s;
  const about = estimate.recovery_bytes_auto ? 'about ' : '';
  const each = `${about}${formatBytes(estimate.recovery_bytes_each)}`;
  const recovery = idle.length === 0 ? ''
    : `, then ${idle.length} recovery write${idle.length === 1 ? '' : 's'} of ${each} after `
      + `${idle.map(formatDuration).join(', ')} idle`;
  return (
    <div className="estimate" aria-live="polite" data-testid="sustain-estimate">
      <p>{estimate.label}: the fill writes <strong>{formatBytes(estimate.write_bytes)}</strong>
        {recovery}: <strong data-testid="sustain-total">{formatBytes(estimate.total_bytes)}</strong>
        {' '}in all, about <strong data-testid="sustain-time">{formatDuration(estimate.estimated_s)}
        </strong> ({formatDuration(estimate.idle_total_s)} of it idle).</p>
      <p data-testid="sustain-wear">Wear: {estimate.wear.text}</p>
      {estimate.free_bytes !== null && (
        <p className="hint">
          Free space on the target&apos;s filesystem: {formatBytes(estimate.free_bytes)}.
        </p>
      )}
      {estimate.region && <p className="warning">{estimate.region}</p>}
      {estimate.too_short && <p className="warning" role="status" data-testid="sustain-too-short">{estimate.too_short}</p>}
      {estimate.notes.map((n) => <p key={n} className="hint">{n}</p>)}
    </div>
  );
}
