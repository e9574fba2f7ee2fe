// The summary a student writes from, at the top of Results: the key figures at a glance (as
// CrystalDiskMark lists them), how each factor moved them, the best figures against the spec
// sheet, and what the figures cannot tell. The engine computes all of it (`runs.summary`, the same
// answer as the PDF's first page and `ssdprof runs summary`); this view only draws it.
import {
  useEngineQuery, type GlanceCell, type RunResult, type StudentSummary as Summary,
} from '../api';
import { formatLatencyNs, mbPerS } from '../lib/units';
import { AUTO, NONE, runList } from './SpecPanel';

interface Props {
  runs: RunResult[];
  /** The Results view's spec choice: AUTO (the engine picks the sheet remembered for the device,
   *  else the one matching it), NONE, or a sheet's id. */
  specChoice: string;
  /** Pool runs of one setting beyond a sweep's repeats, as the user chose for the charts. */
  poolSameSetting?: boolean;
}

const SIDES = ['read', 'write'] as const;
const FIGURES = ['MB/s', 'IOPS', 'mean latency'] as const;

function cellTitle(cell: GlanceCell): string {
  const n = cell.n > 1 ? `mean of ${cell.n} repeats, ` : '';
  const apart = cell.separate_run_ids.length
    ? `; measured separately in ${runList(cell.separate_run_ids)}, not averaged in` : '';
  return `${cell.setting}: ${n}${runList(cell.run_ids)}${apart}`;
}

function Cells({ cell, side }: { cell: GlanceCell | null; side: string }) {
  if (!cell) return <td className="num" colSpan={3} aria-label={`${side}: not measured`} />;
  const title = cellTitle(cell);
  const mark = cell.all_runs ? ' *' : '';
  return (
    <>
      <td className="num" title={title}>{mbPerS(cell.bw_bytes_per_s).toFixed(1)}{mark}</td>
      <td className="num" title={title}>{Math.round(cell.iops).toLocaleString('en-US')}{mark}</td>
      <td className="num" title={title}>{formatLatencyNs(cell.lat_ns_mean)}{mark}</td>
    </>
  );
}

/** Cells measured by several separate runs: which run each shows, and all of them as the engine pooled them. */
function AllRuns({ summary }: { summary: Summary }) {
  const notes = summary.table.flatMap((row) => SIDES.map((side) => row[side]?.all_runs?.sentence))
    .filter((sentence): sentence is string => Boolean(sentence));
  if (notes.length === 0) return null;
  return (
    <ul className="hint" data-testid="glance-all-runs">
      {notes.map((note) => <li key={note}>* {note}.</li>)}
    </ul>
  );
}

function GlanceTable({ summary }: { summary: Summary }) {
  if (summary.table.length === 0) {
    return <p className="hint">No run only read or only wrote: no key figures to list.</p>;
  }
  return (
    <table className="data" data-testid="glance-table">
      <caption>
        Key figures at a glance, as CrystalDiskMark lists them (SEQ sequential, RND random, QD queue
        depth, T jobs); {summary.table_note}
      </caption>
      <thead>
        <tr><th rowSpan={2}>test</th><th colSpan={3}>read</th><th colSpan={3}>write</th></tr>
        <tr>
          {SIDES.flatMap((side) => FIGURES.map((h) => (
            <th key={`${side}-${h}`} className="num">{h}</th>
          )))}
        </tr>
      </thead>
      <tbody>
        {summary.table.map((row) => (
          <tr key={row.label} data-row={row.label}>
            <th scope="row">{row.label}</th>
            <Cells cell={row.read} side="read" />
            <Cells cell={row.write} side="write" />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Findings({ summary }: { summary: Summary }) {
  return (
    <>
      {summary.factors.length > 0 && (
        <>
          <h4>How each factor moved the figures</h4>
          <ul data-testid="factor-findings">
            {summary.factors.map((f) => (
              <li key={`${f.factor}-${f.held}`} data-factor={f.factor}>{f.sentence}</li>
            ))}
          </ul>
        </>
      )}
      <h4>Best figures and the spec sheet</h4>
      <ul data-testid="best-figures">
        {summary.best.map((b) => <li key={b.quantity} data-quantity={b.quantity}>{b.sentence}</li>)}
        <li data-testid="spec-verdict" data-how={summary.spec.pick.how}>{summary.spec.sentence}</li>
      </ul>
      {summary.caveats.length > 0 && (
        <>
          <h4>What these figures cannot tell</h4>
          <ul data-testid="caveats">
            {summary.caveats.map((c) => (
              <li key={`${c.code}-${c.run_ids.join(',')}`} data-code={c.code} className="warning">
                {c.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

export function StudentSummary({ runs, specChoice, poolSameSetting = false }: Props) {
  const ids = runs.map((r) => r.id).filter((id): id is number => id !== null);
  const asked = useEngineQuery('runs.summary', ids.length ? {
    run_ids: ids, spec_id: specChoice === AUTO || specChoice === NONE ? null : specChoice,
    compare_spec: specChoice !== NONE, pool_same_setting: poolSameSetting,
  } : null);
  const summary = asked.data;
  const problem = asked.error;

  return (
    <section className="student-summary" aria-labelledby="summary-title"
      data-testid="student-summary">
      <h3 id="summary-title">Summary for your report</h3>
      {problem && <p role="alert" className="error">{problem}</p>}
      {summary && (
        <>
          <p className="hint">
            {summary.runs} run(s) of {summary.device}. The same summary opens the PDF report.
          </p>
          <GlanceTable summary={summary} />
          <AllRuns summary={summary} />
          <Findings summary={summary} />
        </>
      )}
    </section>
  );
}
