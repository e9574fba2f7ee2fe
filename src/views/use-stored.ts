// The stored curves or latency-target searches (newest first) and which one is shown, re-read as a
// curve or search grows: when one starts (it is shown), as each of its points finishes, and when it
// ends, so its chart, knee or answer appears where the user is. The Curves view and its
// latency-target section each keep one list.
import { useEffect, useMemo, useState } from 'react';
import { useEngine, useEngineQuery, type StoredCurve } from '../api';
import { useKept } from '../state/kept';

export interface StoredList {
  stored: StoredCurve[];
  shownId: number | null;
  setShownId: (id: number) => void;
  /** Counts the events that changed a stored curve or search, so a shown summary is read again. */
  version: number;
}

const NONE: StoredCurve[] = [];

export function useStored(kind: 'curve' | 'slo'): StoredList {
  const engine = useEngine();
  const [version, setVersion] = useState(0);
  const { data, reload } = useEngineQuery('curves.list', {});
  const stored = useMemo(() => data?.curves.filter((c) => c.kind === kind) ?? NONE, [data, kind]);

  useEffect(() => engine.onRunEvent((event) => {
    const sweepId = event.kind === 'point_finished' ? event.result.sweep_id : null;
    const ours = sweepId !== null && stored.some((c) => c.sweep_id === sweepId);
    if (event.kind === 'sweep_started' || event.kind === 'sweep_finished' || ours) {
      setVersion((v) => v + 1);
      reload();
    }
  }), [engine, stored, reload]);

  // A curve or search that just started is shown; otherwise the one the user chose stays (while
  // it is listed). Adjusted while rendering, as the list arrives.
  const newest = stored[0]?.sweep_id ?? null;
  // kept for the session: the curve or search shown stays shown across a tab switch and a reload
  const [choice, setChoice] = useKept<{ newest: number | null; shown: number | null }>(
    `stored-${kind}`, { newest: null, shown: null });
  const listed = data !== null; // before the list arrives, nothing is known to have gone or started
  const gone = choice.shown !== null && !stored.some((c) => c.sweep_id === choice.shown);
  if (listed && (choice.newest !== newest || gone)) setChoice({ newest, shown: newest });

  const setShownId = (id: number) => setChoice({ newest, shown: id });
  return { stored, shownId: choice.shown, setShownId, version };
}
