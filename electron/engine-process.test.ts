// @vitest-environment node
// The engine process against the real Python engine: calls, errors, restart after a crash, stop.
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineStatus } from '../src/api/contract.gen';
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
