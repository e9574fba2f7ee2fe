// The results table: one row per run and direction, and for a run that reads and writes a row of
// all its I/Os together (the engine's RunResult.mixed: percentiles from the merged bins), units in
// the headers, each warning marked next to the number it concerns; copy as tab-separated text, or
// CSV from the engine. Beneath it, the figures of several runs (a sweep's repeats, or runs the
// user chose to pool) as the engine computed them, each with n and where its runs came from.
import { useMemo, useState } from 'react';
import {
  useEngine, type DirectionStats, type MeanValue, type RunPoint, type RunResult,
  type ValidityWarning,
} from '../api';
import { activeDirections, type Direction } from '../lib/analysis';

/** A row's I/Os: one direction's, or all of a run's ('all': reads and writes together). */
type Part = Direction | 'all';

function partOf(run: RunResult, part: Part): DirectionStats {
  return part === 'all' ? run.mixed : run[part];
}

/** A run's rows: each direction it did, and all its I/Os where it did both. */
function partsOf(run: RunResult): Part[] {
  const directions: Part[] = activeDirections(run);
  return directions.length === 2 ? [...directions, 'all'] : directions;
}
import { mbPerS, mibPerS } from '../lib/units';
import { ownWarnings, sharedWarnings } from './shared-warnings';
import { useKept } from '../state/kept';

interface Column {
  key: string;
  head: string;
  value: (s: DirectionStats, run: RunResult) => number | null;
  digits: number;
  concern?: string;
}

const COLUMNS: readonly Column[] = [
  { key: 'iops', head: 'IOPS', value: (s) => s.iops, digits: 0 },
  { key: 'bw_bytes_per_s', head: 'MB/s', value: (s) => mbPerS(s.bw_bytes_per_s), digits: 1 },
  { key: 'bw_MiB', head: 'MiB/s', value: (s) => mibPerS(s.bw_bytes_per_s), digits: 1, concern: 'bw_bytes_per_s' },
  { key: 'lat_ns.mean', head: 'mean µs', value: (s) => us(s.lat_ns.mean), digits: 1 },
  { key: 'lat_ns.p50', head: 'p50 µs', value: (s) => us(s.lat_ns.p50), digits: 1 },
  { key: 'lat_ns.p99', head: 'p99 µs', value: (s) => us(s.lat_ns.p99), digits: 1 },
  { key: 'lat_ns.p99_9', head: 'p99.9 µs', value: (s) => us(s.lat_ns.p99_9), digits: 1 },
];

/** Total latency's two parts, where the engine timed them apart (fio's asynchronous engines). */
const BREAKDOWN: readonly Column[] = [
  { key: 'slat_ns.mean', head: 'submission mean µs', value: (s) => us(s.slat_ns.mean), digits: 1 },
  { key: 'clat_ns.mean', head: 'completion mean µs', value: (s) => us(s.slat_ns.mean === null ? null : s.clat_ns.mean), digits: 1 },
  // How much of the queue reached the device (the OS's disk counters; local direct I/O only).
  { key: 'device_queue', head: 'at device (mean I/Os)', value: (_s, run) => run.device_queue?.mean_in_flight ?? null, digits: 1 },
];

const KIND_NOTES: Record<string, string> = {
  total_mean_only: 'imported without total-latency percentiles: p50/p99 left empty rather than taken from completion latency',
  completion_only: 'only completion latency was recorded: total latency is unknown',
};

function us(ns: number | null): number | null {
  return ns === null ? null : ns / 1e3;
}

/** The drive's lowest–highest temperature during the run, by its own sensor (e.g. '41–47'). */
function temperatureRange(run: RunResult): string | null {
  const d = run.drive_health?.delta;
  if (d?.temperature_min_c == null || d.temperature_max_c == null) return null;
  return `${d.temperature_min_c.toFixed(0)}–${d.temperature_max_c.toFixed(0)}`;
}

function concerning(run: RunResult, direction: Part, key: string): ValidityWarning[] {
  if (direction === 'all') return [];
  return run.warnings.filter((w) => w.concerns.some((c) => c === direction || c === `${direction}.${key}` || c.startsWith(`${direction}.${key}.`)));
}

/** Rows drawn at first; a long sweep's table is opened in full on request (copy and CSV always hold every row). */
export const FIRST_ROWS = 200;

interface Props {
  runs: RunResult[];
  /** The runs as figures (runs.charts' points): those of several runs get a table of their own. */
  figures?: RunPoint[];
  /** Whether runs of one setting are pooled beyond a sweep's repeats (the user's choice). */
  pool?: { on: boolean; set: (on: boolean) => void };
}

export function ResultsTable({ runs, figures, pool }: Props) {
  const engine = useEngine();
  const [note, setNote] = useState('');
  const [showAll, setShowAll] = useState(false);
  const [breakdown, setBreakdown] = useKept('results-breakdown', false);
  const columns = breakdown ? [...COLUMNS, ...BREAKDOWN] : COLUMNS;
  const rows = useMemo(() => runs.flatMap((run) => partsOf(run).map((direction) => ({ run, direction }))), [runs]);
  const shown = showAll ? rows : rows.slice(0, FIRST_ROWS);
  // the drive's temperature only where some run read one: no empty column elsewhere
  const warm = runs.some((run) => temperatureRange(run) !== null);
  const shared = useMemo(() => sharedWarnings(runs), [runs]);

  async function copy() {
    const header = ['run', 'workload', 'direction', ...columns.map((c) => c.head),
      ...(warm ? ['drive °C'] : []), 'status', 'warnings'].join('\t');
    const lines = rows.map(({ run, direction }) => [
      run.id ?? '', run.workload.label, direction,
      ...columns.map((c) => { const v = c.value(partOf(run, direction), run); return v === null ? '' : v.toFixed(c.digits); }),
      ...(warm ? [temperatureRange(run) ?? ''] : []), run.status, run.warnings.map((w) => w.message).join(' | '),
    ].join('\t'));
    try {
      await navigator.clipboard.writeText([header, ...lines].join('\n'));
      setNote(`Copied ${lines.length} rows (tab-separated; paste into a spreadsheet).`);
    } catch {
      setNote('The clipboard is not available here; use Download CSV.');
    }
  }

  async function downloadCsv() {
    const ids = runs.map((r) => r.id).filter((id): id is number => id !== null);
    try {
      const exported = await engine.call('export.csv', { run_ids: ids });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([exported.csv], { type: 'text/csv' }));
      link.download = exported.filename;
      link.click();
      URL.revokeObjectURL(link.href);
      setNote(`Saved ${exported.filename} (${exported.runs} runs; units in the column names).`);
    } catch (error) {
      setNote(`CSV export failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  if (rows.length === 0) return <p className="empty">No completed I/O in these runs.</p>;
  return (
    <div className="results-table">
      <div className="actions">
        <button type="button" onClick={() => void copy()}>Copy table</button>
        <button type="button" onClick={() => void downloadCsv()}>Download CSV</button>
        <label><input type="checkbox" checked={breakdown} onChange={(e) => setBreakdown(e.target.checked)} /> Submission / completion</label>
        <span role="status">{note}</span>
      </div>
      {shared.length > 0 && (
        <div className="warnings" data-testid="shared-warnings">
          {shared.map((w) => <div key={w.code} className={w.severity}>Every run: {w.message}</div>)}
        </div>
      )}
      <table className="data" data-testid="results-table">
        <caption>
          Results: latency is total latency, submission to completion (fio&apos;s lat; the same span on every engine)
          {breakdown && <>; submission + completion = total where the engine timed them apart (fio&apos;s asynchronous engines), – elsewhere; at device: the mean number of I/Os the block layer held, from the disk&apos;s counters (of the queue depth × jobs kept outstanding)</>}
          {rows.some((r) => r.direction === 'all') && <>; all: a run&apos;s reads and writes together, its percentiles of all its I/Os from the merged histogram bins (fio&apos;s unified_rw_reporting=mixed)</>};
          MB = 10⁶ bytes, MiB = 2²⁰ bytes
          {warm && <>; drive °C: the drive&apos;s lowest–highest temperature during the run, by its own sensor</>}
        </caption>
        <thead>
          <tr>
            <th scope="col">run</th><th scope="col">workload</th><th scope="col">dir</th>
            {columns.map((c) => <th key={c.key} scope="col" className="num">{c.head}</th>)}
            {warm && <th scope="col" className="num">drive °C</th>}
            <th scope="col">status</th><th scope="col">warnings</th>
          </tr>
        </thead>
        <tbody>
          {shown.map(({ run, direction }) => (
            <tr key={`${run.id}-${direction}`} data-direction={direction}>
              <td>{run.id}</td><td>{run.workload.label}</td><td>{direction}</td>
              {columns.map((c) => {
                const value = c.value(partOf(run, direction), run);
                const flags = concerning(run, direction, c.concern ?? c.key);
                return (
                  <td key={c.key} className="num">
                    {value === null ? '–' : value.toFixed(c.digits)}
                    {flags.length > 0 && <span className="flag" role="img" aria-label={flags.map((w) => w.message).join('; ')} title={flags.map((w) => w.message).join('\n')}> ⚠</span>}
                  </td>
                );
              })}
              {warm && <td className="num" data-testid="drive-temperature">{temperatureRange(run) ?? '–'}</td>}
              <td>{run.status}</td>
              <td className="warnings">
                {direction !== 'all' && ownWarnings(run, shared).map((w, i) => <div key={`${w.code}-${i}`} className={w.severity}>{w.message}</div>)}
                {KIND_NOTES[partOf(run, direction).latency_kind] && <div className="info">{KIND_NOTES[partOf(run, direction).latency_kind]}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length < rows.length && (
        <p className="hint">
          The first {shown.length} of {rows.length} rows.{' '}
          <button type="button" onClick={() => setShowAll(true)}>Show all {rows.length} rows</button>
        </p>
      )}
      {figures && <PooledFigures figures={figures} pool={pool} />}
    </div>
  );
}

/** `mean ± half width` of a pooled figure, in the unit `show` turns it into; a percentile of
 *  several runs' I/Os together (from their added bins) has no interval. */
function interval(value: MeanValue | null | undefined, show: (v: number) => number, digits: number): string {
  if (value == null) return '–';
  const text = (v: number) => show(v).toFixed(digits);
  const half = value.half_width;
  return half === null ? text(value.mean) : `${text(value.mean)} ± ${text(half)}`;
}

const asIs = (v: number) => v;
const usOf = (ns: number) => ns / 1e3;

function PooledFigures({ figures, pool }: { figures: RunPoint[]; pool?: Props['pool'] }) {
  const pooled = figures.filter((f) => f.kind !== 'single');
  const directions = pooled.some((f) => f.read_lat_ns_p99 != null || f.write_lat_ns_p99 != null);
  return (
    <div className="pooled-figures">
      {pool && (
        <label>
          <input type="checkbox" checked={pool.on} onChange={(e) => pool.set(e.target.checked)} />
          {' '}Pool runs of one setting from different sweeps or series into one mean (not only the
          repeats a sweep asked for)
        </label>
      )}
      {pooled.length === 0 ? (
        <p className="hint" data-testid="no-pooled">
          Every figure is one run: nothing was repeated (set Repeats in the designer for a 95 %
          confidence interval)
          {pool && !pool.on ? ', and runs of one setting are pooled only if you choose to' : ''}.
        </p>
      ) : (
        <table className="data" data-testid="pooled-table">
          <caption>
            Figures of several runs: mean ± half width of the 95 % confidence interval
            (Student&apos;s t), with n and where the runs came from; p99: of all the runs&apos; I/Os
            together, reads and writes, from their added histogram bins (a percentile is never
            averaged, so it has no interval){directions ? '; each direction\'s own beside it' : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">setting</th><th scope="col">n and source</th><th scope="col">runs</th>
              <th scope="col" className="num">IOPS</th><th scope="col" className="num">MB/s</th>
              <th scope="col" className="num">mean µs</th>
              <th scope="col" className="num">p99 µs, all I/Os</th>
              {directions && <><th scope="col" className="num">read p99 µs</th><th scope="col" className="num">write p99 µs</th></>}
            </tr>
          </thead>
          <tbody>
            {pooled.map((f) => (
              <tr key={f.run_ids.join(',')} data-kind={f.kind}>
                <td>{f.label}</td><td>{f.source}</td><td>{f.run_ids.join(', ')}</td>
                <td className="num">{interval(f.iops, asIs, 0)}</td>
                <td className="num">{interval(f.bw_bytes_per_s, mbPerS, 1)}</td>
                <td className="num">{interval(f.lat_ns_mean, usOf, 1)}</td>
                <td className="num" data-testid="pooled-p99">{interval(f.lat_ns_p99, usOf, 1)}</td>
                {directions && (
                  <>
                    <td className="num">{interval(f.read_lat_ns_p99, usOf, 1)}</td>
                    <td className="num">{interval(f.write_lat_ns_p99, usOf, 1)}</td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
