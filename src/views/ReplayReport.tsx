// A stored replay as the engine answered it (`replay.get`): whether the target kept the recorded timing, in the
// engine's words; latency recorded beside replayed (p50, p99, mean, from bins on both sides); IOPS over time and
// the latency distribution, both sides drawn; what was replayed and how. Every number is the engine's.
import { useState } from 'react';
import { useEngine, type CdfPoint, type LatencyBeside, type ReplayResult } from '../api';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import { saveReport } from '../lib/save-report';
import { formatBytes, formatIops, formatLatencyNs, formatPercentile } from '../lib/units';
import { ReplayHostsReport } from './ReplayHostsReport';
import { steppedLine } from './replay-series';
import { Facts } from './SustainReport';
import { TraceSummaryPanel } from './TraceSummaryPanel';

export function ReplayReport({ result }: { result: ReplayResult }) {
  const engine = useEngine();
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const step = result.rate_step_s;

  async function exportPdf() {
    setNote(null);
    setNote(await saveReport(engine, () => engine.call('replay.report', { replay_id: result.id, title: null })));
  }

  return (
    <section className="replay-report" aria-labelledby="replay-report-title" data-testid="replay-report">
      <h3 id="replay-report-title">Replay #{result.id}: {result.label}</h3>
      <p data-testid="replay-timing">Status: {result.status}. {sentence(result.timing_sentence)}</p>
      <button type="button" onClick={() => void exportPdf()}>Export PDF</button>
      {note && <p role={note.ok ? 'status' : 'alert'} className={note.ok ? 'hint' : 'error'}>{note.text}</p>}
      <LatencyTable rows={result.latency} />
      <div className="chart-grid">
        <ChartFigure id="replay-rates" title={`IOPS over time: replayed beside recorded${step > 1 ? ` (mean over ${step} s)` : ''}`
          + (result.recorded_copies > 1 ? `, recorded × ${result.recorded_copies} (the whole trace on each host)` : '')}
          kind="line" xLabel="seconds from the first I/O" yLabel="IOPS" xFromZero
          series={[
            steppedLine('reads recorded', result.rates, (r) => r.recorded_read_iops, 'dashed'),
            steppedLine('reads replayed', result.rates, (r) => r.replayed_read_iops),
            steppedLine('writes recorded', result.rates, (r) => r.recorded_write_iops, 'dashed'),
            steppedLine('writes replayed', result.rates, (r) => r.replayed_write_iops),
          ].filter((s) => s.points.some((p) => (p.y ?? 0) > 0))}
          empty="Neither the trace nor the replay has a second to draw." />
        <ChartFigure id="replay-latency" title="Latency as recorded beside as replayed (total latency, µs)"
          kind="line" xLabel="µs" yLabel="% of I/Os at or below" xLog formatY={formatPercentile}
          series={result.latency.flatMap(cdfLines)}
          empty="The trace records no latency and the replay has not run." />
      </div>
      <ReplayHostsReport result={result} />
      <Facts label="What was replayed" testId="replay-facts" rows={[
        ['trace', `${result.spec.trace_path} (SHA-256 ${result.spec.trace_sha256.slice(0, 16)}…)`],
        ['target', `${where(result)}, a region of ${formatBytes(result.spec.target_bytes)}`],
        ['timing', result.spec.timing], ['in flight', `at most ${result.spec.lanes}${result.hosts.length ? ' on each host' : ''}`],
        ['offsets', result.spec.mapping],
        ['replayed', `${result.read_io_count.toLocaleString('en-US')} reads at ${formatIops(result.read_iops)} IOPS, `
          + `${result.write_io_count.toLocaleString('en-US')} writes at ${formatIops(result.write_iops)} IOPS`],
        ['runs', result.run_ids.join(', ') || 'none yet'],
      ]} />
      {result.spec.notes.map((n) => <p key={n} className="hint">{n}</p>)}
      {result.warnings.map((w) => <p key={w.message} className="warning">{w.message}</p>)}
      <TraceSummaryPanel summary={result.spec.recorded} title="The part replayed, as recorded" />
    </section>
  );
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
const where = (result: ReplayResult) => (result.hosts.length
  ? result.hosts.map((h) => (h.target ? `${h.host}:${h.target}` : h.host)).join(', ')
  : result.target || 'the default scratch folder');

function LatencyTable({ rows }: { rows: LatencyBeside[] }) {
  const shown = rows.filter((r) => r.trace_count > 0 || r.replayed_count > 0);
  if (!shown.length) return null;
  return (
    <>
      <table className="data compact" style={{ width: 'auto' }} data-testid="replay-latency-table">
        <caption>Total latency as recorded in the trace and as replayed (percentiles from bins on both sides)</caption>
        <thead><tr><th /><th>I/Os in the trace</th><th>I/Os replayed</th><th>p50 recorded</th><th>p50 replayed</th>
          <th>p99 recorded</th><th>p99 replayed</th><th>mean recorded</th><th>mean replayed</th></tr></thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.direction}>
              <th scope="row">{r.direction}</th>
              <td>{r.trace_count.toLocaleString('en-US')}</td><td>{r.replayed_count.toLocaleString('en-US')}</td>
              <td>{formatLatencyNs(r.recorded_p50_ns)}</td><td>{formatLatencyNs(r.replayed_p50_ns)}</td>
              <td>{formatLatencyNs(r.recorded_p99_ns)}</td><td>{formatLatencyNs(r.replayed_p99_ns)}</td>
              <td>{formatLatencyNs(r.recorded_mean_ns)}</td><td>{formatLatencyNs(r.replayed_mean_ns)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.filter((r) => r.recorded_said).map((r) => (
        <p key={r.direction} className="hint" data-testid="replay-latency-unrecorded">{sentence(r.recorded_said)}</p>
      ))}
    </>
  );
}

function cdfLines(r: LatencyBeside): Series[] {
  const line = (side: string, cdf: CdfPoint[], dash?: Series['dash']): Series => ({
    label: `${r.direction}s ${side}`, group: r.direction, ...(dash ? { dash } : {}),
    points: cdf.map((p) => ({ x: p.latency_ns / 1e3, y: p.share * 100 })),
  });
  return [line('recorded', r.recorded_cdf, 'dashed'), line('replayed', r.replayed_cdf)].filter((s) => s.points.length);
}
