// History: every stored run, a page at a time (the engine pages and counts them), searchable by
// target/device/engine text and key=value tags, date, and who stored them on which machine; select
// runs one by one or every matching one at once, open them, tag, delete.
import { useMemo, useState } from 'react';
import { EngineError, useEngine, useEngineQuery, type RunResult, type RunsQuery } from '../api';
import { formatIops } from '../lib/units';
import { useSettled } from '../lib/use-settled';
import { useKept } from '../state/kept';
import { HistoryImport } from './HistoryImport';
import { SweepsTable } from './SweepsTable';

interface Props {
  onOpen: (title: string, runs: RunResult[]) => void;
}

/** Runs on a page. */
export const PAGE = 100;
/** The most runs Results opens at once (runs.list's limit); Models learns from any number. */
export const OPEN_LIMIT = 5000;

export function History({ onOpen }: Props) {
  const engine = useEngine();
  // the search, the page and the selection outlive a tab switch and a reload (state/kept.ts)
  const [kept, setKept] = useKept('history', { text: '', tag: '', since: '', user: '', machine: '', offset: 0 });
  const { text, tag, since, user, machine, offset } = kept;
  const keep = (field: keyof typeof kept) => (value: string | number) => setKept((k) => ({ ...k, [field]: value }));
  const setText = keep('text');
  const setTag = keep('tag');
  const setSince = keep('since');
  const setUser = keep('user');
  const setMachine = keep('machine');
  const setOffset = keep('offset');
  const [error, setError] = useState<string | null>(null);
  const [keptSelection, setKeptSelection] = useKept<number[]>('history-selected', []);
  const selected = useMemo(() => new Set(keptSelection), [keptSelection]);
  const setSelected = (update: Set<number> | ((s: Set<number>) => Set<number>)) =>
    setKeptSelection((ids) => [...(typeof update === 'function' ? update(new Set(ids)) : update)]);
  const [tagging, setTagging] = useState<{ id: number; text: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);

  const asked = useSettled(JSON.stringify({
    search: text.trim(), tags: tag.trim() ? [tag.trim()] : [], since: since || null,
    measured_by: user || null, measured_on: machine || null,
  } satisfies RunsQuery), 200);
  const filter = useMemo(() => JSON.parse(asked) as RunsQuery, [asked]);
  // A new search starts at its first page: reset while rendering, when the filter changes.
  const [pagedFor, setPagedFor] = useState(asked);
  if (pagedFor !== asked) {
    setPagedFor(asked);
    setOffset(0);
  }
  const page = useEngineQuery('runs.page', { filter, offset, limit: PAGE });
  const people = useEngineQuery('runs.people', {});
  const rows = page.data?.rows ?? null;
  const total = page.data?.total ?? 0;
  const shown = error ?? page.error;

  async function open(title: string, ids: number[]) {
    try {
      const listed = await engine.call('runs.list', { run_ids: ids });
      onOpen(title, listed.runs);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  async function openSweep(sweepId: number) {
    const result = await engine.call('runs.list', { sweep_id: sweepId });
    onOpen(`sweep ${sweepId}`, result.runs);
  }

  async function selectAll() {
    try {
      const found = await engine.call('runs.select', { filter });
      setSelected(new Set(found.run_ids));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  async function saveTags(id: number, value: string) {
    const tags: Record<string, string> = {};
    for (const item of value.split(/[,\s]+/).filter(Boolean)) {
      const [key, ...rest] = item.split('=');
      if (!key || !rest.length) return setError(`"${item}" is not key=value, e.g. interface=SATA`);
      tags[key] = rest.join('=');
    }
    try {
      await engine.call('runs.tag', { run_id: id, tags });
      setTagging(null);
      setError(null);
      page.reload();
    } catch (e) {
      setError(e instanceof EngineError ? e.problems.map((p) => p.message).join('; ') || e.message : String(e));
    }
  }

  async function remove(id: number) {
    await engine.call('runs.delete', { run_id: id });
    setConfirmDelete(null);
    setSelected((s) => { const next = new Set(s); next.delete(id); return next; });
    page.reload();
  }

  const toggle = (id: number) => setSelected((s) => { const next = new Set(s); if (next.has(id)) next.delete(id); else next.add(id); return next; });
  const filtered = Boolean(text || tag || since || user || machine);

  return (
    <section aria-labelledby="history-title" className="history">
      <h2 id="history-title">History</h2>
      <HistoryImport onImported={(done) => { setSelected(new Set(done.run_ids)); page.reload(); }} />
      <form className="filters" role="search" onSubmit={(e) => { e.preventDefault(); page.reload(); }}>
        <div className="field"><label htmlFor="history-text">Target, device or engine</label>
          <input id="history-text" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="e.g. nvme, /mnt/ssd, Samsung" /></div>
        <div className="field"><label htmlFor="history-tag">Tag</label>
          <input id="history-tag" type="search" value={tag} onChange={(e) => setTag(e.target.value)} placeholder="interface=SATA or SATA" /></div>
        <div className="field"><label htmlFor="history-since">Since</label>
          <input id="history-since" type="date" value={since} onChange={(e) => setSince(e.target.value)} /></div>
        <div className="field"><label htmlFor="history-user">Stored by</label>
          <select id="history-user" value={user} onChange={(e) => setUser(e.target.value)}>
            <option value="">anyone</option>
            {(people.data?.users ?? []).map((u) => <option key={u} value={u}>{u}</option>)}
          </select></div>
        <div className="field"><label htmlFor="history-machine">On machine</label>
          <select id="history-machine" value={machine} onChange={(e) => setMachine(e.target.value)}>
            <option value="">any</option>
            {(people.data?.machines ?? []).map((m) => <option key={m} value={m}>{m}</option>)}
          </select></div>
      </form>
      {shown && <p role="alert" className="error">{shown}</p>}
      <SweepsTable onOpenSweep={(id) => void openSweep(id)} />
      {rows !== null && rows.length === 0 && (
        <p className="empty">{filtered ? 'No runs match these filters; clear them to see everything.' : 'No runs stored yet. Finished points appear here as they complete.'}</p>
      )}
      {total > 0 && (
        <div className="actions" data-testid="history-selection">
          <span>{selected.size ? `${selected.size.toLocaleString('en-US')} selected` : 'None selected'}</span>
          <button type="button" onClick={() => void selectAll()}>Select all {total.toLocaleString('en-US')} matching</button>
          {selected.size > 0 && <button type="button" onClick={() => setSelected(new Set())}>Clear selection</button>}
          {selected.size > 0 && (
            <button type="button" className="primary" disabled={selected.size > OPEN_LIMIT}
              onClick={() => void open(`${selected.size} selected runs`, [...selected].sort((a, b) => a - b))}>
              Open {selected.size.toLocaleString('en-US')} selected
            </button>
          )}
          {selected.size > OPEN_LIMIT && (
            <p className="hint" data-testid="history-open-limit">
              Results opens at most {OPEN_LIMIT.toLocaleString('en-US')} runs at once: narrow the selection, or learn
              from all of them in Models (found in History, with the same search).
            </p>
          )}
        </div>
      )}
      {rows && rows.length > 0 && (
        <>
          <table className="data" data-testid="history-table">
            <caption>Stored runs, newest first: {offset + 1}–{offset + rows.length} of {total.toLocaleString('en-US')}</caption>
            <thead><tr><th scope="col"><span className="sr-only">select</span></th><th scope="col">run</th><th scope="col">started (UTC)</th><th scope="col">workload</th>
              <th scope="col">target</th><th scope="col">device</th><th scope="col" className="num">IOPS</th><th scope="col">tags</th>
              <th scope="col">stored by</th><th scope="col">actions</th></tr></thead>
            <tbody>
              {rows.map((run) => {
                const id = run.id;
                return (
                  <tr key={id} data-run-id={id}>
                    <td><input type="checkbox" aria-label={`select run ${id}`} checked={selected.has(id)} onChange={() => toggle(id)} /></td>
                    <td>{id}</td>
                    <td>{run.started_at.replace('T', ' ').slice(0, 19)}</td>
                    <td>{run.label}</td>
                    <td className="path">{run.target ? <PathText path={run.target} /> : '(default)'}</td>
                    <td>{run.device || '–'}</td>
                    <td className="num">{formatIops(run.iops)}</td>
                    <td>{tagging?.id === id ? (
                      <form onSubmit={(e) => { e.preventDefault(); void saveTags(id, tagging.text); }}>
                        <label htmlFor={`tags-${id}`} className="sr-only">tags for run {id}</label>
                        <input id={`tags-${id}`} autoFocus value={tagging.text} onChange={(e) => setTagging({ id, text: e.target.value })} placeholder="key=value" />
                        <button type="submit">Save</button><button type="button" onClick={() => setTagging(null)}>Cancel</button>
                      </form>
                    ) : Object.entries(run.tags).map(([k, v]) => <span key={k} className="tag">{k}={v}</span>)}</td>
                    <td>{[run.measured_by, run.measured_on].filter(Boolean).join(' on ') || '–'}</td>
                    <td className="row-actions">
                      <button type="button" onClick={() => void open(`run ${id}`, [id])}>Open</button>
                      {run.sweep_id !== null && <button type="button" onClick={() => void openSweep(run.sweep_id!)}>Open sweep {run.sweep_id}</button>}
                      <button type="button" onClick={() => setTagging({ id, text: '' })}>Tag</button>
                      {confirmDelete === id
                        ? <button type="button" className="danger" onClick={() => void remove(id)}>Confirm delete</button>
                        : <button type="button" onClick={() => setConfirmDelete(id)}>Delete</button>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <nav className="actions" aria-label="pages of runs" data-testid="history-pages">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(offset - PAGE, 0))}>Newer</button>
            <span>Page {Math.floor(offset / PAGE) + 1} of {Math.max(Math.ceil(total / PAGE), 1)}</span>
            <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>Older</button>
          </nav>
        </>
      )}
    </section>
  );
}

/** A path that may break after each separator, and only there (not inside a folder's name). */
export function PathText({ path }: { path: string }) {
  const parts = path.split(/(?<=[/\\])/);
  return <>{parts.map((part, i) => <span key={i}>{part}{i < parts.length - 1 && <wbr />}</span>)}</>;
}
