import type { Scale } from 'chart.js';
import { describe, expect, it } from 'vitest';
import { settingsAxis, settingTicks, wholeNumberTicks } from './axes';

describe('axes', () => {
  it('ticks a log axis of queue depths at the depths measured, spanning exactly them', () => {
    const axis = settingsAxis([1, 10, 100, 1, 10, 100], true);
    expect([axis.min, axis.max]).toEqual([1, 100]);
    const chartJsTicks = [1, 3, 10, 20, 80, 100].map((value) => ({ value }));
    const scale = { ticks: chartJsTicks } as unknown as Scale;
    axis.afterBuildTicks?.(scale);
    expect(scale.ticks.map((t) => t.value)).toEqual([1, 10, 100]);
    expect(settingTicks([32, 1, 2, 4, 8, 16])).toEqual([1, 2, 4, 8, 16, 32]);
  });

  it('leaves latencies and long lists of values to the scale\'s own ticks', () => {
    expect(settingTicks([48.9, 62.7, 129.5])).toBeNull();
    expect(settingTicks(Array.from({ length: 40 }, (_, i) => i + 1))).toBeNull();
    expect(settingsAxis([1, 10, 100], false)).toEqual({});
  });

  it('steps an axis of rounds by whole numbers, and a time axis as it likes', () => {
    expect(wholeNumberTicks([1, 2, 3])).toEqual({ precision: 0 });
    expect(wholeNumberTicks([0.5, 1.5])).toEqual({});
  });
});
