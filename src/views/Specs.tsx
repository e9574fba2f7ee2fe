// Spec sheets: the bundled library and the user's own. Any sheet can be read; the user's own are
// edited and deleted here, and a bundled one is changed by saving an edited copy (same id: it
// overrides the bundled sheet; a new id: a new drive). The engine validates and saves
// (`specs.save`): numbers and sizes go as typed, and its field messages are shown beside the form,
// which keeps what was typed. The lists (interfaces, accesses, units) are the engine's.
import { useState } from 'react';
import {
  EngineError, useEngine, useEngineQuery, type Choice, type Spec, type SpecChoices,
} from '../api';
import { formatSize } from '../lib/units';
import { blankSpecForm, formOf, SpecFormView, specOf, type SpecForm } from './SpecForm';
import { useKept } from '../state/kept';

const NO_CHOICES: SpecChoices = { interfaces: [], accesses: [], units: [] };

const nameOf = (choices: Choice[], value: string) => choices.find((c) => c.value === value)?.label ?? value;

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
  const [selected, setSelected] = useKept<string | null>('specs-selected', null);
  const [form, setForm] = useKept<SpecForm | null>('specs-form', null);
  const [replace, setReplace] = useKept('specs-replace', false);
  const [problems, setProblems] = useState<string[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [filter, setFilter] = useKept('specs-filter', '');

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
          onClick={() => edit(blankSpecForm(), false)}>New spec sheet</button>
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

