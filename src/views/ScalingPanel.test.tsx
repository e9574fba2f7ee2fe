import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ScalingParams, ScalingResult } from '../api';
import { fakeEngine, invalidParams } from '../test/fake-engine';
import { studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { ScalingPanel } from './ScalingPanel';

// Three node counts for the USL's three parameters: the engine calls it an exact fit, with no R².
const EXACT_NOTE = 'exact fit: no check possible (3 parameters for 3 settings)';

function projected(p: ScalingParams): ScalingResult {
  return {
    metric: p.metric!, by: p.by!, split_by: '', split_name: '', splits: [], fits: [{
      setting: 'read 1MiB QD8', lam: 1e9, sigma: 0.1, kappa: 0, peak_units: null,
      fit: {
        check: 'none', note: EXACT_NOTE, runs: 3, settings: 3, parameters: 3, r2: null, adjusted_r2: null, rmse: null,
      },
      observed: [1, 2, 3].map((n) => ({ x: n, value: n * 1e9, low: null, high: null })),
      curve: [1, 8].map((n) => ({ x: n, value: n * 0.6e9, low: null, high: null })),
      projections: [{
        units: 8, usl: 5e9, client_network_cap: null, node_network_cap: null, predicted: 5e9, binding: 'scalability',
      }],
      client_link_bytes_per_s: null, client_link_source: '', description: '',
    }],
  };
}

/** The panel over the student's runs, the engine answering analysis.scaling with `answer`. */
function panel(answer: (p: ScalingParams) => ScalingResult) {
  const fake = fakeEngine({ 'analysis.scaling': answer });
  renderWith(fake.engine, <ScalingPanel runIds={studentRuns.map((r) => r.id!)} />);
  return fake;
}

describe('ScalingPanel', () => {
  it('offers the metrics by the engine\'s names and shows no R² for an exact fit', async () => {
    panel(projected);
    const metric = screen.getByLabelText('Metric');
    expect(within(metric).getByRole('option', { name: 'bandwidth (MB/s)' })).toBeDefined();
    expect(within(metric).queryByRole('option', { name: /latency/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Fit and project' }));

    const quality = await screen.findByTestId('fit-quality');
    expect(quality.textContent).toBe(`Fit over the runs, 3 runs at 3 settings: ${EXACT_NOTE}.`);
    expect(screen.getByTestId('scaling-fit').textContent).not.toMatch(/R²/);
  });

  it('names every bad field at once: its own checks and the engine\'s, asked without the fields typed wrong', async () => {
    const fake = panel(() => { throw invalidParams([{ field: 'at', flag: '-', label: 'at', message: "'x' is not a number" }]); });
    await userEvent.type(screen.getByLabelText('Predict at'), 'x');
    await userEvent.type(screen.getByLabelText('Client link (Gb/s)'), 'fast');
    await userEvent.type(screen.getByLabelText('Node link (Gb/s)'), '-2');
    await userEvent.type(screen.getByLabelText('Clients'), '2.5');
    await userEvent.click(screen.getByRole('button', { name: 'Fit and project' }));
    await screen.findByText(/Predict at: 'x' is not a number/);
    expect(screen.getByRole('alert').textContent).toBe('Clients: “2.5” is not a whole number; Client link: “fast” is not a positive number; '
      + "Node link: “-2” is not a positive number; Predict at: 'x' is not a number");
    expect(fake.calls.at(-1)!.params).toMatchObject({ at: ['x'], clients: null, client_link_gbps: null, node_link_gbps: null });
  });
});
