// One form field, the same in every form (designer, Curves, PTS, latency target): its label, the
// input or list, the engine's messages for it (all of them, beside it) and a hint. Lists show the
// engine's choices by their display names and send the engine's values.
import { type ReactNode } from 'react';
import { useEngineQuery, type Choice, type FieldProblem, type FieldRule } from '../api';

const NO_RULES: Record<string, FieldRule> = {};

export interface FieldProps {
  /** The engine's field name: what its problems are keyed by. */
  name: string;
  label: string;
  hint?: string;
  messages?: string[];
  /** The input's id when two forms on one page share a field name (default `field-<name>`). */
  id?: string;
  children: ReactNode;
}

export const fieldId = (name: string, id?: string) => id ?? `field-${name}`;

export function Field(props: FieldProps) {
  const id = fieldId(props.name, props.id);
  return (
    <div className={`field${props.messages?.length ? ' invalid' : ''}`}>
      {props.label && <label htmlFor={id}>{props.label}</label>}
      {props.children}
      {props.messages?.map((m) => <p key={m} className="problem" role="alert" data-field={props.name}>{m}</p>)}
      {props.hint && <p id={`help-${id}`} className="hint">{props.hint}</p>}
    </div>
  );
}

interface InputProps extends Omit<FieldProps, 'children'> {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  inputMode?: 'text' | 'numeric' | 'decimal';
  disabled?: boolean;
  list?: string;
  onBlur?: () => void;
}

/** A text field: what the user types goes to the engine as typed ("4k", "10s"); the engine parses it. */
export function TextField({ value, onChange, placeholder, inputMode, disabled, list, onBlur, ...field }: InputProps) {
  const id = fieldId(field.name, field.id);
  return (
    <Field {...field}>
      <input id={id} value={value} placeholder={placeholder} inputMode={inputMode} disabled={disabled} list={list}
        aria-invalid={Boolean(field.messages?.length)} aria-describedby={field.hint ? `help-${id}` : undefined}
        onChange={(e) => onChange(e.target.value)} onBlur={onBlur} />
    </Field>
  );
}

interface SelectProps extends Omit<FieldProps, 'children'> {
  value: string;
  onChange: (value: string) => void;
  choices: readonly Choice[];
}

/** A list of the engine's choices, shown by their display names. */
export function SelectField({ value, onChange, choices, ...field }: SelectProps) {
  const id = fieldId(field.name, field.id);
  return (
    <Field {...field}>
      <select id={id} value={value} aria-invalid={Boolean(field.messages?.length)}
        aria-describedby={field.hint ? `help-${id}` : undefined} onChange={(e) => onChange(e.target.value)}>
        {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
      </select>
    </Field>
  );
}

interface InlineProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  size?: number;
}

/** A short text box in a row of them (a panel's fields above its answer), labelled beside it. */
export function InlineInput({ id, label, value, onChange, placeholder, size }: InlineProps) {
  return (
    <div className="field inline">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} size={size} />
    </div>
  );
}

interface InlineSelectProps<V extends string | number> {
  id: string;
  label: string;
  value: V;
  onChange: (value: V) => void;
  /** Each choice's value and the words shown for it. */
  options: readonly (readonly [V, string])[];
}

/** A short list of choices in a row of fields, labelled beside it; it answers the chosen value as typed. */
export function InlineSelect<V extends string | number>({ id, label, value, onChange, options }: InlineSelectProps<V>) {
  const chosen = (text: string) => options.find(([v]) => String(v) === text)?.[0] ?? value;
  return (
    <div className="field inline">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(chosen(e.target.value))}>
        {options.map(([v, words]) => <option key={v} value={v}>{words}</option>)}
      </select>
    </div>
  );
}

/** The engine's problems by field, each message once; `rename` maps an engine field onto a form's own. */
export function problemsByField(problems: FieldProblem[], rename: Record<string, string> = {}): Map<string, string[]> {
  const byField = new Map<string, string[]>();
  for (const p of problems) {
    const key = rename[p.field] ?? p.field;
    const list = byField.get(key) ?? [];
    if (!list.includes(p.message)) list.push(p.message);
    byField.set(key, list);
  }
  return byField;
}

/** Problems of fields a form does not show (a preset, repeats), each named as a person reads it. */
export function unplaced(problems: FieldProblem[], shown: readonly string[]): string[] {
  return [...new Set(problems.filter((p) => !shown.includes(p.field)).map((p) => `${p.label}: ${p.message}`))];
}

/** The engine's field rules (engine.info): its lists, with display names, and each field's range. */
export function useFieldRules(): Record<string, FieldRule> {
  return useEngineQuery('engine.info', {}).data?.field_rules ?? NO_RULES;
}
