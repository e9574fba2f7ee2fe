// An engine answer a view asked for on the user's click (a fit, a projection), kept with what was
// asked: across a tab switch it is shown again at once (kept in memory for the page), and after a
// reload what was asked is asked again (kept in sessionStorage, as a form's fields are: kept.ts).
import { useEffect, useState } from 'react';
import type { MethodName, Methods } from '../../contract/contract.gen';
import { useEngine } from '../api';
import { useKept } from './kept';

interface Answer<R> {
  /** The ask it answers (its JSON): an answer is shown only with it. */
  ask: string;
  result: R | null;
  error: unknown;
}

/** Every kept view's last answer, and the asks under way (a view left while asking finds its
 *  answer when it comes back, without asking twice). */
const answers = new Map<string, Answer<unknown>>();
const asking = new Map<string, Promise<Answer<unknown>>>();

interface Ask<P> {
  params: P;
  /** Counts the clicks: asking the same again asks the engine again (the runs may have changed). */
  click: number;
}

export interface KeptAnswer<M extends MethodName> {
  /** What was last asked, or null. */
  asked: Methods[M]['params'] | null;
  /** The answer to it, once it came; null while asking, after an error, or before any ask. */
  result: Methods[M]['result'] | null;
  /** Why the engine refused or failed (an EngineError), when it did. */
  error: unknown;
  busy: boolean;
  ask: (params: Methods[M]['params']) => void;
}

export function useKeptAnswer<M extends MethodName>(key: string, method: M): KeptAnswer<M> {
  const engine = useEngine();
  const [asked, setAsked] = useKept<Ask<Methods[M]['params']> | null>(`${key}.asked`, null);
  const [answer, setAnswer] = useState<Answer<unknown> | null>(null);
  const json = asked === null ? null : JSON.stringify(asked);

  useEffect(() => {
    if (json === null) return undefined;
    if (answers.get(key)?.ask === json) return undefined; // known: read while rendering
    let current = true;
    let pending = asking.get(key + json);
    if (!pending) {
      const { params } = JSON.parse(json) as Ask<Methods[M]['params']>;
      pending = engine.call(method, params).then(
        (result) => ({ ask: json, result, error: null }),
        (error: unknown) => ({ ask: json, result: null, error }));
      asking.set(key + json, pending);
      void pending.then((found) => {
        answers.set(key, found);
        asking.delete(key + json);
      });
    }
    void pending.then((found) => { if (current) setAnswer(found); });
    return () => { current = false; };
  }, [engine, key, method, json]);

  const known = answers.get(key);
  const fresh = answer !== null && answer.ask === json ? answer : known?.ask === json ? known : null;
  return {
    asked: asked?.params ?? null,
    result: (fresh?.result ?? null) as Methods[M]['result'] | null,
    error: fresh?.error ?? null,
    busy: json !== null && fresh === null,
    ask: (params) => setAsked((last) => ({ params, click: (last?.click ?? 0) + 1 })),
  };
}

/** Forgets every kept answer, as a new page does (tests: each starts from a fresh page). */
export function forgetKeptAnswers(): void {
  answers.clear();
  asking.clear();
}
