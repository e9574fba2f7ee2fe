import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FitQualityInfo, PredictParams, PredictResult } from '../api';
import { fakeEngine, invalidParams } from '../test/fake-engine';
import { studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { PredictPanel } from './PredictPanel';

const MiB = 2 ** 20;

const WEAK_NOTE = 'weak check: 3 settings for 2 parameters';
const EXACT_NOTE = 'exact fit: no check possible (3 parameters for 3 settings)';
const weak: FitQualityInfo = {
  check: 'weak', note: WEAK_NOTE, runs: 3, settings: 3, parameters: 2,
  r2: 0.991, adjusted_r2: 0.982, rmse: 12e6,
};
const exact: FitQualityInfo = {
  check: 'none', note: EXACT_NOTE, runs: 3, settings: 3, parameters: 3,
  r2: null, adjusted_r2: null, rmse: null,
};

function predicted(p: PredictParams, fit: FitQualityInfo = weak): PredictResult {
  return {
    metric: p.metric!, vary: p.vary!, split_by: '', split_name: '', splits: [], series: [{
      label: 'read jobs=1 QD1', run_ids: [1, 2, 3],
      model: 'polynomial of degree 1 in log2(x), fitted to log(y)',
      model_choice: '3 settings allow degree 1 at most, leaving settings to check it',
      measured: [{ run_id: 1, x: 4096, value: 40e6 }, { run_id: 2, x: 131072, value: 400e6 }, { run_id: 3, x: 4 * MiB, value: 900e6 }],
      loo_mean_abs_error_pct: 12.5, loo_rmse: 60e6, loo_r2: 0.9, fit,
      loo: [{ x: 4096, actual: 40e6, predicted: null, error_pct: null }, { x: 131072, actual: 400e6, predicted: 440e6, error_pct: 10 }],
      curve: [{ x: 4096, value: 41e6, low: 30e6, high: 55e6 }, { x: 4 * MiB, value: 880e6, low: 700e6, high: 1100e6 }],
      predictions: [{ x: MiB, value: 700e6, low: 600e6, high: 820e6, confidence: 0.95 }],
      check: { run_id: 12, anomalous: true, observed: 300e6, message: 'outside', prediction: { x: MiB, value: 700e6, low: 600e6, high: 820e6, confidence: 0.99 } },
    }],
  };
}

/** The panel over the student's runs, the engine answering analysis.predict with `answer`. */
function panel(answer: (p: PredictParams) => PredictResult) {
  const fake = fakeEngine({ 'analysis.predict': answer });
  renderWith(fake.engine, <PredictPanel runIds={studentRuns.map((r) => r.id!)} />);
  return fake;
}

/** The engine's word on a bad 'at'. */
const refusingAt = (message: string) => () => { throw invalidParams([{ field: 'at', flag: '-', label: 'at', message }]); };

describe('PredictPanel', () => {
  it('asks for an untested size and a check run, and shows the interval, leave-one-out and the verdict in MB/s', async () => {
    const fake = panel(predicted);
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

  it('puts the leave-one-out error first and names the metric as the engine does', async () => {
    panel(predicted);
    expect(screen.getByRole('option', { name: 'bandwidth (MB/s)' })).toBeDefined();
    expect(screen.getByRole('option', { name: 'IOPS' })).toBeDefined();
    expect(screen.queryByText(/bw_bytes_per_s/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Fit and predict' }));

    const fit = await screen.findByTestId('series-fit');
    const text = fit.textContent ?? '';
    const loo = text.indexOf('Leaving each setting out');
    expect(loo).toBeGreaterThan(-1);
    expect(loo).toBeLessThan(text.indexOf('Fit over the runs'));
    expect(screen.getByTestId('loo-summary').textContent)
      .toMatch(/mean \|error\| 12\.5 %, RMSE 60 MB\/s, R² 0\.900/);
    expect(screen.getByTestId('fit-quality').textContent).toBe('Fit over the runs, 3 runs at 3 settings: '
      + `R² 0.991, adjusted 0.982, RMSE 12 MB/s; ${WEAK_NOTE}.`);
    expect(text).toContain('3 settings allow degree 1 at most');
  });

  it('shows no R² for an exact fit, and says why', async () => {
    panel((p) => predicted(p, exact));
    await userEvent.click(screen.getByRole('button', { name: 'Fit and predict' }));
    const quality = await screen.findByTestId('fit-quality');
    expect(quality.textContent).toBe(`Fit over the runs, 3 runs at 3 settings: ${EXACT_NOTE}.`);
    expect(screen.getByTestId('series-fit').textContent).not.toMatch(/R² 1\.000/);
  });

  it('sends the settings as typed and shows the engine\'s message when one is not a size', async () => {
    // The engine's own answer to at: ["1 parsec"] (engine/tests/app/test_service_analysis.py checks it says so).
    const fake = panel(refusingAt("'1 parsec' has an unknown size unit; use k, KiB, M, MiB, G, GiB (1024-based) or KB, MB, GB (1000-based)"));
    await userEvent.type(screen.getByLabelText('Predict at'), '1 parsec');
    await userEvent.click(screen.getByRole('button', { name: 'Fit and predict' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Predict at: '1 parsec' has an unknown size unit/);
    expect(fake.calls.at(-1)!.params).toMatchObject({ at: ['1 parsec'] });
  });

  it('names a bad check run and the engine\'s word on the sizes together, and shows no fit made without the check', async () => {
    const fake = panel(refusingAt("'1 parsec' has an unknown size unit"));
    await userEvent.type(screen.getByLabelText('Predict at'), '1 parsec');
    await userEvent.type(screen.getByLabelText('Check run'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Fit and predict' }));
    await screen.findByText(/Predict at: '1 parsec'/);
    expect(screen.getByRole('alert').textContent).toBe('Check run: “abc” is not a run number (e.g. 42); '
      + "Predict at: '1 parsec' has an unknown size unit");
    expect(fake.calls.at(-1)!.params).toMatchObject({ at: ['1 parsec'], check_run_id: null });
  });

  it('says when a tag splits the runs into groups that differ, and fits each group apart when asked', async () => {
    const split = { key: 'tag interface', name: 'interface', groups: ['PCIe', 'SATA'], settings: 144, differing: 144,
      sentence: 'interface splits these runs into groups that differ: SATA against PCIe differs at 144 of the 144 settings both measured' };
    const fake = panel((p) => (p.split_by
      ? { ...predicted(p), split_by: p.split_by, split_name: 'interface' }
      : { ...predicted(p), splits: [split] }));
    await userEvent.click(screen.getByRole('button', { name: 'Fit and predict' }));
    expect((await screen.findByTestId('split-advice')).textContent).toContain('SATA against PCIe differs at 144 of the 144');
    await userEvent.click(screen.getByRole('button', { name: 'Fit each interface apart (PCIe, SATA)' }));
    expect((await screen.findByTestId('split-by')).textContent).toContain('Each interface fitted apart.');
    expect(fake.calls.at(-1)!.params).toMatchObject({ split_by: 'tag interface' });
    expect(screen.queryByTestId('split-advice')).toBeNull();
  });

  it('lists many series in a table and draws the one chosen', async () => {
    const many = (p: PredictParams): PredictResult => {
      const one = predicted(p).series[0]!;
      return { ...predicted(p), series: Array.from({ length: 48 }, (_, i) => ({ ...one, label: `series ${i + 1}` })) };
    };
    panel(many);
    await userEvent.click(screen.getByRole('button', { name: 'Fit and predict' }));
    const index = await screen.findByTestId('series-index');
    expect(within(index).getAllByRole('row')).toHaveLength(13); // a header and the first 12 of 48
    expect(screen.getAllByTestId('series-fit')).toHaveLength(1);
    await userEvent.click(within(within(index).getAllByRole('row')[3]!).getByRole('button', { name: 'Draw' }));
    expect(screen.getByTestId('series-fit').querySelector('h4')!.textContent).toBe('series 3');
  });

  it('shows its answer again when the view is left and opened again, without asking twice', async () => {
    const fake = fakeEngine({ 'analysis.predict': predicted });
    const ids = studentRuns.map((r) => r.id!);
    const first = renderWith(fake.engine, <PredictPanel runIds={ids} />);
    await userEvent.type(screen.getByLabelText('Predict at'), '1m');
    await userEvent.click(screen.getByRole('button', { name: 'Fit and predict' }));
    await screen.findByTestId('prediction-table');
    first.unmount();
    const second = renderWith(fake.engine, <PredictPanel runIds={ids} />);
    expect(screen.getByLabelText<HTMLInputElement>('Predict at').value).toBe('1m');
    expect(screen.getByTestId('prediction-table')).toBeDefined();
    expect(fake.calls.filter((c) => c.method === 'analysis.predict')).toHaveLength(1);
    second.unmount();
    // other runs: the fit was not made from them
    renderWith(fake.engine, <PredictPanel runIds={ids.slice(1)} />);
    expect(screen.queryByTestId('prediction-table')).toBeNull();
  });
});
