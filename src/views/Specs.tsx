// Spec sheets: the bundled library and the user's own. Any sheet can be read; the user's own are
// edited and deleted here, and a bundled one is changed by saving an edited copy (same id: it
// overrides the bundled sheet; a new id: a new drive). The engine validates and saves
// (`specs.save`), and its field messages are shown beside the form, which keeps what was typed.
import { useCallback, useEffect, useState } from 'react';
import { EngineError, useEngine, type FigureInput, type Spec, type SpecInput, type SpecsListResult } from '../api';
import { formatSize, sizeInput } from '../lib/units';

const ACCESS = ['seq_read', 'seq_write', 'rand_read', 'rand_write', 'rand_mixed'] as const;
const UNITS = ['MB/s', 'GB/s', 'MiB/s', 'GiB/s', 'IOPS', 'us', 'ms'];
const INTERFACES = ['SATA', 'NVMe', 'PCIe', 'SAS'] as const;

interface FigureForm { metric: string; value: string; unit: string; size: string; qd: string; threads: string; readPct: string; statistic: string }
interface SpecForm {
  id: string; vendor: string; model: string; iface: string; capacityGb: string; link: string; formFactor: string;
  patterns: string; figures: FigureForm[]; sourceTitle: string; sourceUrl: string; notes: string;
}

const blankFigure: FigureForm = { metric: 'rand_read', value: '', unit: 'IOPS', size: '4k', qd: '32', threads: '', readPct: '', statistic: 'up_to' };
const blank: SpecForm = { id: '', vendor: '', model: '', iface: 'NVMe', capacityGb: '', link: '', formFactor: '', patterns: '',
  figures: [{ ...blankFigure }], sourceTitle: '', sourceUrl: '', notes: '' };

const text = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));

export function formOf(spec: Spec): SpecForm {
  return {
    id: spec.id, vendor: spec.vendor, model: spec.model, iface: spec.interface, link: spec.link, formFactor: spec.form_factor,
    capacityGb: spec.capacity_bytes ? String(spec.capacity_bytes / 1e9) : '', patterns: spec.match_patterns.join('\n'),
    figures: spec.figures.map((f) => ({ metric: f.metric, value: String(f.value), unit: f.unit, size: f.block_size_bytes ? sizeInput(f.block_size_bytes) : '',
      qd: text(f.queue_depth), threads: text(f.threads), readPct: text(f.read_pct), statistic: f.statistic })),
    sourceTitle: spec.sources[0]?.title ?? '', sourceUrl: spec.sources[0]?.url ?? '', notes: spec.notes,
  };
}

/** A number where one was typed, null where nothing was, and the text itself otherwise: the engine then names the field. */
function num(value: string): number | null {
  const t = value.trim();
  if (!t) return null;
  return Number.isFinite(Number(t)) ? Number(t) : (t as unknown as number);
}

/** A size as typed ("4k", "128KiB"): the engine reads it, and names the field if it cannot. */
function bytes(value: string): string | null {
  return value.trim() || null;
}

export function specOf(form: SpecForm): SpecInput {
  const capacity = num(form.capacityGb);
  return {
    id: form.id.trim(), vendor: form.vendor.trim(), model: form.model.trim(), interface: form.iface as SpecInput['interface'],
    capacity_bytes: typeof capacity === 'number' ? Math.round(capacity * 1e9) : capacity, link: form.link.trim(), form_factor: form.formFactor.trim(),
    match_patterns: form.patterns.split(/\n|,/).map((p) => p.trim()).filter(Boolean),
    figures: form.figures.map((f): FigureInput => ({
      metric: f.metric as FigureInput['metric'], value: num(f.value) ?? 0, unit: f.unit, block_size_bytes: bytes(f.size),
      queue_depth: num(f.qd), threads: num(f.threads), read_pct: f.metric === 'rand_mixed' ? num(f.readPct) : null, statistic: f.statistic || 'up_to', source: 0,
    })),
    sources: [{ title: form.sourceTitle.trim() || 'entered by hand', url: form.sourceUrl.trim(), kind: '' }],
    notes: form.notes,
  };
}

export function Specs() {
  const engine = useEngine();
  const [library, setLibrary] = useState<SpecsListResult | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [form, setForm] = useState<SpecForm | null>(null);
  const [replace, setReplace] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [filter, setFilter] = useState('');

  const load = useCallback(async () => {
    try {
      setLibrary(await engine.call('specs.list', {}));
    } catch (e) {
      setProblems([e instanceof Error ? e.message : String(e)]);
    }
  }, [engine]);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- load sets state only once the engine answers
  useEffect(() => void load(), [load]);

  const mine = new Set(library?.user_spec_ids ?? []);
  const spec = library?.specs.find((s) => s.id === selected) ?? null;
  const shown = (library?.specs ?? []).filter((s) => `${s.vendor} ${s.model} ${s.interface} ${s.id}`.toLowerCase().includes(filter.toLowerCase()));

  function edit(next: SpecForm, overwrite: boolean) {
    setForm(next);
    setReplace(overwrite);
    setProblems([]);
    setNote(null);
  }

  async function save() {
    if (!form) return;
    setProblems([]);
    try {
      const saved = await engine.call('specs.save', { spec: specOf(form), replace });
      setNote(`Saved ${saved.spec.vendor} ${saved.spec.model} to ${saved.path}${saved.overrides_bundled ? ' — it overrides the bundled sheet with the same id' : ''}.`);
      setForm(null);
      setSelected(saved.spec.id);
      await load();
    } catch (e) {
      setProblems(e instanceof EngineError && e.problems.length
        ? e.problems.map((p) => `${p.field.replace(/^spec\./, '').replace(/\.(\d+)\./g, (_, i: string) => ` ${Number(i) + 1} `)}: ${p.message}`)
        : [e instanceof Error ? e.message : String(e)]);
    }
  }

  async function remove(id: string) {
    try {
      await engine.call('specs.delete', { spec_id: id });
      setNote(`Deleted your spec sheet ${id}.`);
      setSelected(null);
      await load();
    } catch (e) {
      setProblems([e instanceof Error ? e.message : String(e)]);
    }
  }

  const set = (patch: Partial<SpecForm>) => form && setForm({ ...form, ...patch });
  const setFigure = (i: number, patch: Partial<FigureForm>) => form && setForm({ ...form, figures: form.figures.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  return (
    <section aria-labelledby="specs-title" className="specs">
      <h2 id="specs-title">Spec sheets</h2>
      <p className="hint">
        Rated figures from vendors' datasheets, each with the conditions it was rated under; results are compared with them only where
        measured the same way. Your own sheets are saved in {library?.user_spec_dir ?? 'your ssdprof data folder'}.
      </p>
      {library?.problems.map((p) => <p key={p} role="alert" className="error">Skipped {p}</p>)}
      <div className="toolbar">
        <div className="field inline">
          <label htmlFor="spec-filter">Find</label>
          <input id="spec-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="vendor, model or interface" />
        </div>
        <button type="button" onClick={() => edit({ ...blank, figures: [{ ...blankFigure }] }, false)}>New spec sheet</button>
      </div>
      {note && <p role="status" className="hint" data-testid="spec-note">{note}</p>}
      <div className="specs-layout">
        <table className="data" data-testid="spec-list">
          <caption>{library ? `${library.specs.length} spec sheets (${mine.size} your own)` : 'Loading…'}</caption>
          <thead><tr><th>drive</th><th>interface</th><th>figures</th><th>source</th></tr></thead>
          <tbody>
            {shown.map((s) => (
              <tr key={s.id} aria-selected={s.id === selected}>
                <td><button type="button" className="link" onClick={() => { setSelected(s.id); setForm(null); }}>{s.vendor} {s.model}</button></td>
                <td>{s.interface}</td><td>{s.figures.length}</td>
                <td>{mine.has(s.id) ? 'yours' : 'bundled'}{s.unsourced && <strong className="warning"> · unsourced</strong>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {spec && !form && (
          <div className="spec-detail" data-testid="spec-detail">
            <h3>{spec.vendor} {spec.model}</h3>
            <p className="hint">{spec.interface}{spec.link ? `, ${spec.link}` : ''}{spec.form_factor ? `, ${spec.form_factor}` : ''}; id {spec.id}; matches {spec.match_patterns.join(', ') || 'no model string'}</p>
            <table className="data">
              <thead><tr><th>rated</th><th>access</th><th>size</th><th>QD</th><th>threads</th></tr></thead>
              <tbody>
                {spec.figures.map((f, i) => (
                  <tr key={i}><td>{f.value.toLocaleString('en-US')} {f.unit}</td><td>{f.metric.replace('_', ' ')}{f.read_pct !== null ? ` ${f.read_pct}% read` : ''}</td>
                    <td>{f.block_size_bytes ? formatSize(f.block_size_bytes) : 'not stated'}</td><td>{f.queue_depth ?? 'not stated'}</td><td>{f.threads ?? 'not stated'}</td></tr>
                ))}
              </tbody>
            </table>
            <p className="hint">Source: {spec.sources.map((s) => s.url ? <a key={s.title} href={s.url} target="_blank" rel="noreferrer">{s.title}</a> : s.title)}</p>
            {spec.unsourced && (
              <p role="note" className="warning" data-testid="spec-unsourced">
                Unsourced: no public source URL for this sheet or some of its figures, so “% of spec” against them is marked indicative. Add the datasheet&apos;s URL.
              </p>
            )}
            <div className="toolbar">
              {mine.has(spec.id)
                ? <><button type="button" onClick={() => edit(formOf(spec), true)}>Edit</button>
                    <button type="button" className="danger" onClick={() => void remove(spec.id)}>Delete</button></>
                : <button type="button" onClick={() => edit(formOf(spec), false)}>Edit a copy</button>}
            </div>
          </div>
        )}
        {form && (
          <form className="spec-form" aria-label="Spec sheet" onSubmit={(e) => { e.preventDefault(); void save(); }}>
            <div className="field-row">
              <div className="field"><label htmlFor="spec-id">Id</label>
                <input id="spec-id" value={form.id} onChange={(e) => set({ id: e.target.value })} placeholder="lab-drive-1tb" disabled={replace} /></div>
              <div className="field"><label htmlFor="spec-vendor">Vendor</label><input id="spec-vendor" value={form.vendor} onChange={(e) => set({ vendor: e.target.value })} /></div>
              <div className="field"><label htmlFor="spec-model">Model</label><input id="spec-model" value={form.model} onChange={(e) => set({ model: e.target.value })} /></div>
              <div className="field"><label htmlFor="spec-interface">Interface</label>
                <select id="spec-interface" value={form.iface} onChange={(e) => set({ iface: e.target.value })}>{INTERFACES.map((i) => <option key={i}>{i}</option>)}</select></div>
              <div className="field"><label htmlFor="spec-capacity">Capacity (GB)</label><input id="spec-capacity" value={form.capacityGb} onChange={(e) => set({ capacityGb: e.target.value })} size={6} /></div>
              <div className="field"><label htmlFor="spec-link">Link</label><input id="spec-link" value={form.link} onChange={(e) => set({ link: e.target.value })} placeholder="PCIe 4.0 x4" /></div>
            </div>
            <div className="field"><label htmlFor="spec-patterns">Model strings to match (one per line; * matches anything)</label>
              <textarea id="spec-patterns" rows={2} value={form.patterns} onChange={(e) => set({ patterns: e.target.value })} /></div>
            <table className="data spec-figures">
              <caption>Rated figures (leave a condition empty when the datasheet does not state it)</caption>
              <thead><tr><th>access</th><th>value</th><th>unit</th><th>size</th><th>QD</th><th>threads</th><th>read %</th><th></th></tr></thead>
              <tbody>
                {form.figures.map((f, i) => (
                  <tr key={i}>
                    <td><select aria-label={`figure ${i + 1} access`} value={f.metric} onChange={(e) => setFigure(i, { metric: e.target.value })}>{ACCESS.map((a) => <option key={a} value={a}>{a.replace('_', ' ')}</option>)}</select></td>
                    <td><input aria-label={`figure ${i + 1} value`} value={f.value} onChange={(e) => setFigure(i, { value: e.target.value })} size={8} /></td>
                    <td><select aria-label={`figure ${i + 1} unit`} value={f.unit} onChange={(e) => setFigure(i, { unit: e.target.value })}>{UNITS.map((u) => <option key={u}>{u}</option>)}</select></td>
                    <td><input aria-label={`figure ${i + 1} access size`} value={f.size} onChange={(e) => setFigure(i, { size: e.target.value })} size={5} /></td>
                    <td><input aria-label={`figure ${i + 1} queue depth`} value={f.qd} onChange={(e) => setFigure(i, { qd: e.target.value })} size={3} /></td>
                    <td><input aria-label={`figure ${i + 1} threads`} value={f.threads} onChange={(e) => setFigure(i, { threads: e.target.value })} size={3} /></td>
                    <td><input aria-label={`figure ${i + 1} read %`} value={f.readPct} disabled={f.metric !== 'rand_mixed'} onChange={(e) => setFigure(i, { readPct: e.target.value })} size={3} /></td>
                    <td><button type="button" aria-label={`remove figure ${i + 1}`} onClick={() => set({ figures: form.figures.filter((_, j) => j !== i) })}>×</button></td>
                  </tr>
                ))}
              </tbody>
            </table>
            <button type="button" onClick={() => set({ figures: [...form.figures, { ...blankFigure }] })}>Add a figure</button>
            <div className="field-row">
              <div className="field"><label htmlFor="spec-source">Source (datasheet title)</label><input id="spec-source" value={form.sourceTitle} onChange={(e) => set({ sourceTitle: e.target.value })} /></div>
              <div className="field"><label htmlFor="spec-url">Source URL</label><input id="spec-url" value={form.sourceUrl} onChange={(e) => set({ sourceUrl: e.target.value })} /></div>
            </div>
            <div className="field"><label htmlFor="spec-notes">Notes</label><textarea id="spec-notes" rows={2} value={form.notes} onChange={(e) => set({ notes: e.target.value })} /></div>
            {problems.length > 0 && <ul role="alert" className="error" data-testid="spec-problems">{problems.map((p) => <li key={p}>{p}</li>)}</ul>}
            <div className="toolbar">
              <button type="submit" className="primary">Save</button>
              <button type="button" onClick={() => setForm(null)}>Cancel</button>
            </div>
          </form>
        )}
      </div>
      {!form && problems.length > 0 && <ul role="alert" className="error">{problems.map((p) => <li key={p}>{p}</li>)}</ul>}
    </section>
  );
}
