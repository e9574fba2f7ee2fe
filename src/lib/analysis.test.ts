import { describe, expect, it } from 'vitest';
import { fullRun, studentRuns } from '../test/fixtures';
import { activeDirections, totals } from './analysis';

describe('totals', () => {
  it('adds reads and writes, and takes latency from the direction the engine names the main one', () => {
    const t = totals(fullRun);
    expect(t.iops).toBeCloseTo(fullRun.read.iops + fullRun.write.iops, 9);
    expect(t.main).toBe(fullRun[fullRun.main_direction]);
    expect(totals({ ...fullRun, main_direction: 'write' }).main).toBe(fullRun.write);
  });
});

describe('activeDirections', () => {
  it('names both directions of a mixed run and one of a pure one', () => {
    expect(activeDirections(fullRun)).toEqual(['read', 'write']);
    expect(activeDirections(studentRuns[0]!)).toEqual(['read']);
  });
});
