import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { CurveRequest } from '../api';
import { RpcReplyError, fakeEngine } from '../test/fake-engine';
import { info } from '../test/fixtures';
import { renderWith } from '../test/render';
import { CurveForm } from './CurveForm';
import { INITIAL_CURVE, type CurveForm as Form } from './curve-form';

function Harness({ onStarted }: { onStarted: () => void }) {
  const [form, setForm] = useState<Form>(INITIAL_CURVE);
  return <CurveForm form={form} setForm={setForm} onStarted={onStarted} />;
}

const bad = [
  { field: 'queue_depth', flag: '--qd', label: 'queue depth', message: '0 is out of range; allowed 1–4096, e.g. 32' },
  { field: 'points_pct', flag: '--points', label: 'points', message: '120 is out of range; allowed whole percentages of the maximum from 1 to 100' },
  { field: 'target', flag: '--target', label: 'target', message: "'/nowhere' does not exist" },
];

function engineFor() {
  return fakeEngine({
    'engine.info': () => info,
    'curve.check': (p: CurveRequest) => {
      if (p.points_pct === '20,120') throw new RpcReplyError({ code: -32602, message: 'bad', data: { problems: bad } });
      return { label: 'randread 4KiB QD32 T1', points: 7, estimated_s: 84 };
    },
  });
}

describe('CurveForm', () => {
  it('is checked by the engine as it is typed and shows every bad field beside it at once', async () => {
    const fake = engineFor();
    renderWith(fake.engine, <Harness onStarted={vi.fn()} />);
    expect(await screen.findByText(/7 points/)).toBeDefined();
    await userEvent.clear(screen.getByLabelText('Points (% of maximum)'));
    await userEvent.type(screen.getByLabelText('Points (% of maximum)'), '20,120');
    expect((await screen.findByText(bad[1]!.message)).getAttribute('data-field')).toBe('points');
    expect(screen.getByText(bad[0]!.message).getAttribute('data-field')).toBe('queue_depth');
    expect(screen.getByText(bad[2]!.message).getAttribute('data-field')).toBe('target');
    expect(screen.getByLabelText('Points (% of maximum)').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Start curve' }).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Start curve' }));
    expect(fake.calls.some((c) => c.method === 'curve.start')).toBe(false);
  });

  it('offers the engine list by display names and sends the value', async () => {
    const fake = engineFor();
    renderWith(fake.engine, <Harness onStarted={vi.fn()} />);
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>('Curve engine').options.length).toBe(3));
    await userEvent.selectOptions(screen.getByLabelText('Curve engine'), "portable (ssdprof's own engine)");
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'curve.check'
      && (c.params as CurveRequest).sweep?.base?.engine === 'portable')).toBe(true));
    expect([...screen.getByLabelText<HTMLSelectElement>('Curve pattern').options].map((o) => o.text)[0]).toBe('random read');
  });
});
