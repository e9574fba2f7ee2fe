// Block devices in the designer: pick one as the target, and confirm before a sweep overwrites it.
// The engine describes each device (model, size, what lies beneath, what uses it); this only shows it.
import { useEffect, useState, type ReactNode } from 'react';
import { useEngine, type FieldProblem, type TargetDevice } from '../api';

interface PickerProps {
  devices: TargetDevice[];
  target: string;
  onPick: (device: TargetDevice) => void;
}

/** This machine's block devices; choosing one makes it the target, over all of it. */
export function DevicePicker({ devices, target, onPick }: PickerProps) {
  if (devices.length === 0) return null;
  const chosen = devices.find((d) => d.path === target);
  return (
    <div className="field">
      <label htmlFor="field-device">Block device</label>
      <select id="field-device" value={chosen ? chosen.path : ''} aria-describedby="help-device"
        onChange={(e) => { const device = devices.find((d) => d.path === e.target.value); if (device) onPick(device); }}>
        <option value="">— a folder or file (above) —</option>
        {devices.map((d) => (
          <option key={d.path} value={d.path}>{d.description}{d.in_use.length ? ' — in use' : ''}{d.ram ? ' — RAM' : ''}</option>
        ))}
      </select>
      <p id="help-device" className="hint">
        {chosen
          ? [chosen.stack.join(' → '), ...chosen.in_use, chosen.ram].filter(Boolean).join('; ')
          : 'measure a whole device: reads need no confirmation; writes are confirmed, and a device in use is never written'}
      </p>
    </div>
  );
}

interface ConfirmProps {
  /** What will be overwritten, in one sentence (a sweep's or a PTS test's estimate). */
  estimate: { region: string };
  device: TargetDevice;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Names the device, its model and size, and what will be destroyed, before anything is written. */
export function ConfirmOverwrite({ estimate, device, onConfirm, onCancel }: ConfirmProps) {
  return (
    <div className="modal-backdrop">
    <div role="alertdialog" aria-modal="true" aria-labelledby="overwrite-title" aria-describedby="overwrite-region">
      <h3 id="overwrite-title">Overwrite {device.path}?</h3>
      <dl>
        <dt>Device</dt><dd data-testid="overwrite-device">{device.description}</dd>
        <dt>Model</dt><dd data-testid="overwrite-model">{device.model || 'not reported by the OS'}</dd>
        <dt>Size</dt><dd data-testid="overwrite-size">{device.size_bytes} bytes</dd>
        <dt>Beneath</dt><dd>{device.stack.join(' → ')}</dd>
      </dl>
      <p id="overwrite-region" data-testid="overwrite-region">{estimate.region}</p>
      <button type="button" className="danger" onClick={onConfirm}>Overwrite {device.path}</button>
      <button type="button" autoFocus onClick={onCancel}>Cancel</button>
    </div>
    </div>
  );
}

/** This machine's block devices as `devices.list` says them (none where it cannot say). */
export function useDevices(): TargetDevice[] {
  const engine = useEngine();
  const [devices, setDevices] = useState<TargetDevice[]>([]);
  useEffect(() => {
    engine.call('devices.list', {}).then((r) => setDevices(r.devices), () => setDevices([]));
  }, [engine]);
  return devices;
}

interface Overwriting {
  /** The block device the estimate says is written, if the target is one. */
  device: TargetDevice | null;
  overwrite_bytes: number;
  region: string;
}

/** A test's start behind the overwrite dialog: a start that overwrites a device asks first, unless
 * `given` (consent already in the form). While it is to ask, the consent field's problem does not
 * block the start (`blocking` is the rest); `run` starts the test, told whether it was confirmed. */
export function useOverwriteConsent(estimate: Overwriting | null, given: boolean, problems: FieldProblem[],
  run: (confirmed: boolean) => Promise<void>, consent?: string) {
  const [confirming, setConfirming] = useState(false);
  const device = estimate?.device ?? null;
  const needsConfirm = device !== null && estimate!.overwrite_bytes > 0 && !given;
  const blocking = problems.filter((p) => !(needsConfirm && p.field === consent));
  async function start(confirmed = false) {
    if (needsConfirm && !confirmed) return setConfirming(true);
    setConfirming(false);
    await run(confirmed);
  }
  const dialog: ReactNode = confirming && estimate && device && (
    <ConfirmOverwrite estimate={estimate} device={device} onConfirm={() => void start(true)}
      onCancel={() => setConfirming(false)} />
  );
  return { device, needsConfirm, blocking, start, dialog };
}
