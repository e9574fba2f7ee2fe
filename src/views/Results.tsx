// Results: the curves a report needs, from stored runs, with spec figures and earlier runs
// overlaid; observations in plain words; % of spec; the comparison with earlier runs; one run in detail (distribution, time
// series, hosts); the table; the PDF report (made by the engine).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import { useEngine, type RunResult, type Spec } from '../api';
import { ComparePanel } from './ComparePanel';
import { HostResults } from './HostResults';
import { Observations } from './Observations';
import { AUTO, NONE, SpecPanel } from './SpecPanel';
import { groupRepeats, meanCi95, percentileCurve, seriesAlong, totals, workloadLabel, type FactorSeries } from '../lib/analysis';
import { formatSize } from '../lib/units';
import { ResultsTable } from './ResultsTable';

interface Props {
  title: string;
  runs: RunResult[];
  onDesign: () => void;
}

const us = (ns: number | null) => (ns === null ? null : ns / 1e3);

function along(groups: FactorSeries[], metric: (run: RunResult) => number | null, suffix = ''): Series[] {
  return groups.map((g) => ({
    label: `${g.label}${suffix}`,
    points: g.points.map((p) => {
      const values = p.runs.map(metric).filter((v): v is number => v !== null);
      const spread = meanCi95(values);
      return { x: p.x, y: values.length ? spread.mean : null, err: spread.n > 1 ? spread.ci95 : undefined };
    }),
  }));
}

const SPEC_METRIC: Record<string, string> = {
  randread: 'rand_read', randwrite: 'rand_write', read: 'seq_read', write: 'seq_write', randrw: 'rand_mixed',
};

const DEEP_QUEUE = 16;

/** As the engine judges fairness: the same outstanding I/Os, or both deep (16+) within a factor of two. */
function comparableDepth(rated: number, outstanding: number): boolean {
  return rated === outstanding || (Math.min(rated, outstanding) >= DEEP_QUEUE && outstanding / rated >= 0.5 && outstanding / rated <= 2);
}

/** The spec's rated IOPS at stated access sizes, for the patterns and queue depths among the runs: one reference point each. */
export function specPoints(spec: Spec | null, runs: RunResult[]): Series[] {
  if (!spec) return [];
  const metrics = new Set(runs.map((r) => SPEC_METRIC[r.workload.pattern]));
  const depths = runs.map((r) => r.engine.effective_queue_depth * r.workload.numjobs);
  return spec.figures
    .filter((f) => f.unit === 'IOPS' && f.block_size_bytes !== null && metrics.has(f.metric))
    .filter((f) => f.queue_depth === null || depths.some((d) => comparableDepth(f.queue_depth! * (f.threads ?? 1), d)))
    .map((f) => ({
      label: `spec: ${spec.model} ${f.metric.replace('_', ' ')} QD${f.queue_depth ?? '?'}${f.threads ? `×${f.threads}` : ''}`,
      points: [{ x: f.block_size_bytes!, y: f.value }],
    }));
}

/** Spec reference points, plus the runs themselves when no curve along access size carries them. */
function withSpec(bySize: FactorSeries[], runs: RunResult[], spec: Spec | null, iops: (r: RunResult) => number): Series[] {
  const reference = specPoints(spec, runs);
  if (!reference.length || bySize.length) return reference;
  return [{ label: 'measured', points: runs.map((r) => ({ x: r.workload.block_size_bytes, y: iops(r) })) }, ...reference];
}

const iops = (r: RunResult) => totals(r).iops;

/** Every series of the top charts; computed once per set of runs, not on each re-render. */
function chartSeries(runs: RunResult[], earlier: RunResult[], spec: Spec | null) {
  const earlierAlong = (factor: Parameters<typeof seriesAlong>[1], metric: (run: RunResult) => number | null, suffix = '') =>
    along(seriesAlong(earlier, factor), metric, ` (earlier)${suffix}`);
  const bySize = seriesAlong(runs, 'block_size_bytes');
  const byQd = seriesAlong(runs, 'queue_depth');
  const byMix = seriesAlong(runs, 'read_pct');
  const repeated = groupRepeats(runs);
  const earlierGroups = groupRepeats(earlier);
  const categories = [...new Set([...repeated, ...earlierGroups].map((g) => g.label))];
  const bars = (groups: typeof repeated, label: string) => ({
    label,
    points: categories.map((c, i) => {
      const group = groups.find((g) => g.label === c);
      const s = meanCi95(group ? group.runs.map(iops) : []);
      return { x: i, y: group ? s.mean : null, err: s.n > 1 ? s.ci95 : undefined };
    }),
  });
  return {
    bySizeSeries: [...along(bySize, iops), ...earlierAlong('block_size_bytes', iops), ...withSpec(bySize, runs, spec, iops)],
    byQdSeries: [...along(byQd, (r) => us(totals(r).main.lat_ns.mean), ' mean'), ...along(byQd, (r) => us(totals(r).main.lat_ns.p99), ' p99'),
      ...earlierAlong('queue_depth', (r) => us(totals(r).main.lat_ns.mean), ' mean')],
    curveSeries: byQd.flatMap((g) => (['p50', 'p99', 'p99_9'] as const).map((p) => ({
      label: `${g.label} ${p.replace('_', '.')}`,
      points: g.points.map((pt) => {
        const latencies = pt.runs.map((r) => us(totals(r).main.lat_ns[p])).filter((v): v is number => v !== null);
        return { x: meanCi95(pt.runs.map(iops)).mean, y: latencies.length ? meanCi95(latencies).mean : null };
      }),
    }))),
    byMixSeries: [...along(byMix, iops), ...earlierAlong('read_pct', iops)],
    repeatSeries: earlier.length ? [bars(earlierGroups, 'earlier runs'), bars(repeated, 'these runs')] : [bars(repeated, 'mean IOPS')],
    categories,
    hasRepeats: repeated.some((g) => g.runs.length > 1) || earlier.length > 0,
  };
}

export function Results({ title, runs, onDesign }: Props) {
  const engine = useEngine();
  const [selectedId, setSelectedId] = useState<number | null>(runs[0]?.id ?? null);
  const [detail, setDetail] = useState<RunResult | null>(null);
  // The spec and comparison panels ask the engine for more once the first detail has arrived:
  // their requests (hundreds of ms for a long sweep) would otherwise hold up the view's own.
  const [panelsReady, setPanelsReady] = useState(false);
  const [specChoice, setSpecChoice] = useState<string>(AUTO);
  const [spec, setSpec] = useState<Spec | null>(null);
  const [earlier, setEarlier] = useState<RunResult[]>([]);
  const [exporting, setExporting] = useState(false);
  const [exportNote, setExportNote] = useState<{ ok: boolean; text: string } | null>(null);
  const onSpec = useCallback((s: Spec | null) => setSpec(s), []);

  const charts = useMemo(() => chartSeries(runs, earlier, spec), [runs, earlier, spec]);
  const tableRuns = useMemo(() => [...runs, ...earlier], [runs, earlier]);
  const points = useMemo(() => groupRepeats(runs), [runs]);

  useEffect(() => setSelectedId(runs[0]?.id ?? null), [runs]);
  useEffect(() => setEarlier([]), [runs]);
  useEffect(() => {
    if (selectedId === null) return setDetail(null);
    let current = true;
    engine.call('runs.get', { run_id: selectedId }).then((r) => current && setDetail(r.run), () => current && setDetail(null))
      .finally(() => setPanelsReady(true));
    return () => { current = false; };
  }, [engine, selectedId]);

  if (runs.length === 0) {
    return (
      <section aria-labelledby="results-title">
        <h2 id="results-title">Results</h2>
        <p className="empty">No results to show yet. Run a sweep (the student preset draws every chart), or open runs from History.</p>
        <button type="button" onClick={onDesign}>Go to the designer</button>
      </section>
    );
  }

  async function exportPdf() {
    setExporting(true);
    setExportNote(null);
    try {
      const report = await engine.call('report.pdf', {
        run_ids: runs.map((r) => r.id!).filter((id) => id !== null), compare_with: earlier.map((r) => r.id!),
        spec_id: specChoice !== AUTO && specChoice !== NONE ? specChoice : null, title: `SSD performance report — ${title}`,
      });
      const saved = await engine.savePdf({ filename: report.filename, pdf_base64: report.pdf_base64 });
      setExportNote(saved.saved ? { ok: true, text: `Saved ${saved.path ?? report.filename} (${Math.ceil(report.bytes / 1024)} KiB, ${report.runs} run(s))` }
        : { ok: true, text: 'Not saved.' });
    } catch (error) {
      setExportNote({ ok: false, text: `The report could not be made: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      setExporting(false);
    }
  }

  const { bySizeSeries, byQdSeries, curveSeries, byMixSeries, repeatSeries, categories, hasRepeats } = charts;
  const main = detail ? totals(detail).main : null;

  return (
    <section aria-labelledby="results-title" className="results">
      <h2 id="results-title">Results — {title}</h2>
      <div className="toolbar">
        <p className="hint">{runs.length} run(s). Latency is total latency, submission to completion (fio's lat), on every engine; percentiles come from histogram bins.</p>
        <button type="button" className="primary" disabled={exporting} onClick={() => void exportPdf()}>{exporting ? 'Making the PDF…' : 'Export PDF'}</button>
      </div>
      {exportNote && <p role={exportNote.ok ? 'status' : 'alert'} className={exportNote.ok ? 'hint' : 'error'} data-testid="export-note">{exportNote.text}</p>}
      <div className="chart-grid">
        <ChartFigure id="iops-vs-size" title="IOPS vs access size" kind="line" xLabel="access size" yLabel="IOPS" xLog2
          formatX={formatSize} series={bySizeSeries}
          empty="No runs that differ only in access size: run the student preset or vary access size." />
        <ChartFigure id="latency-vs-qd" title="Latency vs queue depth (µs)" kind="line" xLabel="queue depth" yLabel="µs" xLog
          series={byQdSeries}
          empty="No runs that differ only in queue depth: vary queue depth (e.g. 1, 10, 100)." />
        <ChartFigure id="latency-iops" title="Latency vs IOPS as queue depth grows (µs)" kind="line" xLabel="IOPS" yLabel="µs" yLog
          series={curveSeries}
          empty="Needs runs at several queue depths." />
        <ChartFigure id="iops-vs-mix" title="IOPS vs read/write mix" kind="line" xLabel="% reads" yLabel="IOPS"
          series={byMixSeries} empty="No runs that differ only in read/write mix: vary read % (e.g. 100, 70, 50, 0)." />
        {hasRepeats && (
          <ChartFigure id="repeats" title="Mean IOPS per point, ± 95 % confidence interval" kind="bar" xLabel="point" yLabel="IOPS"
            categories={categories}
            series={repeatSeries} />
        )}
      </div>
      {(panelsReady || selectedId === null) && (
        <>
          <Observations runs={runs} />
          <SpecPanel runs={runs} choice={specChoice} onChoice={setSpecChoice} onSpec={onSpec} />
          <ComparePanel runs={runs} earlier={earlier} onEarlier={setEarlier} />
        </>
      )}
      <h3>One run in detail</h3>
      <DetailChoice points={points} selectedId={selectedId} onSelect={setSelectedId} />
      <div className="chart-grid">
        <ChartFigure id="percentiles" title="Latency percentile distribution" kind="line" xLabel="latency (µs)" yLabel="percentile" xLog
          series={main ? [{ label: detail ? workloadLabel(detail.workload) : '', points: percentileCurve(main.lat_bins_ns).map((p) => ({ x: p.latencyNs / 1e3, y: p.percentile })) }] : []}
          empty="This run has no total-latency histogram (imported output made without lat_percentiles)." />
        <ChartFigure id="time-series" title="IOPS per second" kind="line" xLabel="s" yLabel="IOPS"
          series={detail ? [{ label: 'read + write', points: detail.progress.map((s) => ({ x: s.elapsed_s, y: s.read_iops + s.write_iops })) }] : []}
          empty="This run has no per-second samples." />
      </div>
      {detail && detail.hosts.some((h) => h.host !== 'local') && <HostResults run={detail} />}
      <ResultsTable runs={tableRuns} />
    </section>
  );
}

/** Which run to detail: the point, then (when repeated) which repeat — two short lists, not one per run. */
function DetailChoice({ points, selectedId, onSelect }: { points: { label: string; runs: RunResult[] }[]; selectedId: number | null; onSelect: (id: number) => void }) {
  const pointIndex = Math.max(0, points.findIndex((p) => p.runs.some((r) => r.id === selectedId)));
  const point = points[pointIndex];
  const first = (index: number) => points[index]?.runs[0]?.id;
  return (
    <div className="field inline">
      <label htmlFor="detail-run">Run</label>
      <select id="detail-run" value={pointIndex} onChange={(e) => { const id = first(Number(e.target.value)); if (id != null) onSelect(id); }}>
        {points.map((p, i) => <option key={i} value={i}>{p.runs.length > 1 ? `${p.label} (${p.runs.length} repeats)` : `#${p.runs[0]!.id} ${p.label}`}</option>)}
      </select>
      {point && point.runs.length > 1 && (
        <>
          <label htmlFor="detail-repeat">Repeat</label>
          <select id="detail-repeat" value={selectedId ?? ''} onChange={(e) => onSelect(Number(e.target.value))}>
            {point.runs.map((r, i) => <option key={r.id} value={r.id ?? ''}>{i + 1} (#{r.id})</option>)}
          </select>
        </>
      )}
    </div>
  );
}
