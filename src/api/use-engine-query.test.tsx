import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeEngine, RpcReplyError } from '../test/fake-engine';
import { renderWith } from '../test/render';
import { useEngineQuery } from './use-engine-query';
import { ERROR_CODES } from '../../contract/contract.gen';

function Observed({ initial }: { initial: number[] }) {
  const [ids, setIds] = useState(initial);
  const query = useEngineQuery('analysis.observe', ids.length ? { run_ids: [...ids] } : null);
  return (
    <div>
      <p data-testid="state">
        {query.loading ? 'asking' : query.error ?? query.data?.observations.map((o) => o.message).join(', ') ?? 'nothing'}
      </p>
      <button type="button" onClick={() => setIds([...ids])}>same runs</button>
      <button type="button" onClick={() => setIds([...ids, 9])}>one more</button>
      <button type="button" onClick={() => setIds([])}>none</button>
      <button type="button" onClick={query.reload}>again</button>
    </div>
  );
}

const observation = (message: string) => ({ code: 'qd_knee', severity: 'info' as const, message, run_ids: [] });

describe('useEngineQuery', () => {
  it('asks once per params by value, again on reload, and nothing without params', async () => {
    const fake = fakeEngine({
      'analysis.observe': ({ run_ids }) => ({ observations: [observation(`${run_ids.length} runs`)] }),
    });
    renderWith(fake.engine, <Observed initial={[1, 2]} />);
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('2 runs'));
    await userEvent.click(screen.getByText('same runs'));
    expect(fake.calls).toHaveLength(1);
    await userEvent.click(screen.getByText('one more'));
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('3 runs'));
    await userEvent.click(screen.getByText('again'));
    await waitFor(() => expect(fake.calls).toHaveLength(3));
    await userEvent.click(screen.getByText('none'));
    expect(screen.getByTestId('state').textContent).toBe('nothing');
    expect(fake.calls).toHaveLength(3);
  });

  it('shows the engine\'s refusal in its own words', async () => {
    const fake = fakeEngine({
      'analysis.observe': () => {
        throw new RpcReplyError({ code: ERROR_CODES.not_found, message: 'run 7 does not exist' });
      },
    });
    renderWith(fake.engine, <Observed initial={[7]} />);
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('run 7 does not exist'));
  });

  it('keeps its answers for the page when asked to: shown again at once, asked again, replaced only if changed', async () => {
    let stored = 2;
    const fake = fakeEngine({
      'analysis.observe': () => ({ observations: [observation(`${stored} runs`)] }),
    });
    const seen: unknown[] = [];
    function Kept() {
      const query = useEngineQuery('analysis.observe', { run_ids: [1, 2] }, { keep: true });
      if (query.current) seen.push(query.current);
      return <p data-testid="state">{query.current?.observations[0]?.message ?? 'asking'}</p>;
    }
    const first = renderWith(fake.engine, <Kept />);
    expect(screen.getByTestId('state').textContent).toBe('asking');
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('2 runs'));
    first.unmount();
    const second = renderWith(fake.engine, <Kept />);
    expect(screen.getByTestId('state').textContent).toBe('2 runs'); // at once, before the engine answers
    await waitFor(() => expect(fake.calls).toHaveLength(2));
    expect(new Set(seen).size).toBe(1); // the same answer again is the kept one: nothing downstream changes
    second.unmount();
    stored = 3;
    renderWith(fake.engine, <Kept />);
    expect(screen.getByTestId('state').textContent).toBe('2 runs');
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('3 runs'));
  });
});
