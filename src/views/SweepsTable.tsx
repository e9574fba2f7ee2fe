// History's sweeps: each stored sweep as the engine reads it (running: a live process holds it;
// interrupted: its process died or a host was lost, so it can be resumed; or how it ended), who ran
// it, on which machine, since when and when that process was last heard from. The engine decides
// the standing (its lease rule); this only draws it.
import { useState } from 'react';
import { useEngineQuery, type SweepInfo } from '../api';

interface Props {
  onOpenSweep: (sweepId: number) => void;
}

/** Sweeps shown before "Show all". */
export const SWEEPS_SHOWN = 10;

const KIND: Record<SweepInfo['kind'], string> = { sweep: 'sweep', pts: 'PTS test', sustain: 'sustained write', replay: 'trace replay' };

export function SweepsTable({ onOpenSweep }: Props) {
  const listed = useEngineQuery('sweeps.list', {});
  const [all, setAll] = useState(false);
  const sweeps = listed.data?.sweeps ?? [];
  if (listed.error) return <p role="alert" className="error">Stored sweeps could not be listed: {listed.error}</p>;
  if (!sweeps.length) return null;
  const shown = all ? sweeps : sweeps.slice(0, SWEEPS_SHOWN);
  return (
    <table className="data" data-testid="history-sweeps">
      <caption>
        Sweeps, newest first{sweeps.length > shown.length ? `: ${shown.length} of ${sweeps.length}` : ''}{' '}
        <button type="button" onClick={() => listed.reload()}>Refresh</button>
        {sweeps.length > SWEEPS_SHOWN && (
          <button type="button" onClick={() => setAll(!all)}>{all ? 'Show the newest' : `Show all ${sweeps.length}`}</button>
        )}
      </caption>
      <thead><tr><th scope="col">sweep</th><th scope="col">name</th><th scope="col">standing</th>
        <th scope="col" className="num">runs</th><th scope="col">run by</th><th scope="col">since (UTC)</th>
        <th scope="col">last heard (UTC)</th><th scope="col">actions</th></tr></thead>
      <tbody>
        {shown.map((sweep) => (
          <tr key={sweep.id} data-sweep-id={sweep.id}>
            <td>{sweep.id}{sweep.kind !== 'sweep' && ` (${KIND[sweep.kind]})`}</td>
            <td>{sweep.name}</td>
            <td><span className={`badge ${sweep.standing}`} data-testid="sweep-standing">{sweep.standing}</span></td>
            <td className="num">{sweep.runs}</td>
            <td>{sweep.owner ? `${sweep.owner} on ${sweep.owner_host}${sweep.owner_pid ? ` (pid ${sweep.owner_pid})` : ''}` : '–'}</td>
            <td>{time(sweep.since)}</td>
            <td>{sweep.standing === 'running' || sweep.standing === 'interrupted' ? time(sweep.renewed_at) : '–'}</td>
            <td className="row-actions">
              {sweep.runs > 0 && <button type="button" onClick={() => onOpenSweep(sweep.id)}>Open sweep {sweep.id}</button>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function time(iso: string): string {
  return iso ? iso.replace('T', ' ').slice(0, 19) : '–';
}
