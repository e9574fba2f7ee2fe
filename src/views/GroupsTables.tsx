// The Groups panel's numbers as tables: the bars on the page shown (mean ± 95 % CI, n and where the
// runs came from, the engine's words), and Welch's verdicts of each group against the first, each
// comparison summed up in the engine's sentence naming both groups, its rows a page at a time.
import { useState } from 'react';
import type { BarChart, RunsCompareResult } from '../api';
import { fmt } from '../lib/metrics';
import { Pager, pageOf } from './Pager';

const VERDICTS_PER_PAGE = 12;

export type Verdict = { group: string; result: RunsCompareResult | null; problem?: string };

/** Every bar with its n and where its runs came from: never a bare mean. */
export function BarTable({ bars, scale }: { bars: BarChart; scale: number }) {
  const rows = bars.categories.flatMap((category, i) => bars.series.flatMap((s) => {
    const p = s.points[i];
    if (!p || p.y === null) return [];
    const half = p.half_width === null ? '' : ` ± ${fmt(p.half_width / scale)}`;
    return [{ category, group: s.label, mean: `${fmt(p.y / scale)}${half}`, source: p.source }];
  }));
  if (rows.length === 0) return null;
  return (
    <table className="data" data-testid="group-bars">
      <caption>The bars above: mean ± 95 % CI, n and where the runs came from</caption>
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

export function VerdictTable({ first, verdicts, find }: { first: string; verdicts: Verdict[]; find: string }) {
  const [page, setPage] = useState(0);
  const wanted = find.trim().toLowerCase();
  const rows = verdicts.flatMap((v) => (v.result
    ? v.result.comparisons.filter((c) => !wanted || c.setting.toLowerCase().includes(wanted)).map((c) => ({ group: v.group, c }))
    : []));
  const paged = pageOf(rows, page, VERDICTS_PER_PAGE);
  return (
    <div data-testid="group-verdicts">
      <h4>Each group against {first}, by Welch&apos;s t-test</h4>
      <ul className="verdict-summaries">
        {verdicts.map((v) => (
          <li key={v.group} data-testid="verdict-summary">
            {v.result ? `${v.result.summary}.` : `${v.group}: ${v.problem ?? ''}`}
            {v.result?.latency_note ? ` ${v.result.latency_note}` : ''}
          </li>
        ))}
      </ul>
      <table className="data">
        <caption>
          Setting by setting: each group&apos;s runs of a setting are its sample, mean ± 95 % CI, from whichever sweeps
        </caption>
        <thead><tr><th>group</th><th>setting</th><th>{first}</th><th>group</th><th>difference</th><th>verdict</th></tr></thead>
        <tbody>
          {paged.rows.map(({ group, c }, i) => (
            <tr key={`${group}-${paged.from + i}`}>
              <td>{group}</td><td>{c.setting}</td>
              <td>{fmt(c.a.mean)}{c.a.half_width !== null ? ` ± ${fmt(c.a.half_width)}` : ''} (n={c.a.n})</td>
              <td>{fmt(c.b.mean)}{c.b.half_width !== null ? ` ± ${fmt(c.b.half_width)}` : ''} (n={c.b.n})</td>
              <td>{c.diff_pct === null ? '–' : `${c.diff_pct >= 0 ? '+' : ''}${c.diff_pct.toFixed(1)} %`}</td>
              <td>{c.p_value === null ? 'not testable' : c.significant ? 'significant' : 'not significant'} — {c.verdict}</td>
            </tr>
          ))}
          {rows.length === 0 && <tr><td colSpan={6} className="hint">No compared setting&apos;s name holds “{find}”.</td></tr>}
        </tbody>
      </table>
      <Pager what="compared settings" page={paged} onPage={setPage} />
    </div>
  );
}
