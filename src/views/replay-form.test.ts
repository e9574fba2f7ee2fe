import { describe, expect, it } from 'vitest';
import { INITIAL_REPLAY, replayRequest } from './replay-form';

describe('the replay form as the engine is asked', () => {
  it('asks nothing until a trace is named', () => {
    expect(replayRequest(INITIAL_REPLAY)).toBeNull();
  });

  it('sends numbers typed as numbers, lists split at commas, and blanks as the engine\'s defaults', () => {
    const asked = replayRequest({ ...INITIAL_REPLAY, trace: ' /t/hm_1.csv ', disks: '0, 1', start_s: '60', end_s: '',
      lanes: '32', repeats: '', target: '' });
    expect(asked).toMatchObject({ trace: '/t/hm_1.csv', selection: { hosts: [], disks: ['0', '1'], start_s: 60 },
      lanes: 32, target: null, format: null, engine: null });
    expect(asked).not.toHaveProperty('repeats');
    expect(asked!.selection).not.toHaveProperty('end_s');
  });

  it('sends what is no number as typed, for the engine to name', () => {
    expect(replayRequest({ ...INITIAL_REPLAY, trace: 't', lanes: 'lots' })).toMatchObject({ lanes: 'lots' });
  });
});
