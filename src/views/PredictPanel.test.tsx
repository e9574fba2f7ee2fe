import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PredictParams, PredictResult } from '../api';
import { fakeEngine, RpcReplyError } from '../test/fake-engine';
import { studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { PredictPanel } from './PredictPanel';

const MiB = 2 ** 20;

function predicted(p: PredictParams): PredictResult {
  return {
    metric: p.metric!, vary: p.vary!, series: [{
      label: 'read jobs=1 QD1', model: 'polynomial of degree 2 in log2(x), fitted to log(y)', run_ids: [1, 2, 3],
      measured: [{ run_id: 1, x: 4096, value: 40e6 }, { run_id: 2, x: 131072, value: 400e6 }, { run_id: 3, x: 4 * MiB, value: 900e6 }],
      rmse: 12e6, r2: 0.991, loo_rmse: 60e6, loo_r2: 0.9, loo_mean_abs_error_pct: 12.5,
      loo: [{ x: 4096, actual: 40e6, predicted: null, error_pct: null }, { x: 131072, actual: 400e6, predicted: 440e6, error_pct: 10 }],
      curve: [{ x: 4096, value: 41e6, low: 30e6, high: 55e6 }, { x: 4 * MiB, value: 880e6, low: 700e6, high: 1100e6 }],
      predictions: [{ x: MiB, value: 700e6, low: 600e6, high: 820e6, confidence: 0.95 }],
      check: { run_id: 12, anomalous: true, observed: 300e6, message: 'outside', prediction: { x: MiB, value: 700e6, low: 600e6, high: 820e6, confidence: 0.99 } },
    }],
  };
}

describe('PredictPanel', () => {
  it('asks for an untested size and a check run, and shows the interval, leave-one-out and the verdict in MB/s', async () => {
    const fake = fakeEngine({ 'analysis.predict': predicted });
    renderWith(fake.engine, <PredictPanel runs={studentRuns} />);
    await userEvent.type(screen.getByLabelText('Predict at'), '1m');
    await userEvent.type(screen.getByLabelText('Check run'), '#12');
    await userEvent.click(screen.getByRole('button', { name: 'Fit and predict' }));

    const table = await screen.findByTestId('prediction-table');
    expect(within(table).getByText('1MiB')).toBeDefined();
    expect(within(table).getByText('700')).toBeDefined();
    expect(within(table).getByText('600 – 820')).toBeDefined();
    expect(within(screen.getByTestId('loo-table')).getByText('+10.0 %')).toBeDefined();
    expect(screen.getByTestId('anomaly').textContent).toMatch(/Run #12: 300 MB\/s — anomalous, outside the 99 % prediction interval 600 – 820 MB\/s .*-57\.1 %/);
    expect(fake.calls.at(-1)!.params).toMatchObject({ run_ids: studentRuns.map((r) => r.id), metric: 'bw_bytes_per_s', vary: 'block_size',
      at: ['1m'], check_run_id: 12, degree: 2 });
  });

  it('sends the settings as typed and shows the engine\'s message when one is not a size', async () => {
    // The engine's own answer to at: ["1 parsec"] (engine/tests/app/test_service_analysis.py checks it says so).
    const refusal = { code: -32602, message: 'invalid params', data: { problems: [{ field: 'at', flag: '-',
      message: "'1 parsec' has an unknown size unit; use k, KiB, M, MiB, G, GiB (1024-based) or KB, MB, GB (1000-based)" }] } };
    const fake = fakeEngine({ 'analysis.predict': () => { throw new RpcReplyError(refusal); } });
    renderWith(fake.engine, <PredictPanel runs={studentRuns} />);
    await userEvent.type(screen.getByLabelText('Predict at'), '1 parsec');
    await userEvent.click(screen.getByRole('button', { name: 'Fit and predict' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Predict at: '1 parsec' has an unknown size unit/);
    expect(fake.calls.at(-1)!.params).toMatchObject({ at: ['1 parsec'] });
  });
});
