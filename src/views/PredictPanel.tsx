// Prediction: a model of a metric along access size (polynomial in log2 size) or outstanding I/Os
// (queueing saturation), each setting predicted without it (leave one out: shown first, as what to
// expect of a prediction), its fit over the runs as the engine judged it (no R² for an exact fit),
// untested settings with a prediction interval, and whether one run is an anomaly against the rest.
import type { PredictParams, SeriesFit } from '../api';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import { METRICS, fitQualityText, fmt, metricInfo, typedList, type MetricInfo } from '../lib/metrics';
import { formatSize } from '../lib/units';
import { InlineInput, InlineSelect } from './Field';
import { FitAnswer, FitFields } from './FitPanel';
import { FIT_FORM, useFitAsk, type FitForm } from './fit-ask';

type Vary = 'block_size' | 'outstanding';
const VARY = [['block_size', 'access size'], ['outstanding', 'outstanding I/Os (QD × jobs)']] as const;

interface PredictForm extends FitForm {
  vary: Vary;
  degree: number;
  check: string;
}

const INITIAL: PredictForm = { ...FIT_FORM, vary: 'block_size', degree: 2, check: '' };
const FIELDS = { check_run_id: 'Check run' };

export function PredictPanel({ runIds }: { runIds: number[] }) {
  const { form, set, busy, result, problem, ask: askFit } = useFitAsk('models.predict', 'analysis.predict', INITIAL, runIds, FIELDS);

  function ask(splitBy: string) {
    const check = form.check.trim().replace(/^#/, '');
    const checkId = check ? Number(check) : null;
    const wrong = checkId !== null && (!Number.isInteger(checkId) || checkId <= 0);
    const params: PredictParams = {
      run_ids: runIds, metric: form.metric, vary: form.vary, at: typedList(form.at), degree: form.degree, confidence: 0.95,
      check_run_id: wrong ? null : checkId, split_by: splitBy,
    };
    askFit(params, wrong ? `Check run: “${form.check}” is not a run number (e.g. 42)` : null);
  }

  const info = metricInfo(result?.metric ?? form.metric);
  const vary = (result?.vary ?? form.vary) as Vary;
  return (
    <section className="predict-panel" aria-labelledby="predict-title">
      <h3 id="predict-title">Predict untested settings</h3>
      <p className="hint">
        Along access size the model is a polynomial in log2(size) fitted to log(metric); along outstanding I/Os (queue depth × jobs)
        throughput follows queueing saturation X<sub>max</sub>·n/(n+K). Each setting is also predicted from the others (leave one out):
        that error is what to expect for an untested setting.
      </p>
      <FitFields label="Fit and predict" onAsk={() => ask(form.splitBy)} busy={busy} problem={problem}>
        <InlineSelect id="predict-metric" label="Metric" value={form.metric} onChange={(metric) => set({ metric })}
          options={METRICS.map((m) => [m.id, m.title] as const)} />
        <InlineSelect id="predict-vary" label="Along" value={form.vary} onChange={(vary) => set({ vary })} options={VARY} />
        {form.vary === 'block_size' && (
          <InlineSelect id="predict-degree" label="Degree at most" value={form.degree} onChange={(degree) => set({ degree })}
            options={[1, 2, 3].map((d) => [d, String(d)] as const)} />
        )}
        <InlineInput id="predict-at" label="Predict at" value={form.at} onChange={(v) => set({ at: v })}
          placeholder={form.vary === 'block_size' ? '1m, 2m' : '64, 256'} />
        <InlineInput id="predict-check" label="Check run" value={form.check} onChange={(v) => set({ check: v })}
          placeholder="run number (optional)" size={10} />
      </FitFields>
      {result && (
        <FitAnswer answer={result} fits={result.series} view={form} onView={set} busy={busy} onSplit={ask}
          index={{ what: 'series', column: 'series', testId: 'series-index', row: (f) => ({ label: f.label, cells: indexCells(f, info) }),
            headers: ['runs', 'settings', 'leaving each setting out: mean |error|', 'fit over the runs: R²'] }}
          draw={(fit, index) => <SeriesView index={index} fit={fit} info={info} vary={vary} />} />
      )}
    </section>
  );
}

function indexCells(f: SeriesFit, info: MetricInfo): string[] {
  return [
    f.fit.runs.toLocaleString('en-US'), String(f.fit.settings),
    f.loo_mean_abs_error_pct === null ? '–' : `${fmt(f.loo_mean_abs_error_pct)} %`,
    f.fit.r2 === null ? (f.fit.rmse === null ? 'exact fit' : 'n/a') : `${f.fit.r2.toFixed(3)} (RMSE ${fmt((f.fit.rmse ?? 0) / info.scale)} ${info.unit})`,
  ];
}

function SeriesView({ fit, info, vary, index }: { fit: SeriesFit; info: MetricInfo; vary: Vary; index: number }) {
  const y = (v: number | null) => (v === null ? null : v / info.scale);
  const fx = vary === 'block_size' ? (x: number) => formatSize(Math.round(x)) : (x: number) => fmt(x);
  const series: Series[] = [
    { label: 'measured', style: 'points', points: [...fit.measured].sort((a, b) => a.x - b.x).map((p) => ({ x: p.x, y: y(p.value) })) },
    { label: 'model', style: 'curve', points: fit.curve.map((p) => ({ x: p.x, y: y(p.value) })) },
    ...(fit.curve.some((p) => p.low !== null) ? [
      { label: '95 % prediction interval', style: 'dashed' as const, points: fit.curve.map((p) => ({ x: p.x, y: y(p.low) })) },
      { label: '95 % prediction interval (upper)', style: 'dashed' as const, sameColourAs: 2, points: fit.curve.map((p) => ({ x: p.x, y: y(p.high) })) },
    ] : []),
    ...(fit.predictions.length ? [{ label: 'predicted', style: 'points' as const, points: fit.predictions.map((p) => ({ x: p.x, y: y(p.value) })) }] : []),
    ...(fit.check ? [{ label: `run #${fit.check.run_id}`, style: 'points' as const, points: [{ x: fit.check.prediction.x, y: y(fit.check.observed) }] }] : []),
  ];
  return (
    <div className="series-fit" data-testid="series-fit">
      <h4>{fit.label}</h4>
      <p className="hint">{fit.model}{fit.model_choice ? ` (${fit.model_choice})` : ''}.</p>
      <p data-testid="loo-summary">
        <strong>Leaving each setting out</strong>{' '}
        (its mean predicted by a model fitted without it):{' '}
        {looText(fit, info)}
      </p>
      <p className="hint" data-testid="fit-quality">
        Fit over the runs, {fitQualityText(fit.fit, info)}.
      </p>
      <ChartFigure id={`predict-${index}`} title={`${info.title} — ${fit.label}`} kind="line"
        xLabel={vary === 'block_size' ? 'access size' : 'outstanding I/Os'} yLabel={info.unit}
        xLog2={vary === 'block_size'} xLog={vary === 'outstanding'} formatX={fx} series={series} />
      <table className="data" data-testid="loo-table">
        <caption>Each setting predicted by a model fitted without it ({info.unit})</caption>
        <thead><tr><th>setting</th><th>measured (mean)</th><th>predicted without it</th><th>error</th></tr></thead>
        <tbody>
          {fit.loo.map((p) => (
            <tr key={p.x}><td>{fx(p.x)}</td><td>{fmt(p.actual / info.scale)}</td><td>{p.predicted === null ? '–' : fmt(p.predicted / info.scale)}</td>
              <td>{p.error_pct === null ? '–' : `${p.error_pct >= 0 ? '+' : ''}${p.error_pct.toFixed(1)} %`}</td></tr>
          ))}
        </tbody>
      </table>
      {fit.predictions.length > 0 && (
        <table className="data" data-testid="prediction-table">
          <caption>Untested settings ({info.unit})</caption>
          <thead><tr><th>setting</th><th>predicted</th><th>95 % prediction interval</th></tr></thead>
          <tbody>
            {fit.predictions.map((p) => (
              <tr key={p.x}><td>{fx(p.x)}</td><td>{fmt(p.value / info.scale)}</td>
                <td>{p.low === null || p.high === null ? 'none (as many parameters as runs: add repeats)' : `${fmt(p.low / info.scale)} – ${fmt(p.high / info.scale)}`}</td></tr>
            ))}
          </tbody>
        </table>
      )}
      {fit.check && <CheckVerdict check={fit.check} info={info} />}
    </div>
  );
}

/** The leave-one-out error, which every face shows first: what to expect of a prediction. */
function looText(fit: SeriesFit, info: MetricInfo): string {
  if (fit.loo_mean_abs_error_pct === null || fit.loo_rmse === null) {
    return 'too few settings to predict one from the others.';
  }
  const r2 = fit.loo_r2 === null ? '' : `, R² ${fit.loo_r2.toFixed(3)}`;
  const rmse = `${fmt(fit.loo_rmse / info.scale)} ${info.unit}`;
  const error = `${fmt(fit.loo_mean_abs_error_pct)} %`;
  return `mean |error| ${error}, RMSE ${rmse}${r2}: what to expect of a prediction.`;
}

function CheckVerdict({ check, info }: { check: NonNullable<SeriesFit['check']>; info: MetricInfo }) {
  const p = check.prediction;
  const deviation = (100 * (check.observed - p.value)) / p.value;
  const where = p.low === null || p.high === null ? check.message
    : `${check.anomalous ? 'outside' : 'within'} the ${Math.round(p.confidence * 100)} % prediction interval ${fmt(p.low / info.scale)} – ${fmt(p.high / info.scale)} ${info.unit} `
      + `of the model fitted to the other runs (${deviation >= 0 ? '+' : ''}${deviation.toFixed(1)} % from it)${check.anomalous ? ': check the hardware, the network and the run’s warnings' : ''}`;
  return (
    <p role="status" data-testid="anomaly" className={check.anomalous ? 'error' : 'hint'}>
      Run #{check.run_id}: {fmt(check.observed / info.scale)} {info.unit} — {check.anomalous ? <strong>anomalous</strong> : 'as expected'}, {where}.
    </p>
  );
}
