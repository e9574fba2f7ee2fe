// The running replay as its events tell it (`replay.event`): each second's IOPS as replayed beside the trace's
// recorded IOPS over the same second, the time left as recorded, and the end.
import type { ReplayFinished, ReplayProgress, ReplayStarted } from '../api';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import { formatDuration, formatIops } from '../lib/units';

type ReplayEvent = ReplayStarted | ReplayProgress | ReplayFinished;

export interface ReplayLiveState {
  started: ReplayStarted | null;
  seconds: ReplayProgress[];
  finished: ReplayFinished | null;
}

export function replayLive(state: ReplayLiveState | null, event: ReplayEvent | null): ReplayLiveState {
  const base = state ?? { started: null, seconds: [], finished: null };
  if (event === null) return base;
  if (event.kind === 'replay_started') {  // the start's reply and its event: one replay
    return base.started?.replay_id === event.replay_id && !base.finished ? base : { started: event, seconds: [], finished: null };
  }
  if (event.kind === 'replay_progress') return { ...base, seconds: [...base.seconds, event] };
  return { ...base, finished: event };
}

/** A rate over the interval the engine says each sample covers, drawn level across it. */
function line(label: string, seconds: ReplayProgress[], value: (p: ReplayProgress) => number | null,
  dash?: Series['dash']): Series {
  const kept = seconds.filter((p) => value(p) !== null);
  const first = kept[0];
  const points = first === undefined ? [] : [
    { x: first.sample.start_s ?? first.sample.elapsed_s, y: value(first) },  // where the engine spanned it
    ...kept.map((p) => ({ x: p.sample.elapsed_s, y: value(p) })),
  ];
  return { label, stepped: true, points, group: label.split(' ')[0], ...(dash ? { dash } : {}) };
}

/** Each SSH host's seconds, reads and writes together, replayed beside what that host was given as recorded. */
function hostLines(seconds: ReplayProgress[]): Series[] {
  const names = [...new Set(seconds.map((p) => p.sample.host))];
  const both = (a: number | null, b: number | null) => (a === null ? null : a + (b ?? 0));
  return names.flatMap((name) => {
    const mine = seconds.filter((p) => p.sample.host === name);
    return [line(`${name} recorded`, mine, (p) => both(p.recorded_read_iops, p.recorded_write_iops), 'dashed'),
      line(`${name} replayed`, mine, (p) => p.sample.read_iops + p.sample.write_iops)];
  });
}

export function ReplayLive({ state }: { state: ReplayLiveState }) {
  const { started, seconds, finished } = state;
  const onHosts = seconds.some((p) => p.sample.host !== 'local');
  const last = seconds[seconds.length - 1];
  const latest = onHosts && last ? seconds.filter((p) => p.sample.elapsed_s === last.sample.elapsed_s) : last ? [last] : [];
  const iops = latest.reduce((sum, p) => sum + p.sample.read_iops + p.sample.write_iops, 0);
  const recordedNow = latest.every((p) => p.recorded_read_iops !== null)
    ? latest.reduce((sum, p) => sum + (p.recorded_read_iops ?? 0) + (p.recorded_write_iops ?? 0), 0) : null;
  return (
    <section className="replay-live" aria-labelledby="replay-live-title" data-testid="replay-live">
      <h3 id="replay-live-title">
        {finished ? `Replay #${finished.replay_id ?? ''} ${finished.status}` : `Replaying${started ? ` #${started.replay_id}` : ''}…`}
      </h3>
      {started && <p className="hint">{started.label}; {started.io_count.toLocaleString('en-US')} I/Os; {started.engine_reason}</p>}
      {last && !finished && (
        <p aria-live="polite" data-testid="replay-now">
          {formatIops(iops)} IOPS now{onHosts ? ` on ${latest.length} host${latest.length === 1 ? '' : 's'}` : ''}
          {recordedNow !== null ? ` (recorded ${formatIops(recordedNow)})` : ''}
          {last.eta_s !== null ? `; about ${formatDuration(last.eta_s)} left as recorded` : ''}
        </p>
      )}
      {finished?.reason && <p role="alert" className="error">{finished.reason}</p>}
      <ChartFigure id="replay-live-rates"
        title={onHosts ? 'IOPS each second on each host: replayed beside recorded' : 'IOPS each second: replayed beside recorded'}
        kind="line" xLabel="seconds" yLabel="IOPS" xFromZero tableLast={30}
        series={(onHosts ? hostLines(seconds) : [
          line('reads recorded', seconds, (p) => p.recorded_read_iops, 'dashed'),
          line('reads replayed', seconds, (p) => p.sample.read_iops),
          line('writes recorded', seconds, (p) => p.recorded_write_iops, 'dashed'),
          line('writes replayed', seconds, (p) => p.sample.write_iops),
        ]).filter((s) => s.points.some((p) => (p.y ?? 0) > 0))}
        empty="The first second is on its way." />
    </section>
  );
}
