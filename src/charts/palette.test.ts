import { describe, expect, it } from 'vitest';
import { coloursByKey, FALLBACK } from './palette';

describe('palette', () => {
  it('draws the series of one setting in one colour, in the order settings first appear', () => {
    const keys = ['randread 4KiB T1', 'randread 4KiB T1', 'randread 4KiB T1 (earlier)'];
    expect(coloursByKey(keys, FALLBACK)).toEqual([FALLBACK[0], FALLBACK[0], FALLBACK[1]]);
  });

  it('spreads more settings than the palette holds round the colour wheel, none repeated', () => {
    const keys = Array.from({ length: FALLBACK.length + 4 }, (_, i) => `host ${i}`);
    const colours = coloursByKey(keys, FALLBACK);
    expect(new Set(colours).size).toBe(keys.length);
    expect(colours.every((c) => c.startsWith('hsl('))).toBe(true);
  });
});
