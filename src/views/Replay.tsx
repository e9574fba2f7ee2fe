// Trace replay: a recorded block trace (fio iolog, blktrace, MSR-Cambridge CSV) played on a folder, file or
// device. What the trace holds is shown as soon as it is named (`trace.describe`), what the replay will do
// before it starts (`replay.estimate`); a device is written only once confirmed; the replay is drawn live
// beside the trace's recorded rate; then the engine's comparison, replayed beside recorded.
import { useEffect, useMemo, useState } from 'react';
import {
  useEngine, useEngineQuery, type HostInfo, type ReplayEstimate, type ReplayInfo,
} from '../api';
import { formatBytes, formatDuration, sizeInput } from '../lib/units';
import { useSettled } from '../lib/use-settled';
import { useKept } from '../state/kept';
import { useTestKind, type KindView } from '../state/test-kind';
import { DevicePicker, useDevices, useOverwriteConsent } from './DevicePicker';
import { SelectField, TextField, problemsByField, unplaced, useFieldRules } from './Field';
import { INITIAL_REPLAY, REPLAY_FIELD, replayRequest, type ReplayForm } from './replay-form';
import { ReplayHosts } from './ReplayHosts';
import { ReplayLive, replayLive, type ReplayLiveState } from './ReplayLive';
import { ReplayReport } from './ReplayReport';
import { TraceSummaryPanel } from './TraceSummaryPanel';

const CHECK_DELAY_MS = 300;
const NO_REPLAYS: ReplayInfo[] = [];
const CONSENT = 'allow_overwrite';
const FORMATS = [{ value: 'auto', label: 'told by its content' }, { value: 'fio-iolog-v2', label: 'fio iolog v2' },
  { value: 'fio-iolog-v3', label: 'fio iolog v3' }, { value: 'blktrace', label: 'blktrace (blkparse)' },
  { value: 'msr-csv', label: 'MSR-Cambridge CSV' }];
const TIMINGS = [{ value: 'as-recorded', label: 'as recorded' }, { value: 'fastest', label: 'as fast as possible' }];
const MAPPINGS = [{ value: 'exact', label: 'exact (refuse a larger trace)' },
  { value: 'wrap', label: 'wrap (modulo the target)' }, { value: 'scale', label: 'scale (in proportion)' }];

/** A replay as this view follows it: each second beside the recorded rate; the comparison once it ends. */
const REPLAY_VIEW: KindView<'replay', ReplayLiveState> = {
  progress: replayLive,
  resumed: () => replayLive(null, null),
  reread: ['replay_finished'],
  consent: CONSENT,
};

export function Replay({ busy }: { busy: boolean }) {
  const engine = useEngine();
  const rules = useFieldRules();
  const [form, setForm] = useKept<ReplayForm>('replay', INITIAL_REPLAY);
  const devices = useDevices();
  const [hosts, setHosts] = useState<HostInfo[]>([]);
  const request = useMemo(() => replayRequest(form), [form]);
  const traceAsked = useSettled(request ? { trace: request.trace, format: request.format ?? null } : null, CHECK_DELAY_MS);
  const described = useEngineQuery('trace.describe', traceAsked);
  const replay = useTestKind('replay', request, REPLAY_VIEW);
  const { estimate, progress: live, shown } = replay;
  const problems = [...replay.problems,
    ...described.problems.filter((p) => !replay.problems.some((q) => q.message === p.message))];

  useEffect(() => {
    engine.call('hosts.list', {}).then((r) => setHosts(r.hosts), () => setHosts([]));
  }, [engine]);
  const onHosts = form.hosts.length > 0;

  const byField = problemsByField(problems, REPLAY_FIELD);
  const others = unplaced(problems, [...Object.keys(form), ...Object.keys(REPLAY_FIELD)]);
  const { running } = replay;
  const { device, blocking, start, dialog } = useOverwriteConsent(estimate, form.allow_overwrite, problems,
    async (confirmed) => {
      const asked = replayRequest(form, confirmed || form.allow_overwrite);
      if (asked) await replay.start(asked);
    }, CONSENT);
  const blocked = busy || running || blocking.length > 0 || estimate === null;
  type TextName = 'trace' | 'disks' | 'trace_hosts' | 'start_s' | 'end_s' | 'lanes' | 'target' | 'size_bytes' | 'repeats';
  const set = (name: keyof ReplayForm) => (value: string) => setForm((f) => ({ ...f, [name]: value }));
  const text = (name: TextName, label: string, hint: string, placeholder?: string) => (
    <TextField name={name} id={`replay-${name}`} label={label} hint={hint} placeholder={placeholder}
      value={form[name]} onChange={set(name)} messages={byField.get(name)} />
  );
  const choose = (name: 'format' | 'timing' | 'mapping' | 'engine', label: string,
    choices: { value: string; label: string }[], hint?: string) => (
    <SelectField name={name} id={`replay-${name}`} label={label} value={form[name]} onChange={set(name)}
      messages={byField.get(name)} choices={choices} hint={hint} />
  );


  const resumable = shown !== null && shown.status !== 'done' && shown.status !== 'running' && !running && !busy;

  return (
    <section aria-labelledby="replay-title" className="replay">
      <h2 id="replay-title">Trace replay</h2>
      <p className="hint">Plays a block trace recorded on a real system (fio iolog, blktrace, MSR-Cambridge CSV) on
        a folder, file or device, and compares the replay with the trace&apos;s own latency and rate.</p>
      <form className="designer" onSubmit={(e) => { e.preventDefault(); void start(); }}>
        <fieldset>
          <legend>The trace</legend>
          <div className="grid">
            {text('trace', 'Trace file', 'a path on the engine\'s machine; the whole file is read and checked',
              '/data/traces/hm_1.csv.gz')}
            {choose('format', 'Trace format', FORMATS)}
            {text('disks', 'Disks', 'only these disks of the trace, comma-separated (blank: all)')}
            {text('trace_hosts', 'Recording hosts', 'only these hosts (MSR\'s Hostname; blank: all)')}
            {text('start_s', 'From (s)', 'the window\'s start, seconds into the trace (blank: its start)')}
            {text('end_s', 'To (s)', 'the window\'s end (blank: the trace\'s end)')}
          </div>
        </fieldset>
        {described.data && <TraceSummaryPanel summary={described.data} title="What the trace holds" />}
        <fieldset>
          <legend>How and where</legend>
          <div className="grid">
            {choose('timing', 'Timing', TIMINGS, 'as recorded keeps each I/O\'s time; as fast as possible keeps '
              + 'their order')}
            {text('lanes', 'Queue depth', 'I/Os in flight at most (each lane issues one at a time)')}
            {choose('mapping', 'Offsets', MAPPINGS, 'a trace reaching past the target')}
            {!onHosts && text('target', 'Replay target', 'a folder (a test file as large as the trace\'s region), a '
              + 'file or a whole block device', 'default scratch folder')}
            {!onHosts && <DevicePicker devices={devices} target={form.target}
              onPick={(d) => setForm((f) => ({ ...f, target: d.path, size_bytes: sizeInput(d.size_bytes), allow_overwrite: false }))} />}
            {text('size_bytes', 'Test file size', 'a folder\'s test file (blank: the trace\'s region)')}
            {text('repeats', 'Repeats', 'play the trace this many times (two targets\' repeats compare with a '
              + 'Welch verdict)')}
            {!onHosts && choose('engine', 'Replay engine', [...(rules.engine?.choices ?? [{ value: 'auto', label: 'auto' }])],
              'fio where it is installed (3.31 or newer), else the portable engine\'s compiled loop')}
          </div>
          {!device && (form.allow_overwrite || byField.has(CONSENT) || (onHosts && form.remote_device.trim() !== '')) && (
            <label className="check">
              <input id="replay-allow_overwrite" type="checkbox" checked={form.allow_overwrite}
                onChange={(e) => setForm((f) => ({ ...f, allow_overwrite: e.target.checked }))} />
              {' '}Allow the trace&apos;s writes to this file — destroys its contents
              {byField.get(CONSENT)?.map((m) => <span key={m} className="problem" role="alert"> {m}</span>)}
            </label>
          )}
        </fieldset>
        <ReplayHosts hosts={hosts} form={form} setForm={setForm} byField={byField} />
        {others.map((m) => <p key={m} className="problem" role="alert">{m}</p>)}
        <EstimateLine estimate={estimate} />
        <button type="submit" className="primary" disabled={blocked}>Start replay</button>
        {running && <button type="button" onClick={() => void replay.cancel()}>Cancel</button>}
        {replay.error && <p role="alert" className="error">{replay.error}</p>}
      </form>
      {dialog}
      {live && live.started && <ReplayLive state={live} />}
      <Earlier replays={replay.tests?.replays ?? NO_REPLAYS} shown={shown?.id ?? null}
        onOpen={(id) => void replay.open(id)} />
      {resumable && (
        <p className="hint"><button type="button" onClick={() => void replay.resume(shown.id)}>
          Resume replay #{shown.id}</button> runs its repeats not yet done.</p>
      )}
      {shown && <ReplayReport result={shown} />}
    </section>
  );
}

function Earlier({ replays, shown, onOpen }: { replays: ReplayInfo[]; shown: number | null; onOpen: (id: number) => void }) {
  if (replays.length === 0) return null;
  return (
    <div className="field inline">
      <label htmlFor="replay-open">Earlier replays</label>
      <select id="replay-open" value={shown ?? ''} onChange={(e) => { if (e.target.value) onOpen(Number(e.target.value)); }}>
        <option value="">—</option>
        {replays.map((r) => <option key={r.id} value={r.id}>#{r.id} {r.label} — {r.status}</option>)}
      </select>
    </div>
  );
}

function EstimateLine({ estimate }: { estimate: ReplayEstimate | null }) {
  if (!estimate) return <p className="estimate" aria-live="polite">Estimated: –</p>;
  const part = estimate.replayed.io_count === estimate.trace.io_count ? 'all'
    : `${estimate.replayed.io_count.toLocaleString('en-US')} of the`;
  const time = estimate.expected_s !== null ? `over ${formatDuration(estimate.expected_s)} as recorded`
    : 'as fast as the target allows';
  const each = estimate.hosts.length ? ' on each host' : '';
  return (
    <div className="estimate" aria-live="polite" data-testid="replay-estimate">
      <p>Replays <strong>{part} {estimate.trace.io_count.toLocaleString('en-US')} I/Os</strong> {time}, at most
        {' '}<strong>{estimate.lanes}</strong> in flight{each}{estimate.repeats > 1 ? `, ${estimate.repeats} times` : ''},
        on a region of {formatBytes(estimate.target_bytes)}
        {estimate.layout_bytes ? ` (a test file of ${formatBytes(estimate.layout_bytes)} laid out first${each})` : ''}.</p>
      {estimate.hosts_sentence && <p data-testid="replay-hosts-sentence"><strong>{estimate.hosts_sentence}</strong></p>}
      <p className="hint">Engine: {estimate.engine === 'none' ? 'none — ' : ''}{estimate.engine_reason}</p>
      {estimate.region && <p className="warning">{estimate.region}</p>}
      {estimate.notes.map((n) => <p key={n} className="hint">{n}</p>)}
    </div>
  );
}
