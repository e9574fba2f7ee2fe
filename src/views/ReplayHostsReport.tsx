// A replay on SSH hosts read back (`replay.get`): each host beside what it was given (the whole trace, or its share
// of a split one) as the engine counted it: I/Os and bytes replayed against recorded, its span from the hosts'
// common start, p99 from its own bins, the timing in the engine's words; and each host's IOPS over time.
import type { HostReplay, LatencyBeside, ReplayResult } from '../api';
import { ChartFigure } from '../charts/ChartFigure';
import { formatBytes, formatLatencyNs } from '../lib/units';
import { steppedLine } from './replay-series';

const count = (n: number) => n.toLocaleString('en-US');
const p99 = (rows: LatencyBeside[], direction: string) => {
  const row = rows.find((r) => r.direction === direction && r.replayed_count > 0);
  return row ? `${formatLatencyNs(row.replayed_p99_ns)} / ${formatLatencyNs(row.recorded_p99_ns)}` : '–';
};
const plus = (a: number | null, b: number | null) => (a === null ? null : a + (b ?? 0));

export function ReplayHostsReport({ result }: { result: ReplayResult }) {
  if (result.hosts.length === 0) return null;
  return (
    <section aria-labelledby="replay-hosts-title" data-testid="replay-hosts">
      <h4 id="replay-hosts-title">Each host, replayed beside recorded</h4>
      <p data-testid="replay-hosts-mode">On {result.hosts.map((h) => h.host).join(', ')}: {result.hosts_label}, all
        started at once{result.recorded_copies > 1 ? `; the recorded figures above count the trace once per host (× ${result.recorded_copies})` : ''}.</p>
      <table className="data compact" style={{ width: 'auto' }} data-testid="replay-hosts-table">
        <caption>Replayed / recorded on each host (its span from the hosts&apos; common start; p99 from its own bins)</caption>
        <thead><tr><th>host</th><th>reads</th><th>writes</th><th>bytes</th><th>span (s)</th><th>span change</th>
          <th>issued &gt; 10 ms late</th><th>read p99</th><th>write p99</th></tr></thead>
        <tbody>{result.hosts.map((h) => <HostRow key={h.host} host={h} />)}</tbody>
      </table>
      {result.hosts.map((h) => (
        <p key={h.host} className={h.error ? 'error' : 'hint'}>{h.host}: {h.timing_sentence}{h.error ? `; ${h.error}` : ''}</p>
      ))}
      <ChartFigure id="replay-host-rates" title="IOPS per host: replayed beside recorded (reads and writes together)"
        kind="line" xLabel="seconds from the hosts' common start" yLabel="IOPS" xFromZero
        series={result.hosts.flatMap((h) => [
          steppedLine(`${h.host} recorded`, h.rates, (r) => plus(r.recorded_read_iops, r.recorded_write_iops), 'dashed'),
          steppedLine(`${h.host} replayed`, h.rates, (r) => plus(r.replayed_read_iops, r.replayed_write_iops)),
        ]).filter((s) => s.points.some((p) => (p.y ?? 0) > 0))}
        empty="No host has a second to draw yet." />
    </section>
  );
}

function HostRow({ host: h }: { host: HostReplay }) {
  return (
    <tr data-host={h.host}>
      <th scope="row">{h.host}</th>
      <td>{count(h.read_io_count)} / {count(h.recorded_read_count)}</td>
      <td>{count(h.write_io_count)} / {count(h.recorded_write_count)}</td>
      <td>{formatBytes(h.read_io_bytes + h.write_io_bytes)} / {formatBytes(h.recorded_read_bytes + h.recorded_write_bytes)}</td>
      <td>{h.replayed_span_s === null ? '–' : h.replayed_span_s.toFixed(2)} / {h.recorded_span_s.toFixed(2)}</td>
      <td>{h.span_change_pct === null ? '–' : `${h.span_change_pct > 0 ? '+' : ''}${h.span_change_pct.toFixed(1)} %`}</td>
      <td>{h.late_over_10ms_pct === null ? '–' : `${h.late_over_10ms_pct.toFixed(1)} %`}</td>
      <td>{p99(h.latency, 'read')}</td><td>{p99(h.latency, 'write')}</td>
    </tr>
  );
}
