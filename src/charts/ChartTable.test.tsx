import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChartTable } from './ChartTable';

describe('ChartTable', () => {
  it('prints an x as the number it is, without the binary noise of the sum that made it', () => {
    // a live chart's sweep time: 3 s + 1.001 s, as a double
    render(<ChartTable id="live" title="IOPS, per second" kind="line" xLabel="sweep time (s)" yLabel="IOPS"
      series={[{ label: 'read', points: [{ x: 3 + 1.001, y: 63320 }, { x: 18149.425287, y: 61.34 }] }]} />);
    const rows = within(screen.getByRole('table', { name: 'IOPS, per second' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.children[1]!.textContent)).toEqual(['4.001', '18149.425287']);
    expect(rows[0]!.getAttribute('data-x')).toBe(String(3 + 1.001)); // the attribute keeps the value as drawn
  });
});
