// Which factors move which metrics: Spearman rank correlations of the swept factors against the
// metrics, one heatmap per storage-node count (from the engine's `analysis.correlation`). A blank
// cell is a factor that was not varied, or too few runs: no correlation can be estimated there.
import { useEngineQuery } from '../api';
import { metricInfo } from '../lib/metrics';
import { useOnScreen } from '../lib/use-on-screen';

const FACTOR_LABELS: Record<string, string> = {
  log2_block_size: 'access size (log2)', numjobs: 'jobs', queue_depth: 'queue depth', read_pct: 'read %',
  random: 'random (vs sequential)', nodes: 'storage nodes', outstanding_ios: 'outstanding I/Os', clients: 'clients',
};

/** Blue for positive, red for negative, paler towards zero; readable in light and dark themes. */
export function cellColor(value: number | null): string | undefined {
  if (value === null) return undefined;
  const hue = value >= 0 ? 215 : 0;
  return `hsla(${hue}, 75%, 50%, ${Math.min(Math.abs(value), 1) * 0.7})`;
}

export function Heatmap({ runIds }: { runIds: number[] }) {
  // asked once the panel comes onto the screen, kept for the page (Models shown again draws it at once)
  const [at, seen] = useOnScreen<HTMLElement>();
  const asked = useEngineQuery('analysis.correlation', seen && runIds.length ? { run_ids: runIds, method: 'spearman' } : null,
    { keep: true });
  const result = asked.error ? null : asked.data;
  const problem = asked.error;

  return (
    <section className="heatmap-panel" aria-labelledby="heatmap-title" ref={at}>
      <h3 id="heatmap-title">Which factors move which metrics</h3>
      <p className="hint">Spearman rank correlation across the runs, from −1 (the metric falls as the factor grows) to +1; per storage-node count.</p>
      {problem && <p role="alert" className="error">{problem}</p>}
      {result?.groups.map((g) => (
        <table key={String(g.nodes)} className="data heatmap" data-testid="heatmap">
          <caption>{g.nodes === null ? 'Runs without a nodes tag' : `${g.nodes} storage nodes`} ({g.runs} runs)</caption>
          <thead>
            <tr>
              <th>factor</th>
              {g.metrics.map((m) => <th key={m} scope="col">{metricInfo(m).label}</th>)}
            </tr>
          </thead>
          <tbody>
            {g.factors.map((f, i) => (
              <tr key={f}>
                <th scope="row">{FACTOR_LABELS[f] ?? f}</th>
                {g.values[i]!.map((v, j) => (
                  <td key={j} style={{ background: cellColor(v) }} data-value={v ?? ''} title={v === null ? 'not varied, or too few runs' : undefined}>
                    {v === null ? '' : `${v >= 0 ? '+' : ''}${v.toFixed(2)}`}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </section>
  );
}
