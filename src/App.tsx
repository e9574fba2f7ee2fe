// The window: engine status, the views reachable by keyboard, and the live run fed by events.
import { useEffect, useReducer, useState, type ReactElement } from 'react';
import {
  useEngine, type EngineInfoResult, type RunResult, type SweepInfo, type SweepStarted,
} from './api';
import { idle, liveReducer } from './state/live';
import { Curves } from './views/Curves';
import { Designer } from './views/Designer';
import { History } from './views/History';
import { Hosts } from './views/Hosts';
import { InterruptedBanner, offersResume } from './views/InterruptedBanner';
import { Live } from './views/Live';
import { Models } from './views/Models';
import { Pts } from './views/Pts';
import { Results } from './views/Results';
import { Specs } from './views/Specs';
import { Sustain } from './views/Sustain';
import { Replay } from './views/Replay';

/** A test kind's own view (through state/test-kind.ts): all it is told is whether a sweep runs. */
type KindView = (props: { busy: boolean }) => ReactElement;

interface ViewEntry { id: string; label: string; kind?: KindView }

const VIEWS = [
  { id: 'designer', label: 'Designer' },
  { id: 'live', label: 'Live run' },
  { id: 'results', label: 'Results' },
  { id: 'pts', label: 'PTS', kind: Pts },
  { id: 'models', label: 'Models' },
  { id: 'curves', label: 'Curves' },
  { id: 'sustain', label: 'Sustained writes', kind: Sustain },
  { id: 'replay', label: 'Trace replay', kind: Replay },
  { id: 'history', label: 'History' },
  { id: 'hosts', label: 'Hosts' },
  { id: 'specs', label: 'Spec sheets' },
] as const satisfies readonly ViewEntry[];
export type View = (typeof VIEWS)[number]['id'];

export function App() {
  const engine = useEngine();
  const [view, setView] = useState<View>('designer');
  const [info, setInfo] = useState<EngineInfoResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [live, dispatch] = useReducer(liveReducer, idle);
  const [results, setResults] = useState<{ title: string; runs: RunResult[] }>({ title: '', runs: [] });
  /** The sweep the engine says was interrupted (offered for resuming while nothing runs). */
  const [interrupted, setInterrupted] = useState<SweepInfo | null>(null);
  /** Where the running sweep was started: a curve or a search returns to Curves when done. */
  const [origin, setOrigin] = useState<View | null>(null);
  const [ended, setEnded] = useState(0);

  useEffect(() => {
    engine.call('engine.info', {}).then(setInfo, (e: unknown) => setProblem(e instanceof Error ? e.message : String(e)));
  }, [engine]);

  useEffect(() => {
    // After a reload mid-run (browser mode), pick the running sweep up where the events resume.
    engine.call('sweep.status', {}).then((status) => {
      if (!status.running || !status.count) return;
      dispatch({ kind: 'sweep_started', sweep_id: status.sweep_id, name: status.name,
        count: status.count, estimated_s: 0, engine: '',
        engine_reason: 'running before this page was opened' });
    }, () => undefined);
  }, [engine]);

  useEffect(() => {
    // Which sweep, if any, was interrupted: asked at start and after every sweep that ends.
    engine.call('sweeps.list', {})
      .then((listed) => setInterrupted(listed.interrupted), () => setInterrupted(null));
  }, [engine, ended]);

  useEffect(() => engine.onNotification((note) => {
    if (note.method === 'run.event') {
      dispatch(note.params.event);
      if (note.params.event.kind === 'sweep_finished') {
        setNotice(null);
        setEnded((n) => n + 1);
      }
    } else if (note.method === 'engine.status') {
      setNotice(note.params.state === 'ready' ? null : note.params.message);
      if (note.params.state !== 'ready') dispatch({ kind: 'engine_lost' });
    } else if (note.method === 'engine.log' && note.params.level !== 'info') {
      setNotice(note.params.message);
    }
  }), [engine]);

  // A sweep that ends becomes the results shown; adjusted while rendering, not after.
  const [seen, setSeen] = useState({ status: live.status, finished: live.finished, sweep: live.sweep });
  if (seen.status !== live.status || seen.finished !== live.finished || seen.sweep !== live.sweep) {
    setSeen({ status: live.status, finished: live.finished, sweep: live.sweep });
    if (live.status === 'done' || live.status === 'cancelled') {
      setResults({ title: live.sweep?.sweep_id ? `sweep ${live.sweep.sweep_id}` : 'this run', runs: live.finished });
    }
    // A curve or a search is read where it was started: its chart, knee or answer, no tab to find.
    if (live.status === 'done' && origin === 'curves' && view === 'live') setView('curves');
  }

  function started(sweep: SweepStarted, from: View | null = null) {
    dispatch(sweep); // the same event may already have arrived as a notification: the reducer keeps one
    setOrigin(from);
    setView('live');
  }

  async function resume(sweepId: number | null) {
    try {
      started(await engine.call('sweep.resume', { sweep_id: sweepId }));
    } catch (error) {
      setNotice(error instanceof Error ? error.message : String(error));
    }
  }

  async function cancel() {
    dispatch({ kind: 'cancel_requested' });
    await engine.call('sweep.cancel', {});
  }

  const KindOpen = (VIEWS as readonly ViewEntry[]).find((v) => v.id === view)?.kind;

  return (
    <div className="app">
      <header>
        <h1>ssdprof</h1>
        <nav role="tablist" aria-label="Views">
          {VIEWS.map((v) => (
            <button key={v.id} role="tab" id={`tab-${v.id}`} aria-selected={view === v.id} aria-controls="view" onClick={() => setView(v.id)}
              onKeyDown={(e) => {
                const i = VIEWS.findIndex((x) => x.id === v.id);
                const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
                if (!step) return;
                const next = VIEWS[(i + step + VIEWS.length) % VIEWS.length]!;
                setView(next.id);
                document.getElementById(`tab-${next.id}`)?.focus();
              }}>
              {v.label}{v.id === 'live' && live.status === 'running' ? ' ●' : ''}
            </button>
          ))}
        </nav>
        <p className="engine-status" aria-live="polite">
          {info ? (info.fio_path ? `${info.fio_version}` : info.portable_available ? 'portable engine' : 'no engine: install fio') : problem ? '' : 'connecting…'}
        </p>
      </header>
      {notice && <p role="alert" className="banner">{notice}</p>}
      {offersResume(interrupted, live.status, live.sweep?.sweep_id ?? null) && (
        <InterruptedBanner sweep={interrupted} onResume={(sweepId) => void resume(sweepId)} />
      )}
      <main id="view" role="tabpanel" aria-labelledby={`tab-${view}`}>
        {problem && <p role="alert" className="error">The engine is not reachable: {problem}</p>}
        {view === 'designer' && info && <Designer info={info} running={live.status === 'running'} onStarted={started} />}
        {view === 'curves' && (
          <Curves onStarted={(sweep) => started(sweep, 'curves')}
            live={origin === 'curves' ? live : null} />
        )}
        {view === 'live' && <Live state={live} onCancel={() => void cancel()} onOpenResults={() => setView('results')} onDesign={() => setView('designer')}
          onResume={(sweepId) => void resume(sweepId)} />}
        {view === 'results' && (
          <Results title={results.title} runs={results.runs} onDesign={() => setView('designer')}
            onOpen={(title, runs) => setResults({ title, runs })} />
        )}
        {KindOpen && <KindOpen busy={live.status === 'running'} />}
        {view === 'models' && <Models open={results} />}
        {view === 'hosts' && <Hosts />}
        {view === 'specs' && <Specs />}
        {view === 'history' && <History onOpen={(title, runs) => { setResults({ title, runs }); setView('results'); }} />}
      </main>
    </div>
  );
}
