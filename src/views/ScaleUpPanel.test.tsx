import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ScaleUpParams, ScaleUpResult } from '../api';
import { fakeEngine, RpcReplyError } from '../test/fake-engine';
import { studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import recorded from '../test/scale-up-answer.json';
import { ScaleUpPanel } from './ScaleUpPanel';

// The real engine's answer for the published figures, 240 SSDs within three PCIe slots
// (scripts/gen_scale_up_fixture.py).
const answer = recorded.result as unknown as ScaleUpResult;

async function typeProfile() {
  await userEvent.click(screen.getByLabelText(/typed in/));
  const rows: [string, string][] = [['1', '45000'], ['6', '193000'], ['8', '155000']];
  for (const [i, [arrays, iops]] of rows.entries()) {
    if (i > 0) await userEvent.click(screen.getByRole('button', { name: 'Add a point' }));
    await userEvent.type(screen.getByLabelText(`arrays, point ${i + 1}`), arrays);
    await userEvent.type(screen.getByLabelText(`IOPS, point ${i + 1}`), iops);
  }
  await userEvent.type(screen.getByLabelText('PCIe slots'), '3');
}

describe('ScaleUpPanel', () => {
  it('sends the typed profile and draws the engine\'s picks and limits', async () => {
    const fake = fakeEngine({ 'analysis.scale_up': () => answer });
    renderWith(fake.engine, <ScaleUpPanel runIds={studentRuns.map((r) => r.id!)} />);
    await typeProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Size the array' }));

    const sent = fake.calls.at(-1)!.params as ScaleUpParams;
    expect(sent).toMatchObject({ target_ssds: 240, max_pcie_slots: 3, metric: 'write_iops' });
    expect(sent.run_ids).toEqual([]);
    expect(sent.points).toEqual(([[1, '45000'], [6, '193000'], [8, '155000']] as const).map(
      ([arrays, iops]) => ({ arrays, enclosures: 0, iops, cpu_cores: null })));

    const summary = (await screen.findAllByTestId('scale-up-summary')).map((p) => p.textContent);
    expect(screen.getByRole('heading', { level: 4 }).textContent)
      .toBe(`240 SSDs in a chassis and 9 enclosures — ${answer.label}`);  // the engine's words, as the PDF's
    expect(summary[0]).toContain('Daisy chain (chassis + 9 enclosures, 1 PCIe slot): 26,273 IOPS');
    expect(summary[1]).toContain(
      'QoS-uniformity: chassis + 3 enclosures | 3 enclosures | 3 enclosures (3 PCIe slots): '
      + '350,784 IOPS, 13.4×');
    const rows = screen.getAllByTestId('scale-up-row');
    expect(rows).toHaveLength(24);
    expect(rows.filter((r) => r.className === 'within')).toHaveLength(14);
    expect(within(rows[14]!).getByText('needs 10 PCIe slots, 3 available')).toBeDefined();
    const profile = within(screen.getByTestId('scale-up-profile'));
    expect(profile.getByText(/mean of the highest, 193,000 IOPS at 6 arrays/)).toBeDefined();

    await userEvent.click(screen.getByRole('button', { name: 'Show all 42' }));
    expect(screen.getAllByTestId('scale-up-row')).toHaveLength(42);
  });

  it('always lists the daisy chain the picks are compared with, and whole IOPS per array',
    async () => {
      // without a slot limit the daisy chain has the fewest IOPS: last of the 42
      const chain = answer.architectures.find((a) => a.key === '10')!;
      const last = { ...answer,
        architectures: [...answer.architectures.filter((a) => a !== chain), chain] };
      const fake = fakeEngine({ 'analysis.scale_up': () => last });
      renderWith(fake.engine, <ScaleUpPanel runIds={[]} />);
      await userEvent.click(screen.getByRole('button', { name: 'Size the array' }));
      const rows = await screen.findAllByTestId('scale-up-row');
      expect(rows).toHaveLength(25);
      expect(within(rows[24]!).getByText('chassis + 9 enclosures')).toBeDefined();
      expect(within(rows[0]!).getByText('641\u2060–\u206021,750')).toBeDefined();
      await userEvent.click(screen.getByRole('button', { name: 'Show all 42' }));
      const fewer = 'Show the first 24 and the picks';
      await userEvent.click(screen.getByRole('button', { name: fewer }));
      expect(screen.getAllByTestId('scale-up-row')).toHaveLength(25);
    });

  it('says plainly when no architecture meets the limits', async () => {
    const none = { ...answer, best: null, best_uniform: null, best_priority: null,
      none_fit: 'No architecture of the 42 meets every limit: the least CPU any architecture '
        + 'needs is 3.4 cores, 1 available.' };
    const fake = fakeEngine({ 'analysis.scale_up': () => none });
    renderWith(fake.engine, <ScaleUpPanel runIds={studentRuns.map((r) => r.id!)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Size the array' }));
    const said = await screen.findByTestId('scale-up-none-fit');
    expect(said.textContent).toMatch(/^No architecture of the 42 meets every limit/);
  });

  it('shows a refusal beside its field', async () => {
    const fake = fakeEngine({
      'analysis.scale_up': () => {
        const message = '250 does not fill whole chassis and enclosures of 24 SSDs; 240 or 264 do';
        const problems = [
          { field: 'target_ssds', flag: '--target-ssds', label: 'target SSDs', message }];
        throw new RpcReplyError({ code: -32602, message: 'bad', data: { problems } });
      },
    });
    renderWith(fake.engine, <ScaleUpPanel runIds={studentRuns.map((r) => r.id!)} />);
    const target = screen.getByLabelText('Target SSDs');
    await userEvent.clear(target);
    await userEvent.type(target, '250');
    await userEvent.click(screen.getByRole('button', { name: 'Size the array' }));
    const refused = await screen.findByText(/240 or 264 do/);
    expect(refused.getAttribute('data-field')).toBe('target_ssds');
  });

  it('says every bad field at once: words that are no number, and the engine\'s for the rest',
    async () => {
      const fake = fakeEngine({
        'analysis.scale_up': () => {
          const problems = [
            { field: 'target_ssds', flag: '--target-ssds', label: 'target SSDs',
              message: 'target SSDs (--target-ssds): 0 is out of range' },
            // IOPS go as typed: the engine reads counts (155k) and names a bad cell by its row
            { field: 'points', flag: '--point', label: 'profiling points',
              message: "profiling points (--point): item 3, iops: 'abc' is not a number" },
          ];
          throw new RpcReplyError({ code: -32602, message: 'bad', data: { problems } });
        },
      });
      renderWith(fake.engine, <ScaleUpPanel runIds={studentRuns.map((r) => r.id!)} />);
      await userEvent.click(screen.getByLabelText('typed in'));
      await typeProfile();
      await userEvent.clear(screen.getByLabelText('Target SSDs'));
      await userEvent.type(screen.getByLabelText('Target SSDs'), '0');
      await userEvent.clear(screen.getByLabelText('PCIe slots'));
      await userEvent.type(screen.getByLabelText('PCIe slots'), 'three');
      await userEvent.clear(screen.getByLabelText('IOPS, point 3'));
      await userEvent.type(screen.getByLabelText('IOPS, point 3'), 'abc');
      await userEvent.clear(screen.getByLabelText('arrays, point 2'));
      await userEvent.type(screen.getByLabelText('arrays, point 2'), 'six');
      await userEvent.click(screen.getByRole('button', { name: 'Size the array' }));

      const target = await screen.findByText(/0 is out of range/);
      expect(target.getAttribute('data-field')).toBe('target_ssds');
      expect(screen.getByText('“three” is not a number').getAttribute('data-field'))
        .toBe('max_pcie_slots');
      // the engine's word for one cell and the panel's for another, both beside the points
      expect(screen.getByText(/item 3, iops: 'abc' is not a number/).getAttribute('data-field'))
        .toBe('points');
      expect(screen.getByText('arrays of point 2: “six” is not a number').getAttribute('data-field'))
        .toBe('points');
      const sent = fake.calls.at(-1)!.params as ScaleUpParams;
      expect(sent.max_pcie_slots).toBeNull();
      expect(sent.points?.[2]?.iops).toBe('abc');
      expect(screen.queryByTestId('scale-up-answer')).toBeNull();
    });

  it('sends IOPS as typed, 45k included, for the engine to read', async () => {
    const fake = fakeEngine({ 'analysis.scale_up': () => answer });
    renderWith(fake.engine, <ScaleUpPanel runIds={[]} />);
    await typeProfile();
    await userEvent.clear(screen.getByLabelText('IOPS, point 1'));
    await userEvent.type(screen.getByLabelText('IOPS, point 1'), '45k');
    await userEvent.type(screen.getByLabelText('IOPS each array needs'), '2k');
    await userEvent.click(screen.getByRole('button', { name: 'Size the array' }));
    await screen.findByTestId('scale-up-answer');
    const sent = fake.calls.at(-1)!.params as ScaleUpParams;
    expect(sent.points?.[0]?.iops).toBe('45k');
    expect(sent.min_array_iops).toBe('2k');
  });

  it('takes typed figures when no runs are found', () => {
    renderWith(fakeEngine({}).engine, <ScaleUpPanel runIds={[]} />);
    expect(screen.getByLabelText(/typed in/)).toHaveProperty('checked', true);
    expect(screen.getByLabelText(/from the runs/)).toHaveProperty('disabled', true);
  });
});
