// One engine call whose answer a view shows: asked when the view opens and again whenever the
// params change by value (new arrays of the same run ids ask nothing again), an answer to an
// older ask dropped, and `null` params asking nothing. The last answer stays on screen while the
// next is asked, so a chart does not blink when a checkbox changes what it draws. A view shown again
// and again (Models on a whole study) may keep its answers for the page: the answer to the same
// params is drawn at once while the engine is asked again, and replaced only if it changed.
import { useCallback, useEffect, useState } from 'react';
import type { FieldProblem, MethodName, Methods } from '../../contract/contract.gen';
import { EngineError } from './client';
import { useEngine } from './index';

export interface EngineQuery<R> {
  /** The latest answer (kept while new params are asked); null on error or without params. */
  data: R | null;
  /** Why the engine refused or failed, in its own words. */
  error: string | null;
  /** The bad fields of a refused request, each named (empty otherwise). */
  problems: FieldProblem[];
  /** The current params have been sent and not yet answered. */
  loading: boolean;
  /** Ask again with the same params (e.g. after the data behind them changed); stable. */
  reload: () => void;
  /** The answer to the current params: the engine's, or while it is asked again, the one kept from
   *  the last time they were asked (`keep`); null before either. */
  current: R | null;
}

export interface QueryOptions {
  /** Keep answers for the page's life: the same params asked again show their last answer at once. */
  keep?: boolean;
}

/** Kept answers by method and params (`keep`), the oldest dropped past KEPT_MOST. */
const kept = new Map<string, unknown>();
const KEPT_MOST = 64;

/** Forgets every kept answer, as a new page does (tests: each starts from a fresh page). */
export function forgetKeptQueries(): void {
  kept.clear();
}

/** Keeps `data` for `key`; an answer equal to the one kept is that one, so what depends on its
 *  identity (a chart's series, an effect) sees no change. */
function keepAnswer<R>(key: string, data: R): R {
  const before = kept.get(key);
  const same = before !== undefined && JSON.stringify(before) === JSON.stringify(data);
  kept.delete(key);
  kept.set(key, same ? before : data);
  if (kept.size > KEPT_MOST) kept.delete(kept.keys().next().value!);
  return (same ? before : data) as R;
}

interface Answer<R> {
  ask: string;
  data: R | null;
  error: string | null;
  problems: FieldProblem[];
}

const NO_PROBLEMS: FieldProblem[] = [];

export function useEngineQuery<M extends MethodName>(
  method: M, params: Methods[M]['params'] | null, options: QueryOptions = {},
): EngineQuery<Methods[M]['result']> {
  const engine = useEngine();
  const [version, setVersion] = useState(0);
  const [answer, setAnswer] = useState<Answer<Methods[M]['result']> | null>(null);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const json = params === null ? null : JSON.stringify(params);
  const ask = json === null ? null : `${method} ${version} ${json}`;
  const keepAs = options.keep && json !== null ? `${method} ${json}` : null;

  useEffect(() => {
    if (ask === null || json === null) return undefined;
    let current = true;
    engine.call(method, JSON.parse(json) as Methods[M]['params']).then(
      (data) => {
        const shown = keepAs === null ? data : keepAnswer(keepAs, data);
        if (current) setAnswer({ ask, data: shown, error: null, problems: NO_PROBLEMS });
      },
      (e: unknown) => {
        if (!current) return;
        const problems = e instanceof EngineError ? e.problems : NO_PROBLEMS;
        setAnswer({ ask, data: null, error: e instanceof Error ? e.message : String(e), problems });
      });
    return () => { current = false; };
  }, [engine, method, json, ask, keepAs]);

  const fresh = ask !== null && answer?.ask === ask ? answer : null;
  const held = keepAs === null ? undefined : kept.get(keepAs) as Methods[M]['result'] | undefined;
  const shown = fresh === null && held !== undefined ? held : answer?.data ?? null;
  return {
    data: ask === null ? null : shown,
    error: fresh?.error ?? null,
    problems: fresh?.problems ?? NO_PROBLEMS,
    loading: ask !== null && fresh === null,
    reload,
    current: fresh !== null ? fresh.data : held ?? null,
  };
}
