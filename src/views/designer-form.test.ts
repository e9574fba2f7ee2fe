import { describe, expect, it } from 'vitest';
import { defaults, info } from '../test/fixtures';
import { formFromWorkload, initialSweep, sweepRequest, workloadInput } from './designer-form';

const rules = info.field_rules;

describe('designer form', () => {
  it('shows the engine defaults as a person would type them', () => {
    expect(formFromWorkload(defaults)).toMatchObject({ block_size_bytes: '4k', size_bytes: '256m', runtime_s: '10s' });
  });

  it('sends the read share only for mixed patterns', () => {
    const form = { ...formFromWorkload(defaults), read_pct: '70' };
    expect(workloadInput(form, rules).read_pct).toBeUndefined();
    expect(workloadInput({ ...form, pattern: 'randrw' }, rules).read_pct).toBe('70');
  });

  it('leaves empty fields to the engine defaults', () => {
    const blankTarget = { ...formFromWorkload(defaults), target: '  ' };
    expect(workloadInput(blankTarget, rules).target).toBeUndefined();
  });

  it('builds a factor sweep from comma-separated values', () => {
    const params = sweepRequest(formFromWorkload(defaults), {
      ...initialSweep, kind: 'custom', repeats: '3',
      factors: [{ field: 'queue_depth', values: '1, 8 ,32' }],
    }, rules);
    expect(params.factors).toEqual({ queue_depth: ['1', '8', '32'] });
    expect(params.repeats).toBe(3);
    expect(params.preset).toBeUndefined();
  });

  it('sends tags and repeats as typed, for the engine to read by its one rule', () => {
    const params = sweepRequest(formFromWorkload(defaults),
      { ...initialSweep, tags: 'interface=SATA =x', repeats: '0' }, rules);
    expect([params.tags, params.repeats]).toEqual(['interface=SATA =x', 0]);
  });
});

describe('sweepRequest with hosts', () => {
  it('runs on the ticked hosts with their folder and RBD image, and locally when none is ticked', () => {
    const form = formFromWorkload(defaults);
    const remote = sweepRequest(form,
      { ...initialSweep, hosts: ['h1', 'h2'], remoteDir: ' /srv/ssd ', rbd: 'rbd/img-{host}' },
      rules);
    expect([remote.hosts, remote.remote_dir, remote.rbd]).toEqual([['h1', 'h2'], '/srv/ssd', 'rbd/img-{host}']);
    const local = sweepRequest(form, { ...initialSweep, remoteDir: '/srv/ssd' }, rules);
    expect([local.hosts, local.remote_dir]).toEqual([undefined, undefined]);
  });

  it('measures the same block device on every ticked host', () => {
    const params = sweepRequest(formFromWorkload(defaults),
      { ...initialSweep, hosts: ['h1', 'h2'], remoteDevice: ' /dev/nvme1n1 ' }, rules);
    expect(params.remote_devices).toEqual({ h1: '/dev/nvme1n1', h2: '/dev/nvme1n1' });
    const local = { ...initialSweep, remoteDevice: '/dev/sdb' };
    expect(sweepRequest(formFromWorkload(defaults), local, rules).remote_devices).toBeUndefined();
  });
});
