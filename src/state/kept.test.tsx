import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useKept, useReopened } from './kept';

function Form({ initial = { target: '', runtime: '10s' } }: { initial?: Record<string, string> }) {
  const [form, setForm] = useKept('test-form', initial);
  return (
    <>
      <label>
        Target
        <input value={form.target} onChange={(e) => setForm({ ...form, target: e.target.value })} />
      </label>
      <p>{form.runtime}</p>
    </>
  );
}

describe('useKept', () => {
  it('keeps what was typed when the view is unmounted and shown again', async () => {
    const first = render(<Form />);
    await userEvent.type(screen.getByLabelText('Target'), '/mnt/ssd');
    first.unmount();
    render(<Form />);
    expect(screen.getByLabelText('Target')).toHaveProperty('value', '/mnt/ssd');
  });

  it('gives a field the form gained since it was kept its initial value', async () => {
    const first = render(<Form initial={{ target: '' }} />);
    await userEvent.type(screen.getByLabelText('Target'), '/data');
    first.unmount();
    render(<Form initial={{ target: '', runtime: '30s' }} />);
    expect(screen.getByLabelText('Target')).toHaveProperty('value', '/data');
    expect(screen.getByText('30s')).toBeTruthy();
  });

  it('starts from the initial value when what is kept is not JSON', () => {
    window.sessionStorage.setItem('ssdprof.form.v1.test-form', '{not json');
    render(<Form />);
    expect(screen.getByLabelText('Target')).toHaveProperty('value', '');
  });
});

function Shown({ shownId, reopen }: { shownId: number | null; reopen: (id: number) => void }) {
  useReopened('test-shown', shownId, reopen);
  return null;
}

describe('useReopened', () => {
  it('asks again for what a view showed when it is mounted again, and for nothing the first time', () => {
    const first = vi.fn();
    const view = render(<Shown shownId={null} reopen={first} />);
    expect(first).not.toHaveBeenCalled();
    view.rerender(<Shown shownId={7} reopen={first} />);
    expect(window.sessionStorage.getItem('ssdprof.form.v1.test-shown')).toBe('7');
    view.unmount();
    const again = vi.fn();
    render(<Shown shownId={null} reopen={again} />);
    expect(again).toHaveBeenCalledWith(7);
  });
});
