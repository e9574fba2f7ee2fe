// Live run: overall and per-point progress, ETA, per-second IOPS (with the drive's temperature
// where it is read) / bandwidth / latency, the cool-down between points, Cancel.
import { ChartFigure } from '../charts/ChartFigure';
import { TEMPERATURE_AXIS, temperatureSeries } from '../charts/drive-temperature';
import type { LiveState } from '../state/live';
import { overallFraction } from '../state/live';
import { formatDuration, formatIops, formatLatencyNs, mbPerS } from '../lib/units';
import type { ProgressSample } from '../api';
import type { Series } from '../charts/ChartFigure';
import { LiveHosts, naturally } from './LiveHosts';

interface Props {
  state: LiveState;
  onCancel: () => void;
  onOpenResults: () => void;
  onDesign: () => void;
  /** Continue a sweep by its id, skipping its finished points. */
  onResume: (sweepId: number | null) => void;
}

export function Live(
  { state, onCancel, onOpenResults, onDesign, onResume }: Props,
) {
  if (state.status === 'idle') {
    return (
      <section aria-labelledby="live-title">
        <h2 id="live-title">Live run</h2>
        <p className="empty">Nothing is running. Design a measurement and press Start; its progress appears here.</p>
        <div className="actions">
          <button type="button" onClick={onDesign}>Go to the designer</button>
        </div>
      </section>
    );
  }
  const sweep = state.sweep;
  const resumeId = sweep?.sweep_id ?? null;
  const current = state.current;
  const running = state.status === 'running';
  const seconds = state.samples.map((s) => s.elapsed_s);
  const hostNames = Object.keys(state.hosts).sort(naturally);
  // this machine's drive, where hwmon reads it: beside IOPS on a right axis (hosts' are not sent)
  const warm = hostNames.length === 0 && state.temperatures.length > 0;
  // a point that reads and writes: its latency is of all its I/Os, each direction's p99 beside it
  const mixedFinished = state.finished.some((run) => run.read.io_count > 0 && run.write.io_count > 0);
  const mixedLive = state.samples.some((s) => s.read_iops > 0 && s.write_iops > 0);
  const perHost = (value: (s: ProgressSample) => number | null, suffix = ''): Series[] =>
    hostNames.map((host) => ({ label: `${host}${suffix}`, points: state.hosts[host]!.map((s) => ({ x: s.elapsed_s, y: value(s) })) }));
  return (
    <section aria-labelledby="live-title" className="live">
      <h2 id="live-title">
        Live run{sweep?.sweep_id ? ` — sweep ${sweep.sweep_id}` : ''} <span className={`badge ${state.status}`}>{state.status}</span>
      </h2>
      {sweep && <p className="hint">engine: {sweep.engine} ({sweep.engine_reason})</p>}
      <OverallProgress state={state} />
      {current && (
        <div className="progress-block">
          <label htmlFor="point-progress">Point {current.number}: {current.label}</label>
          <progress id="point-progress" max={1} value={Math.min(current.elapsedS / Math.max(current.durationS, 1e-9), 1)} />
          <span>{formatDuration(current.elapsedS)} of {formatDuration(current.durationS)}</span>
        </div>
      )}
      {state.cooling && (
        <p role="status" className="hint" data-testid="cooling">{state.cooling.text}</p>
      )}
      {state.layout && <p className="hint">test file laid out in {state.layout.seconds.toFixed(1)} s (not part of any measurement)</p>}
      <div className="actions">
        {running && (
          <button type="button" className="danger" onClick={onCancel} disabled={state.cancelling}>
            {state.cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
        {!running && state.finished.length > 0 && <button type="button" className="primary" onClick={onOpenResults}>Open results</button>}
        {!running && <button type="button" onClick={onDesign}>New measurement</button>}
        {(state.status === 'cancelled' || state.status === 'interrupted') && (
          <button type="button" onClick={() => onResume(resumeId)}>Resume</button>
        )}
      </div>
      {state.status === 'cancelled' && (
        <p role="status">Cancelled: fio was stopped; the {state.finished.length} finished point(s) are kept.</p>
      )}
      {state.status === 'failed' && <p role="alert" className="error">The sweep failed; see the engine message above.</p>}
      {state.status === 'interrupted' && (
        <p role="alert" className="error">
          {state.reason ? `The sweep ${state.reason}.` : 'The engine stopped in the middle of this sweep.'}
          {' '}Its {state.count?.done ?? 0} finished point(s) are stored; Resume measures the rest.
        </p>
      )}
      <div className="chart-row">
        <ChartFigure id="live-iops" tableLast={LIVE_TABLE_POINTS}
          title={warm ? 'IOPS and the drive\'s temperature, per second' : 'IOPS, per second'}
          kind="line" xLabel="sweep time (s)" yLabel="IOPS"
          rightLabel={warm ? TEMPERATURE_AXIS : undefined}
          series={hostNames.length ? perHost((s) => s.read_iops + s.write_iops) : [
            { label: 'read', points: state.samples.map((s, i) => ({ x: seconds[i]!, y: s.read_iops })) },
            { label: 'write', points: state.samples.map((s, i) => ({ x: seconds[i]!, y: s.write_iops })) },
            ...(warm ? [temperatureSeries(state.temperatures)] : [])]}
          empty="The first per-second sample arrives after a second." />
        <ChartFigure id="live-bw" tableLast={LIVE_TABLE_POINTS} title="Bandwidth, per second (MB/s = 10⁶ B/s)" kind="line" xLabel="sweep time (s)" yLabel="MB/s"
          series={hostNames.length ? perHost((s) => mbPerS(s.read_bw_bytes_per_s + s.write_bw_bytes_per_s))
            : [{ label: 'read + write', points: state.samples.map((s, i) => ({ x: seconds[i]!, y: mbPerS(s.read_bw_bytes_per_s + s.write_bw_bytes_per_s) })) }]}
          empty="Waiting for the first sample." />
        <ChartFigure id="live-latency" tableLast={LIVE_TABLE_POINTS}
          title={`Latency (submission to completion), per second (µs)${mixedLive ? ': all I/Os, reads and writes together, and each direction\'s p99' : ''}`}
          kind="line" xLabel="sweep time (s)" yLabel="µs"
          series={hostNames.length ? perHost((s) => usOf(s.lat_ns_mean), ' mean') : [
            { label: mixedLive ? 'mean (all I/Os)' : 'mean', points: state.samples.map((s, i) => ({ x: seconds[i]!, y: usOf(s.lat_ns_mean) })) },
            { label: mixedLive ? 'p99 (all I/Os)' : 'p99', points: state.samples.map((s, i) => ({ x: seconds[i]!, y: usOf(s.lat_ns_p99) })) },
            ...(mixedLive ? [
              { label: 'read p99', style: 'dashed' as const, points: state.samples.map((s, i) => ({ x: seconds[i]!, y: usOf(s.read_lat_ns_p99) })) },
              { label: 'write p99', style: 'dashed' as const, points: state.samples.map((s, i) => ({ x: seconds[i]!, y: usOf(s.write_lat_ns_p99) })) },
            ] : []),
          ]}
          empty="Waiting for the first sample." />
      </div>
      {hostNames.length > 0 && <LiveHosts hosts={state.hosts} latestS={state.lastElapsedS} running={running}
        watched={state.finished.at(-1)?.watched ?? []} />}
      {state.finished.length > 0 && (
        <table className="data">
          <caption>Finished points: IOPS and MB/s of reads and writes together; p99 of all the I/Os, from the merged histogram bins{mixedFinished ? ', each direction\'s own beside it' : ''}</caption>
          <thead>
            <tr>
              <th scope="col">#</th><th scope="col">workload</th><th scope="col">IOPS</th><th scope="col">MB/s</th>
              <th scope="col">p99 latency, all I/Os</th>
              {mixedFinished && <><th scope="col">read p99</th><th scope="col">write p99</th></>}
              <th scope="col">status</th>
            </tr>
          </thead>
          <tbody>
            {state.finished.map((run, i) => (
              <tr key={run.id ?? i}>
                <td>{state.numbers[i]}</td><td>{run.workload.label}</td><td className="num">{formatIops(run.mixed.iops)}</td>
                <td className="num">{mbPerS(run.mixed.bw_bytes_per_s).toFixed(1)}</td>
                <td className="num" data-testid="live-p99">{formatLatencyNs(run.mixed.lat_ns.p99)}</td>
                {mixedFinished && (
                  <>
                    <td className="num">{run.read.io_count > 0 ? formatLatencyNs(run.read.lat_ns.p99) : '–'}</td>
                    <td className="num">{run.write.io_count > 0 ? formatLatencyNs(run.write.lat_ns.p99) : '–'}</td>
                  </>
                )}
                <td>{run.status}{run.warnings.length ? ` ⚠ ${run.warnings.length}` : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The sweep's points as the engine counts them (of a total, of at most a bound, or so far), a
 * bar where a total or bound is known, and the ETA; the Curves view shows the same line for a
 * curve or a search. */
export function OverallProgress({ state }: { state: LiveState }) {
  const count = state.count;
  const running = state.status === 'running';
  const ended = !running && state.status !== 'starting';
  // a search that ended has its answer: no stripe of work still going on, no "goes on until"
  const overall = ended && count?.bound === 'open' ? (state.status === 'done' ? 1 : null) : overallFraction(state);
  const known = running && state.etaS !== null && count?.bound !== 'open';
  const eta = known ? formatDuration(state.etaS ?? 0) : '–';
  const label = !count ? 'starting'
    : ended && count.bound === 'open' ? `${count.done} ${count.unit}${count.done === 1 ? '' : 's'} measured (${state.status})`
      : count.text;
  return (
    <div className="progress-block">
      <label htmlFor="overall-progress">Overall: {label}</label>
      {overall === null
        ? ended ? null : <progress id="overall-progress" aria-valuetext="no total known yet" />
        : <progress id="overall-progress" max={1} value={overall}
          aria-valuetext={`${Math.round(overall * 100)} %`} />}
      <span data-testid="eta">
        ETA {count?.bound === 'at_most' && known ? `at most ${eta}` : eta}
      </span>
    </div>
  );
}

/** The live charts' accessible tables hold the last minute; the charts hold the whole run. */
const LIVE_TABLE_POINTS = 60;

function usOf(ns: number | null | undefined): number | null {
  return ns === null || ns === undefined ? null : ns / 1e3;
}
