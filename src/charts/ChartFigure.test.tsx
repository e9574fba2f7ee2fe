import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChartFigure } from './ChartFigure';

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

  it('says what would fill it when there is nothing to draw', () => {
    render(<ChartFigure id="c" title="Latency vs queue depth" kind="line" xLabel="QD" yLabel="µs" series={[]} empty="Vary queue depth." />);
    expect(screen.getByText('Vary queue depth.')).toBeDefined();
  });
});
