// The designer's sweep and hosts: a preset, factors varied one at a time or as a grid, repeats and
// tags; the SSH hosts to run on, with their folder, device or RBD image.
import type { HostInfo, PresetInfo } from '../api';
import { FACTOR_CHOICES, type SweepForm } from './designer-form';
import { TextField } from './Field';
import { HostChecks } from './HostChecks';

export function HostPicker({ hosts, sweep, setSweep, byField }: { hosts: HostInfo[]; byField: Map<string, string[]> } & Pick<SweepProps, 'sweep' | 'setSweep'>) {
  if (hosts.length === 0) return null;
  const update = (patch: Partial<SweepForm>) => setSweep((s) => ({ ...s, ...patch }));
  const messages = ['host', 'hosts', 'remote_dirs', 'remote_devices'].flatMap((f) => byField.get(f) ?? []);
  return (
    <fieldset>
      <legend>Run on</legend>
      <p className="hint">Tick hosts to run on all of them at once (synchronised start, per-host and aggregate results); none ticked: this machine.</p>
      <HostChecks hosts={hosts} chosen={sweep.hosts} onChange={(chosen) => update({ hosts: chosen })} />
      {sweep.hosts.length > 0 && (
        <div className="grid">
          <TextField name="remote_dir" id="field-remote-dir" label="Folder on each host" value={sweep.remoteDir}
            placeholder="the engine's remote scratch folder" onChange={(v) => update({ remoteDir: v })} messages={byField.get('remote_dir')}
            hint="on the SSD under test; the test file is created and removed there" />
          <TextField name="remote_device" id="field-remote-device" label="Block device on each host (optional)" value={sweep.remoteDevice}
            placeholder="/dev/nvme1n1" onChange={(v) => update({ remoteDevice: v })}
            hint="measured in place of a test file, over the test size; a write needs the overwrite box ticked, and a device in use is never written" />
          <TextField name="rbd" id="field-rbd" label="Ceph RBD image (optional)" value={sweep.rbd} placeholder="rbd/img-{host}"
            onChange={(v) => update({ rbd: v })} messages={byField.get('rbd')}
            hint="POOL/IMAGE through fio's rbd engine; {host} gives each host its own image" />
        </div>
      )}
      {messages.map((m) => <p key={m} className="problem" role="alert">{m}</p>)}
    </fieldset>
  );
}

export interface SweepProps {
  sweep: SweepForm;
  setSweep: (update: (s: SweepForm) => SweepForm) => void;
  presets: PresetInfo[];
  byField: Map<string, string[]>;
}

export function SweepBuilder({ sweep, setSweep, presets, byField }: SweepProps) {
  const update = (patch: Partial<SweepForm>) => setSweep((s) => ({ ...s, ...patch }));
  const sweepProblems = ['preset', 'vary', 'repeat', ...sweep.factors.map((f) => f.field)]
    .flatMap((f) => (sweep.kind !== 'single' ? byField.get(f) ?? [] : []));
  return (
    <fieldset>
      <legend>Sweep</legend>
      <div className="segmented" role="radiogroup" aria-label="What to run">
        {(['single', 'preset', 'custom'] as const).map((kind) => (
          <label key={kind} className="check">
            <input type="radio" name="sweep-kind" value={kind} checked={sweep.kind === kind} onChange={() => update({ kind })} />
            {{ single: 'this workload once', preset: 'a preset', custom: 'vary factors' }[kind]}
          </label>
        ))}
      </div>
      {sweep.kind === 'preset' && (
        <div className="field">
          <label htmlFor="field-preset">Preset</label>
          <select id="field-preset" value={sweep.preset} onChange={(e) => update({ preset: e.target.value })}>
            {presets.map((p) => <option key={p.name} value={p.name}>{p.name} ({p.points} points)</option>)}
          </select>
          <p className="hint">{presets.find((p) => p.name === sweep.preset)?.description}; runtime, ramp, size and target come from above</p>
        </div>
      )}
      {sweep.kind === 'custom' && (
        <div className="factors">
          {sweep.factors.map((row, i) => (
            <div key={i} className="factor-row">
              <label htmlFor={`factor-${i}`} className="sr-only">factor {i + 1}</label>
              <select id={`factor-${i}`} value={row.field} onChange={(e) => update({ factors: sweep.factors.map((f, j) => j === i ? { ...f, field: e.target.value } : f) })}>
                {FACTOR_CHOICES.map((c) => <option key={c.field} value={c.field}>{c.label}</option>)}
              </select>
              <label htmlFor={`factor-values-${i}`} className="sr-only">values of factor {i + 1}</label>
              <input id={`factor-values-${i}`} value={row.values} placeholder={FACTOR_CHOICES.find((c) => c.field === row.field)?.example}
                onChange={(e) => update({ factors: sweep.factors.map((f, j) => j === i ? { ...f, values: e.target.value } : f) })} />
              <button type="button" onClick={() => update({ factors: sweep.factors.filter((_, j) => j !== i) })} aria-label={`remove factor ${i + 1}`}>Remove</button>
            </div>
          ))}
          <button type="button" onClick={() => update({ factors: [...sweep.factors, { field: 'queue_depth', values: '' }] })}>Add factor</button>
          <div className="segmented" role="radiogroup" aria-label="How to combine factors">
            <label className="check"><input type="radio" name="mode" checked={sweep.mode === 'one-at-a-time'} onChange={() => update({ mode: 'one-at-a-time' })} /> one factor at a time</label>
            <label className="check"><input type="radio" name="mode" checked={sweep.mode === 'grid'} onChange={() => update({ mode: 'grid' })} /> every combination (grid)</label>
          </div>
        </div>
      )}
      <div className="grid">
        <TextField name="repeats" label="Repeats" inputMode="numeric" value={sweep.repeats} onChange={(v) => update({ repeats: v })}
          messages={byField.get('repeats')} hint="each point measured this many times (mean ± 95 % CI)" />
        <TextField name="tags" label="Tags" value={sweep.tags} placeholder="interface=NVMe nodes=3" onChange={(v) => update({ tags: v })}
          messages={byField.get('tags')} hint="key=value, to find and compare runs later" />
      </div>
      {sweepProblems.map((m) => <p key={m} className="problem" role="alert">{m}</p>)}
    </fieldset>
  );
}
