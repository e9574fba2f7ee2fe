// Scale-out what-if: the metric against storage-node count (the runs' nodes tag) or client hosts,
// the Universal Scalability Law fitted to it, and larger clusters predicted — capped by what the
// clients' and nodes' links can carry, saying which limit binds. A study's many settings are one
// table, each drawn in full on demand; a tag whose groups differ at one setting is said, and each
// group can be fitted apart.
import { useMemo } from 'react';
import type { ScalingFit, ScalingParams } from '../api';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import {
  METRICS, engineProblem, fitQualityText, fmt, metricInfo, typedList, type MetricId, type MetricInfo,
} from '../lib/metrics';
import { useKept } from '../state/kept';
import { useKeptAnswer } from '../state/kept-answer';
import { InlineInput } from './Field';
import { FitIndex, drawnFits } from './FitIndex';
import { SplitAdvice } from './SplitAdvice';
import { sameRuns } from './same-runs';

type By = 'nodes' | 'clients';

interface ScalingForm {
  metric: MetricId;
  by: By;
  at: string;
  clientLink: string;
  nodeLink: string;
  clients: string;
  splitBy: string;
  shown: number;
  page: number;
}

const INITIAL: ScalingForm = { metric: 'bw_bytes_per_s', by: 'nodes', at: '', clientLink: '', nodeLink: '', clients: '', splitBy: '', shown: 0, page: 0 };
const FIELDS = { at: 'Predict at', clients: 'Clients', client_link_gbps: 'Client link', node_link_gbps: 'Node link', split_by: 'Fit apart' };

/** A typed positive number, or null when blank or wrong (what is wrong is added to `wrong`). */
function positive(text: string, what: string, wrong: string[], whole = false): number | null {
  if (!text.trim()) return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) wrong.push(`${what}: “${text}” is not a positive number`);
  else if (whole && !Number.isInteger(value)) wrong.push(`${what}: “${text}” is not a whole number`);
  else return value;
  return null;
}

export function ScalingPanel({ runIds }: { runIds: number[] }) {
  const [form, setForm] = useKept<ScalingForm>('models.scaling', INITIAL);
  const set = (change: Partial<ScalingForm>) => setForm((f) => ({ ...f, ...change }));
  const answer = useKeptAnswer('models.scaling', 'analysis.scaling');
  // what was typed wrong at the last ask, kept with the answer it came with
  const [typed, setTyped] = useKept<string | null>('models.scaling.typed', null);
  const current = useMemo(() => sameRuns(answer.asked?.run_ids, runIds), [answer.asked, runIds]);
  const result = current && typed === null ? answer.result : null;

  function ask(splitBy: string) {
    // every field typed wrong is said, and the engine is asked without them to say what else is
    const wrong: string[] = [];
    const params: ScalingParams = {
      run_ids: runIds, metric: form.metric, by: form.by, at: typedList(form.at),
      clients: positive(form.clients, 'Clients', wrong, true), client_link_gbps: positive(form.clientLink, 'Client link', wrong),
      node_link_gbps: positive(form.nodeLink, 'Node link', wrong), split_by: splitBy,
    };
    setTyped(wrong.length ? wrong.join('; ') : null);
    set({ splitBy, shown: 0, page: 0 });
    answer.ask(params);
  }

  const problem = [typed, current && answer.error ? engineProblem(answer.error, FIELDS) : null].filter(Boolean).join('; ');
  const info = metricInfo(result?.metric ?? form.metric);
  const unitName = (result?.by ?? form.by) === 'nodes' ? 'storage nodes' : 'clients';
  return (
    <section className="scaling-panel" aria-labelledby="scaling-title">
      <h3 id="scaling-title">Scale-out what-if</h3>
      <p className="hint">
        The metric against {form.by === 'nodes' ? 'storage-node count (tag runs nodes=N in History)' : 'client hosts per run'}, fitted with the
        Universal Scalability Law X(N) = λN / (1 + σ(N−1) + κN(N−1)): σ is contention, κ the cost of keeping units in step. Larger
        clusters are predicted, then capped by the network: clients × client link and nodes × node link.
      </p>
      <div className="field-row">
        <div className="field inline">
          <label htmlFor="scaling-metric">Metric</label>
          <select id="scaling-metric" value={form.metric} onChange={(e) => set({ metric: e.target.value as MetricId })}>
            {METRICS.filter((m) => !m.id.startsWith('lat')).map((m) => (
              <option key={m.id} value={m.id}>{m.title}</option>
            ))}
          </select>
        </div>
        <div className="field inline">
          <label htmlFor="scaling-by">Across</label>
          <select id="scaling-by" value={form.by} onChange={(e) => set({ by: e.target.value as By })}>
            <option value="nodes">storage nodes</option>
            <option value="clients">client hosts</option>
          </select>
        </div>
        <InlineInput id="scaling-at" label="Predict at" value={form.at} onChange={(v) => set({ at: v })}
          placeholder="8, 16" size={8} />
        <InlineInput id="scaling-client-link" label="Client link (Gb/s)" value={form.clientLink} onChange={(v) => set({ clientLink: v })}
          placeholder="10" size={5} />
        <InlineInput id="scaling-clients" label="Clients" value={form.clients} onChange={(v) => set({ clients: v })}
          placeholder="hosts per run" size={8} />
        <InlineInput id="scaling-node-link" label="Node link (Gb/s)" value={form.nodeLink} onChange={(v) => set({ nodeLink: v })}
          placeholder="25" size={5} />
        <button type="button" disabled={answer.busy} onClick={() => ask(form.splitBy)}>{answer.busy ? 'Fitting…' : 'Fit and project'}</button>
      </div>
      {problem && <p role="alert" className="error">{problem}</p>}
      {result && (
        <>
          <SplitAdvice splits={result.splits} splitBy={result.split_by} splitName={result.split_name} busy={answer.busy} onSplit={ask} />
          {result.fits.length > 1 && (
            <FitIndex what="settings" column="setting" testId="scaling-index" rows={result.fits.map((f) => ({ label: f.setting, cells: indexCells(f, info) }))}
              headers={['runs', `${unitName} measured`, 'fit over the runs: R²', `predicted at ${result.fits[0]?.projections.at(-1)?.units ?? ''} ${unitName}`, 'limited by']}
              shown={form.shown} onShow={(shown) => set({ shown })} page={form.page} onPage={(page) => set({ page })} />
          )}
          {drawnFits(result.fits, form.shown).map(({ fit, index }) => (
            <FitView key={index} index={index} fit={fit} info={info} unitName={unitName} />
          ))}
        </>
      )}
    </section>
  );
}

function indexCells(f: ScalingFit, info: MetricInfo): string[] {
  const last = f.projections.at(-1);
  return [
    f.fit.runs.toLocaleString('en-US'), f.observed.length ? String(new Set(f.observed.map((p) => p.x)).size) : '0',
    f.fit.r2 === null ? (f.fit.rmse === null ? 'exact fit' : 'n/a') : f.fit.r2.toFixed(3),
    last ? `${fmt(last.predicted / info.scale)} ${info.unit}` : '–', last?.binding ?? '–',
  ];
}

function FitView({ fit: f, info, unitName, index }: { fit: ScalingFit; info: MetricInfo; unitName: string; index: number }) {
  const y = (v: number | null) => (v === null ? null : v / info.scale);
  const caps = f.projections.filter((p) => p.client_network_cap !== null);
  const series: Series[] = [
    { label: 'measured', style: 'points', points: f.observed.map((p) => ({ x: p.x, y: y(p.value) })) },
    { label: 'USL', style: 'curve', points: f.curve.map((p) => ({ x: p.x, y: y(p.value) })) },
    ...(caps.length ? [{ label: 'client network cap', style: 'dashed' as const,
      points: [f.curve[0]!, f.curve.at(-1)!].map((p) => ({ x: p.x, y: y(caps[0]!.client_network_cap) })) }] : []),
    ...(f.projections.some((p) => p.node_network_cap !== null) ? [{ label: 'node network cap', style: 'dashed' as const,
      points: f.curve.map((p) => ({ x: p.x, y: y(p.x * (f.projections[0]!.node_network_cap! / f.projections[0]!.units)) })) }] : []),
    { label: 'predicted', style: 'points', points: f.projections.map((p) => ({ x: p.units, y: y(p.predicted) })) },
  ];
  return (
    <div className="scaling-fit" data-testid="scaling-fit">
      <h4>{f.setting}</h4>
      <p className="hint">
        λ = {fmt(f.lam / info.scale)} {info.unit} per unit, contention σ = {f.sigma.toFixed(3)}, coherency κ = {f.kappa.toFixed(4)};
        {f.peak_units ? ` throughput peaks at about ${f.peak_units.toFixed(1)} ${unitName}`
          : ' no peak in sight'}.
      </p>
      <p className="hint" data-testid="fit-quality">
        Fit over the runs, {fitQualityText(f.fit, info)}.
      </p>
      {f.client_link_bytes_per_s !== null && (
        <p className="hint" data-testid="client-link">Client link {fmt((f.client_link_bytes_per_s * 8) / 1e9)} Gb/s: {f.client_link_source}.</p>
      )}
      <ChartFigure id={`scaling-${index}`} kind="line"
        title={`${info.title} vs ${unitName} — ${f.setting}`}
        xLabel={unitName} yLabel={info.unit} series={series} xWhole />
      <table className="data" data-testid="projection-table">
        <caption>Projections ({info.unit}); the smallest limit is the prediction</caption>
        <thead><tr><th>{unitName}</th><th>USL</th><th>client network</th><th>node network</th><th>predicted</th><th>limited by</th></tr></thead>
        <tbody>
          {f.projections.map((p) => (
            <tr key={p.units}><td>{p.units}</td><td>{fmt(p.usl / info.scale)}</td><td>{fmt(y(p.client_network_cap))}</td>
              <td>{fmt(y(p.node_network_cap))}</td><td><strong>{fmt(p.predicted / info.scale)}</strong></td><td data-testid="binding">{p.binding}</td></tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
