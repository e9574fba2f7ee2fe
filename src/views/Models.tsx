// Models: what the runs predict and explain. Pick the runs (those open in Results, or any found
// in History by tag or text), then: predict untested settings with intervals and flag anomalies,
// project larger clusters (Universal Scalability Law, capped by the network), put groups side by
// side (SATA vs PCIe, 3 vs 5 nodes), and see which factors move which metrics. The engine does
// the maths (`analysis.*`, `runs.compare`); this view asks and draws.
import { useMemo } from 'react';
import { useEngineQuery, type RunResult, type RunsSelectResult } from '../api';
import { useSettled } from '../lib/use-settled';
import { useKept } from '../state/kept';
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
  // which runs, kept across tabs and reloads like every form (state/kept.ts)
  const [kept, setKept] = useKept<{ source: Source | ''; filter: string }>('models.runs', { source: '', filter: '' });
  const source: Source = kept.source || (open.runs.length ? 'open' : 'history');
  const setSource = (next: Source) => setKept((k) => ({ ...k, source: next }));
  const filter = kept.filter;
  const search = useSettled(filter.trim(), 250);
  // every matching run, whatever their number: the engine learns from their summaries; a search made
  // before shows its runs at once while the engine is asked again (and its panels' answers: kept too)
  const found = useEngineQuery('runs.select', source === 'history' ? { filter: { search } } : null, { keep: true });
  const finding = found.loading && found.current === null;
  const openIds = useMemo(() => open.runs.flatMap((r) => (r.id === null ? [] : [r.id])), [open.runs]);
  const runIds = source === 'open' ? openIds : found.data?.run_ids ?? NO_IDS;
  const problem = source === 'history' ? found.error : null;
  const setFilter = (text: string) => setKept((k) => ({ ...k, filter: text }));

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
          {source === 'history' && finding ? 'finding the runs…'
            : source === 'history' && runIds.length === 0 ? 'no run matches'
              : `${runIds.length.toLocaleString('en-US')} run(s)${source === 'history' ? ', every one matching' : ''}`}
        </p>
        {source === 'history' && found.data && search && <SearchRead found={found.data} onSearch={setFilter} />}
      </fieldset>
      {problem && <p role="alert" className="error">{problem}</p>}
      {runIds.length === 0 ? (
        <p className="empty" data-testid="models-empty">
          {source === 'history' && search && !finding
            ? `No run matches “${search}”: predictions, scaling, groups and the factors' heatmap need runs. `
            : 'No runs yet. '}
          Open a sweep in Results, or find runs in History by tag (e.g. nodes=3) or text.
        </p>
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

/** How the engine read the search, and the tags a word of it names, each a search to use instead. */
function SearchRead({ found, onSearch }: { found: RunsSelectResult; onSearch: (search: string) => void }) {
  return (
    <div className="hint" data-testid="search-read">
      <p>Understood: {found.understood.join('; ')}.</p>
      {found.offers.length > 0 && (
        <p>
          A tag, perhaps?{' '}
          {found.offers.map((o) => (
            <button key={o.search} type="button" onClick={() => onSearch(o.search)}>
              {o.tag} ({o.runs.toLocaleString('en-US')} runs)
            </button>
          ))}
        </p>
      )}
    </div>
  );
}
