import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { HostAddParams, HostInfo, HostProbeInfo } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { renderWith } from '../test/render';
import { Hosts, probeSummary } from './Hosts';

const probe: HostProbeInfo = {
  reachable: true, os: 'Linux 6.1', cpu_count: 4, fio_version: 'fio-3.33', fio_engines: ['io_uring', 'libaio', 'rbd', 'sync'],
  ceph_tools: ['rbd'], nics: { lo: -1, eth0: 10000 }, shaped_mbps: {}, placeholder_speed_nics: {}, error: '',
};
const FINGERPRINT = 'SHA256:abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

function engineWithHosts() {
  const hosts: HostInfo[] = [];
  return fakeEngine({
    'hosts.list': () => ({ hosts: [...hosts] }),
    'hosts.add': (p: HostAddParams) => {
      if (!p.accept_fingerprint) {
        return { added: false, host: p.host, offered: [{ key_type: 'ED25519', fingerprint: FINGERPRINT }], probe: null, message: `${p.host} is not known yet` };
      }
      hosts.push({ name: p.host, added_at: 'now', fingerprint: p.accept_fingerprint, probe, link_gbps: null });
      return { added: true, host: p.host, offered: [], probe, message: `added ${p.host}` };
    },
    'hosts.test': (p) => ({ host: p.host, probe: { ...probe, cpu_count: 8 } }),
    'hosts.remove': (p) => { hosts.splice(hosts.findIndex((h) => h.name === p.host), 1); return { deleted: true }; },
  });
}

describe('Hosts', () => {
  it('adds a host only after its fingerprint is accepted', async () => {
    const fake = engineWithHosts();
    renderWith(fake.engine, <Hosts />);
    await userEvent.type(screen.getByLabelText('Host'), 'h1');
    await userEvent.click(screen.getByRole('button', { name: 'Add host' }));
    expect((await screen.findByTestId('fingerprint')).textContent).toBe(FINGERPRINT);
    expect(within(screen.getByTestId('hosts-table')).getByText('No hosts yet: runs are local.')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Accept ED25519 key and add' }));
    const row = await screen.findByRole('row', { name: /h1/ });
    expect(within(row).getByTestId('probe').textContent).toContain('4 CPUs; fio-3.33 (io_uring, libaio, rbd)');
    expect(fake.calls.filter((c) => c.method === 'hosts.add').map((c) => c.params))
      .toEqual([{ host: 'h1', accept_fingerprint: null }, { host: 'h1', accept_fingerprint: FINGERPRINT }]);
  });

  it('tests a connection and removes a host', async () => {
    const fake = engineWithHosts();
    await fake.engine.call('hosts.add', { host: 'h2', accept_fingerprint: FINGERPRINT });
    renderWith(fake.engine, <Hosts />);
    const row = await screen.findByRole('row', { name: /h2/ });
    await userEvent.click(within(row).getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(within(row).getByTestId('probe').textContent).toContain('8 CPUs'));
    await userEvent.click(within(row).getByRole('button', { name: 'remove h2' }));
    expect(await screen.findByText('No hosts yet: runs are local.')).toBeDefined();
  });

  it('summarises a probe with NIC speeds and says when fio is missing', () => {
    expect(probeSummary(probe)).toContain('NICs: eth0 10000 Mb/s');
    expect(probeSummary({ ...probe, fio_version: '', fio_engines: [] })).toContain('fio missing');
    expect(probeSummary({ ...probe, nics: { eth0: -1 }, placeholder_speed_nics: { eth0: 'veth' } }))
      .toContain('NICs: eth0 (veth: no real speed)');
    expect(probeSummary({ ...probe, reachable: false, error: 'connection refused' })).toBe('unreachable: connection refused');
  });
});
