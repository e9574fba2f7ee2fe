// UI benchmark, browser mode against the real engine (`ssdprof serve`) in Debian's Chromium.
// Prints, in one run, with the goals from issue 4 (measured, never asserted):
//   (a) start-up: server process started -> URL printed -> designer interactive (goal < 2 s from URL)
//   (b) the Results view of a sweep of 20 points x 50 repeats (1000 runs) and of a 50-run sweep,
//       imported from the real fio output in engine/tests/data/fio (goal < 200 ms to draw)
//   (c) one live update: a progress event in -> the three live charts redrawn (goal < 16 ms)
//   (d) the full study of bench/study_scale.py in the browser (issue 42; bench/ui-study.mjs):
//       Models tab, find, Predict, Scaling and Groups < 1 s; Results on 100 runs < 0.5 s; the PDF of
//       100 runs < 2 s; no view over 5,000 page elements; the server's peak memory beside them
// Times inside the page come from performance.now() and the renderer's `ssdprof:chart-drawn`
// performance marks (src/charts/ChartFigure.tsx); page and node clocks are compared in epoch ms.
//   npm run bench:ui                        (SSDPROF_CHROMIUM overrides /usr/bin/chromium)
//   npm run bench:ui -- --only study        (d) alone; SSDPROF_STUDY_DB=/var/tmp/study.sqlite3 keeps
//                                           the study's store between runs (built once, ~4 minutes)
import { chromium } from 'playwright-core';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadNow, measureStudy, reportStudy, serverMemory, studyStore, watchChanges } from './ui-study.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = join(ROOT, 'engine', '.venv', 'bin', 'python');
const CHROMIUM = process.env.SSDPROF_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--no-first-run', '--disable-sync', '--disable-quic'];
const STARTS = 3;
const VIEW_TRIALS = 3;
const LIVE_HISTORY = 300; // samples already on the live charts when measuring (a 5-minute run)
const LIVE_UPDATES = 60;
const GOALS = { interactiveMs: 2000, resultsMs: 200, liveMs: 16 };

const epochNow = () => performance.timeOrigin + performance.now();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];
const ms = (value) => `${value.toFixed(1)} ms`;
const verdict = (value, goal) => `goal < ${goal} ms: ${value < goal ? 'MET' : 'NOT MET'} (${(value / goal).toFixed(2)} of the goal)`;

// --------------------------------------------------------------------------- set-up

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function ensureRenderer() {
  const index = join(ROOT, 'dist', 'renderer', 'index.html');
  const sources = ['src', 'index.html', 'vite.config.mts'].map((p) => join(ROOT, p));
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  console.log('building the renderer (dist/renderer is missing or older than src/) ...');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
}

/** `ssdprof serve` on a free port; resolves once it printed its URL. */
function startServer(db) {
  const startedAt = epochNow();
  const server = spawn(PYTHON, ['-m', 'ssdprof', 'serve', '--port', '0', '--db', db], { cwd: ROOT, env: { ...process.env, PYTHONUNBUFFERED: '1' } });
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`ssdprof serve printed no URL in 30 s: ${seen}`)), 30_000);
    server.stdout.on('data', (chunk) => {
      seen += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[0], startedAt, readyAt: epochNow(), stop, pid: server.pid });
      }
    });
    server.stderr.on('data', (chunk) => { seen += chunk.toString(); });
    server.on('exit', (code) => reject(new Error(`ssdprof serve exited with ${code}: ${seen}`)));
  });
}

// Runs in the page before the app: collects the chart-drawn marks, notes when a sweep's runs
// arrived over HTTP, and keeps the server-sent-events handler so (c) can feed it events.
function instrument() {
  const bench = { drawn: [], listArrivedAt: null, listLimit: null, deliver: null };
  window.__bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'ssdprof:chart-drawn') bench.drawn.push({ id: entry.detail, t: entry.startTime });
  }).observe({ type: 'mark' });
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    const sweepList = body.includes('"runs.list"') && body.includes('"sweep_id"');
    if (sweepList && bench.listLimit) {
      const request = JSON.parse(body);
      init = { ...init, body: JSON.stringify({ ...request, params: { ...request.params, limit: bench.listLimit } }) };
    }
    const response = await realFetch(input, init);
    if (sweepList) {
      await response.clone().arrayBuffer();
      bench.listArrivedAt = performance.now();
    }
    return response;
  };
  const RealEventSource = window.EventSource;
  window.EventSource = class extends RealEventSource {
    set onmessage(handler) { bench.deliver = handler; super.onmessage = handler; }
    get onmessage() { return super.onmessage; }
  };
}

// The designer is interactive once its form is drawn (after engine.info) and Start is enabled.
const designerInteractive = () => {
  const start = [...document.querySelectorAll('button[type=submit]')].find((b) => b.textContent === 'Start');
  return start && !start.disabled && document.querySelector('input[name=sweep-kind]') ? performance.timeOrigin + performance.now() : false;
};

// --------------------------------------------------------------------------- (a) start-up

async function measureStartup(browser, scratch) {
  const trials = [];
  for (let i = 0; i < STARTS; i += 1) {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage(); // the browser is up before the server starts: only the app is timed
    const server = await startServer(join(scratch, `startup-${i}.sqlite3`));
    try {
      await page.goto(server.url);
      const interactiveAt = await (await page.waitForFunction(designerInteractive, null, { polling: 'raf', timeout: 30_000 })).jsonValue();
      trials.push({ toUrl: server.readyAt - server.startedAt, urlToInteractive: interactiveAt - server.readyAt, total: interactiveAt - server.startedAt });
    } finally {
      await context.close();
      await server.stop();
    }
  }
  return trials;
}

// --------------------------------------------------------------------------- (b) results view

async function openSweep(page, sweepId, listLimit) {
  await page.click('#tab-history');
  await page.waitForSelector(`[data-testid=history-table] button:text-is("Open sweep ${sweepId}")`, { timeout: 60_000 });
  const clickedAt = await page.evaluate(([id, limit]) => {
    window.__bench.listArrivedAt = null;
    window.__bench.listLimit = limit;
    const button = [...document.querySelectorAll('[data-testid=history-table] button')].find((b) => b.textContent === `Open sweep ${id}`);
    const at = performance.now();
    button.click();
    return at;
  }, [sweepId, listLimit]);
  const handle = await page.waitForFunction(([id, since]) => {
    const bench = window.__bench;
    const title = document.querySelector('#results-title')?.textContent ?? '';
    if (!title.includes(`sweep ${id}`) || !document.querySelector('[data-chart=percentiles] canvas') || bench.listArrivedAt === null) return false;
    const charts = [...document.querySelectorAll('figure.chart')].filter((f) => f.querySelector('canvas')).map((f) => f.dataset.chart);
    const last = charts.map((chart) => Math.max(-1, ...bench.drawn.filter((d) => d.id === chart && d.t >= since).map((d) => d.t)));
    if (last.some((t) => t < 0)) return false;
    const runs = Number(/(\d+) run\(s\)/.exec(document.querySelector('.results .hint')?.textContent ?? '')?.[1] ?? 0);
    return { drawnAt: Math.max(...last), listArrivedAt: bench.listArrivedAt, charts: charts.length, runs, rows: document.querySelectorAll('table.data tbody tr').length };
  }, [sweepId, clickedAt], { polling: 'raf', timeout: 60_000 });
  const done = await handle.jsonValue();
  return { total: done.drawnAt - clickedAt, rpc: done.listArrivedAt - clickedAt, draw: done.drawnAt - done.listArrivedAt, charts: done.charts, runs: done.runs, rows: done.rows };
}

async function measureResults(page, sweeps) {
  const views = {};
  for (const [label, sweepId, listLimit] of sweeps) {
    views[label] = [];
    for (let i = 0; i < VIEW_TRIALS; i += 1) views[label].push(await openSweep(page, sweepId, listLimit));
  }
  return views;
}

// --------------------------------------------------------------------------- (c) live update

async function measureLive(page) {
  await page.click('#tab-live');
  return page.evaluate(async ([history, updates]) => {
    const bench = window.__bench;
    if (!bench.deliver) throw new Error('the page opened no event stream');
    const token = new URLSearchParams(location.search).get('token') ?? sessionStorage.getItem('ssdprof-token');
    const reply = await fetch('/rpc', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Ssdprof-Token': token },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'runs.get', params: { run_id: 1 } }) });
    const workload = (await reply.json()).result.run.workload;
    const send = (event) => bench.deliver(new MessageEvent('message', { data: JSON.stringify({ jsonrpc: '2.0', method: 'run.event', params: { event } }) }));
    const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
    const duration = workload.runtime_s + workload.ramp_s + history + updates;
    let second = 0;
    // the events' shapes: contract/contract.gen.ts (SweepStarted, PointStarted, PointProgress)
    const count = { done: 0, total: 1, bound: 'exact', unit: 'point', note: '', text: '1 point' };
    const progress = () => {
      second += 1;
      const wave = 1 + 0.1 * Math.sin(second / 7);
      return { kind: 'point_progress', number: 1, count, point_elapsed_s: second, point_duration_s: duration, eta_s: duration - second,
        drive_temperature_c: null,
        sample: { elapsed_s: second, interval_s: 1, read_iops: 12000 * wave, write_iops: 0, read_bw_bytes_per_s: 49_152_000 * wave,
          write_bw_bytes_per_s: 0, read_lat_ns_mean: 80_000 / wave, write_lat_ns_mean: null, read_lat_ns_p99: 210_000 / wave,
          write_lat_ns_p99: null, lat_ns_mean: 80_000 / wave, lat_ns_p99: 210_000 / wave, host: '', ramping: false } };
    };
    send({ kind: 'sweep_started', sweep_id: null, name: 'bench', count, estimated_s: duration, engine: 'fio', engine_reason: 'bench/ui.mjs' });
    send({ kind: 'point_started', index: 0, repeat: 0, number: 1, count, round: null, workload: { ...workload, runtime_s: duration }, eta_s: duration });
    for (let i = 0; i < history; i += 1) send(progress());
    await frame();
    await frame();
    const charts = ['live-iops', 'live-bw', 'live-latency'];
    const times = [];
    for (let i = 0; i < updates; i += 1) {
      const sentAt = performance.now();
      send(progress());
      let last = null;
      for (let wait = 0; wait < 200 && last === null; wait += 1) {
        await new Promise((done) => setTimeout(done, 0));
        const drawn = charts.map((id) => Math.max(-1, ...bench.drawn.filter((d) => d.id === id && d.t >= sentAt).map((d) => d.t)));
        if (drawn.every((t) => t >= 0)) last = Math.max(...drawn);
      }
      if (last === null) throw new Error('the live charts were not redrawn after a progress event');
      times.push(last - sentAt);
      bench.drawn = [];
      await frame();
    }
    return { times, samples: document.querySelectorAll('[data-chart=live-iops] tbody tr').length / 2 };
  }, [LIVE_HISTORY, LIVE_UPDATES]);
}

// --------------------------------------------------------------------------- report

function report({ version, startup, views, live, fixtureRuns }) {
  const lines = [];
  const list = (values) => `[${values.map((v) => v.toFixed(0)).join(', ')}]`;
  lines.push(`ssdprof UI benchmark: browser mode, real engine, Chromium ${version}, ${new Date().toISOString()}`);
  lines.push('');
  lines.push(`(a) start-up, ${startup.length} cold starts (new server process, new database, new browser context):`);
  const toUrl = startup.map((s) => s.toUrl);
  const urlTo = startup.map((s) => s.urlToInteractive);
  const total = startup.map((s) => s.total);
  lines.push(`    server process started -> URL printed          median ${ms(median(toUrl))}  ${list(toUrl)}`);
  lines.push(`    URL printed -> designer interactive            median ${ms(median(urlTo))}  ${list(urlTo)}  ${verdict(median(urlTo), GOALS.interactiveMs)}`);
  lines.push(`    server process started -> designer interactive median ${ms(median(total))}  ${list(total)}  ${verdict(median(total), GOALS.interactiveMs)}`);
  lines.push('');
  lines.push(`(b) Results view drawn (every chart, the detailed run and the table), ${VIEW_TRIALS} openings each from History;`);
  lines.push(`    runs imported from ${fixtureRuns} real fio results in engine/tests/data/fio:`);
  for (const [label, trials] of Object.entries(views)) {
    const draw = trials.map((t) => t.draw);
    const all = trials.map((t) => t.total);
    lines.push(`    ${label}: ${trials[0].runs} runs shown, ${trials[0].charts} charts, ${trials[0].rows} table rows`);
    lines.push(`      runs arrived -> drawn                        median ${ms(median(draw))}  ${list(draw)}  ${verdict(median(draw), GOALS.resultsMs)}`);
    lines.push(`      click -> drawn (incl. runs.list over HTTP)   median ${ms(median(all))}  ${list(all)}  (runs.list ${ms(median(trials.map((t) => t.rpc)))})`);
  }
  lines.push('');
  lines.push(`(c) live update: a progress event delivered -> IOPS, bandwidth and latency charts redrawn;`);
  lines.push(`    ${live.times.length} updates with ${LIVE_HISTORY}+ samples on the charts:`);
  lines.push(`    median ${ms(median(live.times))}, p95 ${ms(pct(live.times, 95))}, max ${ms(Math.max(...live.times))}  ${verdict(median(live.times), GOALS.liveMs)}`);
  lines.push(`    (p95 ${verdict(pct(live.times, 95), GOALS.liveMs)})`);
  console.log(lines.join('\n'));
}

async function measureBasics(browser, scratch) {
  const startup = await measureStartup(browser, scratch);
  const db = join(scratch, 'results.sqlite3');
  const made = JSON.parse(execFileSync(PYTHON, [join(ROOT, 'bench', 'ui_store.py'), db, '--sweep', '20x50', '--sweep', '10x5'], { cwd: ROOT }).toString());
  const server = await startServer(db);
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    await context.addInitScript(instrument);
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForFunction(designerInteractive, null, { polling: 'raf', timeout: 30_000 });
    const views = await measureResults(page, [
      ['50 runs (10 points x 5 repeats)', made.sweeps['10x5'], null],
      ['1000 runs (20 points x 50 repeats)', made.sweeps['20x50'], null],
    ]);
    const live = await measureLive(page);
    await context.close();
    report({ version: browser.version(), startup, views, live, fixtureRuns: made.fixture_runs });
  } finally {
    await server.stop();
  }
}

async function measureFullStudy(browser, scratch) {
  const built = studyStore(PYTHON, ROOT, scratch);
  const load = { before: loadNow() };
  const server = await startServer(built.db);
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
    await context.addInitScript(watchChanges);
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForFunction(designerInteractive, null, { polling: 'raf', timeout: 30_000 });
    const views = await measureStudy(page, built.results_sweep, server.pid);
    load.after = loadNow();
    console.log(reportStudy({ views, memory: serverMemory(server.pid), built, load }));
    await context.close();
  } finally {
    await server.stop();
  }
}

async function main() {
  if (!existsSync(PYTHON)) throw new Error('engine/.venv is missing: run npm run setup');
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt install chromium, or set SSDPROF_CHROMIUM`);
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
  ensureRenderer();
  const scratch = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : ROOT, 'ssdprof-ui-bench-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    if (only !== 'study') await measureBasics(browser, scratch);
    if (only !== 'basics') {
      console.log('');
      await measureFullStudy(browser, scratch);
    }
  } finally {
    await browser.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
