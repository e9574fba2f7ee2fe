// Scale-up sizing: profile a chassis (and one enclosure) and predict every way to cable a larger
// all-flash array's chassis and enclosures to SAS controllers. The engine fits the model, lists the
// architectures (those within the limits first), and picks the best for QoS-uniformity and
// QoS-priority (`analysis.scale_up`); this panel asks, then draws its answer.
import { useState } from 'react';
import {
  EngineError, useEngine, type ScaleUpArchitecture, type ScaleUpParams,
  type ScaleUpResult,
} from '../api';
import { ChartFigure } from '../charts/ChartFigure';
import { fmt } from '../lib/metrics';
import { saveReport, type SaveNote } from '../lib/save-report';
import { problemsByField, TextField, unplaced } from './Field';

type Metric = NonNullable<ScaleUpParams['metric']>;
type Source = 'runs' | 'typed';
interface PointRow { arrays: string; enclosures: string; iops: string; cores: string }

const LIMIT_FIELDS = [
  ['target_ssds', 'Target SSDs', '240'],
  ['ssds_per_unit', 'SSDs per chassis or enclosure', '24'],
  ['arrays_per_unit', 'Arrays per chassis or enclosure', 'most profiled'],
  ['first_drop_pct', 'Drop, first enclosure (%)', 'profiled, else 10'],
  ['second_drop_pct', 'Drop, second enclosure (%)', 'profiled, else 20'],
  ['farther_drop_pct', 'Drop, each farther (%)', '20'],
  ['max_cpu_cores', 'CPU cores available', 'no limit'],
  ['max_pcie_slots', 'PCIe slots', 'no limit'],
  ['min_array_iops', 'IOPS each array needs', 'no limit'],
] as const;
type Design = (typeof LIMIT_FIELDS)[number][0];
const SHOWN = [...LIMIT_FIELDS.map(([name]) => name), 'points', 'run_ids'];
const FIRST_ROWS = 24;
const EMPTY_POINT: PointRow = { arrays: '', enclosures: '0', iops: '', cores: '' };

/** A typed number, or null when blank; what is not a number is said, by field. */
function numberOf(text: string, field: string, bad: Map<string, string[]>): number | null {
  if (!text.trim()) return null;
  const value = Number(text);
  if (!Number.isFinite(value)) bad.set(field, [`“${text}” is not a number`]);
  return Number.isFinite(value) ? value : null;
}

export function ScaleUpPanel({ runIds }: { runIds: number[] }) {
  const engine = useEngine();
  // with no runs found, the figures can only be typed in
  const [source, setSource] = useState<Source>(runIds.length ? 'runs' : 'typed');
  const [metric, setMetric] = useState<Metric>('write_iops');
  const [design, setDesign] = useState(() => Object.fromEntries(
    LIMIT_FIELDS.map(([name]) => [name, name === 'target_ssds' ? '240' : '']),
  ) as Record<Design, string>);
  const [points, setPoints] = useState<PointRow[]>([EMPTY_POINT]);
  const [result, setResult] = useState<ScaleUpResult | null>(null);
  const [problems, setProblems] = useState<Map<string, string[]>>(new Map());
  const [other, setOther] = useState<string[]>([]);
  const [all, setAll] = useState(false);
  const [note, setNote] = useState<SaveNote | null>(null);

  function params(bad: Map<string, string[]>): ScaleUpParams {
    const filled = source === 'typed' ? points.filter((p) => p.arrays.trim() || p.iops.trim()) : [];
    const typed = filled.map((p) => ({
      arrays: numberOf(p.arrays, 'points', bad) ?? 0,
      enclosures: numberOf(p.enclosures, 'points', bad) ?? 0,
      iops: numberOf(p.iops, 'points', bad) ?? 0,
      cpu_cores: numberOf(p.cores, 'points', bad),
    }));
    const given = Object.fromEntries(
      LIMIT_FIELDS.map(([name]) => [name, numberOf(design[name], name, bad)]));
    return {
      ...given,
      target_ssds: (given.target_ssds as number | null) ?? 0,
      ssds_per_unit: (given.ssds_per_unit as number | null) ?? 24,
      metric, points: typed, run_ids: source === 'runs' ? runIds : [],
    };
  }

  async function size() {
    const bad = new Map<string, string[]>();
    const asked = params(bad);
    setProblems(bad);
    setOther([]);
    setNote(null);
    if (bad.size) return;
    try {
      setResult(await engine.call('analysis.scale_up', asked));
    } catch (error) {
      setResult(null);
      if (error instanceof EngineError && error.problems.length) {
        setProblems(problemsByField(error.problems));
        setOther(unplaced(error.problems, SHOWN));
      } else setOther([error instanceof Error ? error.message : String(error)]);
    }
  }

  async function exportPdf() {
    const asked = params(new Map());
    setNote(await saveReport(engine, () => engine.call('analysis.scale_up_report', asked)));
  }

  const setPoint = (i: number, key: keyof PointRow, value: string) =>
    setPoints(points.map((p, j) => (j === i ? { ...p, [key]: value } : p)));
  return (
    <section className="scale-up-panel" aria-labelledby="scale-up-title">
      <h3 id="scale-up-title">Scale-up sizing</h3>
      <p className="hint">
        Profile a chassis full of SSDs in software-RAID arrays (and the chassis with one
        enclosure), then predict every way to cable a larger array&apos;s chassis and enclosures
        to SAS controllers. Each enclosure in a daisy chain lowers the whole chain&apos;s IOPS;
        spreading the enclosures over controllers costs PCIe slots and CPU. Tag profiling runs in
        History with arrays=N and enclosures=K (controller=NAME), or type the figures in.
      </p>
      <div className="field-row">
        <label>
          <input type="radio" name="scale-up-source" checked={source === 'runs'}
            disabled={!runIds.length} onChange={() => setSource('runs')} />
          {' '}from the runs ({runIds.length})
        </label>
        <label>
          <input type="radio" name="scale-up-source" checked={source === 'typed'}
            onChange={() => setSource('typed')} />
          {' '}typed in
        </label>
        <div className="field inline">
          <label htmlFor="scale-up-metric">Metric</label>
          <select id="scale-up-metric" value={metric}
            onChange={(e) => setMetric(e.target.value as Metric)}>
            <option value="write_iops">write IOPS</option>
            <option value="read_iops">read IOPS</option>
            <option value="iops">IOPS</option>
          </select>
        </div>
      </div>
      {source === 'typed' && (
        <PointsTable points={points} setPoint={setPoint} messages={problems.get('points')}
          add={() => setPoints([...points, EMPTY_POINT])} />
      )}
      {source === 'runs' && problems.get('run_ids')?.map((m) => (
        <p key={m} role="alert" className="problem">{m}</p>
      ))}
      <div className="field-row">
        {LIMIT_FIELDS.map(([name, label, placeholder]) => (
          <TextField key={name} name={name} id={`scale-up-${name}`} label={label}
            value={design[name]} placeholder={placeholder} inputMode="decimal"
            messages={problems.get(name)} onChange={(v) => setDesign({ ...design, [name]: v })} />
        ))}
      </div>
      <button type="button" onClick={() => void size()}>Size the array</button>
      {other.map((m) => <p key={m} role="alert" className="error">{m}</p>)}
      {result && (
        <Answer result={result} all={all} setAll={setAll} note={note}
          exportPdf={() => void exportPdf()} />
      )}
    </section>
  );
}

interface PointsProps {
  points: PointRow[];
  setPoint: (i: number, key: keyof PointRow, value: string) => void;
  add: () => void;
  messages?: string[];
}

const POINT_COLUMNS: [keyof PointRow, string][] = [
  ['arrays', 'arrays'], ['enclosures', 'enclosures'], ['iops', 'IOPS'], ['cores', 'CPU cores busy'],
];

function PointsTable({ points, setPoint, add, messages }: PointsProps) {
  return (
    <table className="data" data-testid="scale-up-points">
      <caption>
        Profiling figures: the chassis (enclosures 0) and the chassis with enclosures chained to it
      </caption>
      <thead><tr>{POINT_COLUMNS.map(([, title]) => <th key={title}>{title}</th>)}</tr></thead>
      <tbody>
        {points.map((p, i) => (
          <tr key={i}>{POINT_COLUMNS.map(([key, title]) => (
            <td key={key}>
              <input aria-label={`${title}, point ${i + 1}`} value={p[key]} size={8}
                inputMode="decimal" onChange={(e) => setPoint(i, key, e.target.value)} />
            </td>
          ))}</tr>
        ))}
      </tbody>
      <tfoot><tr><td colSpan={4}>
        <button type="button" onClick={add}>Add a point</button>
        {messages?.map((m) => (
          <p key={m} role="alert" className="problem" data-field="points">{m}</p>
        ))}
      </td></tr></tfoot>
    </table>
  );
}

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

function Answer({ result, all, setAll, exportPdf, note }: AnswerProps) {
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
