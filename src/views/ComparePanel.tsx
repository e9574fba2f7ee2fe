// Earlier runs: searched in the store (tags key=value and words, a page of the newest matches with
// how many match in all), overlaid on the charts, and compared with the runs on screen — mean ±
// 95 % CI on each side and Welch's verdict, computed by the engine.
import { useState } from 'react';
import { useEngine, useEngineQuery, type RunResult, type RunRow, type RunsCompareResult } from '../api';
import { metricInfo, type MetricId } from '../lib/metrics';
import { useSettled } from '../lib/use-settled';
import { useKept } from '../state/kept';

/** The metrics compared here: a choice of this panel's; their names are the engine's. */
const METRICS: MetricId[] = ['iops', 'bw_bytes_per_s', 'lat_ns_mean', 'lat_ns_p99'];
const NO_ROWS: RunRow[] = [];
/** Matches listed at once; the total is said, and the search narrows them. */
const SHOWN = 50;

interface Props {
  runs: RunResult[];
  earlier: RunResult[];
  /** Takes how the earlier runs change: ticks arrive one after another while the engine answers. */
  onEarlier: (update: (earlier: RunResult[]) => RunResult[]) => void;
}

function fmt(value: number): string {
  return Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : value.toPrecision(4);
}

export function ComparePanel({ runs, earlier, onEarlier }: Props) {
  const engine = useEngine();
  const [filter, setFilter] = useKept('compare-filter', '');
  const [metric, setMetric] = useKept<MetricId>('compare-metric', 'iops');
  const [result, setResult] = useState<RunsCompareResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const shown = new Set(runs.map((r) => r.id));
  // a ticked run shows as ticked at once, while the engine sends it (the box follows the click)
  const [adding, setAdding] = useState<ReadonlySet<number>>(new Set());
  const chosen = new Set([...earlier.map((r) => r.id), ...adding]);

  const typed = useSettled(filter.trim(), 200);
  const found = useEngineQuery('runs.page', { filter: { search: typed }, offset: 0, limit: SHOWN + runs.length });
  const candidates = found.data?.rows ?? NO_ROWS;
  const total = found.data?.total ?? 0;

  // A verdict belongs to the runs and metric it compared: forget it, while rendering, when they change.
  const [compared, setCompared] = useState({ earlier, runs, metric });
  if (compared.earlier !== earlier || compared.runs !== runs || compared.metric !== metric) {
    setCompared({ earlier, runs, metric });
    setResult(null);
  }

  async function toggle(row: RunRow, on: boolean) {
    if (!on) return onEarlier((current) => current.filter((r) => r.id !== row.id));
    setAdding((ids) => new Set([...ids, row.id]));
    try {
      const listed = await engine.call('runs.list', { run_ids: [row.id] });
      onEarlier((current) => [...current.filter((r) => r.id !== row.id), ...listed.runs]);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setAdding((ids) => new Set([...ids].filter((id) => id !== row.id)));
    }
  }

  async function compare() {
    setProblem(null);
    try {
      setResult(await engine.call('runs.compare', {
        a: earlier.map((r) => r.id!), b: runs.map((r) => r.id!), metric, confidence: 0.95,
        a_label: groupName(earlier, 'earlier'), b_label: groupName(runs, 'shown'),
      }));
    } catch (error) {
      setResult(null);
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }

  const others = candidates.filter((r) => !shown.has(r.id)).slice(0, SHOWN);
  const more = total - candidates.filter((r) => shown.has(r.id)).length - others.length;
  return (
    <section className="compare-panel" aria-labelledby="compare-title">
      <h3 id="compare-title">Compare with earlier runs</h3>
      <div className="field inline">
        <label htmlFor="compare-filter">Find earlier runs</label>
        <input id="compare-filter" type="search" value={filter} placeholder="interface=SATA nodes=3, or a device, target or engine"
          onChange={(e) => setFilter(e.target.value)} />
      </div>
      {more > 0 && (
        <p className="hint" data-testid="earlier-more">
          The newest {others.length} of {total.toLocaleString('en-US')} matching runs; narrow the search with
          more tags (key=value) or words to reach the others.
        </p>
      )}
      {earlier.length > 0 && <p className="hint">{earlier.length} earlier run(s) overlaid.</p>}
      <table className="data" data-testid="earlier-runs">
        <caption>Runs from History (ticked ones are overlaid on the charts as “earlier”)</caption>
        <thead><tr><th>overlay</th><th>run</th><th>workload</th><th>when</th><th>tags</th></tr></thead>
        <tbody>
          {others.map((r) => (
            <tr key={r.id} data-run-id={r.id}>
              <td><input type="checkbox" aria-label={`overlay run ${r.id}`} checked={chosen.has(r.id)} onChange={(e) => void toggle(r, e.target.checked)} /></td>
              <td>#{r.id}</td>
              <td>{r.label}</td>
              <td>{r.started_at.slice(0, 19).replace('T', ' ')}</td>
              <td>{Object.entries(r.tags).map(([k, v]) => `${k}=${v}`).join(' ')}</td>
            </tr>
          ))}
          {others.length === 0 && <tr><td colSpan={5} className="hint">No other runs match.</td></tr>}
        </tbody>
      </table>
      <div className="field inline">
        <label htmlFor="compare-metric">Metric</label>
        <select id="compare-metric" value={metric}
          onChange={(e) => setMetric(metricInfo(e.target.value).id)}>
          {METRICS.map((m) => <option key={m} value={m}>{metricInfo(m).title}</option>)}
        </select>
        <button type="button" disabled={earlier.length === 0} onClick={() => void compare()}>Compare</button>
      </div>
      {problem && <p role="alert" className="error">{problem}</p>}
      {result?.latency_note && <p role="note" className="warning" data-testid="latency-note">{result.latency_note}</p>}
      {result && (
        <table className="data" data-testid="compare-table">
          <caption>{groupName(earlier, 'earlier')} against {groupName(runs, 'shown')}; mean ± 95 % CI in {result.unit}; Welch&apos;s t-test</caption>
          <thead><tr><th>setting</th><th>{groupName(earlier, 'earlier')}</th><th>{groupName(runs, 'shown')}</th><th>difference</th><th>verdict</th></tr></thead>
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

/** A side of the comparison by its runs, as the verdict names it ('the earlier run #12', 'the set shown (3 runs)'):
 *  a bare 'B is 12.4 % lower than A' named neither. One name each, as the verdict's subject ('... is 20 % lower'). */
export function groupName(runs: RunResult[], which: 'earlier' | 'shown'): string {
  if (runs.length === 1) return which === 'earlier' ? `the earlier run #${runs[0]!.id}` : `run #${runs[0]!.id} shown`;
  return which === 'earlier' ? `the earlier set (${runs.length} runs)` : `the set shown (${runs.length} runs)`;
}
