// Groups side by side: the runs split by a tag (interface: SATA / PCIe, nodes: 3 / 5) or by the
// recorded interface or drive, each group's runs of one setting summarised as one bar (mean ± 95 %
// CI, n and where they came from: the sample Welch's test compares; runs.bars), and each group
// against the first with Welch's t-test (runs.compare), named. The engine splits the runs and
// chooses the split to open with (runs.groups: the tag whose groups measured the same settings,
// else none); a study's settings are shown a page at a time, and the chart is drawn only with the
// split its bars were computed for, so its title and legend agree.
import { useEffect, useState } from 'react';
import { useEngine, useEngineQuery, type BarChart, type RunsGroupsResult } from '../api';
import { ChartFigure } from '../charts/ChartFigure';
import { drawn } from '../charts/engine-series';
import { METRICS, metricInfo, type MetricId } from '../lib/metrics';
import { useOnScreen } from '../lib/use-on-screen';
import { useKept } from '../state/kept';
import { BarTable, VerdictTable, type Verdict } from './GroupsTables';
import { Pager, pageOf } from './Pager';

/** Groups each compared with the first by Welch's test; beyond it the panel says so. */
const MAX_COMPARED = 8;
/** Settings on one page of the chart. */
const SETTINGS_PER_PAGE = 12;

interface GroupsForm {
  /** '' : the engine's choice. */
  key: string;
  metric: MetricId;
  /** Only the settings whose name holds this text. */
  find: string;
  page: number;
}

const INITIAL: GroupsForm = { key: '', metric: 'iops', find: '', page: 0 };

/** Verdicts kept with the grouping they compare, by metric: a kept grouping (useEngineQuery's keep) is
 *  the same object when Models is shown again, and its verdicts are drawn at once while asked again. */
const keptVerdicts = new WeakMap<RunsGroupsResult, Map<MetricId, Verdict[]>>();

function keepVerdicts(grouped: RunsGroupsResult, metric: MetricId, found: Verdict[]): Verdict[] {
  const kept = keptVerdicts.get(grouped) ?? new Map<MetricId, Verdict[]>();
  const before = kept.get(metric);
  const shown = before !== undefined && JSON.stringify(before) === JSON.stringify(found) ? before : found;
  keptVerdicts.set(grouped, kept.set(metric, shown));
  return shown;
}

function useVerdicts(grouped: RunsGroupsResult | null, metric: MetricId): Verdict[] {
  const engine = useEngine();
  const [verdicts, setVerdicts] = useState<{ for: unknown; found: Verdict[] }>({ for: null, found: [] });
  useEffect(() => {
    let current = true;
    const [first, ...others] = grouped?.groups ?? [];
    const compared = others.filter((g) => g.shared_settings > 0);
    if (first === undefined || compared.length === 0 || others.length > MAX_COMPARED) return undefined;
    void Promise.all(compared.map((g) => engine.call('runs.compare', {
      a: first.run_ids, b: g.run_ids, metric, confidence: 0.95, a_label: first.label, b_label: g.label,
    }).then(
      (result): Verdict => ({ group: g.label, result }),
      (e: unknown): Verdict => ({ group: g.label, result: null, problem: e instanceof Error ? e.message : String(e) }),
    ))).then((found) => { if (current) setVerdicts({ for: grouped, found: keepVerdicts(grouped!, metric, found) }); });
    return () => { current = false; };
  }, [engine, grouped, metric]);
  const kept = grouped === null ? undefined : keptVerdicts.get(grouped)?.get(metric);
  return kept ?? (verdicts.for === grouped ? verdicts.found : []);
}

/** The bars of the settings whose name holds `find`, a page of them. */
function pageOfBars(bars: BarChart, find: string, page: number) {
  const wanted = find.trim().toLowerCase();
  const indexes = bars.categories.flatMap((c, i) => (!wanted || c.toLowerCase().includes(wanted) ? [i] : []));
  const paged = pageOf(indexes, page, SETTINGS_PER_PAGE);
  const chart: BarChart = {
    categories: paged.rows.map((i) => bars.categories[i]!),
    series: bars.series.map((s) => ({ ...s, points: paged.rows.map((i, x) => ({ ...s.points[i]!, x })) })),
  };
  return { chart, paged };
}

export function GroupsPanel({ runIds }: { runIds: number[] }) {
  const [form, setForm] = useKept<GroupsForm>('models.groups', INITIAL);
  const set = (change: Partial<GroupsForm>) => setForm((f) => ({ ...f, ...change }));
  // asked once the panel comes onto the screen, and kept for the page: Models shown again draws its
  // groups at once (the engine is asked again)
  const [at, seen] = useOnScreen<HTMLElement>();
  const asked = useEngineQuery('runs.groups', seen && runIds.length ? { run_ids: runIds, key: form.key } : null, { keep: true });
  const grouped = asked.current;
  const groups = grouped?.groups ?? [];
  const bars = useEngineQuery('runs.bars', grouped && groups.length ? {
    groups: groups.map((g) => ({ label: g.label, run_ids: g.run_ids })), metric: form.metric, pool_same_setting: true,
  } : null, { keep: true });
  const shown = bars.current;
  const verdicts = useVerdicts(grouped ?? null, form.metric);
  const info = metricInfo(form.metric);
  const [first, ...others] = groups;
  const apart = others.filter((g) => g.shared_settings === 0);
  const page = shown ? pageOfBars(shown, form.find, form.page) : null;

  return (
    <section className="groups-panel" aria-labelledby="groups-title" ref={at}>
      <h3 id="groups-title">Groups side by side</h3>
      <div className="field-row">
        <div className="field inline">
          <label htmlFor="groups-key">Split by</label>
          <select id="groups-key" value={asked.loading && form.key ? form.key : asked.data?.key ?? form.key}
            onChange={(e) => set({ key: e.target.value, page: 0 })}>
            {(asked.data?.keys ?? []).map((k) => <option key={k.key} value={k.key}>{k.name}</option>)}
          </select>
        </div>
        <div className="field inline">
          <label htmlFor="groups-metric">Metric</label>
          <select id="groups-metric" value={form.metric} onChange={(e) => set({ metric: e.target.value as MetricId })}>
            {METRICS.map((m) => <option key={m.id} value={m.id}>{m.title}</option>)}
          </select>
        </div>
        <div className="field inline">
          <label htmlFor="groups-find">Settings containing</label>
          <input id="groups-find" type="search" value={form.find} placeholder="randread 4KiB, nodes=3"
            onChange={(e) => set({ find: e.target.value, page: 0 })} />
        </div>
      </div>
      {asked.error && <p role="alert" className="error">{asked.error}</p>}
      {grouped && <GroupsSaid grouped={grouped} />}
      {first && apart.length > 0 && (
        <p className="hint" data-testid="groups-apart">
          {apart.map((g) => g.label).join(', ')} measured none of the settings {first.label} measured: nothing to compare
          there. A split whose groups measured the same settings puts them side by side.
        </p>
      )}
      {others.length > MAX_COMPARED && (
        <p className="hint" data-testid="groups-not-compared">
          {groups.length} groups: the bars show them all; Welch&apos;s test against {first?.label} is made for up to
          {' '}{MAX_COMPARED + 1} groups. Narrow the runs in Find runs (e.g. add a tag) to compare them.
        </p>
      )}
      {bars.error && <p role="alert" className="error">{bars.error}</p>}
      {grouped && shown && page ? (
        <>
          <ChartFigure id="groups" kind="bar" xLabel="setting" yLabel={info.unit}
            title={`${info.label} per setting${grouped.key === 'none' ? '' : ` and ${grouped.name}`}: each group's runs of a setting, mean ± 95 % CI`}
            categories={page.chart.categories} series={drawn(page.chart.series, info.scale)}
            empty={form.find ? `No setting's name holds “${form.find}”.` : undefined} />
          <Pager what="settings" page={page.paged} onPage={(p) => set({ page: p })} testId="groups-pages" />
          <BarTable bars={page.chart} scale={info.scale} />
        </>
      ) : (
        !asked.error && !bars.error && <p className="hint" role="status">Grouping {runIds.length.toLocaleString('en-US')} runs…</p>
      )}
      {first && verdicts.length > 0 && <VerdictTable first={first.label} verdicts={verdicts} find={form.find} />}
    </section>
  );
}

/** The split in words: the engine's reason for it, and each group with its runs. */
function GroupsSaid({ grouped }: { grouped: RunsGroupsResult }) {
  const count = (n: number) => `${n.toLocaleString('en-US')} run${n === 1 ? '' : 's'}`;
  return (
    <p className="hint" data-testid="groups-said">
      {grouped.why ? `${grouped.why}. ` : ''}
      {grouped.key === 'none'
        ? `No split: each setting's ${count(grouped.groups[0]?.run_ids.length ?? 0)} as one bar; split by a tag to put groups side by side.`
        : `${grouped.name}: ${grouped.groups.map((g) => `${g.label} (${count(g.run_ids.length)})`).join(', ')}.`}
    </p>
  );
}
