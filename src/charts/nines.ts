// A latency distribution drawn as the PDF draws it (report/timecharts.percentile_chart): the
// percentile across on a 'nines' scale (0, 90, 99, 99.9, 99.99: one step per nine, so the tail
// gets as much room as the body), the latency up the side. The series keep their points as given
// (x: latency, y: percentile), so the accessible table lists them as before.
import type { Point } from './ChartFigure';

/** Percentiles past this many nines are drawn at it (the PDF's 1e-7 floor). */
const MOST_NINES = 7;

/** A percentile (0-100) as a number of nines: 90 -> 1, 99 -> 2, 99.9 -> 3. */
export function ninesOf(percentile: number): number {
  return Math.min(-Math.log10(Math.max(1 - percentile / 100, 0)), MOST_NINES);
}

/** The percentile at a number of nines, as a tick says it: 0, 90, 99, 99.9. */
export function ninesLabel(nines: number): string {
  return String(Number((100 * (1 - 10 ** -nines)).toPrecision(10)));
}

/** A cumulative distribution's points (x: latency, y: % of I/Os at or below it) as drawn: x the
 *  nines, y the latency, from 0 % at the first bucket's latency. Drawn stepped, each bucket's
 *  latency holds from the share below it to its own, fio's rule as the PDF draws it. The last
 *  bucket reaches 100 %, no number of nines: it is drawn half its share further than the one before
 *  (where the PDF's ends when that bucket holds one I/O). */
export function ninesPoints(points: readonly Point[]): { x: number; y: number | null }[] {
  const drawn: { x: number; y: number | null }[] = [];
  let below = 0;
  for (const p of points) {
    if (p.y === null) continue;
    const share = p.y >= 100 ? below + (100 - below) / 2 : p.y;
    if (drawn.length === 0) drawn.push({ x: 0, y: p.x });
    drawn.push({ x: ninesOf(share), y: p.x });
    below = p.y;
  }
  return drawn;
}

interface Theme { fg: string; grid: string }

/** The nines axis: a tick per nine, labelled by its percentile, from 0 %. */
export function ninesScale(title: string, theme: Theme) {
  return {
    type: 'linear' as const, min: 0, title: { display: true, text: title, color: theme.fg },
    grid: { color: theme.grid },
    ticks: { color: theme.fg, maxRotation: 0, stepSize: 1, callback: (v: number | string) => ninesLabel(Number(v)) },
  };
}

/** A hovered point said as read: '400 µs at 99.9' (the x axis holds nines, not the percentile). */
export function ninesTooltip(xLabel: string, format: (latency: number) => string) {
  return { callbacks: { label: (item: { dataset: { label?: string }; parsed: { x: number | null; y: number | null } }) =>
    `${item.dataset.label ?? ''}: ${xLabel} ${format(item.parsed.y ?? 0)} at ${ninesLabel(item.parsed.x ?? 0)} %` } };
}
