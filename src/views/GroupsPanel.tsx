// Groups side by side: the runs split by a tag (interface=SATA / PCIe, nodes=3 / 5, cluster=...)
// or by the recorded interface or drive, one bar per group at each figure (mean ± 95 % CI of a
// sweep's repeats, or of a group's runs of one setting when the user pools them; runs.bars), each
// with n and where its runs came from, and each group against the first with Welch's t-test
// (runs.compare): the grouping is chosen here, every number comes from the engine.
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
  const [pool, setPool] = useState(false);
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
    engine.call('runs.bars', { groups, metric, pool_same_setting: pool })
      .then((b) => current && setBars(b), () => current && setBars(null));
    return () => { current = false; };
  }, [engine, runs, view, metric, pool]);

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
      <label>
        <input type="checkbox" checked={pool} onChange={(e) => setPool(e.target.checked)} />
        {' '}Pool a group&apos;s runs of one setting from different sweeps into one bar (otherwise
        only a sweep&apos;s repeats are)
      </label>
      {view.groups.length < 2 && (
        <p className="hint">Every run is in one group ({view.groups[0] ?? 'none'}). Tag runs in History (e.g. interface=SATA, interface=PCIe) to compare groups.</p>
      )}
      <ChartFigure id="groups" title={`${info.label} per setting and ${key.replace(/^tag /, '')} (mean ± 95 % CI)`} kind="bar"
        xLabel="setting" yLabel={info.unit} categories={bars?.categories ?? []} series={drawn(bars?.series ?? [], info.scale)} />
      {bars && <BarSources bars={bars} scale={info.scale} />}
      {verdicts.length > 0 && (
        <table className="data" data-testid="group-verdicts">
          <caption>
            Each group against {view.groups[0]}: mean ± 95 % CI, Welch&apos;s t-test, setting by
            setting; a group&apos;s runs of one setting are its sample, from whichever sweeps
          </caption>
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

/** Every bar with its n and where its runs came from: the engine's words, never a bare mean. */
function BarSources({ bars, scale }: { bars: BarChart; scale: number }) {
  const rows = bars.categories.flatMap((category, i) => bars.series.flatMap((s) => {
    const p = s.points[i];
    if (!p || p.y === null) return [];
    const half = p.half_width === null ? '' : ` ± ${fmt(p.half_width / scale)}`;
    return [{ category, group: s.label, mean: `${fmt(p.y / scale)}${half}`, source: p.source }];
  }));
  if (rows.length === 0) return null;
  return (
    <table className="data" data-testid="group-bars">
      <caption>The bars: mean ± 95 % CI, n and where the runs came from</caption>
      <thead><tr><th>setting</th><th>group</th><th>mean</th><th>n and source</th></tr></thead>
      <tbody>
        {rows.map(({ category, group, mean, source }) => (
          <tr key={`${category}-${group}`}>
            <td>{category}</td><td>{group}</td><td>{mean}</td><td>{source}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
