// One colour and line scheme for every chart. The colours are styles.css's --chart-1..8 (light and
// dark); the PDF draws in the same light colours (engine/ssdprof/report/figure.py, PALETTE; a test
// there reads this file's FALLBACK). A setting keeps one colour; its statistics differ by dash,
// as in the PDF: mean and p50 solid, p99 dashed, p99.9 dotted.

export const FALLBACK = [
  '#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777',
];

export type Dash = 'solid' | 'dashed' | 'dotted';

export const DASH_PATTERN: Record<Dash, number[] | undefined> = {
  solid: undefined, dashed: [6, 4], dotted: [2, 3],
};

export function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** The palette as the page's theme sets it. */
export function paletteColours(): string[] {
  return FALLBACK.map((colour, i) => cssVar(`--chart-${i + 1}`, colour));
}

/** Colour `index` of `count` when the palette is too short (16 hosts): hues spread evenly round
 * the wheel, so no two repeat. */
export function spreadColour(index: number, count: number): string {
  return `hsl(${Math.round((index * 360) / Math.max(count, 1))} 70% 42%)`;
}

/** One colour per distinct key, in first-seen order (series of one setting share theirs). */
export function coloursByKey(keys: readonly string[], palette: readonly string[]): string[] {
  const distinct = [...new Set(keys)];
  const colourOf = new Map(distinct.map((key, i) => [key, distinct.length > palette.length
    ? spreadColour(i, distinct.length) : palette[i]!]));
  return keys.map((key) => colourOf.get(key)!);
}
