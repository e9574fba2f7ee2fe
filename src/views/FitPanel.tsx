// What every fitting panel (Predict, Scale-out) shows the same way: its row of fields with the button
// that asks, what was wrong, and the answer — the split advice, the index of many fits, the fits drawn.
import { Fragment, type ReactNode } from 'react';
import type { SplitInfo } from '../api';
import { FitIndex, drawnFits, type FitIndexProps, type FitRow } from './FitIndex';
import { SplitAdvice } from './SplitAdvice';

interface FieldsProps {
  children: ReactNode;
  /** The button's words, and what it asks. */
  label: string;
  onAsk: () => void;
  busy: boolean;
  /** What was typed wrong or what the engine refused ('' nothing). */
  problem: string;
}

export function FitFields({ children, label, onAsk, busy, problem }: FieldsProps) {
  return (
    <>
      <div className="field-row">
        {children}
        <button type="button" disabled={busy} onClick={onAsk}>{busy ? 'Fitting…' : label}</button>
      </div>
      {problem && <p role="alert" className="error">{problem}</p>}
    </>
  );
}

interface AnswerProps<T> {
  /** The engine's answer: the splits it found, and the split fitted apart. */
  answer: { splits: SplitInfo[]; split_by: string; split_name: string };
  fits: T[];
  /** The index table's words and headers, and each fit's row in it. */
  index: Pick<FitIndexProps, 'what' | 'column' | 'headers' | 'testId'> & { row: (fit: T) => FitRow };
  /** The fit drawn and the index's page, as the form keeps them. */
  view: { shown: number; page: number };
  onView: (change: { shown: number } | { page: number }) => void;
  busy: boolean;
  onSplit: (key: string) => void;
  draw: (fit: T, index: number) => ReactNode;
}

/** A fitting answer (analysis.predict, analysis.scaling): the split advice, the index of its fits when
 *  there are many, and the fits drawn. */
export function FitAnswer<T>({ answer, fits, index: { row, ...words }, view, onView, busy, onSplit, draw }: AnswerProps<T>) {
  return (
    <>
      <SplitAdvice splits={answer.splits} splitBy={answer.split_by} splitName={answer.split_name} busy={busy} onSplit={onSplit} />
      {fits.length > 1 && (
        <FitIndex {...words} rows={fits.map(row)} shown={view.shown} onShow={(shown) => onView({ shown })}
          page={view.page} onPage={(page) => onView({ page })} />
      )}
      {drawnFits(fits, view.shown).map(({ fit, index }) => <Fragment key={index}>{draw(fit, index)}</Fragment>)}
    </>
  );
}
