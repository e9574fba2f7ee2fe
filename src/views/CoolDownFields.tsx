// The designer's cool-down between points: a temperature to wait for, an idle time, and the
// longest wait, sent as typed; the engine plans them by its one rule and names a bad value beside its field.
import type { Dispatch, SetStateAction } from 'react';
import { TextField } from './Field';
import type { SweepForm } from './designer-form';

interface Props {
  sweep: SweepForm;
  setSweep: Dispatch<SetStateAction<SweepForm>>;
  byField: Map<string, string[]>;
}

export function CoolDownFields({ sweep, setSweep, byField }: Props) {
  const set = (name: 'coolTo' | 'coolIdle' | 'coolMax') => (value: string) =>
    setSweep((s) => ({ ...s, [name]: value }));
  const onHosts = sweep.hosts.length > 0;
  return (
    <fieldset className="cool-down">
      <legend>Cool-down between points</legend>
      <p className="hint">
        A hot drive throttles: before each point after the first, wait for it to cool or rest.
        Leave empty to start each point at once.
      </p>
      <div className="grid">
        <TextField name="cool_to_c" label="Cool down to (°C)" value={sweep.coolTo}
          onChange={set('coolTo')}
          inputMode="decimal" placeholder="e.g. 45" messages={byField.get('cool_to_c')}
          hint={onHosts ? "the hosts' drives are not read: give an idle time instead"
            : 'wait until the drive is at or below this (hwmon, else SMART at most every 5 s)'} />
        <TextField name="cool_idle_s" label="Or idle for" value={sweep.coolIdle}
          onChange={set('coolIdle')}
          placeholder="e.g. 30s" messages={byField.get('cool_idle_s')}
          hint="a drive with no temperature idles this long" />
        <TextField name="cool_max_s" label="Wait at most" value={sweep.coolMax}
          onChange={set('coolMax')}
          placeholder="300s" messages={byField.get('cool_max_s')}
          hint="the longest wait for the temperature (default 300 s)" />
      </div>
    </fieldset>
  );
}
