// Axes on the values that were measured: a log axis over a few whole-number settings (queue
// depths, outstanding I/Os) is ticked at those settings, 1, 2, 4 … 32 or 1, 10, 100, never at
// Chart.js's 1, 3, 10, 20, 80; an axis of whole numbers (rounds, % reads) has no 1.5 or 2.5.
import type { Scale } from 'chart.js';

/** More distinct settings than this read better on the scale's own decades. */
export const MAX_SETTING_TICKS = 16;

/** The distinct settings a log axis is ticked at, or null when `xs` are not a few whole numbers. */
export function settingTicks(xs: readonly number[]): number[] | null {
  const distinct = [...new Set(xs)].sort((a, b) => a - b);
  const settings = distinct.length > 0 && distinct.length <= MAX_SETTING_TICKS
    && distinct.every((x) => Number.isInteger(x) && x > 0);
  return settings ? distinct : null;
}

/** Scale options for a log axis ticked at its settings, spanning exactly them; {} otherwise. */
export function settingsAxis(xs: readonly number[], log: boolean) {
  const at = log ? settingTicks(xs) : null;
  if (!at) return {};
  return {
    min: at[0], max: at[at.length - 1],
    afterBuildTicks: (scale: Scale) => { scale.ticks = at.map((value) => ({ value })); },
  };
}

/** Tick options for a linear axis: steps of whole numbers when every value is one. */
export function wholeNumberTicks(xs: readonly number[]): { precision?: number } {
  return xs.length > 0 && xs.every(Number.isInteger) ? { precision: 0 } : {};
}

/** Whether a log axis of measured values labels this tick: past a decade, only 1, 2 and 5 times a
 *  power of ten (Chart.js ticks every 1–9 × 10ⁿ, and their labels ran into each other: '600700800
 *  9001k'); within one decade, every one. */
export function logLabelled(value: number, ticks: readonly { value: number }[]): boolean {
  const values = ticks.map((t) => t.value).filter((v) => v > 0);
  if (values.length === 0 || Math.max(...values) <= 10 * Math.min(...values)) return true;
  const mantissa = value / 10 ** Math.floor(Math.log10(value) + 1e-9);
  return [1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6);
}
