import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SpecSaveParams } from '../api';
import { RpcReplyError, fakeEngine } from '../test/fake-engine';
import { evoPlus, specChoices } from '../test/fixtures';
import { renderWith } from '../test/render';
import { Specs } from './Specs';

const list = () => ({
  specs: [evoPlus], problems: [], user_spec_ids: [], choices: specChoices,
  user_spec_dir: '/home/student/.local/share/ssdprof/specs',
});

describe('Specs', () => {
  it('adds a new sheet with numbers and sizes as typed (the engine reads them), and keeps the form when the engine refuses a field', async () => {
    let refuse = true;
    const saved: SpecSaveParams[] = [];
    const fake = fakeEngine({
      'specs.list': list,
      'specs.save': (p) => {
        if (refuse) {
          refuse = false;
          throw new RpcReplyError({ code: -32602, message: 'invalid params', data: { problems: [
            { field: 'spec.figures.0.value', flag: '-', label: 'value', message: 'Input should be greater than 0' }] } });
        }
        saved.push(p);
        return { spec: { ...evoPlus, id: p.spec.id }, path: '/home/student/.local/share/ssdprof/specs/lab-drive.json', overrides_bundled: false };
      },
    });
    renderWith(fake.engine, <Specs />);
    await screen.findByText('Samsung 970 EVO Plus 1TB');
    await userEvent.click(screen.getByRole('button', { name: 'New spec sheet' }));
    await userEvent.type(screen.getByLabelText('Id'), 'lab-drive');
    await userEvent.type(screen.getByLabelText('Vendor'), 'Lab');
    await userEvent.type(screen.getByLabelText('Model'), 'Drive 1TB');
    await userEvent.type(screen.getByLabelText('Capacity'), '1TB');
    await userEvent.type(screen.getByLabelText('figure 1 value'), '-5');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByTestId('spec-problems')).textContent).toBe('figures 1 value: Input should be greater than 0');
    expect(screen.getByLabelText<HTMLInputElement>('Model').value).toBe('Drive 1TB'); // nothing typed is lost
    const value = screen.getByLabelText('figure 1 value');
    await userEvent.clear(value);
    await userEvent.type(value, '500000');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByTestId('spec-note')).toBeDefined();
    expect(saved[0]!.spec).toMatchObject({
      id: 'lab-drive', vendor: 'Lab', model: 'Drive 1TB', interface: 'NVMe', capacity_bytes: '1TB',
      figures: [{
        metric: 'rand_read', value: '500000', unit: 'IOPS', block_size_bytes: '4k', queue_depth: '32',
        threads: null, read_pct: null,
      }],
    });
    expect(saved[0]!.replace).toBe(false);
  });

  it('edits a copy of a bundled sheet, and only the user’s own can be deleted', async () => {
    const fake = fakeEngine({ 'specs.list': () => ({ ...list(), specs: [evoPlus, { ...evoPlus, id: 'mine', model: 'Mine' }], user_spec_ids: ['mine'] }) });
    renderWith(fake.engine, <Specs />);
    await userEvent.click(await screen.findByRole('button', { name: 'Samsung 970 EVO Plus 1TB' }));
    const detail = screen.getByTestId('spec-detail');
    expect(within(detail).queryByRole('button', { name: 'Delete' })).toBeNull();
    await userEvent.click(within(detail).getByRole('button', { name: 'Edit a copy' }));
    expect(screen.getByLabelText<HTMLInputElement>('Id').value).toBe(evoPlus.id);
    expect(screen.getByLabelText<HTMLInputElement>('figure 1 access size').value).toBe('4k');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(screen.getByRole('button', { name: 'Samsung Mine' }));
    expect(within(screen.getByTestId('spec-detail')).getByRole('button', { name: 'Delete' })).toBeDefined();
  });

  it('marks a sheet without a public source URL as unsourced, in the list and in its detail', async () => {
    const sourced = { ...evoPlus, id: 'sourced', model: 'Sourced', unsourced: false, sources: [{ title: 'datasheet', url: 'https://example.org/ds.pdf', kind: '' }] };
    const fake = fakeEngine({ 'specs.list': () => ({ ...list(), specs: [evoPlus, sourced] }) });
    renderWith(fake.engine, <Specs />);
    const rows = within(await screen.findByTestId('spec-list')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent?.includes('unsourced'))).toEqual([true, false]);
    await userEvent.click(screen.getByRole('button', { name: 'Samsung 970 EVO Plus 1TB' }));
    expect(screen.getByTestId('spec-unsourced').textContent).toMatch(/indicative/);
    await userEvent.click(screen.getByRole('button', { name: 'Samsung Sourced' }));
    expect(screen.queryByTestId('spec-unsourced')).toBeNull();
  });
});
