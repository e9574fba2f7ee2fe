import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ProgressSample, WatchedHost } from '../api';
import { spreadColour } from '../charts/ChartFigure';
import { LiveHosts, hostsToWatch } from './LiveHosts';

function sample(host: string, elapsed: number, iops: number): ProgressSample {
  return {
    host, elapsed_s: elapsed, interval_s: null, start_s: null, ramping: false, read_iops: iops, write_iops: 0, read_bw_bytes_per_s: iops * 4096, write_bw_bytes_per_s: 0,
    read_lat_ns_mean: 100_000, write_lat_ns_mean: null, read_lat_ns_p99: 400_000, write_lat_ns_p99: null, lat_ns_mean: 100_000, lat_ns_p99: 400_000,
  };
}

/** 16 hosts 5 s in: h7 at a quarter of the others' rate, h12 silent since second 1. */
function sixteen(): Record<string, ProgressSample[]> {
  const hosts: Record<string, ProgressSample[]> = {};
  for (let k = 1; k <= 16; k += 1) {
    const name = `h${k}`;
    const last = k === 12 ? 1 : 5;
    hosts[name] = Array.from({ length: last }, (_, i) => sample(name, i + 1, k === 7 ? 250 : 1000));
  }
  return hosts;
}

describe('LiveHosts at 16 hosts', () => {
  it('shows one compact row per host in natural order and names the slow and the silent host', () => {
    render(<LiveHosts hosts={sixteen()} latestS={5} running />);
    const table = screen.getByTestId('live-hosts');
    expect(table.className).toContain('compact');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-host'))).toEqual(Array.from({ length: 16 }, (_, i) => `h${i + 1}`));
    const watch = screen.getByTestId('hosts-to-watch').textContent ?? '';
    expect(watch).toContain('h7: slow');
    expect(watch).toContain('h12: no data for 4 s');
    expect(watch).not.toMatch(/h(1|2|3|16):/);
  });

  it('names nobody when every host keeps pace', () => {
    const even = sixteen();
    even.h7 = even.h1!.map((s) => ({ ...s, host: 'h7' }));
    even.h12 = even.h1!.map((s) => ({ ...s, host: 'h12' }));
    expect(hostsToWatch(even, 5, true)).toEqual([]);
  });

  it('gives 16 series 16 different colours', () => {
    const colours = Array.from({ length: 16 }, (_, i) => spreadColour(i, 16));
    expect(new Set(colours).size).toBe(16);
  });
});

describe('LiveHosts with a storage node watched', () => {
  it('shows the watched host as the engine summed up the latest finished point, beside the clients', () => {
    const osd: WatchedHost = {
      host: 'osd1', role: 'monitor', os: 'Linux', cpu_count: 8, nic_speeds_mbps: {}, seconds: 5, cpu_busy_pct_mean: 12,
      interfaces: [{ interface: 'eth0', rx_bytes_per_s_median: 0, tx_bytes_per_s_median: 118e6,
        link_limit_bytes_per_s: 125e6, link_limit_source: 'NIC speed of eth0' }],
      disk_busy_pct_median: { sdb: 40 }, error: null,
    };
    render(<LiveHosts hosts={{ h1: [sample('h1', 1, 1000)] }} latestS={1} running watched={[osd]} />);
    const row = within(screen.getByTestId('watched-table')).getByRole('row', { name: /osd1/ });
    expect(row.textContent).toContain('eth0: 118.0 MB/s out, 0.0 in of 125.0 MB/s (NIC speed of eth0)');
    expect(within(screen.getByTestId('live-hosts')).queryByRole('row', { name: /osd1/ })).toBeNull();
  });
});
