import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RunResult, WatchedHost } from '../api';
import { fullRun } from '../test/fixtures';
import { renderWith } from '../test/render';
import { fakeEngine } from '../test/fake-engine';
import { HostResults, interfaceLoad } from './HostResults';

const osd: WatchedHost = {
  host: 'osd1', role: 'monitor', os: 'Linux 6.1', cpu_count: 8, nic_speeds_mbps: { eth0: -1 }, seconds: 5,
  cpu_busy_pct_mean: 31.4,
  interfaces: [{ interface: 'eth0', rx_bytes_per_s_median: 18e3, tx_bytes_per_s_median: 9.93e6,
    link_limit_bytes_per_s: 10e6, link_limit_source: 'tbf rate on eth0' }],
  disk_busy_pct_median: { vda: 77.7 }, error: null,
};

function runWith(watched: WatchedHost[]): RunResult {
  const client = fullRun.hosts[0] ?? { host: 'h1', read: fullRun.read, write: fullRun.write };
  return {
    ...fullRun, hosts: [{ ...client, host: 'h1' } as RunResult['hosts'][number]], watched,
    monitor: [1, 2].map((t) => ({ host: 'osd1', elapsed_s: t, cpu_busy_pct: 30, net_rx_bytes_per_s: {},
      net_tx_bytes_per_s: { eth0: 9.9e6 }, disk_busy_pct: { vda: 78 } })),
  };
}

describe('HostResults', () => {
  it('shows each storage node watched: its CPU, each interface against its link, its disks', () => {
    renderWith(fakeEngine({}).engine, <HostResults run={runWith([osd, { ...osd, host: 'osd2', seconds: 0,
      cpu_busy_pct_mean: null, interfaces: [], disk_busy_pct_median: {}, error: 'osd2: connection refused' }])} />);
    const table = screen.getByTestId('watched-table');
    const row = within(table).getByRole('row', { name: /osd1/ });
    expect(row.textContent).toContain('eth0: 9.9 MB/s out, 0.0 in of 10.0 MB/s (tbf rate on eth0)');
    expect(row.textContent).toContain('vda 78');
    expect(row.textContent).toContain('31');
    expect(within(table).getByRole('row', { name: /osd2/ }).textContent).toContain('osd2: connection refused');
  });

  it('shows no watched table for a run that watched no host', () => {
    renderWith(fakeEngine({}).engine, <HostResults run={runWith([])} />);
    expect(screen.queryByTestId('watched-table')).toBeNull();
    expect(screen.getByTestId('host-table')).toBeDefined();
  });

  it('says a link without a known limit plainly', () => {
    expect(interfaceLoad({ ...osd.interfaces[0]!, link_limit_bytes_per_s: null, link_limit_source: '' }))
      .toBe('eth0: 9.9 MB/s out, 0.0 in');
  });
});
