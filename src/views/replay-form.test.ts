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

describe('a replay on SSH hosts as the engine is asked', () => {
  it('sends the hosts, how they share the trace and their folder, and no local target or engine', () => {
    const asked = replayRequest({ ...INITIAL_REPLAY, trace: 't.csv', target: '/mnt/local', engine: 'portable',
      hosts: ['h1', 'h2'], hosts_mode: 'split', remote_dir: ' /srv/ssd ', remote_device: '' });
    expect(asked).toMatchObject({ hosts: ['h1', 'h2'], hosts_mode: 'split', remote_dir: '/srv/ssd', target: null,
      engine: null });
    expect(asked).not.toHaveProperty('remote_devices');
  });

  it('names the one device for every ticked host', () => {
    const asked = replayRequest({ ...INITIAL_REPLAY, trace: 't.csv', hosts: ['h1', 'h2'], remote_device: '/dev/vdb' });
    expect(asked).toMatchObject({ hosts_mode: 'whole', remote_devices: { h1: '/dev/vdb', h2: '/dev/vdb' } });
  });

  it('sends nothing of hosts when none is ticked', () => {
    const asked = replayRequest({ ...INITIAL_REPLAY, trace: 't.csv', remote_dir: '/srv/ssd' });
    expect(asked).not.toHaveProperty('hosts');
    expect(asked).not.toHaveProperty('remote_dir');
  });
});
