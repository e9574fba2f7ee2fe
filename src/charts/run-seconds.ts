// A run's per-second IOPS as the engine recorded them: each sample is the rate over the interval
// the engine says it covers (start_s to elapsed_s), so it is drawn level across it. A 1 s run then
// reads as a line from 0 to 1 s, not as one dot; a run on several hosts is a line per host, not one
// line zigzagging between them. Nothing here decides what a sample covers.
import type { ProgressSample } from '../api';
import type { Series } from './ChartFigure';

const iops = (s: ProgressSample): number => s.read_iops + s.write_iops;

/** One stepped line per host (named 'read + write' for a run on one host). */
export function secondsSeries(progress: readonly ProgressSample[]): Series[] {
  const hosts = [...new Set(progress.map((s) => s.host))];
  return hosts.map((host) => {
    const mine = progress.filter((s) => s.host === host).sort((a, b) => a.elapsed_s - b.elapsed_s);
    const first = mine[0]!;
    const start = { x: first.start_s ?? first.elapsed_s, y: iops(first) };
    return {
      label: hosts.length > 1 ? host : 'read + write',
      stepped: true,
      points: [start, ...mine.map((s) => ({ x: s.elapsed_s, y: iops(s) }))],
    };
  });
}
