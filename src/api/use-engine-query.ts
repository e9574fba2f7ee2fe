// One engine call whose answer a view shows: asked when the view opens and again whenever the
// params change by value (new arrays of the same run ids ask nothing again), an answer to an
// older ask dropped, and `null` params asking nothing. The last answer stays on screen while the
// next is asked, so a chart does not blink when a checkbox changes what it draws.
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
}

interface Answer<R> {
  ask: string;
  data: R | null;
  error: string | null;
  problems: FieldProblem[];
}

const NO_PROBLEMS: FieldProblem[] = [];

export function useEngineQuery<M extends MethodName>(
  method: M, params: Methods[M]['params'] | null,
): EngineQuery<Methods[M]['result']> {
  const engine = useEngine();
  const [version, setVersion] = useState(0);
  const [answer, setAnswer] = useState<Answer<Methods[M]['result']> | null>(null);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const json = params === null ? null : JSON.stringify(params);
  const ask = json === null ? null : `${method} ${version} ${json}`;

  useEffect(() => {
    if (ask === null || json === null) return undefined;
    let current = true;
    engine.call(method, JSON.parse(json) as Methods[M]['params']).then(
      (data) => { if (current) setAnswer({ ask, data, error: null, problems: NO_PROBLEMS }); },
      (e: unknown) => {
        if (!current) return;
        const problems = e instanceof EngineError ? e.problems : NO_PROBLEMS;
        setAnswer({ ask, data: null, error: e instanceof Error ? e.message : String(e), problems });
      });
    return () => { current = false; };
  }, [engine, method, json, ask]);

  const fresh = ask !== null && answer?.ask === ask ? answer : null;
  return {
    data: ask === null ? null : answer?.data ?? null,
    error: fresh?.error ?? null,
    problems: fresh?.problems ?? NO_PROBLEMS,
    loading: ask !== null && fresh === null,
    reload,
  };
}
