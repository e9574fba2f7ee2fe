// @vitest-environment node
// The engine process against the real Python engine: calls, errors, restart after a crash, stop.
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineStatus } from '../contract/contract.gen';
import { ENGINE_GONE, EngineProcess } from './engine-process';
import { engineCommand } from './paths';

const root = resolve(__dirname, '..');
let dir: string;
let engine: EngineProcess;

function waitFor<T>(subscribe: (listener: (value: T) => void) => () => void, accept: (value: T) => boolean): Promise<T> {
  return new Promise((done) => {
    const stop = subscribe((value) => {
      if (accept(value)) {
        stop();
        done(value);
      }
    });
  });
}

beforeEach(() => {
  dir = mkdtempSync(join('/var/tmp', 'ssdprof-electron-'));
  engine = new EngineProcess(engineCommand(root, { SSDPROF_DB: join(dir, 'db.sqlite3') }), { restartDelayMs: 50, graceMs: 2_000 });
  engine.start();
});

afterEach(async () => {
  await engine.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('EngineProcess', () => {
  it('answers a call with the engine result', async () => {
    const reply = await engine.call('presets.list', {});
    expect(reply.ok && (reply.result as { presets: { name: string }[] }).presets.map((p) => p.name)).toContain('student');
  });

  it('returns bad params as an error reply carrying the field problems', async () => {
    const reply = await engine.call('sweep.estimate', { base: { queue_depth: 0 } });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.data?.problems[0]?.field).toBe('queue_depth');
  });

  it('restarts the engine after it dies and says so', async () => {
    const statuses: EngineStatus[] = [];
    engine.onStatus((s) => statuses.push(s));
    const ready = waitFor<EngineStatus>((l) => engine.onStatus(l), (s) => s.state === 'ready');
    const first = engine.pid!;
    process.kill(first, 'SIGKILL');
    await ready;
    expect(statuses.map((s) => s.state)).toEqual(['restarting', 'ready']);
    expect(engine.pid).not.toBe(first);
    expect((await engine.call('presets.list', {})).ok).toBe(true);
  });

  it('after a kill -9 mid-sweep, the restarted engine resumes from the last finished point; no fio is left', async () => {
    const target = join(dir, 'target');
    mkdirSync(target);
    const notes: { kind: string; point_index?: number }[] = [];
    engine.onNotification((note) => { if (note.method === 'run.event') notes.push(note.params.event); });
    const firstDone = waitFor<unknown>((l) => engine.onNotification(l), (n) => (n as { params: { event?: { kind: string } } }).params.event?.kind === 'point_finished');
    const started = await engine.call('sweep.start', {
      base: { target, runtime_s: 1, ramp_s: 0, size_bytes: '32MiB' }, factors: { queue_depth: [1, 2, 4] }, mode: 'one-at-a-time',
    });
    expect(started.ok).toBe(true);
    const sweepId = started.ok ? (started.result as { sweep_id: number }).sweep_id : -1;
    await firstDone;
    const ready = waitFor<EngineStatus>((l) => engine.onStatus(l), (s) => s.state === 'ready');
    process.kill(engine.pid!, 'SIGKILL');
    await ready;
    await expect.poll(() => holdersOf(target), { timeout: 10_000 }).toEqual([]); // fio died with its engine

    const finished = waitFor<unknown>((l) => engine.onNotification(l), (n) => (n as { params: { event?: { kind: string } } }).params.event?.kind === 'sweep_finished');
    const resumed = await engine.call('sweep.resume', { sweep_id: sweepId });
    expect(resumed.ok && (resumed.result as { count: { done: number } }).count.done).toBeGreaterThanOrEqual(1);
    await finished;
    const listed = await engine.call('runs.list', { sweep_id: sweepId });
    const depths = listed.ok ? (listed.result as { runs: { workload: { queue_depth: number } }[] }).runs.map((r) => r.workload.queue_depth) : [];
    expect([...depths].sort()).toEqual([1, 2, 4]); // every point once: none lost, none repeated
    expect(readdirSync(target)).toEqual([]); // the killed run's test file is gone too
  }, 90_000);

  it('fails pending calls when the engine dies instead of hanging', async () => {
    const pending = engine.call('engine.info', {});
    process.kill(engine.pid!, 'SIGKILL');
    const reply = await pending;
    if (!reply.ok) expect(reply.error.code).toBe(ENGINE_GONE);
  });

  it('stops the engine and answers later calls with an error', async () => {
    const pid = engine.pid!;
    await engine.stop();
    expect(() => process.kill(pid, 0)).toThrow();
    const reply = await engine.call('presets.list', {});
    expect(reply.ok).toBe(false);
  });
});

/** PIDs of processes holding a file open inside `folder` (Linux /proc; fio holds its test file). */
function holdersOf(folder: string): number[] {
  const holders: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(`${folder}/`)) holders.push(Number(pid));
      } catch {
        // closed meanwhile
      }
    }
  }
  return [...new Set(holders)];
}
