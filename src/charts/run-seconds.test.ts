import { describe, expect, it } from 'vitest';
import type { ProgressSample } from '../api';
import { secondsSeries } from './run-seconds';

/** A sample as a stored run carries it: the engine says where its rates begin (start_s). */
const sample = (elapsed_s: number, read_iops: number, host = 'local', start_s = elapsed_s - 1): ProgressSample => ({
  elapsed_s, interval_s: null, start_s, read_iops, write_iops: 0,
  read_bw_bytes_per_s: 0, write_bw_bytes_per_s: 0,
  read_lat_ns_mean: null, write_lat_ns_mean: null, read_lat_ns_p99: null, write_lat_ns_p99: null, lat_ns_mean: null, lat_ns_p99: null,
  host, ramping: false,
});

describe('a run drawn per second', () => {
  it('draws a one-second run as a level line from its start, not a dot', () => {
    const [line] = secondsSeries([sample(1, 18_741)]);
    expect(line!.stepped).toBe(true);
    expect(line!.points).toEqual([{ x: 0, y: 18_741 }, { x: 1, y: 18_741 }]);
  });

  it('draws the first sample from where the engine says its rates begin', () => {
    const [line] = secondsSeries([sample(2.5, 10), sample(3.5, 20), sample(4.5, 30)]);
    expect(line!.points.map((p) => p.x)).toEqual([1.5, 2.5, 3.5, 4.5]);
    expect(line!.points[0]!.y).toBe(10);
  });

  it('draws a line per host for a run on several hosts', () => {
    const lines = secondsSeries([sample(1, 5, 'h1'), sample(1, 7, 'h2'), sample(2, 6, 'h1'),
      sample(2, 8, 'h2')]);
    expect(lines.map((l) => l.label)).toEqual(['h1', 'h2']);
    expect(lines[1]!.points.map((p) => p.y)).toEqual([7, 7, 8]);
  });

  it('starts fio\'s short first interval where the engine spanned it', () => {
    const [line] = secondsSeries([{ ...sample(1, 19_300, 'local', 0.103), interval_s: 0.897 },
      sample(2, 19_400)]);
    expect(line!.points[0]!.x).toBeCloseTo(0.103, 6);
  });

  it('draws nothing for a run without samples', () => {
    expect(secondsSeries([])).toEqual([]);
  });
});
