// A spec sheet as its form holds it: what was typed, kept as typed (the engine reads the
// numbers and sizes, and names a field it cannot), with the engine's lists of interfaces,
// accesses and units.
import { type Choice, type FigureInput, type Spec, type SpecChoices, type SpecInput } from '../api';
import { sizeInput } from '../lib/units';

interface FigureForm {
  metric: string; value: string; unit: string; size: string; qd: string; threads: string;
  readPct: string; statistic: string;
}
export interface SpecForm {
  id: string; vendor: string; model: string; iface: string; capacity: string; link: string;
  formFactor: string; patterns: string; figures: FigureForm[]; sourceTitle: string;
  sourceUrl: string; notes: string;
}

const blankFigure: FigureForm = {
  metric: 'rand_read', value: '', unit: 'IOPS', size: '4k', qd: '32', threads: '', readPct: '',
  statistic: 'up_to',
};
const blank: SpecForm = {
  id: '', vendor: '', model: '', iface: 'NVMe', capacity: '', link: '', formFactor: '',
  patterns: '',
  figures: [{ ...blankFigure }], sourceTitle: '', sourceUrl: '', notes: '',
};
/** A new sheet's form, with one empty figure of its own. */
export function blankSpecForm(): SpecForm {
  return { ...blank, figures: [{ ...blankFigure }] };
}

const text = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
/** What was typed, or null where nothing was: the engine reads it and names a field it cannot. */
const typed = (value: string): string | null => value.trim() || null;
export function formOf(spec: Spec): SpecForm {
  return {
    id: spec.id, vendor: spec.vendor, model: spec.model, iface: spec.interface, link: spec.link,
    formFactor: spec.form_factor,
    capacity: spec.capacity_bytes ? `${spec.capacity_bytes / 1e9}GB` : '',
    patterns: spec.match_patterns.join('\n'),
    figures: spec.figures.map((f) => ({
      metric: f.metric, value: String(f.value), unit: f.unit,
      size: f.block_size_bytes ? sizeInput(f.block_size_bytes) : '', qd: text(f.queue_depth),
      threads: text(f.threads), readPct: text(f.read_pct), statistic: f.statistic,
    })),
    sourceTitle: spec.sources[0]?.title ?? '', sourceUrl: spec.sources[0]?.url ?? '',
    notes: spec.notes,
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
      read_pct: f.metric === 'rand_mixed' ? typed(f.readPct) : null,
      statistic: f.statistic || 'up_to',
      source: 0,
    })),
    sources: [{
      title: form.sourceTitle.trim() || 'entered by hand', url: form.sourceUrl.trim(), kind: '',
    }],
    notes: form.notes,
  };
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

export function SpecFormView(
  { form, setForm, choices, replace, problems, onSave, onCancel }: FormProps,
) {
  const set = (patch: Partial<SpecForm>) => setForm({ ...form, ...patch });
  const input = (name: keyof SpecForm, id: string, label: string, extra: object = {}) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={form[name] as string} onChange={(e) => set({ [name]: e.target.value })}
        {...extra} />
    </div>
  );
  return (
    <form className="spec-form" aria-label="Spec sheet"
      onSubmit={(e) => { e.preventDefault(); onSave(); }}>
      <div className="field-row">
        {input('id', 'spec-id', 'Id', { placeholder: 'lab-drive-1tb', disabled: replace })}
        {input('vendor', 'spec-vendor', 'Vendor')}
        {input('model', 'spec-model', 'Model')}
        <div className="field">
          <label htmlFor="spec-interface">Interface</label>
          <select id="spec-interface" value={form.iface}
            onChange={(e) => set({ iface: e.target.value })}>
            {choices.interfaces.map((c) => (
              <option key={c.value} value={c.value}>{c.label}</option>
            ))}
          </select>
        </div>
        {input('capacity', 'spec-capacity', 'Capacity', { placeholder: '1TB', size: 6 })}
        {input('link', 'spec-link', 'Link', { placeholder: 'PCIe 4.0 x4' })}
      </div>
      <div className="field">
        <label htmlFor="spec-patterns">
          Model strings to match (one per line; * matches anything)
        </label>
        <textarea id="spec-patterns" rows={2} value={form.patterns}
          onChange={(e) => set({ patterns: e.target.value })} />
      </div>
      <FigureTable form={form} set={set} choices={choices} />
      <button type="button" onClick={() => set({ figures: [...form.figures, { ...blankFigure }] })}>
        Add a figure
      </button>
      <div className="field-row">
        {input('sourceTitle', 'spec-source', 'Source (datasheet title)')}
        {input('sourceUrl', 'spec-url', 'Source URL')}
      </div>
      <div className="field">
        <label htmlFor="spec-notes">Notes</label>
        <textarea id="spec-notes" rows={2} value={form.notes}
          onChange={(e) => set({ notes: e.target.value })} />
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
  const cell = (i: number, name: keyof FigureForm, label: string, size: number,
    disabled = false) => (
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
      <caption>
        Rated figures (leave a condition empty when the datasheet does not state it)
      </caption>
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
