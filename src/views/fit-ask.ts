// A Models panel that fits a model to the chosen runs on the user's click (Predict, Scale-out): its
// form kept across tab switches, the engine's answer kept with what was asked, and what was typed
// wrong at that ask. A fit belongs to the runs it was made from: it is shown only while they are the
// runs to learn from, and not when a field was typed wrong (the engine was asked without it, to say
// what else is wrong).
import { useMemo } from 'react';
import type { Methods } from '../../contract/contract.gen';
import { engineProblem, type MetricId } from '../lib/metrics';
import { useKept } from '../state/kept';
import { useKeptAnswer } from '../state/kept-answer';
import { sameRuns } from './same-runs';

type FitMethod = 'analysis.predict' | 'analysis.scaling';

/** The fields every fitting form has. */
export interface FitForm {
  metric: MetricId;
  /** The untested settings to predict, as typed. */
  at: string;
  /** The split each group of which is fitted apart ('' none). */
  splitBy: string;
  /** The fit drawn in full, and the index table's page, when there are many. */
  shown: number;
  page: number;
}

export const FIT_FORM: FitForm = { metric: 'bw_bytes_per_s', at: '', splitBy: '', shown: 0, page: 0 };
/** The engine's names of the fields every fit is asked with, as their labels say them. */
const FIT_FIELDS = { at: 'Predict at', split_by: 'Fit apart' };

/** A fitting panel's form, kept under `key`, and its ask of `method` over `runIds`; `fields` names the
 *  panel's own fields as their labels say them, for the engine's problems. */
export function useFitAsk<F extends FitForm, M extends FitMethod>(key: string, method: M, initial: F, runIds: number[],
  fields: Record<string, string>) {
  const [form, setForm] = useKept<F>(key, initial);
  const set = (change: Partial<F>) => setForm((f) => ({ ...f, ...change }));
  const answer = useKeptAnswer(key, method);
  const [typed, setTyped] = useKept<string | null>(`${key}.typed`, null);
  const current = useMemo(() => sameRuns(answer.asked?.run_ids, runIds), [answer.asked, runIds]);
  const result = current && typed === null ? answer.result : null;
  /** Ask the engine, `wrong` saying what was typed wrong (left out of `params`), or null. */
  function ask(params: Methods[M]['params'], wrong: string | null) {
    setTyped(wrong);
    set({ splitBy: params.split_by ?? '', shown: 0, page: 0 } as Partial<F>);
    answer.ask(params);
  }
  const problem = [typed, current && answer.error ? engineProblem(answer.error, { ...FIT_FIELDS, ...fields }) : null].filter(Boolean).join('; ');
  return { form, set, busy: answer.busy, result, problem, ask };
}
