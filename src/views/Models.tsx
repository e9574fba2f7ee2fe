// Models: what the runs predict and explain. Pick the runs (those open in Results, or any found
// in History by tag or text), then: predict untested settings with intervals and flag anomalies,
// project larger clusters (Universal Scalability Law, capped by the network), put groups side by
// side (SATA vs PCIe, 3 vs 5 nodes), and see which factors move which metrics. The engine does
// the maths (`analysis.*`, `runs.compare`); this view asks and draws.
import { useEffect, useState } from 'react';
import { useEngine, type RunResult } from '../api';
import { GroupsPanel } from './GroupsPanel';
import { Heatmap } from './Heatmap';
import { PredictPanel } from './PredictPanel';
import { ScaleUpPanel } from './ScaleUpPanel';
import { ScalingPanel } from './ScalingPanel';

interface Props {
  /** The runs open in Results, and their title. */
  open: { title: string; runs: RunResult[] };
}

type Source = 'open' | 'history';

export function Models({ open }: Props) {
  const engine = useEngine();
  const [source, setSource] = useState<Source>(open.runs.length ? 'open' : 'history');
  const [filter, setFilter] = useState('');
  const [found, setFound] = useState<{ runs: RunResult[]; total: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (source !== 'history') return;
    let current = true;
    const text = filter.trim();
    const tag = text.includes('=') ? text : null;
    const timer = setTimeout(() => {
      engine.call('runs.list', { tag, text: tag ? null : text || null, limit: 5000 }).then(
        (r) => { if (current) { setFound({ runs: r.runs, total: r.total }); setProblem(null); } },
        (e: unknown) => { if (current) { setFound(null); setProblem(e instanceof Error ? e.message : String(e)); } });
    }, 250);
    return () => { current = false; clearTimeout(timer); };
  }, [engine, source, filter]);

  const runs = (source === 'open' ? open.runs : found?.runs ?? []).filter((r) => r.id !== null);
  return (
    <section aria-labelledby="models-title" className="models">
      <h2 id="models-title">Models — predict, scale out, explain</h2>
      <fieldset className="run-source">
        <legend>Runs to learn from</legend>
        <label>
          <input type="radio" name="model-source" checked={source === 'open'} disabled={!open.runs.length} onChange={() => setSource('open')} />
          {' '}open in Results{open.runs.length ? ` — ${open.title} (${open.runs.length} runs)` : ' (none open)'}
        </label>
        <label>
          <input type="radio" name="model-source" checked={source === 'history'} onChange={() => setSource('history')} />
          {' '}found in History
        </label>
        {source === 'history' && (
          <div className="field inline">
            <label htmlFor="model-filter">Find runs</label>
            <input id="model-filter" type="search" value={filter} placeholder="cluster=lab, nodes=3, or a device, target or engine"
              onChange={(e) => setFilter(e.target.value)} />
          </div>
        )}
        <p className="hint" data-testid="model-runs" role="status">
          {source === 'history' && found && found.total > found.runs.length
            ? `${runs.length} newest of ${found.total} matching runs` : `${runs.length} run(s)`}
        </p>
      </fieldset>
      {problem && <p role="alert" className="error">{problem}</p>}
      {runs.length === 0 ? (
        <p className="empty">No runs yet. Open a sweep in Results, or find runs in History by tag (e.g. nodes=3) or text.</p>
      ) : (
        <>
          <PredictPanel runs={runs} />
          <ScalingPanel runs={runs} />
          <ScaleUpPanel runs={runs} />
          <GroupsPanel runs={runs} />
          <Heatmap runs={runs} />
        </>
      )}
    </section>
  );
}
