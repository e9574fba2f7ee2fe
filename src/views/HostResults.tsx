// Multi-host runs: each host's numbers beside the exact aggregate, per-host IOPS, and the CPU and
// network every host saw each second (RunResult.monitor), where the bottleneck shows; and the
// storage nodes watched without running I/O (RunResult.watched), as the engine summed them up.
import { ChartFigure, type Series } from '../charts/ChartFigure';
import type { RunResult, WatchedHost } from '../api';
import { mbPerS } from '../lib/units';

const us = (ns: number | null) => (ns === null ? '–' : (ns / 1e3).toFixed(1));

export function HostResults({ run }: { run: RunResult }) {
  if (run.hosts.length === 0) return null;
  const hosts = run.hosts;
  const rows = [
    ...hosts.map((h) => ({ name: h.host, read: h.read, write: h.write, target: h.target, error: h.error, cpus: h.cpu_count,
      atDisk: h.device_queue ? `${h.device_queue.mean_in_flight.toFixed(1)} of ${h.device_queue.requested_outstanding}` : '–',
      link: h.link_limit_bytes_per_s ? `${mbPerS(h.link_limit_bytes_per_s).toFixed(0)} MB/s (${h.link_limit_source})` : '' })),
    { name: 'aggregate', read: run.read, write: run.write, target: '', error: null, cpus: null, link: '', atDisk: '' },
  ];
  const byHost = new Map<string, RunResult['monitor']>();
  for (const sample of run.monitor) byHost.set(sample.host, [...(byHost.get(sample.host) ?? []), sample]);
  const cpu: Series[] = [...byHost].map(([host, samples]) => ({
    label: `${host} CPU %`, points: samples.map((s) => ({ x: s.elapsed_s, y: s.cpu_busy_pct })),
  }));
  const net: Series[] = [...byHost].map(([host, samples]) => ({
    label: `${host} network MB/s`,
    points: samples.map((s) => ({
      x: s.elapsed_s,
      y: mbPerS([...Object.values(s.net_rx_bytes_per_s), ...Object.values(s.net_tx_bytes_per_s)].reduce((a, b) => a + b, 0)),
    })),
  }));
  return (
    <section className="host-results" aria-labelledby="hosts-results-title">
      <h3 id="hosts-results-title">Per host — run #{run.id} on {hosts.length} host(s){run.start_skew_ms !== null ? `, start skew ${run.start_skew_ms.toFixed(1)} ms` : ''}</h3>
      <table className={hosts.length > 8 ? 'data compact' : 'data'} data-testid="host-table">
        <caption>Each host, and the exact aggregate (histogram bins added; IOPS summed over overlapping time); at its disk: the mean number of I/Os the host&apos;s block layer held, of the queue depth × jobs kept outstanding (its disk counters)</caption>
        <thead><tr><th>host</th><th>target</th><th>read IOPS</th><th>write IOPS</th><th>MB/s</th><th>link limit</th><th>read p99 µs</th><th>write p99 µs</th><th>at its disk (mean I/Os)</th><th>status</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.name} data-host={r.name}>
              <td>{r.name === 'aggregate' ? <strong>aggregate</strong> : r.name}</td>
              <td>{r.target}</td>
              <td>{Math.round(r.read.iops).toLocaleString('en-US')}</td>
              <td>{Math.round(r.write.iops).toLocaleString('en-US')}</td>
              <td>{mbPerS(r.read.bw_bytes_per_s + r.write.bw_bytes_per_s).toFixed(1)}</td>
              <td>{r.link}</td>
              <td>{us(r.read.lat_ns.p99)}</td>
              <td>{us(r.write.lat_ns.p99)}</td>
              <td>{r.atDisk}</td>
              <td>{r.error ?? 'ok'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {(run.watched ?? []).length > 0 && <WatchedHosts watched={run.watched ?? []} />}
      <div className="chart-grid">
        <ChartFigure id="host-iops" title="IOPS per host" kind="bar" xLabel="host" yLabel="IOPS" categories={hosts.map((h) => h.host)}
          series={[{ label: 'read + write IOPS', points: hosts.map((h, i) => ({ x: i, y: h.read.iops + h.write.iops })) }]} />
        <ChartFigure id="host-cpu" title="CPU busy per host (%)" kind="line" xLabel="s" yLabel="%" series={cpu}
          empty="No CPU samples were recorded for this run." />
        <ChartFigure id="host-net" title="Network per host (MB/s, in + out)" kind="line" xLabel="s" yLabel="MB/s" series={net}
          empty="No network samples were recorded for this run." />
      </div>
    </section>
  );
}

/** One interface's median second: "eth0: 9.9 MB/s out, 0.0 in of 10.0 MB/s (tbf rate on eth0)". */
export function interfaceLoad(load: WatchedHost['interfaces'][number]): string {
  const limit = load.link_limit_bytes_per_s
    ? ` of ${mbPerS(load.link_limit_bytes_per_s).toFixed(1)} MB/s (${load.link_limit_source})` : '';
  return `${load.interface}: ${mbPerS(load.tx_bytes_per_s_median).toFixed(1)} MB/s out, `
    + `${mbPerS(load.rx_bytes_per_s_median).toFixed(1)} in${limit}`;
}

export function WatchedHosts({ watched }: { watched: WatchedHost[] }) {
  return (
    <table className="data" data-testid="watched-table">
      <caption>
        Storage nodes watched (monitor-only: no I/O of the run&apos;s): the median second of each
        interface and disk
      </caption>
      <thead>
        <tr><th>host</th><th>seconds</th><th>CPU busy %</th><th>network</th><th>disks busy %</th>
          <th>status</th></tr>
      </thead>
      <tbody>
        {watched.map((w) => (
          <tr key={w.host} data-host={w.host}>
            <td>{w.host}</td>
            <td>{w.seconds}</td>
            <td>{w.cpu_busy_pct_mean == null ? '–' : w.cpu_busy_pct_mean.toFixed(0)}</td>
            <td>{w.interfaces.map(interfaceLoad).join('; ') || '–'}</td>
            <td>{Object.entries(w.disk_busy_pct_median).map(([d, pct]) => `${d} ${pct.toFixed(0)}`)
              .join(', ') || '–'}</td>
            <td>{w.error ?? 'watched'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
