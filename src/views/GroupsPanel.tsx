// Groups side by side: the runs split by a tag (interface=SATA / PCIe, nodes=3 / 5, cluster=...)
// or by the recorded interface or drive, one bar per group at each figure (mean ± 95 % CI of a
// sweep's repeats, or of a group's runs of one setting when the user pools them; runs.bars), each
// with n and where its runs came from, and each group against the first with Welch's t-test
// (runs.compare). The engine splits the runs (runs.groups, the keys it offers included); the chart
// is drawn only with the grouping its bars were computed for, so its title and legend agree.
import { useEffect, useState } from 'react';
import { useEngine, useEngineQuery, type BarChart, type RunsCompareResult, type RunsGroupsResult } from '../api';
import { ChartFigure } from '../charts/ChartFigure';
import { drawn } from '../charts/engine-series';
import { METRICS, fmt, metricInfo, type MetricId } from '../lib/metrics';

/** Groups each compared with the first by Welch's test; beyond it the table says so. */
const MAX_COMPARED = 8;

type Verdict = { group: string; result: RunsCompareResult | null; problem?: string };

function useVerdicts(grouped: RunsGroupsResult | null, metric: MetricId): Verdict[] {
  const engine = useEngine();
  const [verdicts, setVerdicts] = useState<{ for: unknown; found: Verdict[] }>({ for: null, found: [] });
  useEffect(() => {
    let current = true;
    const [first, ...others] = grouped?.groups ?? [];
    if (first === undefined || others.length === 0 || others.length > MAX_COMPARED) return undefined;
    void Promise.all(others.map((g) => engine.call('runs.compare', { a: first.run_ids, b: g.run_ids, metric, confidence: 0.95 }).then(
      (result) => ({ group: g.label, result }),
      (e: unknown) => ({ group: g.label, result: null, problem: e instanceof Error ? e.message : String(e) }),
    ))).then((found) => { if (current) setVerdicts({ for: grouped, found }); });
    return () => { current = false; };
  }, [engine, grouped, metric]);
  return verdicts.for === grouped ? verdicts.found : [];
}

export function GroupsPanel({ runIds }: { runIds: number[] }) {
  const [key, setKey] = useState('');
  const [metric, setMetric] = useState<MetricId>('iops');
  const [pool, setPool] = useState(false);
  const asked = useEngineQuery('runs.groups', runIds.length ? { run_ids: runIds, key } : null);
  const grouped = asked.loading ? null : asked.data;
  const groups = grouped?.groups ?? [];
  const bars = useEngineQuery('runs.bars', grouped && groups.length ? {
    groups: groups.map((g) => ({ label: g.label, run_ids: g.run_ids })), metric, pool_same_setting: pool,
  } : null);
  const shown = bars.loading ? null : bars.data;
  const verdicts = useVerdicts(grouped ?? null, metric);
  const info = metricInfo(metric);
  const keys = asked.data?.keys ?? [];
  const first = groups[0]?.label;

  return (
    <section className="groups-panel" aria-labelledby="groups-title">
      <h3 id="groups-title">Groups side by side</h3>
      <div className="field-row">
        <div className="field inline">
          <label htmlFor="groups-key">Group by</label>
          <select id="groups-key" value={asked.loading && key ? key : asked.data?.key ?? key} onChange={(e) => setKey(e.target.value)}>
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
      {asked.error && <p role="alert" className="error">{asked.error}</p>}
      {grouped && groups.length < 2 && (
        <p className="hint">Every run is in one group ({first ?? 'none'}). Tag runs in History (e.g. interface=SATA, interface=PCIe) to compare groups.</p>
      )}
      {groups.length - 1 > MAX_COMPARED && (
        <p className="hint" data-testid="groups-not-compared">
          {groups.length} groups: the bars show them all; Welch&apos;s test against {first} is made for up to
          {' '}{MAX_COMPARED + 1} groups. Narrow the runs in Find runs (e.g. add a tag) to compare them.
        </p>
      )}
      {bars.error && <p role="alert" className="error">{bars.error}</p>}
      {grouped && shown ? (
        <>
          <ChartFigure id="groups" title={`${info.label} per setting and ${grouped.name} (mean ± 95 % CI)`} kind="bar"
            xLabel="setting" yLabel={info.unit} categories={shown.categories} series={drawn(shown.series, info.scale)} />
          <BarSources bars={shown} scale={info.scale} />
        </>
      ) : (
        !asked.error && !bars.error && <p className="hint" role="status">Grouping {runIds.length.toLocaleString('en-US')} runs…</p>
      )}
      {verdicts.length > 0 && (
        <table className="data" data-testid="group-verdicts">
          <caption>
            Each group against {first}: mean ± 95 % CI, Welch&apos;s t-test, setting by
            setting; a group&apos;s runs of one setting are its sample, from whichever sweeps
          </caption>
          <thead><tr><th>group</th><th>setting</th><th>{first}</th><th>group</th><th>difference</th><th>verdict</th></tr></thead>
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
