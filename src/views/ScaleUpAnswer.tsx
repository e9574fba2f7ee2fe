// The scale-up sizing's answer as the engine gave it: the profile every prediction comes from,
// the architectures charted and listed (those within the limits first), and the PDF export.
import { type ScaleUpArchitecture, type ScaleUpResult } from '../api';
import { ChartFigure } from '../charts/ChartFigure';
import { fmt } from '../lib/metrics';
import { type SaveNote } from '../lib/save-report';

const FIRST_ROWS = 24;
/** What an architecture's key (8-1-1) counts, as the PDF's chart names it. */
const CHAINS = 'chain lengths (chassis + enclosures) per SAS controller';

interface AnswerProps {
  result: ScaleUpResult;
  all: boolean;
  setAll: (all: boolean) => void;
  exportPdf: () => void;
  note: SaveNote | null;
}

/** The profile as rows: each parameter, its value and where it came from, in the engine's words. */
function profileRows(p: ScaleUpResult['profile']): [string, string, string][] {
  const drops = [
    ['drop, first enclosure', p.first_drop_pct],
    ['drop, second enclosure', p.second_drop_pct],
    ['drop, each farther enclosure', p.farther_drop_pct],
  ] as const;
  const rows: [string, string, string][] = [
    ['chassis IOPS', fmt(p.chassis_iops.value), p.chassis_iops.source],
    ...drops.map(([name, f]): [string, string, string] =>
      [name, `${f.value.toFixed(1)} %`, f.source]),
    ['arrays per chassis or enclosure', fmt(p.arrays_per_unit.value), p.arrays_per_unit.source],
  ];
  const cpu = p.cpu_factor;
  if (cpu) {
    // three figures without trailing zeros (0.000001, not 0.00000100)
    const short = (x: number) => String(Number(x.toPrecision(3)));
    const line = `${short(cpu.slope_cores_per_iops_per_array)}·N + `
      + short(cpu.intercept_cores_per_iops);
    rows.push(['CPU factor, cores per IOPS', line, `${cpu.source}; ${cpu.quality.note}`]);
  }
  return rows;
}

/** The first architectures and, always, the picks and the daisy chain they are compared with (as
 *  the PDF charts them): without a slot limit the daisy chain has the fewest IOPS of all. */
function firstAndPicks(result: ScaleUpResult): ScaleUpArchitecture[] {
  const first = result.architectures.slice(0, FIRST_ROWS);
  const keys = new Set(first.map((a) => a.key));
  for (const a of [result.best_uniform, result.best_priority, result.daisy_chain]) {
    if (a && !keys.has(a.key)) {
      first.push(a);
      keys.add(a.key);
    }
  }
  return first;
}

export function ScaleUpAnswer({ result, all, setAll, exportPdf, note }: AnswerProps) {
  const charted = firstAndPicks(result);
  const shown = all ? result.architectures : charted;
  const fewer = `Show the first ${FIRST_ROWS}`
    + (charted.length > FIRST_ROWS ? ' and the picks' : '');
  const keys = charted.map((a) => a.key);
  const iops = (within: boolean) =>
    charted.map((a, x) => ({ x, y: a.within_limits === within ? a.iops : null }));
  return (
    <div className="scale-up-answer" data-testid="scale-up-answer">
      <h4>
        {result.sized} — {result.label}
      </h4>
      {result.summary.map((line) => <p key={line} data-testid="scale-up-summary">{line}</p>)}
      {result.none_fit && (
        <p role="alert" className="error" data-testid="scale-up-none-fit">{result.none_fit}</p>
      )}
      <table className="data" data-testid="scale-up-profile">
        <caption>The profile every prediction comes from</caption>
        <thead><tr><th>parameter</th><th>value</th><th>from</th></tr></thead>
        <tbody>
          {profileRows(result.profile).map(([name, value, from]) => (
            <tr key={name}><td>{name}</td><td className="num">{value}</td><td>{from}</td></tr>
          ))}
        </tbody>
      </table>
      <ChartFigure id="scale-up-iops" kind="bar"
        title={`Predicted IOPS of ${charted.length} architectures`}
        xLabel={CHAINS} yLabel="IOPS" categories={keys}
        series={[{ label: 'within the limits', points: iops(true) },
          { label: 'misses a limit', points: iops(false) }]} />
      {charted.some((a) => a.cpu_cores !== null) && (
        <ChartFigure id="scale-up-cpu" kind="bar" title="Predicted CPU cores"
          xLabel={CHAINS} yLabel="cores" categories={keys}
          series={[{ label: 'CPU cores',
            points: charted.map((a, x) => ({ x, y: a.cpu_cores })) }]} />
      )}
      <ArchitectureTable shown={shown} count={result.count} band={result.error_band.text} />
      {result.architectures.length > charted.length && (
        <button type="button" onClick={() => setAll(!all)}>
          {all ? fewer : `Show all ${result.count}`}
        </button>
      )}
      <ul className="hint">{result.notes.map((n) => <li key={n}>{n}</li>)}</ul>
      <button type="button" onClick={exportPdf}>Export PDF</button>
      {note && <p role="status" className={note.ok ? 'hint' : 'error'}>{note.text}</p>}
    </div>
  );
}

/** Whole IOPS, as the engine's summary and the PDF give them: a prediction good to about 13 %
 *  has no decimals to tell. */
function perArray(a: ScaleUpArchitecture): string {
  const low = fmt(Math.round(a.iops_per_array_min));
  const high = fmt(Math.round(a.iops_per_array_max));
  // word joiners keep a range on one line in a narrow column
  return low === high ? low : `${low}\u2060–\u2060${high}`;
}

interface TableProps { shown: ScaleUpArchitecture[]; count: number; band: string }

function ArchitectureTable({ shown, count, band }: TableProps) {
  const within = (a: ScaleUpArchitecture) =>
    `${fmt(a.iops_low)}–${fmt(a.iops_high)} within the published error band`;
  return (
    <table className="data" data-testid="scale-up-table">
      <caption>
        {shown.length} of {count} architectures, those within the limits first; {band}
      </caption>
      <thead><tr>
        <th>within limits</th><th>chains</th><th>cabling</th><th>PCIe slots</th><th>IOPS</th>
        <th>IOPS per array</th><th>CPU cores</th><th>missed</th>
      </tr></thead>
      <tbody>
        {shown.map((a) => (
          <tr key={a.key} className={a.within_limits ? 'within' : 'outside'}
            data-testid="scale-up-row">
            <td>{a.within_limits ? '✓' : '✗'}</td><td>{a.key}</td><td>{a.label}</td>
            <td className="num">{a.pcie_slots}</td>
            <td className="num" title={within(a)}>{fmt(a.iops)}</td>
            <td className="num">{perArray(a)}</td>
            <td className="num">{fmt(a.cpu_cores)}</td>
            <td title={a.basis}>{a.broken.join('; ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
