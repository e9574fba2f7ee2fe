// The most IOPS within a latency target: the engine searches queue depth (its own bisection over
// measured runs) for the depth with the most IOPS whose total latency at a percentile stays within the
// target, on the Curves view's workload. The form is checked by the engine as it is typed
// (`slo.check`): every bad field named beside it at once, Start waiting until none is. Shown here: the
// engine's answer in its words, every depth tried in order (the answer and the deepest depth within
// the target marked), and a PDF page.
import { useEffect, useMemo, useState } from 'react';
import {
  EngineError, useEngine, useEngineQuery, type FieldProblem, type SloSummary, type SweepRequest, type SweepStarted,
} from '../api';
import { formatDuration, formatIops } from '../lib/units';
import { useSettled } from '../lib/use-settled';
import { saveReport } from '../lib/save-report';
import { TextField, problemsByField, unplaced } from './Field';
import { useStored } from './use-stored';
import { useKept } from '../state/kept';

interface Form {
  percentile: string;
  latency: string;
  max_qd: string;
}

const INITIAL: Form = { percentile: '99', latency: '1ms', max_qd: '256' };

/** µs to one decimal always, as every latency table gives them ('428.0' beside '456.7', not '428'). */
const us = (ns: number | null): string => (ns === null ? '–'
  : (ns / 1000).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }));

const CHECK_DELAY_MS = 250;

export function LatencyTarget({ sweep, onStarted }: { sweep: SweepRequest; onStarted: (sweep: SweepStarted) => void }) {
  const engine = useEngine();
  const [form, setForm] = useKept<Form>('latency-target', INITIAL);
  const request = useMemo(() => ({ sweep, percentile: form.percentile, latency: form.latency, max_qd: form.max_qd }),
    [sweep, form]);
  const checked = useEngineQuery('slo.check', useSettled(request, CHECK_DELAY_MS));
  // A refused start names its fields until the form changes; the check's own problems otherwise.
  const [refused, setRefused] = useState<{ request: typeof request; problems: FieldProblem[] } | null>(null);
  const problems = refused?.request === request ? refused.problems : checked.problems;
  const [message, setMessage] = useState('');
  const [shown, setShown] = useState<SloSummary | null>(null);
  const [exportNote, setExportNote] = useState<{ ok: boolean; text: string } | null>(null);
  const { stored, shownId, setShownId, version } = useStored('slo');

  useEffect(() => {
    if (shownId === null) return;
    engine.call('slo.get', { sweep_id: shownId }).then(setShown, () => undefined);
  }, [engine, shownId, version]);

  async function start(): Promise<void> {
    setMessage('');
    try {
      onStarted(await engine.call('slo.start', request));
    } catch (error) {
      if (error instanceof EngineError && error.problems.length) setRefused({ request, problems: error.problems });
      else setMessage(error instanceof Error ? error.message : String(error));
    }
  }

  async function exportPdf(search: SloSummary): Promise<void> {
    setExportNote(null);
    setExportNote(await saveReport(engine, () => engine.call('slo.report', { sweep_id: search.sweep_id ?? 0, title: null })));
  }

  const byField = problemsByField(problems, { latency_ns: 'latency' });
  const field = (name: keyof Form, label: string, hint: string) => (
    <TextField name={name} id={`slo-${name}`} label={label} hint={hint} value={form[name]} messages={byField.get(name)}
      onChange={(value) => setForm({ ...form, [name]: value })} />
  );

  return (
    <section className="latency-target" aria-label="Most IOPS within a latency target">
      <h3>Most IOPS within a latency target</h3>
      <p>On the workload above, the engine searches queue depth for the depth with the most IOPS whose
        total latency at the percentile stays within the target (the curve&apos;s queue depth is not used).</p>
      <div className="grid">
        {field('percentile', 'Target percentile', 'e.g. 99 or 99.9')}
        {field('latency', 'Latency target', 'e.g. 1ms, 500us')}
        {field('max_qd', 'Deepest queue tried', 'e.g. 256')}
      </div>
      <p className="estimate" aria-live="polite" data-testid="slo-estimate">
        {checked.data
          ? <>{checked.data.label}, QD1 up to QD{checked.data.max_qd}: <strong>{formatDuration(checked.data.point_s)}</strong> per depth tried (how many depths, the answers decide)</>
          : 'Estimated duration: –'}
      </p>
      <button type="button" disabled={problems.length > 0 || checked.data === null}
        onClick={() => { start().catch(() => undefined); }}>Find the most IOPS within the target</button>
      {unplaced(problems, ['percentile', 'latency_ns', 'max_qd']).map((m) => <p key={m} className="problem" role="alert">{m}</p>)}
      {message && <p role="alert">{message}</p>}
      {stored.length > 0 && (
        <label className="curve-pick">
          Search
          <select aria-label="Search" value={shownId ?? ''} onChange={(e) => setShownId(Number(e.target.value))}>
            {stored.map((c) => <option key={c.sweep_id} value={c.sweep_id}>{c.sweep_id}: {c.name} ({c.status})</option>)}
          </select>
        </label>
      )}
      {shown && (
        <>
          <p data-testid="slo-answer">{shown.text || `Search ${shown.sweep_id ?? ''}: ${shown.status}${shown.reason ? `: ${shown.reason}` : ''}`}</p>
          <SloTable search={shown} />
          <button type="button" onClick={() => { exportPdf(shown).catch(() => undefined); }}>Export search PDF</button>
          {exportNote && <p data-testid="slo-export-note" role={exportNote.ok ? 'status' : 'alert'}>{exportNote.text}</p>}
        </>
      )}
    </section>
  );
}

function SloTable({ search }: { search: SloSummary }) {
  // p99 gets a column of its own only when the target is at another percentile
  const extraP99 = search.percentile !== 99;
  const role = (qd: number): string => [
    search.best?.queue_depth === qd ? 'most IOPS' : '',
    search.deepest?.queue_depth === qd ? 'deepest within target' : '',
  ].filter(Boolean).join(', ');
  return (
    <figure className="slo-points">
      <figcaption>
        Depths tried, in order ({search.method}). Total latency, percentiles from histogram bins.
      </figcaption>
      <table className="data" aria-label="Depths tried">
        <thead>
          <tr>
            <th scope="col">tried</th><th scope="col">queue depth</th><th scope="col" className="num">IOPS</th>
            <th scope="col" className="num">p{search.percentile} µs</th>
            {extraP99 && <th scope="col" className="num">p99 µs</th>}
            <th scope="col">within target</th><th scope="col">answer</th>
          </tr>
        </thead>
        <tbody>
          {search.points.map((p, i) => (
            <tr key={p.queue_depth}
              className={p.queue_depth === search.best?.queue_depth ? 'best' : undefined}>
              <td>{i + 1}</td><td>QD{p.queue_depth}</td><td className="num">{formatIops(p.iops)}</td>
              <td className="num">{us(p.lat_ns_at_percentile)}</td>
              {extraP99 && <td className="num">{us(p.lat_ns_p99)}</td>}
              <td>{p.meets ? 'yes' : 'no'}</td><td>{role(p.queue_depth)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
