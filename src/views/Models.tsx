// Models: what the runs predict and explain. Pick the runs (those open in Results, or any found
// in History by tag or text), then: predict untested settings with intervals and flag anomalies,
// project larger clusters (Universal Scalability Law, capped by the network), put groups side by
// side (SATA vs PCIe, 3 vs 5 nodes), and see which factors move which metrics. The engine does
// the maths (`analysis.*`, `runs.compare`); this view asks and draws.
import { useMemo, useState } from 'react';
import { useEngineQuery, type RunResult } from '../api';
import { useSettled } from '../lib/use-settled';
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
const NO_IDS: number[] = [];

export function Models({ open }: Props) {
  const [source, setSource] = useState<Source>(open.runs.length ? 'open' : 'history');
  const [filter, setFilter] = useState('');
  const search = useSettled(filter.trim(), 250);
  // every matching run, whatever their number: the engine learns from their summaries
  const found = useEngineQuery('runs.select', source === 'history' ? { filter: { search } } : null);
  const openIds = useMemo(() => open.runs.flatMap((r) => (r.id === null ? [] : [r.id])), [open.runs]);
  const runIds = source === 'open' ? openIds : found.data?.run_ids ?? NO_IDS;
  const problem = source === 'history' ? found.error : null;

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
          {source === 'history' && found.loading ? 'finding the runs…'
            : `${runIds.length.toLocaleString('en-US')} run(s)${source === 'history' ? ', every one matching' : ''}`}
        </p>
      </fieldset>
      {problem && <p role="alert" className="error">{problem}</p>}
      {runIds.length === 0 ? (
        <p className="empty">No runs yet. Open a sweep in Results, or find runs in History by tag (e.g. nodes=3) or text.</p>
      ) : (
        <>
          <PredictPanel runIds={runIds} />
          <ScalingPanel runIds={runIds} />
        </>
      )}
      {/* scale-up sizing also works from figures typed in, with no runs at all */}
      <ScaleUpPanel runIds={runIds} />
      {runIds.length > 0 && (
        <>
          <GroupsPanel runIds={runIds} />
          <Heatmap runIds={runIds} />
        </>
      )}
    </section>
  );
}
