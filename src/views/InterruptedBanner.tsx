// The sweep the engine stopped in the middle of, offered for resuming above every view: the app
// opens on the Designer, and a user whose sweep was interrupted should see it wherever they are.
import type { SweepInfo } from '../api';

interface Props {
  /** The sweep as the engine names it (sweeps.list's interrupted). */
  sweep: SweepInfo;
  /** Continue the sweep by its id, skipping its finished points. */
  onResume: (sweepId: number) => void;
}

export function InterruptedBanner({ sweep, onResume }: Props) {
  return (
    <div role="status" className="banner interrupted" data-testid="interrupted">
      <span>
        Sweep {sweep.id} ({sweep.name}) was interrupted: {sweep.runs} finished point(s) are stored.
      </span>
      <button type="button" onClick={() => onResume(sweep.id)}>Resume the last interrupted sweep</button>
    </div>
  );
}

/** Whether the banner is shown: not while a sweep starts or runs, nor beside the Live view's own
 *  Resume of that very sweep. */
export function offersResume(sweep: SweepInfo | null, status: string, liveSweepId: number | null): sweep is SweepInfo {
  if (!sweep || status === 'running' || status === 'starting') return false;
  return !(liveSweepId === sweep.id && (status === 'cancelled' || status === 'interrupted'));
}
