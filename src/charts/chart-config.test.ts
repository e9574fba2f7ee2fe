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

  it('draws a latency distribution as the PDF does: the percentile across on nines, 99.9 three steps from 0, the latency up a log axis', () => {
    const distribution: ChartFigureProps = { id: 'percentiles', title: 'Latency percentile distribution', kind: 'line',
      xLabel: 'latency (µs)', yLabel: 'percentile', nines: true,
      series: [{ label: 'all I/Os', points: [[40, 50], [60, 90], [90, 99], [400, 99.9], [1500, 99.99], [3000, 100]]
        .map(([x, y]) => ({ x: x!, y: y! })) }] };
    expect(labels(distribution, 'x', [0, 1, 2, 3, 4, 5])).toEqual(['0', '90', '99', '99.9', '99.99', '99.999']);
    const made = config(distribution);
    const scales = made.options!.scales! as Record<string, { type?: string; title?: { text?: string } }>;
    expect([scales.x!.type, scales.x!.title!.text, scales.y!.type, scales.y!.title!.text])
      .toEqual(['linear', 'percentile', 'logarithmic', 'latency (µs)']);
    const drawn = made.data.datasets[0]!.data as { x: number; y: number }[];
    expect(drawn.map((p) => [Number(p.x.toFixed(3)), p.y])).toEqual(
      [[0, 40], [0.301, 40], [1, 60], [2, 90], [3, 400], [4, 1500], [4.301, 3000]]);
    const tooltip = made.options!.plugins!.tooltip as unknown as { callbacks: { label: (item: object) => string } };
    expect(tooltip.callbacks.label({ dataset: { label: 'all I/Os' }, parsed: { x: 3, y: 400 } })).toBe('all I/Os: latency (µs) 400 at 99.9 %');
  });
});
