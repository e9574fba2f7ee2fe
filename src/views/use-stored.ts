// The stored curves or latency-target searches (newest first) and which one is shown, re-read as a
// curve or search grows: when one starts (it is shown), as each of its points finishes, and when it
// ends, so its chart, knee or answer appears where the user is. The Curves view and its
// latency-target section each keep one list.
import { useEffect, useRef, useState } from 'react';
import { useEngine, type StoredCurve } from '../api';

export interface StoredList {
  stored: StoredCurve[];
  shownId: number | null;
  setShownId: (id: number) => void;
  /** Counts the events that changed a stored curve or search, so a shown summary is read again. */
  version: number;
}

export function useStored(kind: 'curve' | 'slo'): StoredList {
  const engine = useEngine();
  const [stored, setStored] = useState<StoredCurve[]>([]);
  const [shownId, setShownId] = useState<number | null>(null);
  const [version, setVersion] = useState(0);
  const listedIds = useRef(new Set<number>());
  const newestId = useRef<number | null>(null);

  useEffect(() => engine.onRunEvent((event) => {
    const sweepId = event.kind === 'point_finished' ? event.result.sweep_id : null;
    const ours = sweepId !== null && listedIds.current.has(sweepId);
    if (event.kind === 'sweep_started' || event.kind === 'sweep_finished' || ours) {
      setVersion((v) => v + 1);
    }
  }), [engine]);

  useEffect(() => {
    let current = true;
    engine.call('curves.list', {}).then((listed) => {
      if (!current) return;
      const found = listed.curves.filter((c) => c.kind === kind);
      const newest = found[0]?.sweep_id ?? null;
      // A curve or search that just started is shown; otherwise the one the user chose stays.
      const arrived = newest !== newestId.current;
      newestId.current = newest;
      listedIds.current = new Set(found.map((c) => c.sweep_id));
      setStored(found);
      const gone = (shown: number | null) => shown === null || !listedIds.current.has(shown);
      setShownId((shown) => (arrived || gone(shown) ? newest : shown));
    }).catch(() => undefined);
    return () => { current = false; };
  }, [engine, kind, version]);

  return { stored, shownId, setShownId, version };
}
