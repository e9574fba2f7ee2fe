// Results: the curves a report needs, from stored runs, with spec figures and earlier runs
// overlaid; observations in plain words; % of spec; the comparison with earlier runs; one run in detail (distribution, time
// series, hosts); the table; the PDF report (made by the engine).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ChartFigure } from '../charts/ChartFigure';
import { TEMPERATURE_AXIS, temperatureSeries } from '../charts/drive-temperature';
import { drawn } from '../charts/engine-series';
import { secondsSeries } from '../charts/run-seconds';
import {
  useEngine, useEngineQuery, type Engine, type RunPoint, type RunResult, type Spec,
} from '../api';
import { ComparePanel } from './ComparePanel';
import { DrivePanel } from './DrivePanel';
import { HostResults } from './HostResults';
import { Observations } from './Observations';
import { AUTO, NONE, SpecPanel } from './SpecPanel';
import { formatPercentile, formatSize } from '../lib/units';
import { saveReport } from '../lib/save-report';
import { ResultsTable } from './ResultsTable';
import { StudentSummary } from './StudentSummary';
import { useKept } from '../state/kept';

interface Props {
  title: string;
  runs: RunResult[];
  onDesign: () => void;
  /** Given, a view opened with no runs shows the engine's last finished sweep (after a reload). */
  onOpen?: (title: string, runs: RunResult[]) => void;
}

const US = 1e3;
const MB = 1e6;
const ids = (runs: RunResult[]) => runs.map((r) => r.id).filter((id): id is number => id !== null);

export function Results({ title, runs, onDesign, onOpen }: Props) {
  const engine = useEngine();
  const [looking, setLooking] = useState(runs.length === 0 && onOpen !== undefined);
  // the runs shown are kept for the session: a reload opens them again, else the last finished sweep
  const [opened, setOpened] = useKept<{ title: string; ids: number[] }>('results-opened', { title: '', ids: [] });
  useEffect(() => {
    if (runs.length > 0) setOpened({ title, ids: ids(runs) });
  }, [title, runs, setOpened]);
  useEffect(() => {
    if (runs.length > 0 || !onOpen) return;
    let current = true;
    reopened(engine, opened).then((found) => {
      if (current && found) onOpen(found.title, found.runs);
    }, () => undefined).finally(() => current && setLooking(false));
    return () => { current = false; };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the view opens without runs
  }, [engine]);
  const [selectedId, setSelectedId] = useState<number | null>(runs[0]?.id ?? null);
  const [specChoice, setSpecChoice] = useKept<string>('results-spec', AUTO);
  const [spec, setSpec] = useState<Spec | null>(null);
  const [earlier, setEarlier] = useState<RunResult[]>([]);
  const [exporting, setExporting] = useState(false);
  const [exportNote, setExportNote] = useState<{ ok: boolean; text: string } | null>(null);
  const onSpec = useCallback((s: Spec | null) => setSpec(s), []);

  const tableRuns = useMemo(() => [...runs, ...earlier], [runs, earlier]);
  // Runs of one setting are one mean ± CI only as a sweep's repeats, or when the user pools them.
  const [pool, setPool] = useKept('results-pool', false);
  // Every series the charts draw comes from the engine (runs.charts): the PDF's numbers.
  const charts = useEngineQuery('runs.charts', runs.length === 0 ? null : {
    run_ids: ids(runs), compare_with: ids(earlier), spec_id: spec?.id ?? null,
    pool_same_setting: pool,
  }).data;
  // an empty chart says why only once the engine has answered: before that, nothing is known yet
  const unless = (why: string): string => (charts ? why : 'Asking the engine for the series…');

  // New runs start from their first run and no earlier ones; adjusted while rendering, not after.
  const [shownRuns, setShownRuns] = useState(runs);
  if (shownRuns !== runs) {
    setShownRuns(runs);
    setSelectedId(runs[0]?.id ?? null);
    setEarlier([]);
  }
  const asked = selectedId === null ? null : { run_id: selectedId };
  const shown = useEngineQuery('runs.get', asked);
  const detail = shown.data?.run ?? null;
  const curve = useEngineQuery('runs.percentiles', asked).data;

  if (runs.length === 0) {
    return (
      <section aria-labelledby="results-title">
        <h2 id="results-title">Results</h2>
        {looking
          ? <p className="hint" role="status">Opening the last finished sweep…</p>
          : (
            <p className="empty">
              No results to show yet. Run a sweep (the student preset draws every chart), or open runs
              from History.
            </p>
          )}
        <button type="button" onClick={onDesign}>Go to the designer</button>
      </section>
    );
  }

  async function exportPdf() {
    setExporting(true);
    setExportNote(null);
    setExportNote(await saveReport(engine, () => engine.call('report.pdf', {
      run_ids: runs.map((r) => r.id!).filter((id) => id !== null), compare_with: earlier.map((r) => r.id!),
      spec_id: specChoice !== AUTO && specChoice !== NONE ? specChoice : null, title: `SSD performance report — ${title}`,
      pool_same_setting: pool,
    }), (report) => `${Math.ceil(report.bytes / 1024)} KiB, ${report.runs} run(s)`));
    setExporting(false);
  }

  const points = charts?.points ?? [];
  const warm = (detail?.drive_health?.temperatures ?? [])
    .map((t) => ({ x: t.elapsed_s, y: t.celsius }));

  return (
    <section aria-labelledby="results-title" className="results">
      <h2 id="results-title">Results — {title}</h2>
      <div className="toolbar">
        <p className="hint">{runs.length} run(s). Latency is total latency, submission to completion (fio's lat), on every engine; percentiles come from histogram bins. A run that reads and writes is shown as all its I/Os together (percentiles from the merged bins, as fio&apos;s unified_rw_reporting=mixed), each direction beside it; a percentile of several runs is that of all their I/Os (added bins), never a mean.</p>
        <button type="button" className="primary" disabled={exporting} onClick={() => void exportPdf()}>{exporting ? 'Making the PDF…' : 'Export PDF'}</button>
      </div>
      {exportNote && <p role={exportNote.ok ? 'status' : 'alert'} className={exportNote.ok ? 'hint' : 'error'} data-testid="export-note">{exportNote.text}</p>}
      <StudentSummary runs={runs} specChoice={specChoice} poolSameSetting={pool} />
      {charts?.latency_note && <p role="note" className="warning" data-testid="chart-latency-note">{charts.latency_note}</p>}
      <div className="chart-grid">
        <ChartFigure id="iops-vs-size" title="IOPS vs access size" kind="line" xLabel="access size" yLabel="IOPS" xLog2
          formatX={formatSize} series={drawn(charts?.iops_by_size ?? [])}
          empty={unless("No runs that differ only in access size: run the student preset or vary access size.")} />
        <ChartFigure id="bw-vs-size" title="Bandwidth vs access size (MB/s = 10⁶ B/s)" kind="line" xLabel="access size"
          yLabel="MB/s" xLog2 formatX={formatSize} series={drawn(charts?.bw_bytes_per_s_by_size ?? [], MB)}
          empty={unless("No runs that differ only in access size: run the student preset or vary access size.")} />
        <ChartFigure id="latency-vs-qd" title="Latency vs queue depth, all I/Os (µs)" kind="line" xLabel="queue depth" yLabel="µs" xLog
          series={drawn(charts?.lat_ns_by_queue_depth ?? [], US)}
          empty={unless("No runs that differ only in queue depth: vary queue depth (e.g. 1, 10, 100).")} />
        <ChartFigure id="latency-iops" title="Latency vs IOPS as queue depth grows, all I/Os (µs)" kind="line" xLabel="IOPS" yLabel="µs" yLog
          series={drawn(charts?.lat_ns_by_iops ?? [], US)}
          empty={unless("Needs runs at several queue depths.")} />
        <ChartFigure id="iops-vs-mix" title="IOPS vs read/write mix" kind="line" xLabel="% reads" yLabel="IOPS"
          series={drawn(charts?.iops_by_read_pct ?? [])} empty={unless("No runs that differ only in read/write mix: vary read % (e.g. 100, 70, 50, 0).")} />
        {charts?.repeats_shown && (
          <ChartFigure id="repeats" title="Mean IOPS per point, ± 95 % confidence interval" kind="bar" xLabel="point" yLabel="IOPS"
            categories={charts.repeat_iops.categories}
            series={drawn(charts.repeat_iops.series)} />
        )}
      </div>
      {/* asked with the charts: each reads the runs' summaries (ms for a study's sweep), none whole runs */}
      <Observations runs={runs} />
      <SpecPanel runs={runs} choice={specChoice} onChoice={setSpecChoice} onSpec={onSpec} />
      <ComparePanel runs={runs} earlier={earlier} onEarlier={setEarlier} />
      <h3>One run in detail</h3>
      <DetailChoice points={points} selectedId={selectedId} onSelect={setSelectedId} />
      <div className="chart-grid">
        <ChartFigure id="percentiles" kind="line" xLabel="latency (µs)" yLabel="percentile" nines formatY={formatPercentile}
          title={curve?.by_direction.length ? 'Latency percentile distribution: all I/Os, and each direction' : 'Latency percentile distribution'}
          series={curve?.points.length ? [
            { label: curve.by_direction.length ? `${curve.label}: all I/Os` : curve.label, points: curve.points.map((p) => ({ x: p.lat_ns / US, y: p.percentile })) },
            ...curve.by_direction.map((d) => ({ label: d.direction, style: 'dashed' as const, points: d.points.map((p) => ({ x: p.lat_ns / US, y: p.percentile })) })),
          ] : []}
          empty="This run has no total-latency histogram (imported output made without lat_percentiles)." />
        <ChartFigure id="time-series" kind="line"
          title={warm.length ? 'IOPS and the drive\'s temperature per second' : 'IOPS per second'}
          xLabel="seconds since the run started" yLabel="IOPS" xFromZero
          rightLabel={warm.length ? TEMPERATURE_AXIS : undefined}
          series={detail?.progress.length ? [...secondsSeries(detail.progress),
            ...(warm.length ? [temperatureSeries(warm)] : [])] : []}
          empty="This run has no per-second samples." />
      </div>
      {detail && detail.hosts.some((h) => h.host !== 'local') && <HostResults run={detail} />}
      {detail?.drive_health && <DrivePanel record={detail.drive_health} />}
      {detail && !detail.drive_health && detail.hosts.map((h) => h.drive_health
        && <DrivePanel key={h.host} record={h.drive_health} host={h.host} />)}
      <ResultsTable runs={tableRuns} figures={points} pool={{ on: pool, set: setPool }} />
    </section>
  );
}

/** The runs shown before a reload, as far as they are still stored; else the last finished sweep. */
async function reopened(engine: Engine, opened: { title: string; ids: number[] }): Promise<{ title: string; runs: RunResult[] } | null> {
  if (opened.ids.length) {
    const listed = await engine.call('runs.list', { run_ids: opened.ids }).catch(() => null);
    if (listed?.runs.length) return { title: opened.title, runs: listed.runs };
  }
  return lastFinished(engine);
}

/** The engine's newest sweep that ended with runs kept, and its runs. */
async function lastFinished(engine: Engine): Promise<{ title: string; runs: RunResult[] } | null> {
  const last = (await engine.call('sweeps.list', {})).last_finished;
  if (!last) return null;
  const listed = await engine.call('runs.list', { sweep_id: last.id });
  return listed.runs.length ? { title: `sweep ${last.id}`, runs: listed.runs } : null;
}

/** Which run to detail: the figure, then (when it is of several runs) which run — two short
 *  lists, not one per run. */
function DetailChoice({ points, selectedId, onSelect }: { points: RunPoint[]; selectedId: number | null; onSelect: (id: number) => void }) {
  const pointIndex = Math.max(0, points.findIndex((p) => p.run_ids.includes(selectedId ?? -1)));
  const point = points[pointIndex];
  const first = (index: number) => points[index]?.run_ids[0];
  return (
    <div className="field inline">
      <label htmlFor="detail-run">Run</label>
      <select id="detail-run" value={pointIndex} onChange={(e) => { const id = first(Number(e.target.value)); if (id != null) onSelect(id); }}>
        {points.map((p, i) => (
          <option key={i} value={i}>
            {p.kind === 'single' ? `#${p.run_ids[0]} ${p.label}` : `${p.label} (${p.source})`}
          </option>
        ))}
      </select>
      {point && point.run_ids.length > 1 && (
        <>
          <label htmlFor="detail-repeat">
            {point.kind === 'repeats' ? 'Repeat' : 'Pooled run'}
          </label>
          <select id="detail-repeat" value={selectedId ?? ''} onChange={(e) => onSelect(Number(e.target.value))}>
            {point.run_ids.map((id, i) => <option key={id} value={id}>{i + 1} (#{id})</option>)}
          </select>
        </>
      )}
    </div>
  );
}
