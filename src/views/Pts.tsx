// SNIA PTS tests: choose a test and a profile, see what it will do and how long it may take before
// starting (PTS defaults run for hours), follow its purge, preconditioning and rounds, then read
// the report pages. The engine plans, runs and judges steady state; this view only asks and draws.
import { useMemo } from 'react';
import type { PtsEstimate, PtsInfo } from '../api';
import { formatDuration } from '../lib/units';
import { useOverwriteConsent } from './DevicePicker';
import { Field, SelectField, TextField, problemsByField, unplaced, useFieldRules } from './Field';
import { PtsProgress, ptsProgress, type PtsProgressState } from './PtsProgress';
import { PtsReport } from './PtsReport';
import { FORM_FIELD, initialPtsForm, ptsRequest, type PtsForm } from './pts-form';
import { useKept } from '../state/kept';
import { useTestKind, type KindView } from '../state/test-kind';

const NO_TESTS: PtsInfo[] = [];

/** A PTS test as this view follows it: its rounds from its events; the report once it ends. */
const PTS_VIEW: KindView<'pts', PtsProgressState> = {
  progress: ptsProgress,
  resumed: (s) => ({ ...ptsProgress(null, null), pts_id: s.pts_id, test: s.test, round: s.round,
    max_rounds: s.max_rounds, phase: s.phase }),
  reread: ['pts_finished'],
};

export function Pts({ busy }: { busy: boolean }) {
  const rules = useFieldRules();
  const [form, setForm] = useKept<PtsForm>('pts', initialPtsForm);
  const request = useMemo(() => ptsRequest(form), [form]);
  const pts = useTestKind('pts', request, PTS_VIEW);
  const { estimate, problems, progress, shown, running } = pts;
  const tests = pts.tests?.tests ?? NO_TESTS;

  const byField = problemsByField(problems, FORM_FIELD);
  const others = unplaced(problems, [...Object.keys(FORM_FIELD), ...Object.keys(form)]);
  const { start, dialog } = useOverwriteConsent(estimate, false, problems, (confirmed) => pts.start(ptsRequest(form, confirmed)));
  const blocked = busy || running || problems.length > 0 || estimate === null;
  const set = <K extends keyof PtsForm>(name: K) => (value: PtsForm[K]) => setForm((f) => ({ ...f, [name]: value }));
  type TextName = 'target' | 'size' | 'roundTime' | 'maxRounds' | 'blockSizes' | 'mixes';
  const text = (name: TextName, label: string, hint: string, inputMode?: 'numeric') => (
    <TextField name={name} label={label} hint={hint} value={form[name]} onChange={set(name)} inputMode={inputMode}
      messages={byField.get(name)} />
  );
  type ListName = 'test' | 'profile' | 'precondition';
  /** A list the engine owns: its values and their names come from engine.info's field rules. */
  const choice = (name: ListName, label: string) => (
    <SelectField name={name} label={label} value={form[name]} messages={byField.get(name)}
      onChange={(v) => set(name)(v as PtsForm[ListName])} choices={rules[name]?.choices ?? []} />
  );


  return (
    <section aria-labelledby="pts-title" className="pts">
      <h2 id="pts-title">SNIA PTS tests</h2>
      <p className="hint">Steady state by rounds (the PTS rule: the last 5 rounds within 20 % of their mean, and a fitted line that moves at most
        10 % of it). The laptop profile is a scaled-down form for learning the method, and is not PTS-compliant.</p>
      <form className="designer" onSubmit={(e) => { e.preventDefault(); void start(); }}>
        {/* the designer's layout: the same fields, grids and hints in every form */}
        <fieldset>
          <legend>Test</legend>
          <div className="grid">
            {choice('test', 'Test')}
            {choice('profile', 'Profile')}
            {text('roundTime', 'Time per point', 'each point of a round (PTS 60 s; laptop 2 s)')}
            {text('maxRounds', 'Most rounds', 'PTS 25; steady state needs at least the window (5)', 'numeric')}
            {text('blockSizes', 'Access sizes', "comma-separated (blank: the test's)")}
            {text('mixes', 'Read % of each mix', "comma-separated, e.g. 100,65,0 (blank: the test's)")}
          </div>
        </fieldset>
        <fieldset>
          <legend>Where and how</legend>
          <div className="grid">
            {text('target', 'Target', 'a file or folder (blank: the default test file), or a whole block device')}
            {text('size', 'Test region', "e.g. 256m (blank: the profile's default, or the whole device)")}
            <SelectField name="engine" label="Engine" value={form.engine}
              onChange={(v) => set('engine')(v as PtsForm['engine'])} messages={byField.get('engine')}
              choices={rules.engine?.choices ?? [{ value: 'auto', label: 'auto' }]} />
            {choice('precondition', 'Preconditioning')}
            <Field name="purge" label="" messages={byField.get('purge')}
              hint={estimate?.purge_refusal || estimate?.purge || 'a block device: blkdiscard; a file: a new file'}>
              <label>
                <input id="field-purge" type="checkbox" checked={form.purge}
                  onChange={(e) => set('purge')(e.target.checked)} /> Purge first
              </label>
            </Field>
          </div>
        </fieldset>
        {others.map((m) => <p key={m} className="problem" role="alert">{m}</p>)}
        <PtsEstimateLine estimate={estimate} />
        <button type="submit" className="primary" disabled={blocked}>Start PTS test</button>
        {running && <button type="button" onClick={() => void pts.cancel()}>Cancel</button>}
        {pts.error && <p role="alert" className="error">{pts.error}</p>}
      </form>
      {dialog}
      {progress && <PtsProgress state={progress} />}
      {tests.length > 0 && (
        <div className="field inline">
          <label htmlFor="pts-open">Earlier tests</label>
          <select id="pts-open" value={shown?.id ?? ''} onChange={(e) => e.target.value && void pts.open(Number(e.target.value))}>
            <option value="">—</option>
            {tests.map((t) => (
              <option key={t.id} value={t.id}>#{t.id} {t.test} ({t.profile}) — {t.status}, {t.rounds} rounds, {t.attained ? 'steady state' : 'no steady state'}</option>
            ))}
          </select>
        </div>
      )}
      {shown && <PtsReport result={shown} />}
    </section>
  );
}

function PtsEstimateLine({ estimate }: { estimate: PtsEstimate | null }) {
  if (!estimate) return <p className="estimate" aria-live="polite">Estimated duration: –</p>;
  return (
    <div className="estimate" aria-live="polite" data-testid="pts-estimate">
      <p>{estimate.points_per_round} point{estimate.points_per_round === 1 ? '' : 's'} a round, {estimate.min_rounds}–{estimate.max_rounds} rounds:
        {' '}<strong>{formatDuration(estimate.estimated_min_s)} to {formatDuration(estimate.estimated_s)}</strong>.</p>
      <p>Tracking: {estimate.tracking}.</p>
      <p className={estimate.pts_compliant ? 'hint' : 'warning'} data-testid="pts-compliance">{estimate.compliance_note}</p>
      {estimate.notes.filter((n) => n !== estimate.compliance_note).map((n) => <p key={n} className="hint">{n}</p>)}
    </div>
  );
}
