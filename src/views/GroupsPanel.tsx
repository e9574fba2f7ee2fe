// Groups side by side: the runs split by a tag (interface=SATA / PCIe, nodes=3 / 5, cluster=...)
// or by the recorded interface or drive, one bar per group at each setting (mean ± 95 % CI of
// the repeats, runs.bars), and each group against the first with Welch's t-test (runs.compare): the
// grouping is chosen here, every number comes from the engine.
import { useEffect, useMemo, useState } from 'react';
import { useEngine, type BarChart, type RunResult, type RunsCompareResult } from '../api';
import { ChartFigure } from '../charts/ChartFigure';
import { drawn } from '../charts/engine-series';
import { METRICS, fmt, metricInfo, type MetricId } from '../lib/metrics';

const RECORDED: Record<string, (r: RunResult) => string> = {
  'recorded interface': (r) => r.environment.interface || 'not recorded',
  'recorded drive': (r) => r.environment.device_model || 'not recorded',
};

export function groupKeys(runs: RunResult[]): string[] {
  const tags = new Set(runs.flatMap((r) => Object.keys(r.tags)));
  return [...[...tags].sort().map((k) => `tag ${k}`), ...Object.keys(RECORDED)];
}

function valueOf(key: string): (r: RunResult) => string {
  const tag = key.replace(/^tag /, '');
  return RECORDED[key] ?? ((r) => (tag in r.tags ? `${tag}=${r.tags[tag]}` : `no ${tag} tag`));
}

export function GroupsPanel({ runs }: { runs: RunResult[] }) {
  const engine = useEngine();
  const keys = useMemo(() => groupKeys(runs), [runs]);
  const [key, setKey] = useState(keys[0] ?? 'recorded interface');
  const [metric, setMetric] = useState<MetricId>('iops');
  const [verdicts, setVerdicts] = useState<{ group: string; result: RunsCompareResult | null; problem?: string }[]>([]);

  if (!keys.includes(key)) setKey(keys[0] ?? 'recorded interface'); // runs without the chosen key

  const info = metricInfo(metric);
  const view = useMemo(() => {
    const of = valueOf(key);
    const groups = [...new Set(runs.map(of))].sort();
    return { of, groups };
  }, [runs, key]);
  const [bars, setBars] = useState<BarChart | null>(null);

  useEffect(() => {
    let current = true;
    const groups = view.groups.map((g) => ({ label: g, run_ids: runs.filter((r) => view.of(r) === g).map((r) => r.id!) }));
    if (groups.length === 0) return;
    engine.call('runs.bars', { groups, metric }).then((b) => current && setBars(b), () => current && setBars(null));
    return () => { current = false; };
  }, [engine, runs, view, metric]);

  useEffect(() => {
    let current = true;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- cleared as the request for the new groups goes out
    setVerdicts([]);
    const [first, ...others] = view.groups;
    if (first === undefined || others.length === 0 || others.length > 8) return;
    const ids = (g: string) => runs.filter((r) => view.of(r) === g).map((r) => r.id!);
    void Promise.all(others.map((g) => engine.call('runs.compare', { a: ids(first), b: ids(g), metric, confidence: 0.95 }).then(
      (result) => ({ group: g, result }),
      (e: unknown) => ({ group: g, result: null, problem: e instanceof Error ? e.message : String(e) }),
    ))).then((found) => current && setVerdicts(found));
    return () => { current = false; };
  }, [engine, runs, view, metric]);

  return (
    <section className="groups-panel" aria-labelledby="groups-title">
      <h3 id="groups-title">Groups side by side</h3>
      <div className="field-row">
        <div className="field inline">
          <label htmlFor="groups-key">Group by</label>
          <select id="groups-key" value={key} onChange={(e) => setKey(e.target.value)}>
            {keys.map((k) => <option key={k} value={k}>{k}</option>)}
          </select>
        </div>
        <div className="field inline">
          <label htmlFor="groups-metric">Metric</label>
          <select id="groups-metric" value={metric} onChange={(e) => setMetric(e.target.value as MetricId)}>
            {METRICS.map((m) => <option key={m.id} value={m.id}>{m.label} ({m.unit})</option>)}
          </select>
        </div>
      </div>
      {view.groups.length < 2 && (
        <p className="hint">Every run is in one group ({view.groups[0] ?? 'none'}). Tag runs in History (e.g. interface=SATA, interface=PCIe) to compare groups.</p>
      )}
      <ChartFigure id="groups" title={`${info.label} per setting and ${key.replace(/^tag /, '')} (mean ± 95 % CI)`} kind="bar"
        xLabel="setting" yLabel={info.unit} categories={bars?.categories ?? []} series={drawn(bars?.series ?? [], info.scale)} />
      {verdicts.length > 0 && (
        <table className="data" data-testid="group-verdicts">
          <caption>Each group against {view.groups[0]}: mean ± 95 % CI, Welch's t-test, setting by setting</caption>
          <thead><tr><th>group</th><th>setting</th><th>{view.groups[0]}</th><th>group</th><th>difference</th><th>verdict</th></tr></thead>
          <tbody>
            {verdicts.flatMap((v) => (v.result ? v.result.comparisons.map((c, i) => (
              <tr key={`${v.group}-${i}`}>
                <td>{v.group}</td><td>{c.setting}</td>
                <td>{fmt(c.a.mean)}{c.a.half_width !== null ? ` ± ${fmt(c.a.half_width)}` : ''} (n={c.a.n})</td>
                <td>{fmt(c.b.mean)}{c.b.half_width !== null ? ` ± ${fmt(c.b.half_width)}` : ''} (n={c.b.n})</td>
                <td>{c.diff_pct === null ? '–' : `${c.diff_pct >= 0 ? '+' : ''}${c.diff_pct.toFixed(1)} %`}</td>
                <td>{c.p_value === null ? 'not testable' : c.significant ? 'significant' : 'not significant'} — {c.verdict}</td>
              </tr>
            )) : [<tr key={v.group}><td>{v.group}</td><td colSpan={5} className="hint">{v.problem}</td></tr>]))}
          </tbody>
        </table>
      )}
    </section>
  );
}
