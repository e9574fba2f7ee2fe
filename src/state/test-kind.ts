// One test kind as a view sees it, whatever the kind (a PTS test, sustained writes, the next one):
// its form's estimate and the fields the engine refused, a start, a resume and a cancel, its running
// job as its events arrive (picked up again after a reload), the stored tests, and the one shown. The
// kind's methods are the contract's `<kind>.estimate|start|resume|cancel|status|list|get` and its
// events `<kind>.event`; a view passes only what is its own: how its progress folds the events.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  EngineError, useEngine, useEngineQuery, type FieldProblem, type MethodName, type Methods,
  type NotificationName, type Notifications,
} from '../api';
import { useSettled } from '../lib/use-settled';
import { useReopened } from './kept';

type Named<K extends string, Op extends string> = Extract<`${K}.${Op}`, MethodName>;
type KindOf<M> = M extends `${infer K}.start` ? K : never;
/** Every kind that runs as a job of its own and sends its own events (the sweep's view is Live). */
export type ViewKind = {
  [K in KindOf<MethodName>]: `${K}.event` extends NotificationName ? `${K}.get` extends MethodName ? K : never : never
}[KindOf<MethodName>];

type Params<K extends ViewKind, Op extends string> = Methods[Named<K, Op>]['params'];
type Answer<K extends ViewKind, Op extends string> = Methods[Named<K, Op>]['result'];
export type KindEvent<K extends ViewKind> = Notifications[Extract<`${K}.event`, NotificationName>]['event'];
export type KindStarted<K extends ViewKind> = Answer<K, 'start'>;

export interface KindView<K extends ViewKind, P> {
  /** The progress after one more event; `null` state starts afresh, a `null` event is the empty one. */
  progress: (state: P | null, event: KindEvent<K> | KindStarted<K> | null) => P;
  /** What a page opened mid-test shows until the next event arrives. */
  resumed: (status: Answer<K, 'status'>) => P;
  /** The events after which the stored test is read again (and the list with it). */
  reread: readonly KindEvent<K>['kind'][];
  /** Also read the running test when a page opens mid-test (its result grows as it runs). */
  readWhileRunning?: boolean;
  /** A consent field: while it is the only problem, the estimate is asked as if it were given. */
  consent?: string;
}

const CHECK_DELAY_MS = 250;
const NO_PROBLEMS: FieldProblem[] = [];

/** The stored test an event, a start or a status names (`<kind>_id`), if any. */
function idOf(kind: string, value: object | null): number | null {
  const found = value === null ? undefined : (value as Record<string, unknown>)[`${kind}_id`];
  return typeof found === 'number' ? found : null;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function useTestKind<K extends ViewKind, P extends { finished: unknown }>(
  kind: K, request: Params<K, 'estimate'> | null, view: KindView<K, P>,
) {
  const engine = useEngine();
  const call = useCallback(<Op extends string>(op: Op, params: Params<K, Op>) =>
    engine.call(`${kind}.${op}` as Named<K, Op>, params) as Promise<Answer<K, Op>>, [engine, kind]);
  const [progress, setProgress] = useState<P | null>(null);
  const [shown, setShown] = useState<Answer<K, 'get'> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ request: Params<K, 'estimate'> | null; problems: FieldProblem[] } | null>(null);
  const running = useRef<number | null>(null);
  const listed = useEngineQuery(`${kind}.list` as Named<K, 'list'>, {});
  const { reload } = listed;
  const { progress: fold, resumed, reread, readWhileRunning } = view;

  /** The params that name one stored test: `{ <kind>_id: id }`. */
  type ById = Params<K, 'get'> & Params<K, 'resume'>;
  const named = useCallback((id: number) => ({ [`${kind}_id`]: id }) as unknown as ById, [kind]);
  const read = useCallback((id: number) => {
    call('get', named(id)).then(setShown, () => undefined);
  }, [call, named]);
  // the test shown is kept for the session: a tab switch or a reload shows it again (state/kept.ts)
  useReopened(`${kind}-shown`, (shown as { id?: number } | null)?.id ?? null, read);

  useEffect(() => engine.onNotification((note) => {
    if (note.method !== `${kind}.event`) return;
    const event = (note.params as { event: KindEvent<K> }).event;
    setProgress((p) => fold(p, event));
    running.current = idOf(kind, event) ?? running.current;
    if (!reread.includes(event.kind)) return;
    reload();
    const id = idOf(kind, event) ?? running.current;
    if (id !== null) read(id);
  }), [engine, kind, fold, reread, reload, read]);

  useEffect(() => {
    // After a reload mid-test (browser mode), pick the running test up where its events resume.
    call('status', {}).then((status) => {
      if (!(status as { running: boolean }).running) return;
      running.current = idOf(kind, status);
      setProgress((p) => p ?? resumed(status));
      if (readWhileRunning && running.current !== null) read(running.current);
    }, () => undefined);
  }, [call, kind, resumed, readWhileRunning, read]);

  const estimate = useEstimate(kind, request, view.consent);
  const problems = refused?.request === request ? refused.problems : estimate.problems;

  /** A test this view started or resumed: followed from its start (the reply may come before its event). */
  function began(started: KindStarted<K>) {
    running.current = idOf(kind, started);
    setProgress((p) => fold(p && !p.finished ? p : null, started));
    reload();
  }

  async function ask(how: () => Promise<void>, naming: boolean) {
    setError(null);
    try {
      await how();
    } catch (e) {
      setError(message(e));
      if (naming && e instanceof EngineError) setRefused({ request, problems: e.problems });
    }
  }

  return {
    ...estimate, problems, progress, shown, setShown, error,
    tests: listed.data,
    running: progress !== null && !progress.finished,
    /** Starts the test `asked` (the form's request, with what the user confirmed). */
    start: (asked: Params<K, 'start'>) => ask(async () => { setShown(null); began(await call('start', asked)); }, true),
    resume: (id: number) => ask(async () => began(await call('resume', named(id))), false),
    cancel: () => ask(async () => { await call('cancel', {}); }, false),
    open: (id: number) => ask(async () => setShown(await call('get', named(id))), false),
  };
}

/** The engine's estimate of the settled form; with a consent field, a request refused for want of
 * consent alone is estimated as if given (the start asks for it in the dialog that names the device). */
function useEstimate<K extends ViewKind>(kind: K, request: Params<K, 'estimate'> | null, consent: string | undefined) {
  const method = `${kind}.estimate` as Named<K, 'estimate'>;
  const asked = useSettled(request, CHECK_DELAY_MS);
  const estimated = useEngineQuery(method, asked);
  const consentOnly = consent !== undefined && estimated.problems.length > 0
    && estimated.problems.every((p) => p.field === consent);
  const withConsent = useMemo(() => (consentOnly && asked !== null ? { ...asked, [consent]: true } : null),
    [consentOnly, asked, consent]);
  const consented = useEngineQuery(method, withConsent as Params<K, 'estimate'> | null);
  return {
    estimate: (estimated.data ?? (consentOnly ? consented.data : null)),
    problems: estimated.problems.length ? estimated.problems : NO_PROBLEMS,
    asking: consented.loading,
  };
}
