// Scale-out what-if: the metric against storage-node count (the runs' nodes tag) or client hosts,
// the Universal Scalability Law fitted to it, and larger clusters predicted — capped by what the
// clients' and nodes' links can carry, saying which limit binds.
import { useState } from 'react';
import { useEngine, type ScalingResult } from '../api';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import {
  METRICS, engineProblem, fitQualityText, fmt, metricInfo, typedList, type MetricId,
} from '../lib/metrics';

type By = 'nodes' | 'clients';

function positive(text: string, what: string): number | null {
  if (!text.trim()) return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${what}: “${text}” is not a positive number`);
  return value;
}

export function ScalingPanel({ runIds }: { runIds: number[] }) {
  const engine = useEngine();
  const [metric, setMetric] = useState<MetricId>('bw_bytes_per_s');
  const [by, setBy] = useState<By>('nodes');
  const [at, setAt] = useState('');
  const [clientLink, setClientLink] = useState('');
  const [nodeLink, setNodeLink] = useState('');
  const [clients, setClients] = useState('');
  const [result, setResult] = useState<ScalingResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  // A projection belongs to the runs it was made from: forget it, while rendering, when they change.
  const [projected, setProjected] = useState(runIds);
  if (projected !== runIds) {
    setProjected(runIds);
    setResult(null);
  }

  async function project() {
    setProblem(null);
    try {
      const clientCount = positive(clients, 'Clients');
      if (clientCount !== null && !Number.isInteger(clientCount)) throw new Error(`Clients: “${clients}” is not a whole number`);
      setResult(await engine.call('analysis.scaling', {
        run_ids: runIds, metric, by, at: typedList(at), clients: clientCount,
        client_link_gbps: positive(clientLink, 'Client link'), node_link_gbps: positive(nodeLink, 'Node link'),
      }));
    } catch (error) {
      setResult(null);
      setProblem(engineProblem(error, { at: 'Predict at', clients: 'Clients', client_link_gbps: 'Client link', node_link_gbps: 'Node link' }));
    }
  }

  const info = metricInfo(metric);
  const unitName = by === 'nodes' ? 'storage nodes' : 'clients';
  return (
    <section className="scaling-panel" aria-labelledby="scaling-title">
      <h3 id="scaling-title">Scale-out what-if</h3>
      <p className="hint">
        The metric against {by === 'nodes' ? 'storage-node count (tag runs nodes=N in History)' : 'client hosts per run'}, fitted with the
        Universal Scalability Law X(N) = λN / (1 + σ(N−1) + κN(N−1)): σ is contention, κ the cost of keeping units in step. Larger
        clusters are predicted, then capped by the network: clients × client link and nodes × node link.
      </p>
      <div className="field-row">
        <div className="field inline">
          <label htmlFor="scaling-metric">Metric</label>
          <select id="scaling-metric" value={metric} onChange={(e) => setMetric(e.target.value as MetricId)}>
            {METRICS.filter((m) => !m.id.startsWith('lat')).map((m) => (
              <option key={m.id} value={m.id}>{m.title}</option>
            ))}
          </select>
        </div>
        <div className="field inline">
          <label htmlFor="scaling-by">Across</label>
          <select id="scaling-by" value={by} onChange={(e) => setBy(e.target.value as By)}>
            <option value="nodes">storage nodes</option>
            <option value="clients">client hosts</option>
          </select>
        </div>
        <div className="field inline">
          <label htmlFor="scaling-at">Predict at</label>
          <input id="scaling-at" value={at} onChange={(e) => setAt(e.target.value)} placeholder="8, 16" size={8} />
        </div>
        <div className="field inline">
          <label htmlFor="scaling-client-link">Client link (Gb/s)</label>
          <input id="scaling-client-link" value={clientLink} onChange={(e) => setClientLink(e.target.value)} placeholder="10" size={5} />
        </div>
        <div className="field inline">
          <label htmlFor="scaling-clients">Clients</label>
          <input id="scaling-clients" value={clients} onChange={(e) => setClients(e.target.value)} placeholder="hosts per run" size={8} />
        </div>
        <div className="field inline">
          <label htmlFor="scaling-node-link">Node link (Gb/s)</label>
          <input id="scaling-node-link" value={nodeLink} onChange={(e) => setNodeLink(e.target.value)} placeholder="25" size={5} />
        </div>
        <button type="button" onClick={() => void project()}>Fit and project</button>
      </div>
      {problem && <p role="alert" className="error">{problem}</p>}
      {result?.fits.map((f, i) => {
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
          <div key={i} className="scaling-fit" data-testid="scaling-fit">
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
            <ChartFigure id={`scaling-${i}`} kind="line"
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
      })}
    </section>
  );
}
