// One form field: its label, the input, the engine's messages for it, and a hint.
import type { ReactNode } from 'react';

export function Field(props: { name: string; label: string; hint?: string; messages?: string[]; children: ReactNode }) {
  return (
    <div className={`field${props.messages ? ' invalid' : ''}`}>
      {props.label && <label htmlFor={`field-${props.name}`}>{props.label}</label>}
      {props.children}
      {props.messages?.map((m) => <p key={m} className="problem" role="alert" data-field={props.name}>{m}</p>)}
      {props.hint && <p id={`help-${props.name}`} className="hint">{props.hint}</p>}
    </div>
  );
}
