// Scale-up sizing: profile a chassis (and one enclosure) and predict every way to cable a larger
// all-flash array's chassis and enclosures to SAS controllers. The engine fits the model, lists the
// architectures (those within the limits first), and picks the best for QoS-uniformity and
// QoS-priority (`analysis.scale_up`); this panel asks, then draws its answer.
import { useState } from 'react';
import { EngineError, useEngine, type ScaleUpParams, type ScaleUpResult } from '../api';
import { saveReport, type SaveNote } from '../lib/save-report';
import { problemsByField, TextField, unplaced } from './Field';
import { ScaleUpAnswer } from './ScaleUpAnswer';

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
const EMPTY_POINT: PointRow = { arrays: '', enclosures: '0', iops: '', cores: '' };

/** A typed number, or null when blank; what is not a number is said, by field. */
function numberOf(
  text: string, field: string, bad: Map<string, string[]>, what = '',
): number | null {
  if (!text.trim()) return null;
  const value = Number(text);
  if (!Number.isFinite(value)) {
    bad.set(field, [...bad.get(field) ?? [], `${what}“${text}” is not a number`]);
  }
  return Number.isFinite(value) ? value : null;
}

/** A profiling point's figures; a cell that is no number is named by its column and row. */
function pointOf(p: PointRow, i: number, bad: Map<string, string[]>) {
  const cell = (key: keyof PointRow, title: string) =>
    numberOf(p[key], 'points', bad, `${title} of point ${i + 1}: `);
  return {
    arrays: cell('arrays', 'arrays') ?? 0,
    enclosures: cell('enclosures', 'enclosures') ?? 0,
    iops: p.iops.trim(), // as typed (155000, 155k): the engine reads counts, and names a bad one
    cpu_cores: cell('cores', 'CPU cores busy'),
  };
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
    const typed = source !== 'typed' ? [] : points
      .map((p, i) => [p, i] as const)
      .filter(([p]) => p.arrays.trim() || p.iops.trim())
      .map(([p, i]) => pointOf(p, i, bad));
    const given = Object.fromEntries(LIMIT_FIELDS.map(([name]) => [name, name === 'min_array_iops'
      ? design[name].trim() || null : numberOf(design[name], name, bad)]));
    return {
      ...given,
      target_ssds: (given.target_ssds as number | null) ?? 0,
      ssds_per_unit: (given.ssds_per_unit as number | null) ?? 24,
      metric, points: typed, run_ids: source === 'runs' ? runIds : [],
    };
  }

  async function size() {
    const typedWrong = new Map<string, string[]>();
    const asked = params(typedWrong);
    setNote(null);
    // Every bad field at once: the engine is asked even when a field is no number (that field
    // left out), and says what is wrong with the others; the field's own word stands for it.
    let answer: ScaleUpResult | null = null;
    let said = new Map<string, string[]>();
    let others: string[] = [];
    try {
      answer = await engine.call('analysis.scale_up', asked);
    } catch (error) {
      if (error instanceof EngineError && error.problems.length) {
        said = problemsByField(error.problems);
        others = unplaced(error.problems, SHOWN);
      } else others = [error instanceof Error ? error.message : String(error)];
    }
    // a field may hold both: the engine's word for one cell, the panel's for another
    const merged = new Map(said);
    typedWrong.forEach((words, field) => merged.set(field, [...merged.get(field) ?? [], ...words]));
    setProblems(merged);
    setOther(others);
    setResult(typedWrong.size ? null : answer);
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
        <ScaleUpAnswer result={result} all={all} setAll={setAll} note={note}
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
