import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RunResult } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { fullRun, studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { Results } from './Results';

function chartPoints(title: string): string[] {
  const table = screen.getByRole('table', { name: title });
  return within(table).getAllByRole('row').slice(1).map((r) => r.getAttribute('data-x') ?? '');
}

describe('Results', () => {
  const engine = () => fakeEngine({ 'runs.get': () => ({ run: fullRun }) }).engine;

  it('draws the student curves from the runs', async () => {
    renderWith(engine(), <Results title="sweep 1" runs={studentRuns} onDesign={vi.fn()} />);
    expect(chartPoints('IOPS vs access size')).toEqual(['4096', '16384', '131072']);
    expect(chartPoints('Latency vs queue depth (µs)')).toEqual(['1', '10', '100', '1', '10', '100']);
    expect(chartPoints('IOPS vs read/write mix')).toEqual(['0', '50', '70', '100']);
    expect(await screen.findAllByRole('row')).not.toHaveLength(0);
  });

  it('states units in the table and marks a warning next to the number it concerns', () => {
    const warned: RunResult = { ...studentRuns[0]!, warnings: [{ code: 'short_run', severity: 'warning', message: 'read ran 0.5 s of the 1 s asked', concerns: ['read.iops'] }] };
    renderWith(engine(), <Results title="one" runs={[warned]} onDesign={vi.fn()} />);
    const table = screen.getByTestId('results-table');
    expect(within(table).getByText('MB/s')).toBeDefined();
    expect(within(table).getByText('p99 µs')).toBeDefined();
    expect(within(table).getByRole('img', { name: 'read ran 0.5 s of the 1 s asked' })).toBeDefined();
  });

  it('suggests what to run when there are no results', () => {
    renderWith(engine(), <Results title="" runs={[]} onDesign={vi.fn()} />);
    expect(screen.getByText(/the student preset draws every chart/)).toBeDefined();
  });
});
