import { describe, expect, it } from 'vitest';
import { fullRun, studentRuns } from '../test/fixtures';
import { activeDirections } from './analysis';

describe('activeDirections', () => {
  it('names both directions of a mixed run and one of a pure one', () => {
    expect(activeDirections(fullRun)).toEqual(['read', 'write']);
    expect(activeDirections(studentRuns[0]!)).toEqual(['read']);
  });
});
