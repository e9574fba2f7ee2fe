// The SSH hosts a run or a replay may go to, each a checkbox ("Hosts" group): the Designer's and the Trace
// replay's picker share it. None ticked: this machine.
import type { HostInfo } from '../api';

export function HostChecks({ hosts, chosen, onChange }: {
  hosts: HostInfo[]; chosen: string[]; onChange: (chosen: string[]) => void;
}) {
  return (
    <div className="segmented" role="group" aria-label="Hosts">
      {hosts.map((h) => (
        <label key={h.name} className="check">
          <input type="checkbox" checked={chosen.includes(h.name)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, h.name] : chosen.filter((x) => x !== h.name))} />
          {h.name}
        </label>
      ))}
    </div>
  );
}
