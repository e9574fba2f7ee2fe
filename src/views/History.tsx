// History: earlier runs, searchable by tag, target/device/engine text and date; open, tag, delete.
import { useCallback, useEffect, useState } from 'react';
import { EngineError, useEngine, type RunResult } from '../api';
import { totals } from '../lib/analysis';
import { formatIops } from '../lib/units';

interface Props {
  onOpen: (title: string, runs: RunResult[]) => void;
}

export function History({ onOpen }: Props) {
  const engine = useEngine();
  const [text, setText] = useState('');
  const [tag, setTag] = useState('');
  const [since, setSince] = useState('');
  const [runs, setRuns] = useState<RunResult[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [tagging, setTagging] = useState<{ id: number; text: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);

  const load = useCallback(async () => {
    try {
      const result = await engine.call('runs.list', { text: text.trim() || null, tag: tag.trim() || null, since: since || null });
      setRuns([...result.runs].reverse());
      setTotal(result.total);
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, [engine, text, tag, since]);

  useEffect(() => {
    const timer = setTimeout(() => void load(), 200);
    return () => clearTimeout(timer);
  }, [load]);

  async function openSweep(run: RunResult) {
    if (run.sweep_id === null) return onOpen(`run ${run.id}`, [run]);
    const result = await engine.call('runs.list', { sweep_id: run.sweep_id });
    onOpen(`sweep ${run.sweep_id}`, result.runs);
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
      await load();
    } catch (e) {
      setError(e instanceof EngineError ? e.problems.map((p) => p.message).join('; ') || e.message : String(e));
    }
  }

  async function remove(id: number) {
    await engine.call('runs.delete', { run_id: id });
    setConfirmDelete(null);
    setSelected((s) => { const next = new Set(s); next.delete(id); return next; });
    await load();
  }

  const toggle = (id: number) => setSelected((s) => { const next = new Set(s); if (next.has(id)) next.delete(id); else next.add(id); return next; });
  const chosen = (runs ?? []).filter((r) => r.id !== null && selected.has(r.id));

  return (
    <section aria-labelledby="history-title" className="history">
      <h2 id="history-title">History</h2>
      <form className="filters" role="search" onSubmit={(e) => { e.preventDefault(); void load(); }}>
        <div className="field"><label htmlFor="history-text">Target, device or engine</label>
          <input id="history-text" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="e.g. nvme, /mnt/ssd, Samsung" /></div>
        <div className="field"><label htmlFor="history-tag">Tag</label>
          <input id="history-tag" type="search" value={tag} onChange={(e) => setTag(e.target.value)} placeholder="interface=SATA or SATA" /></div>
        <div className="field"><label htmlFor="history-since">Since</label>
          <input id="history-since" type="date" value={since} onChange={(e) => setSince(e.target.value)} /></div>
      </form>
      {error && <p role="alert" className="error">{error}</p>}
      {runs !== null && runs.length === 0 && (
        <p className="empty">{text || tag || since ? 'No runs match these filters; clear them to see everything.' : 'No runs stored yet. Finished points appear here as they complete.'}</p>
      )}
      {chosen.length > 0 && (
        <div className="actions"><button type="button" className="primary" onClick={() => onOpen(`${chosen.length} selected runs`, chosen)}>Open {chosen.length} selected</button></div>
      )}
      {runs && total > runs.length && (
        <p className="note" data-testid="history-truncated">Showing the newest {runs.length} of {total} matching runs; narrow the search by tag, text or date to reach older ones.</p>
      )}
      {runs && runs.length > 0 && (
        <table className="data" data-testid="history-table">
          <caption>Stored runs, newest first</caption>
          <thead><tr><th scope="col"><span className="sr-only">select</span></th><th scope="col">run</th><th scope="col">started (UTC)</th><th scope="col">workload</th>
            <th scope="col">target</th><th scope="col">device</th><th scope="col" className="num">IOPS</th><th scope="col">tags</th><th scope="col">actions</th></tr></thead>
          <tbody>
            {runs.map((run) => {
              const id = run.id ?? 0;
              return (
                <tr key={id} data-run-id={id}>
                  <td><input type="checkbox" aria-label={`select run ${id}`} checked={selected.has(id)} onChange={() => toggle(id)} /></td>
                  <td>{id}</td>
                  <td>{run.started_at.replace('T', ' ').slice(0, 19)}</td>
                  <td>{run.workload.label}</td>
                  <td className="path">{run.workload.target || '(default)'}</td>
                  <td>{[run.environment.device, run.environment.device_model].filter(Boolean).join(' ') || '–'}</td>
                  <td className="num">{formatIops(totals(run).iops)}</td>
                  <td>{tagging?.id === id ? (
                    <form onSubmit={(e) => { e.preventDefault(); void saveTags(id, tagging.text); }}>
                      <label htmlFor={`tags-${id}`} className="sr-only">tags for run {id}</label>
                      <input id={`tags-${id}`} autoFocus value={tagging.text} onChange={(e) => setTagging({ id, text: e.target.value })} placeholder="key=value" />
                      <button type="submit">Save</button><button type="button" onClick={() => setTagging(null)}>Cancel</button>
                    </form>
                  ) : Object.entries(run.tags).map(([k, v]) => <span key={k} className="tag">{k}={v}</span>)}</td>
                  <td className="row-actions">
                    <button type="button" onClick={() => onOpen(`run ${id}`, [run])}>Open</button>
                    {run.sweep_id !== null && <button type="button" onClick={() => void openSweep(run)}>Open sweep {run.sweep_id}</button>}
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
      )}
    </section>
  );
}
