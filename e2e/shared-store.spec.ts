// A store three people share, read in History: alice's sweep that ended, bob's whose ssdprof was
// killed mid-sweep (interrupted: resumable), and carol's running now (a live process holds it). Each
// sweep is measured by the real command line with its own login (LOGNAME/USER), on the store the app
// serves; History draws each standing as the engine read it, with who ran it and where.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SCREENSHOTS, expect, test } from './fixtures';

const PYTHON = join(ROOT, 'engine', '.venv', 'bin', 'python');
const SHORT = ['--runtime', '1', '--ramp', '0', '--size', '16MiB'];

interface Listed { sweeps: { id: number; owner: string; standing: string; runs: number }[] }

test('History shows each shared sweep running, interrupted or done, with who ran it', async ({ app: page, running }) => {
  const db = join(running.dir, 'results.sqlite3');
  const env = (user: string) => ({ ...process.env, LOGNAME: user, USER: user, XDG_DATA_HOME: join(running.dir, 'data') });
  const target = (user: string) => { const dir = join(running.dir, 'scratch', user); mkdirSync(dir, { recursive: true }); return dir; };
  const listed = (): Listed => JSON.parse(execFileSync(PYTHON, ['-m', 'ssdprof', 'sweeps', 'list', '--json', '--db', db],
    { cwd: ROOT, env: env('reader') }).toString()) as Listed;
  const sweepOf = (user: string) => () => listed().sweeps.find((s) => s.owner === user);
  const sweep = (user: string, vary: string): ChildProcess => spawn(PYTHON,
    ['-m', 'ssdprof', 'sweep', '--vary', vary, ...SHORT, '--target', target(user), '--db', db], { cwd: ROOT, env: env(user), stdio: 'ignore' });

  execFileSync(PYTHON, ['-m', 'ssdprof', 'sweep', '--vary', 'qd=1,2', ...SHORT, '--target', target('alice'), '--db', db],
    { cwd: ROOT, env: env('alice'), stdio: 'ignore' });
  const bob = sweep('bob', 'qd=1,2,3,4,5,6');
  await expect.poll(() => sweepOf('bob')()?.runs ?? 0, { timeout: 60_000 }).toBeGreaterThan(0);
  bob.kill('SIGKILL');
  const carol = sweep('carol', 'qd=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20');
  try {
    await expect.poll(() => sweepOf('carol')()?.runs ?? 0, { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => sweepOf('bob')()?.standing, { timeout: 30_000 }).toBe('interrupted');

    await page.getByRole('tab', { name: 'History' }).click();
    const table = page.getByTestId('history-sweeps');
    const row = (user: string) => table.locator('tbody tr').filter({ hasText: `${user} on ` });
    await expect(row('carol').getByTestId('sweep-standing')).toHaveText('running');
    await expect(row('bob').getByTestId('sweep-standing')).toHaveText('interrupted');
    await expect(row('alice').getByTestId('sweep-standing')).toHaveText('done');
    await expect(row('alice').locator('td.num')).toHaveText('2');  // its two points
    await page.getByTestId('history-sweeps').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'history-sweeps.png') });

    carol.kill('SIGINT');  // Ctrl-C: the sweep ends cancelled, its points kept
    await expect.poll(() => sweepOf('carol')()?.standing, { timeout: 60_000 }).toBe('cancelled');
    await table.getByRole('button', { name: 'Refresh' }).click();
    await expect(row('carol').getByTestId('sweep-standing')).toHaveText('cancelled');
  } finally {
    carol.kill('SIGKILL');
  }
});
