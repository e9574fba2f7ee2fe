// Results: the curves a report needs, from stored runs; one run in detail (distribution, time
// series); the table.
import { useEffect, useState } from 'react';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import { useEngine, type RunResult } from '../api';
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

export function Results({ title, runs, onDesign }: Props) {
  const engine = useEngine();
  const [selectedId, setSelectedId] = useState<number | null>(runs[0]?.id ?? null);
  const [detail, setDetail] = useState<RunResult | null>(null);

  useEffect(() => setSelectedId(runs[0]?.id ?? null), [runs]);
  useEffect(() => {
    if (selectedId === null) return setDetail(null);
    let current = true;
    engine.call('runs.get', { run_id: selectedId }).then((r) => current && setDetail(r.run), () => current && setDetail(null));
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

  const iops = (r: RunResult) => totals(r).iops;
  const bySize = seriesAlong(runs, 'block_size_bytes');
  const byQd = seriesAlong(runs, 'queue_depth');
  const byMix = seriesAlong(runs, 'read_pct');
  const repeated = groupRepeats(runs);
  const hasRepeats = repeated.some((g) => g.runs.length > 1);
  const curveSource = byQd.length ? byQd : [];
  const main = detail ? totals(detail).main : null;

  return (
    <section aria-labelledby="results-title" className="results">
      <h2 id="results-title">Results — {title}</h2>
      <p className="hint">{runs.length} run(s). Latency is completion latency (clat); percentiles come from fio's histogram bins.</p>
      <div className="chart-grid">
        <ChartFigure id="iops-vs-size" title="IOPS vs access size" kind="line" xLabel="access size" yLabel="IOPS" xLog2
          formatX={formatSize} series={along(bySize, iops)}
          empty="No runs that differ only in access size: run the student preset or vary access size." />
        <ChartFigure id="latency-vs-qd" title="Latency vs queue depth (µs)" kind="line" xLabel="queue depth" yLabel="µs" xLog
          series={[...along(byQd, (r) => us(totals(r).main.clat_ns.mean), ' mean'), ...along(byQd, (r) => us(totals(r).main.clat_ns.p99), ' p99')]}
          empty="No runs that differ only in queue depth: vary queue depth (e.g. 1, 10, 100)." />
        <ChartFigure id="latency-iops" title="Latency vs IOPS as queue depth grows (µs)" kind="line" xLabel="IOPS" yLabel="µs" yLog
          series={curveSource.flatMap((g) => (['p50', 'p99', 'p99_9'] as const).map((p) => ({
            label: `${g.label} ${p.replace('_', '.')}`,
            points: g.points.map((pt) => {
              const latencies = pt.runs.map((r) => us(totals(r).main.clat_ns[p])).filter((v): v is number => v !== null);
              return { x: meanCi95(pt.runs.map(iops)).mean, y: latencies.length ? meanCi95(latencies).mean : null };
            }),
          })))}
          empty="Needs runs at several queue depths." />
        <ChartFigure id="iops-vs-mix" title="IOPS vs read/write mix" kind="line" xLabel="% reads" yLabel="IOPS"
          series={along(byMix, iops)} empty="No runs that differ only in read/write mix: vary read % (e.g. 100, 70, 50, 0)." />
        {hasRepeats && (
          <ChartFigure id="repeats" title="Mean IOPS per point, ± 95 % confidence interval" kind="bar" xLabel="point" yLabel="IOPS"
            categories={repeated.map((g) => g.label)}
            series={[{ label: 'mean IOPS', points: repeated.map((g, i) => { const s = meanCi95(g.runs.map(iops)); return { x: i, y: s.mean, err: s.ci95 }; }) }]} />
        )}
      </div>
      <h3>One run in detail</h3>
      <div className="field inline">
        <label htmlFor="detail-run">Run</label>
        <select id="detail-run" value={selectedId ?? ''} onChange={(e) => setSelectedId(Number(e.target.value))}>
          {runs.map((r) => <option key={r.id} value={r.id ?? ''}>#{r.id} {workloadLabel(r.workload)}{r.repeat ? ` (repeat ${r.repeat + 1})` : ''}</option>)}
        </select>
      </div>
      <div className="chart-grid">
        <ChartFigure id="percentiles" title="Latency percentile distribution" kind="line" xLabel="latency (µs)" yLabel="percentile" xLog
          series={main ? [{ label: detail ? workloadLabel(detail.workload) : '', points: percentileCurve(main.bins_ns).map((p) => ({ x: p.latencyNs / 1e3, y: p.percentile })) }] : []}
          empty="This run has no latency histogram (imported without bins?)." />
        <ChartFigure id="time-series" title="IOPS per second" kind="line" xLabel="s" yLabel="IOPS"
          series={detail ? [{ label: 'read + write', points: detail.progress.map((s) => ({ x: s.elapsed_s, y: s.read_iops + s.write_iops })) }] : []}
          empty="This run has no per-second samples." />
      </div>
      <ResultsTable runs={runs} />
    </section>
  );
}
