// What a trace holds, as the engine read it (`trace.describe`, or the part replayed from `replay.estimate`),
// said before anything runs: its I/Os, span, read/write mix, access sizes, offsets, disks, the rate it was
// recorded at over time and the latency it recorded. Every number is the engine's; this only formats and draws.
import type { TraceSummary } from '../api';
import { ChartFigure } from '../charts/ChartFigure';
import { formatBytes, formatLatencyNs, formatSize } from '../lib/units';
import { steppedLine } from './replay-series';
import { Facts } from './SustainReport';

const count = (n: number) => n.toLocaleString('en-US');

export function TraceSummaryPanel({ summary, title }: { summary: TraceSummary; title: string }) {
  const step = summary.series[0]?.span_s ?? 1;
  const rows: [string, string][] = [
    ['format', summary.format],
    ['I/Os', `${count(summary.io_count)}: ${count(summary.read_count)} reads `
      + `(${summary.io_count ? Math.round((100 * summary.read_count) / summary.io_count) : 0} %), `
      + `${count(summary.write_count)} writes`],
    ['bytes', `${formatBytes(summary.read_bytes)} read, ${formatBytes(summary.write_bytes)} written`],
    ['span', summary.timed ? `${summary.duration_s.toFixed(3)} s, first to last I/O` : 'no time recorded'],
    ['offsets', `${formatBytes(summary.offset_min_bytes)} to ${formatBytes(summary.offset_end_bytes)}`],
    ['disks', summary.streams.map((s) => `${s.host ? `${s.host} ` : ''}${s.disk} (${count(s.io_count)})`).join(', ')],
    ['recorded latency', latencyWords(summary)],
    ['most in flight', summary.peak_in_flight === null ? 'not recorded' : String(summary.peak_in_flight)],
  ];
  const skipped = Object.entries(summary.skipped);
  if (skipped.length) rows.push(['not replayed', skipped.map(([kind, n]) => `${count(n)} ${kind}`).join(', ')]);
  return (
    <section className="trace-summary" aria-labelledby="trace-summary-title" data-testid="trace-summary">
      <h3 id="trace-summary-title">{title}: {summary.source}</h3>
      <Facts label="What the trace holds" rows={rows} testId="trace-facts" />
      {summary.notes.map((n) => <p key={n} className="hint">{n}</p>)}
      <div className="chart-grid">
        <ChartFigure id="trace-rate" title={`Recorded IOPS over time${step > 1 ? ` (mean over ${step} s)` : ''}`}
          kind="line" xLabel="seconds from the first I/O" yLabel="IOPS" xFromZero
          series={summary.series.length ? [
            steppedLine('reads recorded', summary.series, (s) => s.read_iops),
            steppedLine('writes recorded', summary.series, (s) => s.write_iops),
          ] : []}
          empty="The trace records no time: it replays only as fast as possible." />
        <ChartFigure id="trace-sizes" title="Access sizes" kind="bar" xLabel="access size" yLabel="I/Os"
          categories={summary.sizes.map((s) => formatSize(s.size_bytes))}
          series={[
            { label: 'reads', points: summary.sizes.map((s, i) => ({ x: i, y: s.reads })) },
            { label: 'writes', points: summary.sizes.map((s, i) => ({ x: i, y: s.writes })) },
          ]} />
      </div>
    </section>
  );
}

function latencyWords(summary: TraceSummary): string {
  const parts = [['reads', summary.recorded_read_lat_ns], ['writes', summary.recorded_write_lat_ns]] as const;
  const said = parts.filter(([, s]) => s !== null && s.p50 !== null)
    .map(([name, s]) => `${name} p50 ${formatLatencyNs(s!.p50)}, p99 ${formatLatencyNs(s!.p99)}`);
  return said.length ? said.join('; ') : 'not recorded';
}
