// Where a replay plays when not on this machine: the SSH hosts ticked (picked as the Designer picks them), whether
// each plays the whole trace or one trace is split across them (each I/O on one host), and the folder or device on
// each. The engine says in its own words what each host will play (the estimate's hosts sentence).
import type { HostInfo } from '../api';
import { TextField } from './Field';
import { HostChecks } from './HostChecks';
import type { ReplayForm } from './replay-form';

const MODES = [
  { value: 'whole', label: 'the whole trace on every host' },
  { value: 'split', label: 'one trace split across them (each I/O on one host)' },
] as const;

export function ReplayHosts({ hosts, form, setForm, byField }: {
  hosts: HostInfo[]; form: ReplayForm; setForm: (update: (f: ReplayForm) => ReplayForm) => void;
  byField: Map<string, string[]>;
}) {
  const clients = hosts.filter((h) => h.role === 'client');
  if (clients.length === 0) return null;
  const update = (patch: Partial<ReplayForm>) => setForm((f) => ({ ...f, ...patch }));
  const messages = ['hosts', 'hosts_mode'].flatMap((f) => byField.get(f) ?? []);
  return (
    <fieldset>
      <legend>Replay on</legend>
      <p className="hint">Tick SSH hosts to replay on all of them at once, each I/O at its recorded time from their
        common start, with per-host and aggregate results; none ticked: this machine.</p>
      <HostChecks hosts={clients} chosen={form.hosts} onChange={(chosen) => update({ hosts: chosen })} />
      {form.hosts.length > 0 && (
        <>
          <div className="segmented" role="radiogroup" aria-label="How the hosts share the trace">
            {MODES.map((m) => (
              <label key={m.value} className="check">
                <input type="radio" name="replay-hosts-mode" value={m.value} checked={form.hosts_mode === m.value}
                  onChange={() => update({ hosts_mode: m.value })} />
                {m.label}
              </label>
            ))}
          </div>
          <div className="grid">
            <TextField name="remote_dir" id="replay-remote_dir" label="Folder on each host" value={form.remote_dir}
              placeholder="the engine's remote scratch folder" onChange={(v) => update({ remote_dir: v })}
              messages={byField.get('remote_dir')} hint="a test file as large as the trace's region is laid out and removed there" />
            <TextField name="remote_device" id="replay-remote_device" label="Block device on each host (optional)"
              value={form.remote_device} placeholder="/dev/nvme1n1" onChange={(v) => update({ remote_device: v })}
              messages={byField.get('remote_device')}
              hint="replayed on in place of a test file; the trace's writes need the overwrite box ticked" />
          </div>
        </>
      )}
      {messages.map((m) => <p key={m} className="problem" role="alert">{m}</p>)}
    </fieldset>
  );
}
