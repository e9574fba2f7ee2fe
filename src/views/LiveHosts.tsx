// A multi-host run, live: each host's latest second (status, IOPS, bandwidth, latency), and a host
// that has gone quiet named as such while the others carry on; the storage nodes watched, as the
// engine summed them up for the latest finished point.
import type { ProgressSample, WatchedHost } from '../api';
import { formatIops, formatLatencyNs, mbPerS } from '../lib/units';
import { WatchedHosts } from './HostResults';

/** Seconds without a sample, while others report, before a host is called silent. */
export const SILENT_AFTER_S = 3;

export function hostStatus(samples: ProgressSample[], latestS: number, running: boolean): string {
  const last = samples.at(-1);
  if (!last) return 'connecting';
  if (!running) return 'finished';
  const behind = latestS - last.elapsed_s;
  if (behind >= SILENT_AFTER_S) return `no data for ${Math.round(behind)} s`;
  return last.ramping ? 'ramping' : 'running';
}

/** Hosts that need a look while the others carry on: silent ones, and those under half the median IOPS of the latest second. */
export function hostsToWatch(hosts: Record<string, ProgressSample[]>, latestS: number, running: boolean): string[] {
  const names = Object.keys(hosts).sort();
  const rate = (name: string) => { const last = hosts[name]!.at(-1); return last ? last.read_iops + last.write_iops : 0; };
  const rates = names.map(rate).sort((a, b) => a - b);
  const median = rates.length ? (rates.length % 2 ? rates[(rates.length - 1) / 2]! : (rates[rates.length / 2 - 1]! + rates[rates.length / 2]!) / 2) : 0;
  const notes: string[] = [];
  for (const name of names) {
    const status = hostStatus(hosts[name]!, latestS, running);
    if (status.startsWith('no data')) notes.push(`${name}: ${status}`);
    else if (running && names.length > 1 && median > 0 && rate(name) < median / 2) {
      notes.push(`${name}: slow, ${formatIops(rate(name))} IOPS against a median of ${formatIops(median)}`);
    }
  }
  return notes;
}

export function LiveHosts({ hosts, latestS, running, watched = [] }: {
  hosts: Record<string, ProgressSample[]>; latestS: number; running: boolean;
  /** The storage nodes watched during the latest finished point (RunResult.watched). */
  watched?: WatchedHost[];
}) {
  const names = Object.keys(hosts).sort(naturally);
  const watch = hostsToWatch(hosts, latestS, running);
  return (
    <>
    {watch.length > 0 && <p className="warning" role="status" data-testid="hosts-to-watch">Check: {watch.join('; ')}</p>}
    <table className={names.length > 8 ? 'data compact' : 'data'} data-testid="live-hosts">
      <caption>Hosts: the latest second of each</caption>
      <thead>
        <tr><th scope="col">host</th><th scope="col">status</th><th scope="col" className="num">IOPS</th><th scope="col" className="num">MB/s</th>
          <th scope="col" className="num">mean latency, all I/Os</th><th scope="col" className="num">p99 latency, all I/Os</th></tr>
      </thead>
      <tbody>
        {names.map((name) => {
          const samples = hosts[name]!;
          const last = samples.at(-1);
          const status = hostStatus(samples, latestS, running);
          return (
            <tr key={name} data-host={name} className={status.startsWith('no data') ? 'warning' : undefined}>
              <td>{name}</td><td>{status}</td>
              <td className="num">{last ? formatIops(last.read_iops + last.write_iops) : '–'}</td>
              <td className="num">{last ? mbPerS(last.read_bw_bytes_per_s + last.write_bw_bytes_per_s).toFixed(1) : '–'}</td>
              <td className="num">{formatLatencyNs(last ? last.lat_ns_mean : null)}</td>
              <td className="num">{formatLatencyNs(last ? last.lat_ns_p99 : null)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
    {watched.length > 0 && <WatchedHosts watched={watched} />}
    </>
  );
}

/** h2 before h10. */
export function naturally(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
