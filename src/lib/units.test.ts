import { describe, expect, it } from 'vitest';
import { chartAnswers, studentRuns } from '../test/fixtures';
import {
  formatCount, formatDuration, formatElapsed, formatIops, formatLatencyNs, formatPercentile, formatSize, mbPerS, mibPerS,
  sizeInput,
} from './units';

describe('units', () => {
  it('cuts a percentile to 4 decimals, never rounding it up past 99.9 or 99.99', () => {
    expect(['0', '50', '100'].map((t) => formatPercentile(Number(t)))).toEqual(['0', '50', '100']);
    expect(formatPercentile(99.89852642724786)).toBe('99.8985'); // not '99.9': the run's p99.9 is the next bucket
    expect(formatPercentile(99.98995)).toBe('99.9899');
    expect(formatPercentile((999 / 1000) * 100)).toBe('99.9'); // 99.899999... as a double: exactly 99.9
    expect(formatPercentile(0.006618)).toBe('0.0066');
  });

  it('spells sizes in exact binary units', () => {
    expect(formatSize(4096)).toBe('4KiB');
    expect(formatSize(1536)).toBe('1536B');
    expect(formatSize(10e12)).toBe('10TB');
    expect(formatSize(2e9)).toBe('2GB');
    expect(sizeInput(10e12)).toBe('10TB');
    expect(sizeInput(32 << 20)).toBe('32m');
  });

  it('spells a size as the engine does in its labels (model/quantities.format_size)', () => {
    for (const run of studentRuns) expect(run.workload.label.split(' ')).toContain(formatSize(run.workload.block_size_bytes));
    const axis = chartAnswers[0]!.result as { iops_by_size: { points: { x: number }[] }[]; points: { label: string }[] };
    const labels = axis.points.map((p) => p.label).join(' ');
    for (const p of axis.iops_by_size[0]!.points) expect(labels).toContain(` ${formatSize(p.x)} `);
  });

  it('writes axis ticks short, as the PDF does', () => {
    expect([1500, 20_000, 2e6, 0.1 + 0.2, 80].map(formatCount)).toEqual(['1.5k', '20k', '2M', '0.3', '80']);
  });

  it('keeps MB and MiB apart', () => {
    expect(mbPerS(1_000_000)).toBe(1);
    expect(mibPerS(1_048_576)).toBe(1);
  });

  it('shows latency in µs below a millisecond and ms above', () => {
    expect(formatLatencyNs(61_234)).toBe('61.2 µs');
    expect(formatLatencyNs(2_500_000)).toBe('2.50 ms');
    expect(formatLatencyNs(null)).toBe('–');
  });

  it('formats IOPS and durations compactly', () => {
    expect(formatIops(12_345)).toBe('12.3k');
    expect(formatIops(830)).toBe('830');
    expect(formatDuration(130)).toBe('2m10s');
    expect(formatDuration(3725)).toBe('1h02m05s');
  });

  it('keeps two figures of a measured time under 10 s, as the engine does', () => {
    expect(formatElapsed(0.4)).toBe('0.4s');
    expect(formatElapsed(0.0432)).toBe('0.043s');
    expect(formatElapsed(2.53)).toBe('2.5s');
    expect(formatElapsed(3)).toBe('3s');
    expect(formatElapsed(14.2)).toBe('14s');
    expect(formatElapsed(75)).toBe('1m15s');
  });
});
