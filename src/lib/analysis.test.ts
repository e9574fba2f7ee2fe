import { describe, expect, it } from 'vitest';
import { fullRun, studentRuns } from '../test/fixtures';
import { activeDirections, totals } from './analysis';

describe('totals', () => {
  it('adds reads and writes, and takes latency from the direction with the most I/O', () => {
    const t = totals(fullRun);
    expect(t.iops).toBeCloseTo(fullRun.read.iops + fullRun.write.iops, 9);
    expect(t.main).toBe(fullRun.read.io_count >= fullRun.write.io_count ? fullRun.read : fullRun.write);
  });
});

describe('activeDirections', () => {
  it('names both directions of a mixed run and one of a pure one', () => {
    expect(activeDirections(fullRun)).toEqual(['read', 'write']);
    expect(activeDirections(studentRuns[0]!)).toEqual(['read']);
  });
});
