// What the runs say in plain words, computed by the engine from the data (`analysis.observe`): the
// queue depth where IOPS stops rising while latency climbs, read vs write and random vs sequential
// gaps, results above the interface's limit, network- or CPU-bound runs.
import { useEngineQuery, type RunResult } from '../api';
import { runList } from './SpecPanel';

export function Observations({ runs }: { runs: RunResult[] }) {
  const ids = runs.map((r) => r.id).filter((id): id is number => id !== null);
  const asked = useEngineQuery('analysis.observe', ids.length ? { run_ids: ids } : null);
  const found = ids.length ? asked.data?.observations ?? null : [];
  const problem = asked.error;

  return (
    <section className="observations" aria-labelledby="observations-title">
      <h3 id="observations-title">Observations</h3>
      {problem && <p role="alert" className="error">{problem}</p>}
      {found && found.length === 0 && <p className="hint">Nothing to remark: vary queue depth, direction or pattern to see knees and gaps.</p>}
      {found && found.length > 0 && (
        <ul data-testid="observations">
          {found.map((o, i) => (
            <li key={i} className={o.severity} data-code={o.code}>{o.message} <span className="hint">({runList(o.run_ids)})</span></li>
          ))}
        </ul>
      )}
    </section>
  );
}
