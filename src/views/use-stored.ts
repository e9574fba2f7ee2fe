// The stored curves or latency-target searches (newest first) and which one is shown, re-read whenever a
// sweep finishes: the Curves view and its latency-target section each keep one list.
import { useEffect, useState } from 'react';
import { useEngine, type StoredCurve } from '../api';

export interface StoredList {
  stored: StoredCurve[];
  shownId: number | null;
  setShownId: (id: number) => void;
  /** Counts finished sweeps, so a shown summary can be read again. */
  version: number;
}

export function useStored(kind: 'curve' | 'slo'): StoredList {
  const engine = useEngine();
  const [stored, setStored] = useState<StoredCurve[]>([]);
  const [shownId, setShownId] = useState<number | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => engine.onNotification((note) => {
    if (note.method === 'run.event' && note.params.event.kind === 'sweep_finished') setVersion((v) => v + 1);
  }), [engine]);

  useEffect(() => {
    engine.call('curves.list', {}).then((listed) => {
      const found = listed.curves.filter((c) => c.kind === kind);
      setStored(found);
      setShownId(found[0]?.sweep_id ?? null);
    }).catch(() => undefined);
  }, [engine, kind, version]);

  return { stored, shownId, setShownId, version };
}
