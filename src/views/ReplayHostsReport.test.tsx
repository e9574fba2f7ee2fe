import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ReplayResult } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { renderWith } from '../test/render';
import recorded from '../test/replay-hosts.json';
import { ReplayHostsReport } from './ReplayHostsReport';

// The engine's answer to replay.get for a real replay (ssdprof replay --host h1 --host h2 --split --json on the SSH
// test hosts of engine/tests/infra): 60 I/Os over 2 s split across two hosts, each playing its share from their
// common start (engine/tests/model/test_replay_results.py holds it to the engine's model).
const result = recorded as unknown as ReplayResult;

describe('ReplayHostsReport', () => {
  it("shows each host's I/Os, bytes and span replayed beside what it was given, as the engine counted them", () => {
    renderWith(fakeEngine({}).engine, <ReplayHostsReport result={result} />);
    expect(screen.getByTestId('replay-hosts-mode').textContent).toContain(`On h1, h2: ${result.hosts_label}`);
    const table = screen.getByTestId('replay-hosts-table');
    for (const host of result.hosts) {
      const cells = within(table.querySelector(`tr[data-host="${host.host}"]`) as HTMLElement).getAllByRole('cell');
      expect(cells[0]!.textContent).toBe(`${host.read_io_count} / ${host.recorded_read_count}`);
      expect(cells[1]!.textContent).toBe(`${host.write_io_count} / ${host.recorded_write_count}`);
      expect(cells[3]!.textContent).toBe(`${host.replayed_span_s!.toFixed(2)} / ${host.recorded_span_s.toFixed(2)}`);
      expect(cells[5]!.textContent).toBe(`${host.late_over_10ms_pct!.toFixed(1)} %`);  // issued > 10 ms late
      expect(screen.getByText(new RegExp(`^${host.host}: replayed in`)).textContent).toContain(host.timing_sentence);
    }
    const shares = result.hosts.reduce((n, h) => n + h.recorded_read_count + h.recorded_write_count, 0);
    expect(shares).toBe(result.spec.recorded.io_count);  // split: each I/O given to one host
  });

  it('draws each host replayed beside recorded, and nothing on this machine', () => {
    renderWith(fakeEngine({}).engine, <ReplayHostsReport result={result} />);
    const chart = document.querySelector('[data-chart="replay-host-rates"]');
    expect(chart?.textContent).toContain('h1 replayed');
    expect(chart?.textContent).toContain('h2 recorded');
    const { container } = renderWith(fakeEngine({}).engine, <ReplayHostsReport result={{ ...result, hosts: [] }} />);
    expect(container.textContent).toBe('');
  });
});
