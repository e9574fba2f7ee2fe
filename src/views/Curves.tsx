// Latency under offered load: start a curve (the engine finds the maximum, then offers Poisson rates at
// percentages of it), then draw latency against achieved IOPS with the offered rate as a guide, saturated
// points marked, an earlier curve and the spec sheet's rated figures (chosen and judged by the engine)
// overlaid, and the knee the engine named. Nothing is computed here but where a reference line spans the chart.
import { useEffect, useMemo, useState } from 'react';
import { useEngine, type CurveSummary, type SpecOutput, type SweepRequest, type SweepStarted } from '../api';
import { CurveForm } from './CurveForm';
import { INITIAL_CURVE, curveSweep, type CurveForm as Form } from './curve-form';
import { LatencyTarget } from './LatencyTarget';
import { OverallProgress } from './Live';
import type { LiveState } from '../state/live';
import { useStored } from './use-stored';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import { saveReport } from '../lib/save-report';
import { useKept } from '../state/kept';

const us = (ns: number | null | undefined): number | null => (ns === null || ns === undefined ? null : ns / 1000);

/** The curve's series: mean, p99 and p99.9 against achieved IOPS; p99 at the offered rate as the guide. */
export function curveSeries(curve: CurveSummary, earlier: CurveSummary | null): Series[] {
  const paced = curve.points.filter((p) => p.pct !== null);
  const series: Series[] = [
    { label: 'mean', points: paced.map((p) => ({ x: p.achieved_iops, y: us(p.lat_ns_mean) })) },
    { label: 'p99', points: paced.map((p) => ({ x: p.achieved_iops, y: us(p.lat_ns_p99) })) },
    { label: 'p99.9', points: paced.map((p) => ({ x: p.achieved_iops, y: us(p.lat_ns_p99_9) })) },
    { label: 'p99 at the offered rate (guide)', style: 'dashed', points: paced.map((p) => ({ x: p.offered_iops, y: us(p.lat_ns_p99) })) },
  ];
  // named in the legend only where a point saturated (an empty series' legend named nothing drawn)
  const saturated = paced.filter((p) => p.saturated).map((p) => ({ x: p.achieved_iops, y: us(p.lat_ns_p99) }));
  if (saturated.length) series.push({ label: 'saturated', style: 'points', points: saturated });
  if (earlier) {
    series.push({ label: `p99, curve ${earlier.sweep_id ?? ''} (earlier)`, style: 'dashed',
      points: earlier.points.filter((p) => p.pct !== null).map((p) => ({ x: p.achieved_iops, y: us(p.lat_ns_p99) })) });
  }
  return [...series, ...referenceLines(series, curve)];
}

/** The engine's rated figures as lines across the chart: rated IOPS upright, rated latency level. */
function referenceLines(series: Series[], curve: CurveSummary): Series[] {
  const references = curve.spec?.references ?? [];
  const xs = [...series.flatMap((s) => s.points.map((p) => p.x)), ...references.filter((r) => r.quantity === 'iops').map((r) => r.value)];
  const ys = [...series.flatMap((s) => s.points.map((p) => p.y)).filter((y): y is number => y !== null),
    ...references.filter((r) => r.quantity === 'latency').map((r) => r.value / 1000)];
  if (!xs.length || !ys.length) return [];
  const [xLow, xHigh, yLow, yHigh] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return references.map((r) => ({
    label: r.label, style: 'dashed' as const,
    points: r.quantity === 'iops' ? [{ x: r.value, y: yLow }, { x: r.value, y: yHigh }] : [{ x: xLow, y: r.value / 1000 }, { x: xHigh, y: r.value / 1000 }],
  }));
}

const AUTO = '';

/** Offered against achieved at each point, as the PDF tabulates them: where the drive kept up. */
function CurvePoints({ curve }: { curve: CurveSummary }) {
  return (
    <table className="data" data-testid="curve-points">
      <caption>
        The points of curve {curve.sweep_id}: offered and achieved IOPS; total latency, percentiles from
        histogram bins; saturated: achieved more than {curve.tolerance_pct} % short of offered
      </caption>
      <thead>
        <tr>
          <th scope="col">point</th>
          {['offered IOPS', 'achieved IOPS', 'mean µs', 'p99 µs', 'p99.9 µs'].map((h) => <th key={h} scope="col" className="num">{h}</th>)}
          <th scope="col">saturated</th>
        </tr>
      </thead>
      <tbody>
        {curve.points.map((p) => (
          <tr key={p.index} data-saturated={p.pct !== null && p.saturated ? 'yes' : 'no'}>
            <th scope="row">{p.pct === null ? 'full speed' : `${p.pct} %`}</th>
            <td className="num">{p.pct === null ? '–' : wholeIops(p.offered_iops)}</td>
            <td className="num">{wholeIops(p.achieved_iops)}</td>
            <td className="num">{formatUs(p.lat_ns_mean)}</td>
            <td className="num">{formatUs(p.lat_ns_p99)}</td>
            <td className="num">{formatUs(p.lat_ns_p99_9)}</td>
            <td>{p.pct === null ? 'max' : p.saturated ? 'yes' : 'no'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** IOPS in full, grouped by thousands, as the PDF's table gives them ('21,505'). */
function wholeIops(iops: number): string {
  return Math.round(iops).toLocaleString('en-US');
}

function formatUs(ns: number | null): string {
  return ns === null ? '–' : (ns / 1000).toFixed(1);
}

interface Props {
  onStarted: (sweep: SweepStarted) => void;
  /** The curve or search started from here, as it runs and once it ended; null for other sweeps. */
  live?: LiveState | null;
}

export function Curves({ onStarted, live = null }: Props) {
  const engine = useEngine();
  const [form, setForm] = useKept<Form>('curves', INITIAL_CURVE);
  const [shown, setShown] = useState<CurveSummary | null>(null);
  const [earlier, setEarlier] = useState<CurveSummary | null>(null);
  const [specs, setSpecs] = useState<SpecOutput[]>([]);
  const [specId, setSpecId] = useKept('curves-spec', AUTO);
  const [exportNote, setExportNote] = useState<{ ok: boolean; text: string } | null>(null);

  const { stored, shownId, setShownId, version } = useStored('curve');

  useEffect(() => {
    engine.call('specs.list', {}).then((r) => setSpecs(r.specs), () => setSpecs([]));
  }, [engine]);

  useEffect(() => {
    if (shownId === null) return;
    engine.call('curve.get', { sweep_id: shownId, spec_id: specId || null }).then(setShown, () => undefined);
  }, [engine, shownId, specId, version]);

  async function exportPdf(curve: CurveSummary): Promise<void> {
    setExportNote(null);
    setExportNote(await saveReport(engine, () => engine.call('curve.report', { sweep_id: curve.sweep_id ?? 0, spec_id: specId || null,
      compare_with: earlier?.sweep_id ? [earlier.sweep_id] : [], title: null })));
  }

  /** The workload the curve and the latency-target search share (the search varies queue depth itself). */
  const sweep = useMemo((): SweepRequest => curveSweep(form), [form]);

  async function overlay(id: string): Promise<void> {
    setEarlier(id ? await engine.call('curve.get', { sweep_id: Number(id) }) : null);
  }

  return (
    <section className="curves" aria-label="Latency under offered load">
      <h2>Latency under offered load</h2>
      <p>The engine measures the maximum at full speed, then offers fixed rates (Poisson arrivals) at each percentage of it.
        Latency is total latency, from each I/O&apos;s actual submission.</p>
      <CurveForm form={form} setForm={setForm} onStarted={onStarted} />
      {live && live.status !== 'idle' && (
        <div className="curve-run" data-testid="curve-run" aria-live="polite">
          <p>
            {live.sweep?.name ?? ''}
            {live.sweep?.sweep_id ? ` (sweep ${live.sweep.sweep_id})` : ''}{' '}
            <span className={`badge ${live.status}`}>{live.status}</span>
          </p>
          <OverallProgress state={live} />
        </div>
      )}
      {stored.length > 0 && (
        <div className="curve-pick">
          <label>
            Curve
            <select aria-label="Curve" value={shownId ?? ''} onChange={(e) => setShownId(Number(e.target.value))}>
              {stored.map((c) => <option key={c.sweep_id} value={c.sweep_id}>{c.sweep_id}: {c.name} ({c.status})</option>)}
            </select>
          </label>
          <label>
            Overlay an earlier curve
            <select aria-label="Overlay an earlier curve" value={earlier?.sweep_id ?? ''} onChange={(e) => { overlay(e.target.value).catch(() => undefined); }}>
              <option value="">none</option>
              {stored.filter((c) => c.sweep_id !== shown?.sweep_id).map((c) => <option key={c.sweep_id} value={c.sweep_id}>{c.sweep_id}: {c.name}</option>)}
            </select>
          </label>
          <label>
            Spec sheet
            <select aria-label="Curve spec sheet" value={specId} onChange={(e) => setSpecId(e.target.value)}>
              <option value={AUTO}>the drive&apos;s own (matched by model)</option>
              {specs.map((spec) => <option key={spec.id} value={spec.id}>{spec.vendor} {spec.model}</option>)}
            </select>
          </label>
        </div>
      )}
      {shown && (
        <>
          <p data-testid="curve-summary">
            {shown.label}: maximum {Math.round(shown.max_iops ?? 0).toLocaleString('en-US')} IOPS ({shown.engine}); saturated when achieved falls
            more than {shown.tolerance_pct} % short of offered
            {shown.stopped_at_pct !== null ? `; stopped at ${shown.stopped_at_pct} %: p99 passed the stop latency` : ''}
          </p>
          {shown.knee && <p data-testid="curve-knee"><strong>Knee:</strong> {shown.knee.text}</p>}
          {shown.knee?.saturation && (
            <p className="warning" role="status" data-testid="curve-saturation">
              <strong>Most points saturated:</strong> {shown.knee.saturation}
            </p>
          )}
          <ChartFigure id="latency-vs-offered-load" title="Total latency vs achieved IOPS (µs)" kind="line" xLabel="achieved IOPS"
            yLabel="µs" xLog yLog series={curveSeries(shown, earlier)} empty="the curve's fixed-rate points appear here as they finish" />
          <CurvePoints curve={shown} />
          {shown.spec && (
            <div className="curve-spec" data-testid="curve-spec">
              <p>Spec sheet: {shown.spec.spec_id ? `${shown.spec.title} (${shown.spec.how})` : shown.spec.how}</p>
              <ul>
                {shown.spec.references.map((r) => <li key={r.label}>{r.label}: drawn ({r.status}: {r.note})</li>)}
                {shown.spec.left_out.map((r) => <li key={r.label}>{r.label}: not drawn ({r.note})</li>)}
              </ul>
            </div>
          )}
          <button type="button" onClick={() => { exportPdf(shown).catch(() => undefined); }}>Export PDF</button>
          {exportNote && <p data-testid="curve-export-note" role={exportNote.ok ? 'status' : 'alert'}>{exportNote.text}</p>}
        </>
      )}
      <LatencyTarget sweep={sweep} onStarted={onStarted} />
    </section>
  );
}
