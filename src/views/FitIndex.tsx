// Many fitted series (a study's: one per pattern, jobs and node count, 48 or more) as one table, a
// page at a time, each row showing the engine's figures for a series and a button to draw it; the
// chosen series is drawn below in full. A few series are drawn each in full, with no table.
import type { ReactNode } from 'react';
import { Pager, pageOf } from './Pager';

/** Up to this many fits are drawn each in full; beyond, the table and one drawn. */
export const DRAWN_IN_FULL = 3;
const ROWS_PER_PAGE = 12;

export interface FitRow {
  label: string;
  cells: ReactNode[];
}

export interface FitIndexProps {
  /** What the rows are, for the words ('series', 'settings'), and the first column's name. */
  what: string;
  column: string;
  headers: string[];
  rows: FitRow[];
  shown: number;
  onShow: (index: number) => void;
  page: number;
  onPage: (page: number) => void;
  testId: string;
}

export function FitIndex({ what, column, headers, rows, shown, onShow, page, onPage, testId }: FitIndexProps) {
  const paged = pageOf(rows.map((row, index) => ({ row, index })), page, ROWS_PER_PAGE);
  return (
    <>
      <table className="data" data-testid={testId}>
        <caption>
          {rows.length} {what} fitted: the figures of each; Draw shows one in full below
        </caption>
        <thead><tr><th>{column}</th>{headers.map((h) => <th key={h}>{h}</th>)}<th /></tr></thead>
        <tbody>
          {paged.rows.map(({ row, index }) => (
            <tr key={index} aria-current={index === shown ? 'true' : undefined} className={index === shown ? 'current' : undefined}>
              <td>{row.label}</td>
              {row.cells.map((cell, i) => <td key={i}>{cell}</td>)}
              <td>
                {index === shown ? <span className="hint">drawn below</span>
                  : <button type="button" onClick={() => onShow(index)}>Draw</button>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager what={what} page={paged} onPage={onPage} />
    </>
  );
}

/** Which fits to draw in full: all of a few, else the one chosen (kept in range). */
export function drawnFits<T>(fits: T[], shown: number): { fit: T; index: number }[] {
  if (fits.length <= DRAWN_IN_FULL) return fits.map((fit, index) => ({ fit, index }));
  const index = Math.min(Math.max(0, shown), fits.length - 1);
  return [{ fit: fits[index]!, index }];
}
