import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { idle, liveReducer } from '../state/live';
import { fullRun } from '../test/fixtures';
import { Live } from './Live';

const running = liveReducer(idle, { kind: 'sweep_started', sweep_id: 2, name: 'student', total_points: 10, already_done: 0, estimated_s: 13, engine: 'fio', engine_reason: 'fio found at /usr/bin/fio' });

describe('Live', () => {
  it('shows overall progress and cancels on request', async () => {
    const onCancel = vi.fn();
    const state = liveReducer(running, { kind: 'point_finished', number: 1, total_points: 10, result: fullRun });
    render(<Live state={state} onCancel={onCancel} onOpenResults={vi.fn()} onDesign={vi.fn()} onResume={vi.fn()} />);
    expect(screen.getByText('Overall: 1 of 10 points')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });

  it('says how to start when nothing runs', () => {
    render(<Live state={idle} onCancel={vi.fn()} onOpenResults={vi.fn()} onDesign={vi.fn()} onResume={vi.fn()} />);
    expect(screen.getByText(/Nothing is running/)).toBeDefined();
  });
});
