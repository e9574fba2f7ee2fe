import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChartFigure } from './ChartFigure';
import { MAX_MARKS, thinned } from './chart-config';
import { TABLE_ROWS } from './ChartTable';

describe('ChartFigure', () => {
  it('lists every point it draws in an accessible table', () => {
    render(<ChartFigure id="c" title="IOPS vs access size" kind="line" xLabel="access size" yLabel="IOPS"
      series={[{ label: 'randread', points: [{ x: 4096, y: 12000 }, { x: 16384, y: 9000, err: 300 }] }]} />);
    const table = screen.getByRole('table', { name: 'IOPS vs access size' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-x'))).toEqual(['4096', '16384']);
    expect(within(rows[1]!).getByText('300')).toBeDefined();
  });

  it('keeps only the last points of a growing series in its table when asked', () => {
    const points = Array.from({ length: 100 }, (_, i) => ({ x: i + 1, y: 1000 + i }));
    render(<ChartFigure id="live" title="IOPS, per second" kind="line" xLabel="s" yLabel="IOPS" tableLast={3} series={[{ label: 'read', points }]} />);
    const table = screen.getByRole('table', { name: /IOPS, per second/ });
    expect(within(table).getAllByRole('row').slice(1).map((r) => r.getAttribute('data-x'))).toEqual(['98', '99', '100']);
  });

  it('says where an interval wider than its mean (n = 2) is left out of its axis, and only then', () => {
    const bars = (err: number) => (
      <ChartFigure id="b" title="Mean IOPS per point" kind="bar" xLabel="point" yLabel="IOPS" categories={['QD1', 'QD4']}
        series={[{ label: 'mean IOPS', points: [{ x: 0, y: 14_700, err }, { x: 1, y: 20_100, err: 1_500 }] }]} />);
    const { unmount } = render(bars(71_400));
    expect(screen.getByText(/An interval wider than its own mean .* does not stretch the axis/)).toBeDefined();
    unmount();
    render(bars(900));
    expect(screen.queryByText(/An interval wider than its own mean/)).toBeNull();
  });

  it('says what would fill it when there is nothing to draw', () => {
    render(<ChartFigure id="c" title="Latency vs queue depth" kind="line" xLabel="QD" yLabel="µs" series={[]} empty="Vary queue depth." />);
    expect(screen.getByText('Vary queue depth.')).toBeDefined();
  });

  it('thins a points series past its most markers and says so in its label; a smaller one is drawn whole', () => {
    const points = Array.from({ length: 8640 }, (_, i) => ({ x: i, y: i }));
    const drawnSeries = thinned({ label: 'measured', style: 'points', points });
    expect(drawnSeries.label).toBe('measured (every 5th of 8,640 drawn)');
    expect(drawnSeries.points.length).toBeLessThanOrEqual(MAX_MARKS);
    const few = { label: 'measured', style: 'points' as const, points: points.slice(0, 180) };
    expect(thinned(few)).toBe(few);
  });

  it('lists a long series\' first rows in its table and says how long it is', () => {
    const points = Array.from({ length: 8640 }, (_, i) => ({ x: i, y: i }));
    render(<ChartFigure id="c" title="Bandwidth" kind="line" xLabel="size" yLabel="MB/s" series={[{ label: 'measured', style: 'points', points }]} />);
    const table = screen.getByRole('table', { name: /Bandwidth/ });
    expect(within(table).getAllByRole('row')).toHaveLength(TABLE_ROWS + 1);
    expect(table.querySelector('caption')!.textContent).toBe(`Bandwidth (each series' first ${TABLE_ROWS} points; the longest has 8,640)`);
  });
});
