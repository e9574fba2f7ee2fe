// A long list shown a page at a time (a study's settings, its fitted series): which rows, and the
// controls to move between pages. The page is the caller's state, so a view can keep it.

export interface PageOf<T> {
  rows: T[];
  /** The first row's position (0-based) and the page's size. */
  from: number;
  size: number;
  total: number;
}

/** The page `page` (0-based, clamped to the last) of `all`. */
export function pageOf<T>(all: T[], page: number, size: number): PageOf<T> & { page: number } {
  const last = Math.max(0, Math.ceil(all.length / size) - 1);
  const shown = Math.min(Math.max(0, page), last);
  return { rows: all.slice(shown * size, shown * size + size), from: shown * size, size, total: all.length, page: shown };
}

interface Props {
  /** What the rows are, for the words: 'settings', 'series'. */
  what: string;
  page: PageOf<unknown> & { page: number };
  onPage: (page: number) => void;
  testId?: string;
}

export function Pager({ what, page, onPage, testId }: Props) {
  if (page.total <= page.size) return null;
  const last = Math.ceil(page.total / page.size) - 1;
  const to = Math.min(page.total, page.from + page.size);
  return (
    <div className="pager" role="group" aria-label={`pages of ${what}`} data-testid={testId}>
      <button type="button" disabled={page.page === 0} onClick={() => onPage(page.page - 1)}>‹ Previous</button>
      <span role="status">
        {what} {(page.from + 1).toLocaleString('en-US')}–{to.toLocaleString('en-US')} of {page.total.toLocaleString('en-US')}
      </span>
      <button type="button" disabled={page.page >= last} onClick={() => onPage(page.page + 1)}>Next ›</button>
    </div>
  );
}
