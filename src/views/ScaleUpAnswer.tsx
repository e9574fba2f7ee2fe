// The scale-up sizing's answer as the engine gave it: the profile every prediction comes from,
// the architectures charted and listed (those within the limits first), and the PDF export.
import { type ScaleUpArchitecture, type ScaleUpResult } from '../api';
import { ChartFigure } from '../charts/ChartFigure';
import { fmt } from '../lib/metrics';
import { type SaveNote } from '../lib/save-report';

const FIRST_ROWS = 24;

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
    const line = `${cpu.slope_cores_per_iops_per_array.toPrecision(3)}·N + `
      + cpu.intercept_cores_per_iops.toPrecision(3);
    rows.push(['CPU factor, cores per IOPS', line, `${cpu.source}; ${cpu.quality.note}`]);
  }
  return rows;
}

export function ScaleUpAnswer({ result, all, setAll, exportPdf, note }: AnswerProps) {
  const shown = all ? result.architectures : result.architectures.slice(0, FIRST_ROWS);
  const charted = result.architectures.slice(0, FIRST_ROWS);
  const keys = charted.map((a) => a.key);
  const iops = (within: boolean) =>
    charted.map((a, x) => ({ x, y: a.within_limits === within ? a.iops : null }));
  return (
    <div className="scale-up-answer" data-testid="scale-up-answer">
      <h4>
        {result.target_ssds} SSDs: a chassis and {result.enclosures} enclosures — {result.label}
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
        xLabel="chains per SAS controller" yLabel="IOPS" categories={keys}
        series={[{ label: 'within the limits', points: iops(true) },
          { label: 'misses a limit', points: iops(false) }]} />
      {charted.some((a) => a.cpu_cores !== null) && (
        <ChartFigure id="scale-up-cpu" kind="bar" title="Predicted CPU cores"
          xLabel="chains per SAS controller" yLabel="cores" categories={keys}
          series={[{ label: 'CPU cores',
            points: charted.map((a, x) => ({ x, y: a.cpu_cores })) }]} />
      )}
      <ArchitectureTable shown={shown} count={result.count} band={result.error_band.text} />
      {result.architectures.length > FIRST_ROWS && (
        <button type="button" onClick={() => setAll(!all)}>
          {all ? `Show the first ${FIRST_ROWS}` : `Show all ${result.count}`}
        </button>
      )}
      <ul className="hint">{result.notes.map((n) => <li key={n}>{n}</li>)}</ul>
      <button type="button" onClick={exportPdf}>Export PDF</button>
      {note && <p role="status" className={note.ok ? 'hint' : 'error'}>{note.text}</p>}
    </div>
  );
}

function perArray(a: ScaleUpArchitecture): string {
  const low = fmt(a.iops_per_array_min);
  const high = fmt(a.iops_per_array_max);
  return low === high ? low : `${low}–${high}`;
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
