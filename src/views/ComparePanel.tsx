// Earlier runs: chosen from History (by tag or text), overlaid on the charts, and compared with
// the runs on screen — mean ± 95 % CI on each side and Welch's verdict, computed by the engine.
import { useEffect, useState } from 'react';
import { useEngine, type RunResult, type RunsCompareResult } from '../api';
import { workloadLabel } from '../lib/analysis';

const METRICS = [
  { id: 'iops', label: 'IOPS' },
  { id: 'bw_bytes_per_s', label: 'bandwidth (MB/s)' },
  { id: 'lat_ns_mean', label: 'mean latency (µs)' },
  { id: 'lat_ns_p99', label: 'p99 latency (µs)' },
] as const;
type Metric = (typeof METRICS)[number]['id'];

interface Props {
  runs: RunResult[];
  earlier: RunResult[];
  onEarlier: (runs: RunResult[]) => void;
}

function fmt(value: number): string {
  return Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : value.toPrecision(4);
}

export function ComparePanel({ runs, earlier, onEarlier }: Props) {
  const engine = useEngine();
  const [filter, setFilter] = useState('');
  const [candidates, setCandidates] = useState<RunResult[]>([]);
  const [metric, setMetric] = useState<Metric>('iops');
  const [result, setResult] = useState<RunsCompareResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const shown = new Set(runs.map((r) => r.id));
  const chosen = new Set(earlier.map((r) => r.id));

  useEffect(() => {
    let current = true;
    const tag = filter.includes('=') ? filter.trim() : null;
    const timer = setTimeout(() => {
      engine.call('runs.list', { tag, text: tag ? null : filter.trim() || null, limit: 200 }).then(
        (r) => current && setCandidates(r.runs), () => current && setCandidates([]));
    }, 200);
    return () => { current = false; clearTimeout(timer); };
  }, [engine, filter]);

  useEffect(() => setResult(null), [earlier, runs, metric]);

  function toggle(run: RunResult, on: boolean) {
    onEarlier(on ? [...earlier, run] : earlier.filter((r) => r.id !== run.id));
  }

  async function compare() {
    setProblem(null);
    try {
      setResult(await engine.call('runs.compare', {
        a: earlier.map((r) => r.id!), b: runs.map((r) => r.id!), metric, confidence: 0.95,
      }));
    } catch (error) {
      setResult(null);
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }

  const others = candidates.filter((r) => !shown.has(r.id));
  return (
    <section className="compare-panel" aria-labelledby="compare-title">
      <h3 id="compare-title">Compare with earlier runs</h3>
      <div className="field inline">
        <label htmlFor="compare-filter">Find earlier runs</label>
        <input id="compare-filter" type="search" value={filter} placeholder="interface=SATA, or a device, target or engine"
          onChange={(e) => setFilter(e.target.value)} />
      </div>
      <table className="data" data-testid="earlier-runs">
        <caption>Runs from History (ticked ones are overlaid on the charts as “earlier”)</caption>
        <thead><tr><th>overlay</th><th>run</th><th>workload</th><th>when</th><th>tags</th></tr></thead>
        <tbody>
          {others.slice(0, 50).map((r) => (
            <tr key={r.id} data-run-id={r.id ?? ''}>
              <td><input type="checkbox" aria-label={`overlay run ${r.id}`} checked={chosen.has(r.id)} onChange={(e) => toggle(r, e.target.checked)} /></td>
              <td>#{r.id}</td>
              <td>{workloadLabel(r.workload)}</td>
              <td>{r.started_at.slice(0, 19).replace('T', ' ')}</td>
              <td>{Object.entries(r.tags).map(([k, v]) => `${k}=${v}`).join(' ')}</td>
            </tr>
          ))}
          {others.length === 0 && <tr><td colSpan={5} className="hint">No other runs match.</td></tr>}
        </tbody>
      </table>
      <div className="field inline">
        <label htmlFor="compare-metric">Metric</label>
        <select id="compare-metric" value={metric} onChange={(e) => setMetric(e.target.value as Metric)}>
          {METRICS.map((m) => <option key={m.id} value={m.id}>{m.label}</option>)}
        </select>
        <button type="button" disabled={earlier.length === 0} onClick={() => void compare()}>Compare</button>
      </div>
      {problem && <p role="alert" className="error">{problem}</p>}
      {result?.latency_note && <p role="note" className="warning" data-testid="latency-note">{result.latency_note}</p>}
      {result && (
        <table className="data" data-testid="compare-table">
          <caption>A = earlier run(s), B = the runs shown; mean ± 95 % CI in {result.unit}; Welch's t-test</caption>
          <thead><tr><th>setting</th><th>A</th><th>B</th><th>difference</th><th>verdict</th></tr></thead>
          <tbody>
            {result.comparisons.map((c, i) => (
              <tr key={i}>
                <td>{c.setting}{c.same_setting ? '' : ' (different settings)'}</td>
                <td>{fmt(c.a.mean)}{c.a.half_width !== null ? ` ± ${fmt(c.a.half_width)}` : ''} (n={c.a.n})</td>
                <td>{fmt(c.b.mean)}{c.b.half_width !== null ? ` ± ${fmt(c.b.half_width)}` : ''} (n={c.b.n})</td>
                <td>{c.diff_pct === null ? '–' : `${c.diff_pct >= 0 ? '+' : ''}${c.diff_pct.toFixed(1)} %`}</td>
                <td data-testid="verdict" className={c.significant ? 'significant' : 'not-significant'}>
                  <strong>{c.p_value === null ? 'not testable' : c.significant ? 'significant' : 'not significant'}</strong> — {c.verdict}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
