// The app under test, started for real: browser mode (`ssdprof serve` + Debian's Chromium) or
// the Electron app. Each worker gets its own results database and scratch folder on disk.
import { _electron, chromium, expect, test as base, type Browser, type ElectronApplication, type Page } from '@playwright/test';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');
const PYTHON = join(ROOT, 'engine', '.venv', 'bin', 'python');
export const MODE = process.env.SSDPROF_E2E_MODE === 'electron' ? 'electron' : 'browser';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--no-first-run', '--disable-sync', '--disable-quic'];

export interface Running {
  /** The PID whose descendants are ours (engine, fio). */
  pid: number;
  open: () => Promise<Page>;
  stop: () => Promise<void>;
}

function diskDir(): string {
  const parent = existsSync('/var/tmp') ? '/var/tmp' : ROOT;
  return mkdtempSync(join(parent, 'ssdprof-e2e-'));
}

export class Unavailable extends Error {}

/** Browser mode from `argv` (default: `ssdprof serve`); a server that prints `UNAVAILABLE: why` throws Unavailable. */
export async function startBrowserMode(dir: string, argv = ['-m', 'ssdprof', 'serve', '--port', '0', '--db', join(dir, 'results.sqlite3')]): Promise<Running> {
  const server: ChildProcessWithoutNullStreams = spawn(PYTHON, argv, {
    // the user's own files (spec sheets) go to the test's folder, never to the home of whoever runs the suite
    cwd: ROOT, env: { ...process.env, PYTHONUNBUFFERED: '1', XDG_DATA_HOME: join(dir, 'data') },
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`ssdprof serve printed no URL: ${seen}`)), 30_000);
    server.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(seen);
      const unavailable = /UNAVAILABLE: (.*)/.exec(seen);
      if (match || unavailable) clearTimeout(timer);
      if (match) resolveUrl(match[0]);
      else if (unavailable) reject(new Unavailable(unavailable[1]));
    });
    server.on('exit', (code) => reject(new Error(`ssdprof serve exited with ${code}: ${seen}`)));
  });
  const browser: Browser = await chromium.launch({ executablePath: process.env.SSDPROF_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  return {
    pid: server.pid!,
    open: async () => {
      const page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
      await page.goto(url);
      return page;
    },
    stop: async () => {
      await browser.close();
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGTERM');
      await exited;
    },
  };
}

async function startElectron(dir: string): Promise<Running> {
  const app: ElectronApplication = await _electron.launch({
    args: [join(ROOT, 'dist', 'electron', 'electron', 'main.js'), '--no-sandbox'],
    env: { ...process.env, SSDPROF_DB: join(dir, 'results.sqlite3'), XDG_DATA_HOME: join(dir, 'data') },
  });
  return {
    pid: app.process().pid!,
    open: async () => {
      const window = await app.firstWindow();
      // each spec starts from fresh forms, as in a new browser page (forms keep what was typed for
      // the page's session: state/kept.ts)
      await window.evaluate(() => window.sessionStorage.clear());
      await window.reload();
      return window;
    },
    stop: () => app.close(),
  };
}

export const test = base.extend<{ app: Page; scratch: string }, { running: Running & { dir: string } }>({
  // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  running: [async ({}, use) => {
    const dir = diskDir();
    const running = MODE === 'electron' ? await startElectron(dir) : await startBrowserMode(dir);
    await use({ ...running, dir });
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }, { scope: 'worker' }],
  app: async ({ running }, use) => {
    const page = await running.open();
    await use(page);
    if (MODE === 'browser') await page.context().close();
  },
  scratch: async ({ running }, use) => {
    const scratch = join(running.dir, 'scratch');
    mkdirSync(scratch, { recursive: true });
    await use(scratch);
  },
});

export { expect };

/** fio processes anywhere below `pid` (Linux /proc). */
export function fioDescendants(pid: number): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const below = (p: number): boolean => {
    for (let parent = parents.get(p); parent !== undefined && parent > 1; parent = parents.get(parent)) {
      if (parent === pid) return true;
    }
    return false;
  };
  return [...names].filter(([p, name]) => name === 'fio' && below(p)).map(([p]) => p);
}

export const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');

/**
 * Waits until the designer has its lists and the engine has checked what is on screen, so the
 * form no longer moves (a click while a problem line appears above can land on the wrong control).
 */
export async function designerSettled(page: Page): Promise<void> {
  await expect(page.locator('section.designer')).toHaveAttribute('data-settled', 'true');
}

type Call = (method: string, params: object) => Promise<{ ok: boolean; result: unknown }>;

/** The engine's own answer, asked as the page asks (browser mode's /rpc, or Electron's bridge). */
export async function engineCall<T>(page: Page, method: string, params: object): Promise<T> {
  return page.evaluate(async ([m, p]) => {
    const bridge = (window as unknown as { ssdprof?: { call: Call } }).ssdprof;
    if (bridge) return (await bridge.call(m, p)).result;
    const token = window.sessionStorage.getItem('ssdprof-token') ?? '';
    const headers = { 'Content-Type': 'application/json', 'X-Ssdprof-Token': token };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: m, params: p });
    const response = await fetch('/rpc', { method: 'POST', headers, body });
    return ((await response.json()) as { result: unknown }).result;
  }, [method, params] as const) as Promise<T>;
}
