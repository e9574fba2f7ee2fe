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
      hosts.push({ name: p.host, added_at: 'now', fingerprint: p.accept_fingerprint, probe, link_gbps: null,
        role: p.role ?? 'client' });
      return { added: true, host: p.host, offered: [], probe, message: `added ${p.host}` };
    },
    'hosts.test': (p) => ({ host: p.host, probe: { ...probe, cpu_count: 8 } }),
    'hosts.remove': (p) => { hosts.splice(hosts.findIndex((h) => h.name === p.host), 1); return { deleted: true }; },
    'hosts.set_role': (p) => {
      const host = hosts.find((h) => h.name === p.host)!;
      host.role = p.role;
      return host;
    },
    'hosts.ceph_osd_hosts': (p) => ({
      via: p.via,
      osd_hosts: [
        { name: 'osd1', osds: ['osd.0', 'osd.1'], osds_up: 2, known_host: 'h2', role: p.watch ? 'monitor' : 'client' },
        { name: 'vm', osds: ['osd.2'], osds_up: 1, known_host: '', role: null },
      ],
      message: 'not reachable as SSH hosts: vm (add one with: ssdprof hosts add USER@vm --monitor-only)',
    }),
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
      .toEqual([{ host: 'h1', accept_fingerprint: null, role: 'client' },
        { host: 'h1', accept_fingerprint: FINGERPRINT, role: 'client' }]);
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

  it('adds a storage node monitor-only and can make it a client again', async () => {
    const fake = engineWithHosts();
    renderWith(fake.engine, <Hosts />);
    await userEvent.type(screen.getByLabelText('Host'), 'osd1');
    await userEvent.click(screen.getByRole('checkbox', { name: /monitor-only/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Add host' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Accept ED25519 key and add' }));
    const row = await screen.findByRole('row', { name: /osd1/ });
    expect(within(row).getByTestId('role').textContent).toContain('monitor-only: watched during runs');
    expect(fake.calls.filter((c) => c.method === 'hosts.add').at(-1)!.params).toMatchObject({ role: 'monitor' });
    await userEvent.click(within(row).getByRole('button', { name: 'Make it a client' }));
    await waitFor(() => expect(within(row).getByTestId('role').textContent).toContain('client'));
    expect(fake.calls.find((c) => c.method === 'hosts.set_role')!.params).toEqual({ host: 'osd1', role: 'client' });
  });

  it('finds the Ceph OSD hosts, names those that are no SSH host yet, and watches the known ones', async () => {
    const fake = engineWithHosts();
    await fake.engine.call('hosts.add', { host: 'h2', accept_fingerprint: FINGERPRINT });
    renderWith(fake.engine, <Hosts />);
    await screen.findByRole('row', { name: /h2/ });
    await userEvent.type(screen.getByLabelText('ceph.conf there'), '/etc/ceph/ceph.conf');
    await userEvent.click(screen.getByRole('button', { name: 'Find OSD hosts' }));
    const table = await screen.findByTestId('osd-hosts');
    expect(within(table).getByRole('row', { name: /osd1/ }).textContent).toContain('h2');
    expect(within(table).getByRole('row', { name: /vm/ }).textContent).toContain('not an SSH host yet');
    expect(screen.getByTestId('osd-hosts-message').textContent).toContain('not reachable as SSH hosts: vm');
    await userEvent.click(screen.getByRole('button', { name: 'Watch h2 during runs' }));
    await waitFor(() => expect(fake.calls.filter((c) => c.method === 'hosts.ceph_osd_hosts').map((c) => c.params))
      .toEqual([{ via: 'h2', ceph_conf: '/etc/ceph/ceph.conf', watch: false },
        { via: 'h2', ceph_conf: '/etc/ceph/ceph.conf', watch: true }]));
    expect(within(screen.getByTestId('osd-hosts')).getByRole('row', { name: /osd1/ }).textContent).toContain('watched');
  });
});
