// Scale-out what-if: the metric against storage-node count (the runs' nodes tag) or client hosts,
// the Universal Scalability Law fitted to it, and larger clusters predicted — capped by what the
// clients' and nodes' links can carry, saying which limit binds. A study's many settings are one
// table, each drawn in full on demand; a tag whose groups differ at one setting is said, and each
// group can be fitted apart.
import type { ScalingFit, ScalingParams } from '../api';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import { METRICS, fitQualityText, fmt, metricInfo, typedList, type MetricInfo } from '../lib/metrics';
import { InlineInput, InlineSelect } from './Field';
import { FitAnswer, FitFields } from './FitPanel';
import { FIT_FORM, useFitAsk, type FitForm } from './fit-ask';

type By = 'nodes' | 'clients';
const BY = [['nodes', 'storage nodes'], ['clients', 'client hosts']] as const;

interface ScalingForm extends FitForm {
  by: By;
  clientLink: string;
  nodeLink: string;
  clients: string;
}

const INITIAL: ScalingForm = { ...FIT_FORM, by: 'nodes', clientLink: '', nodeLink: '', clients: '' };
const FIELDS = { clients: 'Clients', client_link_gbps: 'Client link', node_link_gbps: 'Node link' };

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
  const { form, set, busy, result, problem, ask: askFit } = useFitAsk('models.scaling', 'analysis.scaling', INITIAL, runIds, FIELDS);

  function ask(splitBy: string) {
    // every field typed wrong is said, and the engine is asked without them to say what else is
    const wrong: string[] = [];
    const params: ScalingParams = {
      run_ids: runIds, metric: form.metric, by: form.by, at: typedList(form.at),
      clients: positive(form.clients, 'Clients', wrong, true), client_link_gbps: positive(form.clientLink, 'Client link', wrong),
      node_link_gbps: positive(form.nodeLink, 'Node link', wrong), split_by: splitBy,
    };
    askFit(params, wrong.length ? wrong.join('; ') : null);
  }

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
      <FitFields label="Fit and project" onAsk={() => ask(form.splitBy)} busy={busy} problem={problem}>
        <InlineSelect id="scaling-metric" label="Metric" value={form.metric} onChange={(metric) => set({ metric })}
          options={METRICS.filter((m) => !m.id.startsWith('lat')).map((m) => [m.id, m.title] as const)} />
        <InlineSelect id="scaling-by" label="Across" value={form.by} onChange={(by) => set({ by })} options={BY} />
        <InlineInput id="scaling-at" label="Predict at" value={form.at} onChange={(v) => set({ at: v })}
          placeholder="8, 16" size={8} />
        <InlineInput id="scaling-client-link" label="Client link (Gb/s)" value={form.clientLink} onChange={(v) => set({ clientLink: v })}
          placeholder="10" size={5} />
        <InlineInput id="scaling-clients" label="Clients" value={form.clients} onChange={(v) => set({ clients: v })}
          placeholder="hosts per run" size={8} />
        <InlineInput id="scaling-node-link" label="Node link (Gb/s)" value={form.nodeLink} onChange={(v) => set({ nodeLink: v })}
          placeholder="25" size={5} />
      </FitFields>
      {result && (
        <FitAnswer answer={result} fits={result.fits} view={form} onView={set} busy={busy} onSplit={ask}
          index={{ what: 'settings', column: 'setting', testId: 'scaling-index', row: (f) => ({ label: f.setting, cells: indexCells(f, info) }),
            headers: ['runs', `${unitName} measured`, 'fit over the runs: R²', `predicted at ${result.fits[0]?.projections.at(-1)?.units ?? ''} ${unitName}`, 'limited by'] }}
          draw={(fit, index) => <FitView index={index} fit={fit} info={info} unitName={unitName} />} />
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
