// The engine as a child process speaking JSON-RPC over stdio (one JSON document per line).
// Restarts it when it dies, telling the renderer; stops it, and so its fio, with the app.
import { spawn as nodeSpawn, type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ERROR_CODES, type EngineStatus } from '../contract/contract.gen';
import type { Notification, Reply, RpcErrorBody } from '../contract/engine-api';

export interface EngineCommand {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface EngineProcessOptions {
  spawn?: (command: string, args: string[], options: SpawnOptionsWithoutStdio) => ChildProcessWithoutNullStreams;
  /** Restarts allowed within `restartWindowMs` before giving up. */
  maxRestarts?: number;
  restartWindowMs?: number;
  restartDelayMs?: number;
  /** How long stop() waits after closing stdin before SIGTERM, and after SIGTERM before SIGKILL. */
  graceMs?: number;
}

type Pending = (reply: Reply<unknown>) => void;

export const ENGINE_GONE = ERROR_CODES.engine_gone;

export class EngineProcess {
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly pending = new Map<number, Pending>();
  private readonly notificationListeners = new Set<(note: Notification) => void>();
  private readonly statusListeners = new Set<(status: EngineStatus) => void>();
  private nextId = 0;
  private stopping = false;
  private restarts: number[] = [];
  private stderrTail: string[] = [];
  private readonly options: Required<EngineProcessOptions>;

  constructor(private readonly command: EngineCommand, options: EngineProcessOptions = {}) {
    this.options = {
      spawn: options.spawn ?? ((c, a, o) => nodeSpawn(c, a, o)),
      maxRestarts: options.maxRestarts ?? 5,
      restartWindowMs: options.restartWindowMs ?? 60_000,
      restartDelayMs: options.restartDelayMs ?? 500,
      graceMs: options.graceMs ?? 5_000,
    };
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    const { command, args, cwd, env } = this.command;
    const child = this.options.spawn(command, args, { cwd, env: { ...process.env, ...env, PYTHONUNBUFFERED: '1' } });
    this.child = child;
    this.stderrTail = [];
    createInterface({ input: child.stdout }).on('line', (line) => this.receive(line));
    createInterface({ input: child.stderr }).on('line', (line) => {
      this.stderrTail = [...this.stderrTail, line].slice(-5);
    });
    child.on('error', (error) => this.exited(child, `could not start ${command}: ${error.message}`));
    child.on('exit', (code, signal) => this.exited(child, `exit ${signal ?? code}`));
  }

  call(method: string, params: unknown): Promise<Reply<unknown>> {
    const child = this.child;
    if (!child || this.stopping) return Promise.resolve(gone('the engine is not running'));
    this.nextId += 1;
    const id = this.nextId;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  onNotification(listener: (note: Notification) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  onStatus(listener: (status: EngineStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Close stdin (the engine cancels a running sweep, stopping fio, and exits); then signal by PID. */
  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    const escalate = async (signal: NodeJS.Signals) => {
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), this.options.graceMs).unref());
      if ((await Promise.race([exited, timeout])) === 'timeout' && child.pid) process.kill(child.pid, signal);
    };
    await escalate('SIGTERM');
    await escalate('SIGKILL');
    await exited;
  }

  private receive(line: string): void {
    let message: { id?: number; method?: string; params?: unknown; result?: unknown; error?: RpcErrorBody };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return; // not ours: the engine writes only JSON on stdout, so this is a stray library print
    }
    if (typeof message.id === 'number' && this.pending.has(message.id)) {
      const resolve = this.pending.get(message.id)!;
      this.pending.delete(message.id);
      resolve(message.error ? { ok: false, error: message.error } : { ok: true, result: message.result });
    } else if (typeof message.method === 'string') {
      for (const listener of this.notificationListeners) listener({ method: message.method, params: message.params } as Notification);
    }
  }

  private exited(child: ChildProcessWithoutNullStreams, how: string): void {
    if (this.child !== child) return;
    this.child = null;
    const detail = this.stderrTail.length ? `: ${this.stderrTail.join(' / ')}` : '';
    for (const resolve of this.pending.values()) resolve(gone(`the engine stopped (${how})${detail}`));
    this.pending.clear();
    if (this.stopping) return;
    const now = Date.now();
    this.restarts = [...this.restarts.filter((t) => now - t < this.options.restartWindowMs), now];
    if (this.restarts.length > this.options.maxRestarts) {
      this.emitStatus({ state: 'stopped', message: `The engine keeps stopping (${how}${detail}); restart ssdprof. If it persists, run \`npm run setup\`.` });
      return;
    }
    this.emitStatus({ state: 'restarting', message: `The engine stopped unexpectedly (${how}); restarting it. A running sweep was interrupted: its finished points are kept, and it can be resumed.` });
    setTimeout(() => {
      if (this.stopping) return;
      this.start();
      this.emitStatus({ state: 'ready', message: 'The engine was restarted.' });
    }, this.options.restartDelayMs).unref();
  }

  private emitStatus(status: EngineStatus): void {
    for (const listener of this.statusListeners) listener(status);
  }
}

function gone(message: string): Reply<never> {
  return { ok: false, error: { code: ENGINE_GONE, message } };
}
