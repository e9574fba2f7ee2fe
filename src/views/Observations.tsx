// What the runs say in plain words, computed by the engine from the data (`analysis.observe`): the
// queue depth where IOPS stops rising while latency climbs, read vs write and random vs sequential
// gaps, results above the interface's limit, network- or CPU-bound runs.
import { useEffect, useState } from 'react';
import { useEngine, type ObservationInfo, type RunResult } from '../api';
import { runList } from './SpecPanel';

export function Observations({ runs }: { runs: RunResult[] }) {
  const engine = useEngine();
  const [found, setFound] = useState<ObservationInfo[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = runs.map((r) => r.id).filter((id): id is number => id !== null);
  const key = ids.join(',');

  useEffect(() => {
    let current = true;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- no runs: nothing to ask the engine
    if (!ids.length) return setFound([]);
    engine.call('analysis.observe', { run_ids: ids }).then(
      (r) => { if (current) { setFound(r.observations); setProblem(null); } },
      (e: unknown) => { if (current) { setFound(null); setProblem(e instanceof Error ? e.message : String(e)); } });
    return () => { current = false; };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the ids, so new arrays of the same runs ask nothing again
  }, [engine, key]);

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
