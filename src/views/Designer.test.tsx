import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { FieldProblem, SweepEstimate, SweepRequest, ValidateParams } from '../api';
import { RpcReplyError, fakeEngine, invalidParams } from '../test/fake-engine';
import { defaults, info } from '../test/fixtures';
import { renderWith } from '../test/render';
import { Designer } from './Designer';

const problem = { field: 'queue_depth', flag: '--qd', label: 'queue depth', message: '0 is out of range; allowed 1–4096, e.g. 32' };

function engineFor() {
  return fakeEngine({
    'presets.list': () => ({ presets: [{ name: 'student', description: 'one factor at a time', points: 10 }, { name: 'quick', description: 'CDM', points: 8 }] }),
    'workload.validate': (p: ValidateParams) => (p.workload.queue_depth === '0'
      ? { ok: false, problems: [problem], workload: null, label: '', duration_s: 0 }
      : { ok: true, problems: [], workload: defaults, label: 'randread 4KiB QD1 T1', duration_s: 12 }),
    'sweep.estimate': (p: SweepRequest) => ({ name: 'x', points: [], repeats: 1, total_points: p.preset ? 10 : 1, estimated_s: p.preset ? 13 : 12.3, layout_bytes: 0, device: null, overwrite_bytes: 0, region: '', cool_down: '' }),
    'sweep.start': () => ({ kind: 'sweep_started', sweep_id: 1, name: 'student', count: { done: 0, total: 10, bound: 'exact' as const, unit: 'point' as const, note: '', text: '' }, estimated_s: 13, engine: 'fio', engine_reason: 'fio found' }),
  });
}

describe('Designer', () => {
  it('shows the engine message next to a bad field and will not start', async () => {
    const fake = engineFor();
    const onStarted = vi.fn();
    renderWith(fake.engine, <Designer info={info} running={false} onStarted={onStarted} />);
    const qd = screen.getByLabelText('Queue depth');
    await userEvent.clear(qd);
    await userEvent.type(qd, '0');
    expect(await screen.findByText(problem.message)).toBeDefined();
    expect(qd.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Start' }).disabled).toBe(true);
    expect(fake.calls.some((c) => c.method === 'sweep.start')).toBe(false);
  });

  it('starts the chosen preset with the typed runtime and shows the estimate first', async () => {
    const fake = engineFor();
    const onStarted = vi.fn();
    renderWith(fake.engine, <Designer info={info} running={false} onStarted={onStarted} />);
    await userEvent.clear(screen.getByLabelText('Runtime'));
    await userEvent.type(screen.getByLabelText('Runtime'), '1s');
    await userEvent.click(screen.getByLabelText('a preset'));
    // settled only once the engine has checked the form as it now stands (the e2e specs wait for it)
    const section = screen.getByRole('region', { name: 'Design a measurement' });
    expect(section.dataset.settled).toBe('false');
    expect(await screen.findByText(/10 points, estimated/)).toBeDefined();
    await waitFor(() => expect(section.dataset.settled).toBe('true'));
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    const start = fake.calls.find((c) => c.method === 'sweep.start')!.params as SweepRequest;
    expect(start.preset).toBe('student');
    expect(start.base?.runtime_s).toBe('1s');
  });

  it('picks a block device over all of it and confirms a write in a dialog naming it, its model and size', async () => {
    const loop = { path: '/dev/loop3', description: '/dev/loop3 (loop device over /var/tmp/d.img on vda, 64MiB)', model: 'QEMU HARDDISK',
      size_bytes: 64 << 20, kind: 'loop', stack: ['loop3: loop device over /var/tmp/d.img', 'vda: disk, holding the data'], in_use: [], ram: '' };
    const writes = (p: SweepRequest) => String(p.base?.pattern ?? '').includes('write');
    const fake = fakeEngine({
      'presets.list': () => ({ presets: [] }),
      'devices.list': () => ({ devices: [loop] }),
      'workload.validate': (p: ValidateParams) => (String(p.workload.pattern).includes('write') && !p.workload.allow_overwrite
        ? { ok: false, problems: [{ field: 'allow_overwrite', flag: '--allow-overwrite', label: 'allow overwrite', message: 'writing destroys 64MiB' }], workload: null, label: '', duration_s: 0 }
        : { ok: true, problems: [], workload: defaults, label: 'x', duration_s: 12 }),
      'sweep.estimate': (p: SweepRequest) => ({ name: 'run', points: [], repeats: 1, total_points: 1, estimated_s: 12, layout_bytes: 0,
        device: p.base?.target === loop.path ? loop : null, overwrite_bytes: writes(p) ? 64 << 20 : 0,
        region: writes(p) ? 'target /dev/loop3 (…): OVERWRITES 64MiB (67108864 bytes) from offset 0; the data there is destroyed' : '',
        cool_down: '' }),
      'sweep.start': () => ({ kind: 'sweep_started', sweep_id: 1, name: 'run', count: { done: 0, total: 1, bound: 'exact' as const, unit: 'point' as const, note: '', text: '' }, estimated_s: 12, engine: 'fio', engine_reason: '' }),
    });
    const onStarted = vi.fn();
    renderWith(fake.engine, <Designer info={info} running={false} onStarted={onStarted} />);
    await userEvent.selectOptions(await screen.findByLabelText('Block device'), loop.path);
    expect(screen.getByLabelText<HTMLInputElement>('Target').value).toBe('/dev/loop3');
    expect(screen.getByLabelText<HTMLInputElement>('Test size').value).toBe('64m');
    await userEvent.selectOptions(screen.getByLabelText('Pattern'), 'randwrite');
    expect(await screen.findByTestId('device-region')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('/dev/loop3');
    expect(screen.getByTestId('overwrite-model').textContent).toBe('QEMU HARDDISK');
    expect(screen.getByTestId('overwrite-size').textContent).toBe(`${64 << 20} bytes`);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.method === 'sweep.start')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Overwrite /dev/loop3' }));
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    const start = fake.calls.find((c) => c.method === 'sweep.start')!.params as SweepRequest;
    expect(start.base?.allow_overwrite).toBe(true);
    expect(start.base?.target).toBe('/dev/loop3');
  });

  it('says which engine auto will use and why', () => {
    renderWith(engineFor().engine, <Designer info={info} running={false} onStarted={vi.fn()} />);
    expect(screen.getByText('auto chooses fio: fio-3.33 at /usr/bin/fio')).toBeDefined();
  });
});

/** A Designer whose every workload is valid and whose estimate refuses the field `refused` names (else
 *  answers one point of 12 s, changed by `estimate`). */
function estimating(refused: (p: SweepRequest) => FieldProblem | null, estimate: (p: SweepRequest) => Partial<SweepEstimate>) {
  const fake = fakeEngine({
    'presets.list': () => ({ presets: [] }),
    'workload.validate': () => ({ ok: true, problems: [], workload: defaults, label: 'x', duration_s: 12 }),
    'sweep.estimate': (p: SweepRequest) => {
      const problem = refused(p);
      if (problem) throw invalidParams([problem]);
      return { name: 'x', points: [], repeats: 1, total_points: 1, estimated_s: 12, layout_bytes: 0, device: null, overwrite_bytes: 0, region: '',
        cool_down: '', ...estimate(p) };
    },
  });
  renderWith(fake.engine, <Designer info={info} running={false} onStarted={vi.fn()} />);
  return fake;
}

describe('Designer with several bad fields', () => {
  it('shows every field the engine named at once, each beside its field, and the unknown engine choice from the list', async () => {
    const found = [
      { field: 'block_size_bytes', flag: '--bs', label: 'access size', message: "'4kk' has an unknown size unit; allowed 512B to 64MiB, e.g. 4k" },
      { field: 'queue_depth', flag: '--qd', label: 'queue depth', message: '0 is out of range; allowed 1–4096, e.g. 32' },
      { field: 'target', flag: '--target', label: 'target', message: "'/nowhere' does not exist; give an existing directory, file or block device" },
    ];
    const fake = fakeEngine({
      'presets.list': () => ({ presets: [] }),
      'workload.validate': () => ({ ok: false, problems: found, workload: null, label: '', duration_s: 0 }),
      'sweep.estimate': () => { throw new RpcReplyError({ code: -32602, message: 'bad', data: { problems: found.slice(0, 2) } }); },
    });
    renderWith(fake.engine, <Designer info={info} running={false} onStarted={vi.fn()} />);
    for (const p of found) {
      expect((await screen.findByText(p.message)).getAttribute('data-field')).toBe(p.field);
    }
    expect(screen.getAllByRole('alert')).toHaveLength(3);
    expect(screen.getByLabelText('Access size').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Target').getAttribute('aria-invalid')).toBe('true');
    const engines = [...screen.getByLabelText<HTMLSelectElement>('Engine').options].map((o) => [o.value, o.text]);
    expect(engines).toEqual((info.field_rules.engine?.choices ?? []).map((c) => [c.value, c.label]));
  });

  it('sends the tags as typed, so the engine names a bad one in its own words', async () => {
    const tagProblem = { field: 'tags', flag: '--tag', label: 'tags', message: "'=SATA' has no key; allowed key=value, e.g. interface=SATA" };
    estimating((p) => (p.tags === '=SATA' ? tagProblem : null), () => ({}));
    await userEvent.type(screen.getByLabelText('Tags'), '=SATA');
    expect((await screen.findByText(tagProblem.message)).getAttribute('data-field')).toBe('tags');
  });

  it('sends the cool-down as typed, shows what it adds to the estimate, and a bad value beside its field', async () => {
    const coolProblem = { field: 'cool_to_c', flag: '--cool-to', label: 'cool down to', message: '5 is out of range; allowed 20–100 °C, e.g. 45' };
    const fake = estimating((p) => (p.cool_down?.cool_to_c === '5' ? coolProblem : null), (p) => ({ repeats: 3, total_points: 3, estimated_s: 36,
      cool_down: p.cool_down ? 'plus up to 300 s before each of the 2 point(s) after the first while the drive cools to 45 °C (up to 10m00s more)' : '' }));
    const coolTo = screen.getByLabelText('Cool down to (°C)');
    await userEvent.type(coolTo, '5');
    expect((await screen.findByText(coolProblem.message)).getAttribute('data-field')).toBe('cool_to_c');
    expect(coolTo.getAttribute('aria-invalid')).toBe('true');
    await userEvent.clear(coolTo);
    await userEvent.type(coolTo, '45');
    await userEvent.type(screen.getByLabelText('Wait at most'), '5m');
    expect((await screen.findByTestId('cool-down-estimate')).textContent).toContain('plus up to 300 s before each of the 2 point(s)');
    const asked = fake.calls.filter((c) => c.method === 'sweep.estimate').at(-1)!.params as SweepRequest;
    expect(asked.cool_down).toEqual({ cool_to_c: '45', cool_max_s: '5m' });
  });

  it('sends no cool-down when its fields are empty', async () => {
    const fake = engineFor();
    renderWith(fake.engine, <Designer info={info} running={false} onStarted={vi.fn()} />);
    await screen.findByText(/1 point, estimated/);
    const asked = fake.calls.filter((c) => c.method === 'sweep.estimate').at(-1)!.params as SweepRequest;
    expect(asked.cool_down).toBeUndefined();
    expect(screen.queryByTestId('cool-down-estimate')).toBeNull();
  });
});
