// A Ceph cluster's OSD hosts, as its own map names them (the engine runs `ceph osd tree` on a host
// that reaches the cluster), each beside the known host it is; "Watch" marks those monitor-only.
import { useState } from 'react';
import { EngineError, useEngine, type CephOsdHostsResult, type HostInfo } from '../api';

export function CephOsdHosts(
  { hosts, onChanged }: { hosts: HostInfo[]; onChanged: () => Promise<void> },
) {
  const engine = useEngine();
  const withCeph = hosts.filter((h) => h.probe.ceph_tools.includes('ceph'));
  const [via, setVia] = useState('');
  const [conf, setConf] = useState('');
  const [found, setFound] = useState<CephOsdHostsResult | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const chosen = via || withCeph[0]?.name || hosts[0]?.name || '';

  async function ask(watch: boolean) {
    setBusy(true);
    setError('');
    try {
      const params = { via: chosen, ceph_conf: conf.trim(), watch };
      setFound(await engine.call('hosts.ceph_osd_hosts', params));
      if (watch) await onChanged();
    } catch (e) {
      const problems = e instanceof EngineError ? e.problems.map((p) => p.message).join('; ') : '';
      setError(problems || (e instanceof Error ? e.message : String(e)));
    } finally {
      setBusy(false);
    }
  }

  const known = found?.osd_hosts.filter((h) => h.known_host) ?? [];
  return (
    <section aria-labelledby="osd-hosts-title" className="osd-hosts">
      <h3 id="osd-hosts-title">Ceph storage nodes</h3>
      <p className="hint">
        Find the cluster&apos;s OSD hosts from its own map, asked on a host that reaches it, and
        watch them during runs.
      </p>
      <form className="field inline"
        onSubmit={(e) => { e.preventDefault(); if (chosen && !busy) void ask(false); }}>
        <label htmlFor="osd-via">asked on</label>
        <select id="osd-via" value={chosen} onChange={(e) => setVia(e.target.value)}>
          {hosts.map((h) => <option key={h.name} value={h.name}>{h.name}</option>)}
        </select>
        <label htmlFor="osd-conf">ceph.conf there</label>
        <input id="osd-conf" value={conf} placeholder="ceph's default"
          onChange={(e) => setConf(e.target.value)} />
        <button type="submit" disabled={!chosen || busy}>
          {busy ? 'Asking…' : 'Find OSD hosts'}
        </button>
      </form>
      {error && <p role="alert" className="error">{error}</p>}
      {found && (
        <>
          <p role="status" className="hint" data-testid="osd-hosts-message">{found.message}</p>
          <table className="data" data-testid="osd-hosts">
            <caption>OSD hosts in the cluster&apos;s map</caption>
            <thead>
              <tr><th>OSD host</th><th>OSDs (up)</th><th>known host</th><th>role</th></tr>
            </thead>
            <tbody>
              {found.osd_hosts.map((h) => (
                <tr key={h.name} data-host={h.name}>
                  <td>{h.name}</td>
                  <td>{h.osds.join(', ')} ({h.osds_up} up)</td>
                  <td>{h.known_host || 'not an SSH host yet: add it above as monitor-only'}</td>
                  <td>{h.role === 'monitor' ? 'watched' : h.role ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {known.length > 0 && (
            <button type="button" disabled={busy} onClick={() => void ask(true)}>
              Watch {known.length === 1 ? known[0]!.known_host : `these ${known.length} hosts`}
              {' '}during runs
            </button>
          )}
        </>
      )}
    </section>
  );
}
