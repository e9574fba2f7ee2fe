import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SustainResult } from '../api';
import { formatBytes, formatMbPerS } from '../lib/units';
import { fakeEngine } from '../test/fake-engine';
import { renderWith } from '../test/render';
import recordedCliff from '../test/sustain-cliff.json';
import recordedFlat from '../test/sustain-flat.json';
import { byteAxis, phaseBands } from './SustainChart';
import { SustainReport } from './SustainReport';

// The engine's answers (scripts/gen_sustain_fixtures.py): a real fill on this machine's disk (no
// cliff), and a real fill whose writes the kernel throttled after 1.5 GiB, as a drive's cache
// runs out, and let run fast again while idle (a cliff, and recovery).
const cliff = recordedCliff as SustainResult;
const flat = recordedFlat as SustainResult;

const show = (result: SustainResult) => {
  const fake = fakeEngine({
    'sustain.report': () => ({ pdf_base64: 'JVBERg==', filename: `ssdprof-sustain-${result.id}.pdf`,
      bytes: 4, runs: 1 }),
  });
  renderWith(fake.engine, <SustainReport result={result} />);
  return fake;
};
const rowOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('row', { name: new RegExp(`^${name}`) });

describe('SustainReport', () => {
  it("says the cliff in the engine's words: cache, speeds, their ratio, confidence", () => {
    show(cliff);
    const v = cliff.verdict;
    const verdict = screen.getByTestId('sustain-verdict');
    expect(verdict.textContent).toContain(v.sentence);
    expect(verdict.querySelector('[data-kind]')?.getAttribute('data-kind')).toBe('cliff');
    const cliffRows = screen.getByTestId('sustain-cliff').textContent;
    const bytes = v.cache_bytes!.toLocaleString('en-US');
    expect(cliffRows).toContain(`${formatBytes(v.cache_bytes)} (${bytes} bytes)`);
    expect(cliffRows).toContain(`speed before${formatMbPerS(v.before_bw_bytes_per_s)}`);
    expect(cliffRows).toContain(`speed after${formatMbPerS(v.after_bw_bytes_per_s)}`);
    expect(cliffRows).toContain(`${v.ratio!.toFixed(2)} ×`);
    expect(cliffRows).toContain(`${v.confidence_words} (${v.confidence!.toFixed(2)})`);
  });

  it('reports a drive without a cliff as such, with no cache size or ratio invented', () => {
    show(flat);
    expect(flat.verdict.kind).toBe('no_cliff');
    expect(screen.getByTestId('sustain-verdict').textContent).toContain(flat.verdict.sentence);
    expect(screen.queryByText('written before the drop (cache)')).toBeNull();
    expect(screen.queryByText('before / after')).toBeNull();
  });

  it('names thermal throttling when the engine says the drop is throttling, not a cache', () => {
    const throttled: SustainResult = {
      ...cliff,
      verdict: { ...cliff.verdict, kind: 'throttling', cache_bytes: null },
      throttle: { throttled_s: 42, transitions: 3, temperature_max_c: 81, warning_temp_c: 75,
        hot_from_s: 30, overlaps_drop: true,
        text: 'the drive throttled for 42 s (3 transitions) from second 30, at up to 81 °C' },
    };
    show(throttled);
    expect(screen.getByTestId('sustain-throttle').textContent).toContain(throttled.throttle!.text);
  });

  it('draws the fill against the bytes written, each second as the engine sent it', () => {
    show(cliff);
    const table = within(document.querySelector('[data-chart="sustain-fill"]')!).getByRole('table');
    const axis = byteAxis(Math.max(...cliff.samples.map((s) => s.bytes_written)));
    const drawn = within(table).getAllByRole('row').slice(1)
      .filter((r) => r.textContent?.startsWith('each second'));
    expect(drawn).toHaveLength(cliff.samples.length);
    const first = cliff.samples[0]!;
    expect(Number(drawn[0]!.getAttribute('data-x')))
      .toBeCloseTo(first.bytes_written / axis.factor, 9);
    expect(Number(drawn[0]!.getAttribute('data-y'))).toBeCloseTo(first.bw_bytes_per_s / 1e6, 6);
  });

  it("shades and names each phase where the engine placed it, on the chart's bytes axis", () => {
    const axis = byteAxis(Math.max(...cliff.samples.map((s) => s.bytes_written)));
    const bands = phaseBands(cliff.phases, axis);
    expect(bands).toHaveLength(cliff.phases.length);
    cliff.phases.forEach((p, i) => {
      expect(bands[i]!.from).toBeCloseTo(p.start_bytes / axis.factor, 9);
      expect(bands[i]!.to).toBeCloseTo((p.start_bytes + p.bytes_written) / axis.factor, 9);
      expect(bands[i]!.label).toBe(`${p.name}: ${formatMbPerS(p.bw_bytes_per_s)}`);
    });
  });

  it('lists the phases with their bytes, time, speed and latency', () => {
    show(cliff);
    const table = screen.getByTestId('sustain-phases');
    for (const p of cliff.phases) {
      const row = rowOf(table, `${p.index + 1} ${p.name}`);
      expect(row.textContent).toContain(formatBytes(p.bytes_written));
      const speed = `${formatMbPerS(p.bw_bytes_per_s)} ± ${formatMbPerS(p.bw_sd_bytes_per_s)}`;
      expect(row.textContent).toContain(speed);
    }
  });

  it('tabulates recovery against idle time: recovered bytes, share of the cache and speed', () => {
    show(cliff);
    const table = screen.getByTestId('sustain-recovery');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(cliff.recovery.length);
    cliff.recovery.forEach((r, i) => {
      const text = rows[i]!.textContent;
      expect(text).toContain(r.status);
      if (r.recovered_bytes !== null) expect(text).toContain(formatBytes(r.recovered_bytes));
      if (r.recovered_pct !== null) expect(text).toContain(`${r.recovered_pct.toFixed(0)} %`);
      if (r.fast_bw_bytes_per_s !== null) {
        expect(text).toContain(formatMbPerS(r.fast_bw_bytes_per_s));
      }
    });
  });

  it("exports the test's PDF page through the engine", async () => {
    const fake = show(cliff);
    await userEvent.click(screen.getByRole('button', { name: 'Export PDF' }));
    await waitFor(() => expect(fake.saved).toEqual([`ssdprof-sustain-${cliff.id}.pdf`]));
    expect(fake.calls.find((c) => c.method === 'sustain.report')?.params)
      .toEqual({ sustain_id: cliff.id, title: null });
  });
});
