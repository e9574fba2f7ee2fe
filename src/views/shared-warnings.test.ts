import { describe, expect, it } from 'vitest';
import type { RunResult, ValidityWarning } from '../api';
import { ownWarnings, sharedWarnings } from './shared-warnings';

const warning = (code: string, message: string): ValidityWarning =>
  ({ code, message, severity: 'info', concerns: [] });
const run = (...warnings: ValidityWarning[]): RunResult => ({ warnings }) as unknown as RunResult;
const noSmart = warning('drive_word_missing', '/dev/vda reports no SMART');

describe('warnings every run carries', () => {
  it('are said once, and left out of each run', () => {
    const short = warning('short_run', 'under 10 s');
    const runs = [run(noSmart, short), run(noSmart)];
    expect(sharedWarnings(runs)).toEqual([noSmart]);
    expect(ownWarnings(runs[0]!, sharedWarnings(runs))).toEqual([short]);
  });

  it('are not taken from a table of one run, whose row says them', () => {
    expect(sharedWarnings([run(noSmart)])).toEqual([]);
  });

  it('need the same message, not only the same code', () => {
    const other = warning('drive_word_missing', '/dev/vdb reports no SMART');
    expect(sharedWarnings([run(noSmart), run(other)])).toEqual([]);
  });
});
