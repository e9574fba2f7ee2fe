import { describe, expect, it } from 'vitest';
import type { ChartFigureProps } from './ChartFigure';
import { config } from './chart-config';

type Labeller = (value: number, index: number, ticks: { value: number }[]) => string;

function labels(props: ChartFigureProps, axis: 'x' | 'y', at: number[]): string[] {
  const scale = config(props).options!.scales![axis] as unknown as { ticks: { callback: Labeller } };
  const ticks = at.map((value) => ({ value }));
  return ticks.map((t, i) => scale.ticks.callback(t.value, i, ticks)).filter((label) => label !== '');
}

// Chart.js's own ticks on a log axis: every 1-9 times a power of ten
const DECADES = [30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1500];

describe('chart-config', () => {
  it('labels a log axis of measured values spanning decades at 1, 2 and 5 times a power of ten, never all nine', () => {
    const percentiles: ChartFigureProps = { id: 'percentiles', title: 'Latency percentile distribution', kind: 'line',
      xLabel: 'latency (µs)', yLabel: 'percentile', xLog: true,
      series: [{ label: 'all I/Os', points: [29.6, 43.8, 60.2, 89.6, 444.4, 1499.1].map((x, i) => ({ x, y: 20 * i })) }] };
    expect(labels(percentiles, 'x', DECADES)).toEqual(['50', '100', '200', '500', '1k']);
    const curve: ChartFigureProps = { ...percentiles, xLog: false, yLog: true, xLabel: 'IOPS', yLabel: 'µs' };
    expect(labels(curve, 'y', DECADES)).toEqual(['50', '100', '200', '500', '1k']);
  });

  it('keeps every label of a log axis within one decade, and a few settings ticked where measured', () => {
    const narrow: ChartFigureProps = { id: 'n', title: 'n', kind: 'line', xLabel: 'µs', yLabel: '%', xLog: true,
      series: [{ label: 'a', points: [{ x: 31, y: 1 }, { x: 88, y: 2 }] }] };
    expect(labels(narrow, 'x', [30, 40, 50, 60, 70, 80, 90])).toEqual(['30', '40', '50', '60', '70', '80', '90']);
    const depths: ChartFigureProps = { ...narrow, xLabel: 'queue depth',
      series: [{ label: 'a', points: [1, 2, 4, 8, 16, 32].map((x) => ({ x, y: x })) }] };
    expect(labels(depths, 'x', [1, 2, 4, 8, 16, 32])).toEqual(['1', '2', '4', '8', '16', '32']);
  });
});
