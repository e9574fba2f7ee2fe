// Spec sheets: the bundled library and the user's own. Any sheet can be read; the user's own are
// edited and deleted here, and a bundled one is changed by saving an edited copy (same id: it
// overrides the bundled sheet; a new id: a new drive). The engine validates and saves
// (`specs.save`): numbers and sizes go as typed, and its field messages are shown beside the form,
// which keeps what was typed. The lists (interfaces, accesses, units) are the engine's.
import { useState } from 'react';
import {
  EngineError, useEngine, useEngineQuery, type Choice, type FigureInput, type Spec, type SpecChoices,
  type SpecInput,
} from '../api';
import { formatSize, sizeInput } from '../lib/units';

interface FigureForm {
  metric: string; value: string; unit: string; size: string; qd: string; threads: string;
  readPct: string; statistic: string;
}
interface SpecForm {
  id: string; vendor: string; model: string; iface: string; capacity: string; link: string;
  formFactor: string; patterns: string; figures: FigureForm[]; sourceTitle: string;
  sourceUrl: string; notes: string;
}

const blankFigure: FigureForm = {
  metric: 'rand_read', value: '', unit: 'IOPS', size: '4k', qd: '32', threads: '', readPct: '',
  statistic: 'up_to',
};
const blank: SpecForm = {
  id: '', vendor: '', model: '', iface: 'NVMe', capacity: '', link: '', formFactor: '', patterns: '',
  figures: [{ ...blankFigure }], sourceTitle: '', sourceUrl: '', notes: '',
};
const NO_CHOICES: SpecChoices = { interfaces: [], accesses: [], units: [] };

const text = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
/** What was typed, or null where nothing was: the engine reads it and names a field it cannot. */
const typed = (value: string): string | null => value.trim() || null;
const nameOf = (choices: Choice[], value: string) => choices.find((c) => c.value === value)?.label ?? value;

export function formOf(spec: Spec): SpecForm {
  return {
    id: spec.id, vendor: spec.vendor, model: spec.model, iface: spec.interface, link: spec.link,
    formFactor: spec.form_factor, capacity: spec.capacity_bytes ? `${spec.capacity_bytes / 1e9}GB` : '',
    patterns: spec.match_patterns.join('\n'),
    figures: spec.figures.map((f) => ({
      metric: f.metric, value: String(f.value), unit: f.unit,
      size: f.block_size_bytes ? sizeInput(f.block_size_bytes) : '', qd: text(f.queue_depth),
      threads: text(f.threads), readPct: text(f.read_pct), statistic: f.statistic,
    })),
    sourceTitle: spec.sources[0]?.title ?? '', sourceUrl: spec.sources[0]?.url ?? '', notes: spec.notes,
  };
}

export function specOf(form: SpecForm): SpecInput {
  return {
    id: form.id.trim(), vendor: form.vendor.trim(), model: form.model.trim(),
    interface: form.iface as SpecInput['interface'], capacity_bytes: typed(form.capacity),
    link: form.link.trim(), form_factor: form.formFactor.trim(),
    match_patterns: form.patterns.split(/\n|,/).map((p) => p.trim()).filter(Boolean),
    figures: form.figures.map((f): FigureInput => ({
      metric: f.metric as FigureInput['metric'], value: f.value.trim(), unit: f.unit,
      block_size_bytes: typed(f.size), queue_depth: typed(f.qd), threads: typed(f.threads),
      read_pct: f.metric === 'rand_mixed' ? typed(f.readPct) : null, statistic: f.statistic || 'up_to',
      source: 0,
    })),
    sources: [{ title: form.sourceTitle.trim() || 'entered by hand', url: form.sourceUrl.trim(), kind: '' }],
    notes: form.notes,
  };
}

/** "figures 1 value: …": an engine problem named as the form shows the field. */
function problemText(field: string, message: string): string {
  const where = field.replace(/^spec\./, '').replace(/\.(\d+)\./g, (_, i: string) => ` ${Number(i) + 1} `);
  return `${where}: ${message}`;
}

export function Specs() {
  const engine = useEngine();
  const listed = useEngineQuery('specs.list', {});
  const library = listed.data;
  const choices = library?.choices ?? NO_CHOICES;
  const [selected, setSelected] = useState<string | null>(null);
  const [form, setForm] = useState<SpecForm | null>(null);
  const [replace, setReplace] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [filter, setFilter] = useState('');

  const mine = new Set(library?.user_spec_ids ?? []);
  const spec = library?.specs.find((s) => s.id === selected) ?? null;
  const words = filter.toLowerCase();
  const shown = (library?.specs ?? [])
    .filter((s) => `${s.vendor} ${s.model} ${s.interface} ${s.id}`.toLowerCase().includes(words));
  const shownProblems = listed.error ? [listed.error, ...problems] : problems;

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
      const overrides = saved.overrides_bundled ? ' — it overrides the bundled sheet with the same id' : '';
      setNote(`Saved ${saved.spec.vendor} ${saved.spec.model} to ${saved.path}${overrides}.`);
      setForm(null);
      setSelected(saved.spec.id);
      listed.reload();
    } catch (e) {
      setProblems(e instanceof EngineError && e.problems.length
        ? e.problems.map((p) => problemText(p.field, p.message))
        : [e instanceof Error ? e.message : String(e)]);
    }
  }

  async function remove(id: string) {
    try {
      await engine.call('specs.delete', { spec_id: id });
      setNote(`Deleted your spec sheet ${id}.`);
      setSelected(null);
      listed.reload();
    } catch (e) {
      setProblems([e instanceof Error ? e.message : String(e)]);
    }
  }

  const errors = (testId?: string) => (
    <ul role="alert" className="error" data-testid={testId}>{shownProblems.map((p) => <li key={p}>{p}</li>)}</ul>
  );
  return (
    <section aria-labelledby="specs-title" className="specs">
      <h2 id="specs-title">Spec sheets</h2>
      <p className="hint">
        Rated figures from vendors' datasheets, each with the conditions it was rated under; results
        are compared with them only where measured the same way. Your own sheets are saved in{' '}
        {library?.user_spec_dir ?? 'your ssdprof data folder'}.
      </p>
      {library?.problems.map((p) => <p key={p} role="alert" className="error">Skipped {p}</p>)}
      <div className="toolbar">
        <div className="field inline">
          <label htmlFor="spec-filter">Find</label>
          <input id="spec-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)}
            placeholder="vendor, model or interface" />
        </div>
        <button type="button" disabled={!library}
          onClick={() => edit({ ...blank, figures: [{ ...blankFigure }] }, false)}>New spec sheet</button>
      </div>
      {note && <p role="status" className="hint" data-testid="spec-note">{note}</p>}
      <div className="specs-layout">
        <SpecList specs={shown} total={library?.specs.length ?? null} mine={mine} selected={selected}
          onSelect={(id) => { setSelected(id); setForm(null); }} />
        {spec && !form && (
          <SpecDetail spec={spec} choices={choices} own={mine.has(spec.id)}
            onEdit={(copy) => edit(formOf(spec), !copy)} onDelete={() => void remove(spec.id)} />
        )}
        {form && (
          <SpecFormView form={form} setForm={setForm} choices={choices} replace={replace}
            problems={problems.length > 0 ? errors('spec-problems') : null}
            onSave={() => void save()} onCancel={() => setForm(null)} />
        )}
      </div>
      {!form && shownProblems.length > 0 && errors()}
    </section>
  );
}

interface ListProps {
  specs: Spec[];
  total: number | null;
  mine: Set<string>;
  selected: string | null;
  onSelect: (id: string) => void;
}

function SpecList({ specs, total, mine, selected, onSelect }: ListProps) {
  return (
    <table className="data" data-testid="spec-list">
      <caption>{total === null ? 'Loading…' : `${total} spec sheets (${mine.size} your own)`}</caption>
      <thead><tr><th>drive</th><th>interface</th><th>figures</th><th>source</th></tr></thead>
      <tbody>
        {specs.map((s) => (
          <tr key={s.id} aria-selected={s.id === selected}>
            <td>
              <button type="button" className="link" onClick={() => onSelect(s.id)}>{s.vendor} {s.model}</button>
            </td>
            <td>{s.interface}</td><td>{s.figures.length}</td>
            <td>
              {mine.has(s.id) ? 'yours' : 'bundled'}
              {s.unsourced && <strong className="warning"> · unsourced</strong>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface DetailProps {
  spec: Spec;
  choices: SpecChoices;
  own: boolean;
  onEdit: (copy: boolean) => void;
  onDelete: () => void;
}

function SpecDetail({ spec, choices, own, onEdit, onDelete }: DetailProps) {
  const about = [spec.interface, spec.link, spec.form_factor].filter(Boolean).join(', ');
  const matches = spec.match_patterns.join(', ') || 'no model string';
  return (
    <div className="spec-detail" data-testid="spec-detail">
      <h3>{spec.vendor} {spec.model}</h3>
      <p className="hint">{about}; id {spec.id}; matches {matches}</p>
      <table className="data">
        <thead><tr><th>rated</th><th>access</th><th>size</th><th>QD</th><th>threads</th></tr></thead>
        <tbody>
          {spec.figures.map((f, i) => (
            <tr key={i}>
              <td>{f.value.toLocaleString('en-US')} {nameOf(choices.units, f.unit)}</td>
              <td>{nameOf(choices.accesses, f.metric)}{f.read_pct !== null ? ` ${f.read_pct}% read` : ''}</td>
              <td>{f.block_size_bytes ? formatSize(f.block_size_bytes) : 'not stated'}</td>
              <td>{f.queue_depth ?? 'not stated'}</td><td>{f.threads ?? 'not stated'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        Source: {spec.sources.map((s) => (s.url
          ? <a key={s.title} href={s.url} target="_blank" rel="noreferrer">{s.title}</a>
          : s.title))}
      </p>
      {spec.unsourced && (
        <p role="note" className="warning" data-testid="spec-unsourced">
          Unsourced: no public source URL for this sheet or some of its figures, so “% of spec”
          against them is marked indicative. Add the datasheet&apos;s URL.
        </p>
      )}
      <div className="toolbar">
        {own
          ? (
            <>
              <button type="button" onClick={() => onEdit(false)}>Edit</button>
              <button type="button" className="danger" onClick={onDelete}>Delete</button>
            </>
          )
          : <button type="button" onClick={() => onEdit(true)}>Edit a copy</button>}
      </div>
    </div>
  );
}

interface FormProps {
  form: SpecForm;
  setForm: (form: SpecForm) => void;
  choices: SpecChoices;
  replace: boolean;
  problems: React.ReactNode;
  onSave: () => void;
  onCancel: () => void;
}

function SpecFormView({ form, setForm, choices, replace, problems, onSave, onCancel }: FormProps) {
  const set = (patch: Partial<SpecForm>) => setForm({ ...form, ...patch });
  const input = (name: keyof SpecForm, id: string, label: string, extra: object = {}) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={form[name] as string} onChange={(e) => set({ [name]: e.target.value })} {...extra} />
    </div>
  );
  return (
    <form className="spec-form" aria-label="Spec sheet" onSubmit={(e) => { e.preventDefault(); onSave(); }}>
      <div className="field-row">
        {input('id', 'spec-id', 'Id', { placeholder: 'lab-drive-1tb', disabled: replace })}
        {input('vendor', 'spec-vendor', 'Vendor')}
        {input('model', 'spec-model', 'Model')}
        <div className="field">
          <label htmlFor="spec-interface">Interface</label>
          <select id="spec-interface" value={form.iface} onChange={(e) => set({ iface: e.target.value })}>
            {choices.interfaces.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
          </select>
        </div>
        {input('capacity', 'spec-capacity', 'Capacity', { placeholder: '1TB', size: 6 })}
        {input('link', 'spec-link', 'Link', { placeholder: 'PCIe 4.0 x4' })}
      </div>
      <div className="field">
        <label htmlFor="spec-patterns">Model strings to match (one per line; * matches anything)</label>
        <textarea id="spec-patterns" rows={2} value={form.patterns} onChange={(e) => set({ patterns: e.target.value })} />
      </div>
      <FigureTable form={form} set={set} choices={choices} />
      <button type="button" onClick={() => set({ figures: [...form.figures, { ...blankFigure }] })}>Add a figure</button>
      <div className="field-row">
        {input('sourceTitle', 'spec-source', 'Source (datasheet title)')}
        {input('sourceUrl', 'spec-url', 'Source URL')}
      </div>
      <div className="field">
        <label htmlFor="spec-notes">Notes</label>
        <textarea id="spec-notes" rows={2} value={form.notes} onChange={(e) => set({ notes: e.target.value })} />
      </div>
      {problems}
      <div className="toolbar">
        <button type="submit" className="primary">Save</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

interface FigureProps {
  form: SpecForm;
  set: (patch: Partial<SpecForm>) => void;
  choices: SpecChoices;
}

function FigureTable({ form, set, choices }: FigureProps) {
  const setFigure = (i: number, patch: Partial<FigureForm>) =>
    set({ figures: form.figures.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  const cell = (i: number, name: keyof FigureForm, label: string, size: number, disabled = false) => (
    <td>
      <input aria-label={`figure ${i + 1} ${label}`} value={form.figures[i]![name]} size={size}
        disabled={disabled} onChange={(e) => setFigure(i, { [name]: e.target.value })} />
    </td>
  );
  const list = (i: number, name: 'metric' | 'unit', label: string, options: Choice[]) => (
    <td>
      <select aria-label={`figure ${i + 1} ${label}`} value={form.figures[i]![name]}
        onChange={(e) => setFigure(i, { [name]: e.target.value })}>
        {options.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
      </select>
    </td>
  );
  return (
    <table className="data spec-figures">
      <caption>Rated figures (leave a condition empty when the datasheet does not state it)</caption>
      <thead>
        <tr>
          <th>access</th><th>value</th><th>unit</th><th>size</th><th>QD</th><th>threads</th>
          <th>read %</th><th></th>
        </tr>
      </thead>
      <tbody>
        {form.figures.map((f, i) => (
          <tr key={i}>
            {list(i, 'metric', 'access', choices.accesses)}
            {cell(i, 'value', 'value', 8)}
            {list(i, 'unit', 'unit', choices.units)}
            {cell(i, 'size', 'access size', 5)}
            {cell(i, 'qd', 'queue depth', 3)}
            {cell(i, 'threads', 'threads', 3)}
            {cell(i, 'readPct', 'read %', 3, f.metric !== 'rand_mixed')}
            <td>
              <button type="button" aria-label={`remove figure ${i + 1}`}
                onClick={() => set({ figures: form.figures.filter((_, j) => j !== i) })}>×</button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
