// Hosts: remote machines reached over SSH (the user's ~/.ssh/config, agent and keys apply).
// An unknown host key is shown with its fingerprint and added only when the user accepts it. A host
// added monitor-only (a storage node) runs no I/O: the engine watches it during every run.
import { useCallback, useEffect, useState } from 'react';
import { EngineError, useEngine, type HostAddResult, type HostInfo, type HostProbeInfo } from '../api';
import { CephOsdHosts } from './CephOsdHosts';
import { useKept } from '../state/kept';

export function probeSummary(probe: HostProbeInfo): string {
  if (!probe.reachable) return `unreachable: ${probe.error}`;
  const engines = probe.fio_engines.filter((e) => ['io_uring', 'libaio', 'rbd', 'psync'].includes(e)).join(', ');
  const shaped = probe.shaped_mbps ?? {};
  const placeholder = probe.placeholder_speed_nics ?? {};
  const nics = Object.entries(probe.nics).filter(([n]) => n !== 'lo')
    .map(([n, speed]) => (speed > 0 ? `${n} ${speed} Mb/s`
      : placeholder[n] !== undefined ? `${n} (${placeholder[n]}: no real speed)` : `${n} (speed unknown)`)
      + (shaped[n] !== undefined ? ` shaped to ${shaped[n]} Mb/s` : '')).join(', ');
  return `${probe.os}; ${probe.cpu_count} CPUs; ${probe.fio_version || 'fio missing'}${engines ? ` (${engines})` : ''}; `
    + `Ceph tools: ${probe.ceph_tools.join(', ') || 'none'}; NICs: ${nics || 'none'}`;
}

export function Hosts() {
  const engine = useEngine();
  const [hosts, setHosts] = useState<HostInfo[]>([]);
  const [name, setName] = useKept('hosts-name', '');
  const [pending, setPending] = useState<HostAddResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [tests, setTests] = useKept<Record<string, HostProbeInfo>>('hosts-tests', {});
  const [links, setLinks] = useKept<Record<string, string>>('hosts-links', {});
  const [monitorOnly, setMonitorOnly] = useKept('hosts-monitor-only', false);

  const refresh = useCallback(() => engine.call('hosts.list', {}).then((r) => setHosts(r.hosts), () => setHosts([])), [engine]);
  useEffect(() => { void refresh(); }, [refresh]);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setMessage(null);
    try {
      await action();
    } catch (error) {
      const problems = error instanceof EngineError ? error.problems.map((p) => p.message).join('; ') : '';
      setMessage({ ok: false, text: problems || (error instanceof Error ? error.message : String(error)) });
    } finally {
      setBusy(false);
    }
  }

  const add = (accept: string | null) => run(async () => {
    const result = await engine.call('hosts.add', {
      host: name.trim(), accept_fingerprint: accept, role: monitorOnly ? 'monitor' : 'client',
    });
    if (result.offered.length && !result.added) {
      setPending(result);
      return;
    }
    setPending(null);
    setMessage({ ok: result.added, text: result.added && result.probe ? `${result.message}: ${probeSummary(result.probe)}` : result.message });
    if (result.added) {
      setName('');
      await refresh();
    }
  });

  const setLink = (host: string) => run(async () => {
    const text = (links[host] ?? '').trim();
    const gbps = text === '' ? null : Number(text);
    if (gbps !== null && !(Number.isFinite(gbps) && gbps > 0 && gbps <= 10000)) {
      throw new Error(`link speed of ${host}: "${text}" is not a speed in Gb/s above 0 and at most 10000 (leave it empty to clear it)`);
    }
    await engine.call('hosts.set_link', { host, link_gbps: gbps });
    setMessage({ ok: true, text: gbps === null ? `${host}: link speed cleared` : `${host}: link speed set to ${gbps} Gb/s` });
    await refresh();
  });

  const setRole = (host: HostInfo) => run(async () => {
    const role = host.role === 'monitor' ? 'client' : 'monitor';
    await engine.call('hosts.set_role', { host: host.name, role });
    setMessage({ ok: true, text: `${host.name}: ${roleLabel(role)}` });
    await refresh();
  });

  const test = (host: string) => run(async () => {
    const result = await engine.call('hosts.test', { host });
    setTests((t) => ({ ...t, [host]: result.probe }));
  });

  const remove = (host: string) => run(async () => {
    await engine.call('hosts.remove', { host });
    await refresh();
  });

  return (
    <section aria-labelledby="hosts-title" className="hosts">
      <h2 id="hosts-title">Hosts</h2>
      <p className="hint">Remote machines (e.g. Ceph clients) reached with your own SSH setup: ~/.ssh/config, agent, keys and ProxyJump apply. Passwords are never asked for or stored.</p>
      <form className="field inline" onSubmit={(e) => { e.preventDefault(); if (name.trim() && !busy) void add(null); }}>
        <label htmlFor="host-name">Host</label>
        <input id="host-name" value={name} placeholder="ceph-client-1 or root@10.0.0.12:2222" onChange={(e) => { setName(e.target.value); setPending(null); }} />
        <label className="check">
          <input type="checkbox" checked={monitorOnly} onChange={(e) => setMonitorOnly(e.target.checked)} />
          monitor-only (a storage node: watched during runs, runs no I/O)
        </label>
        <button type="submit" disabled={!name.trim() || busy}>{busy ? 'Working…' : 'Add host'}</button>
      </form>
      {pending && (
        <div role="alertdialog" aria-labelledby="fingerprint-title" className="fingerprint">
          <h3 id="fingerprint-title">{pending.host} is not known yet</h3>
          <p>{pending.message}. It offers:</p>
          <ul>{pending.offered.map((k) => <li key={k.fingerprint}><code data-testid="fingerprint">{k.fingerprint}</code> ({k.key_type})</li>)}</ul>
          <button type="button" className="primary" disabled={busy} onClick={() => void add(pending.offered[0]!.fingerprint)}>Accept {pending.offered[0]!.key_type} key and add</button>
          <button type="button" onClick={() => setPending(null)}>Do not add</button>
        </div>
      )}
      {message && <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'hint' : 'error'} data-testid="hosts-message">{message.text}</p>}
      <table className="data" data-testid="hosts-table">
        <caption>Hosts added ({hosts.length})</caption>
        <thead><tr><th>host</th><th>role</th><th>key</th><th>last seen as</th><th>link Gb/s (set)</th><th></th></tr></thead>
        <tbody>
          {hosts.map((h) => (
            <tr key={h.name} data-host={h.name}>
              <td>{h.name}</td>
              <td data-testid="role">
                {roleLabel(h.role ?? 'client')}{' '}
                <button type="button" disabled={busy} onClick={() => void setRole(h)}>
                  {h.role === 'monitor' ? 'Make it a client' : 'Watch only'}
                </button>
              </td>
              <td><code>{h.fingerprint}</code></td>
              <td data-testid="probe">{probeSummary(tests[h.name] ?? h.probe)}</td>
              <td>
                <form className="inline" onSubmit={(e) => { e.preventDefault(); void setLink(h.name); }}>
                  <input className="narrow" inputMode="decimal" aria-label={`link speed of ${h.name} in Gb/s`} placeholder="from NIC"
                    value={links[h.name] ?? (h.link_gbps === null || h.link_gbps === undefined ? '' : String(h.link_gbps))}
                    onChange={(e) => setLinks((l) => ({ ...l, [h.name]: e.target.value }))} />
                  <button type="submit" disabled={busy}>Set</button>
                </form>
              </td>
              <td>
                <button type="button" disabled={busy} onClick={() => void test(h.name)}>Test connection</button>
                <button type="button" disabled={busy} onClick={() => void remove(h.name)} aria-label={`remove ${h.name}`}>Remove</button>
              </td>
            </tr>
          ))}
          {hosts.length === 0 && <tr><td colSpan={6} className="hint">No hosts yet: runs are local.</td></tr>}
        </tbody>
      </table>
      {hosts.length > 0 && <CephOsdHosts hosts={hosts} onChanged={refresh} />}
    </section>
  );
}

export function roleLabel(role: HostInfo['role']): string {
  return role === 'monitor' ? 'monitor-only: watched during runs' : 'client';
}
