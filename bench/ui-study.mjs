// The full study in the browser (issue 42): the store of bench/study_scale.py (8,640 runs x 8 hosts,
// and a sweep of 100 runs), served by `ssdprof serve`, used in Debian's Chromium as a lab engineer
// would: Results and its PDF on the 100 runs, then Models on the whole study (the tab, find,
// Predict, Scaling, Groups). Each action is timed from the click (or the last key typed) to the last
// change painted on screen: the page is watched for DOM changes and chart draws, and an action is
// over once no engine request is in flight and nothing has changed for QUIET_MS; its time runs to
// the frame after the one that drew its last change. Best of 3 (and the median) beside each goal, the page's
// element count after each action, the server's CPU time during it (what other load on the machine
// does not inflate), and the server's peak resident memory (VmHWM) at the end.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const TRIALS = 3;
const QUIET_MS = 700;
const GOALS = { models: 1000, find: 1000, predict: 1000, scaling: 1000, groups: 1000, results: 500, pdf: 2000, elements: 5000 };

/** Runs in the page before the app: counts engine requests in flight and notes the frame after every change. */
export function watchChanges() {
  const watch = { inflight: 0, changedAt: 0, paintedAt: 0, pending: false };
  window.__watch = watch;
  const changed = () => {
    watch.changedAt = performance.now();
    if (watch.pending) return;
    watch.pending = true;
    // the frame after the one that drew the change: its layout and paint are done by then
    requestAnimationFrame(() => requestAnimationFrame(() => {
      watch.pending = false;
      watch.paintedAt = Math.max(watch.paintedAt, performance.now());
    }));
  };
  new PerformanceObserver((list) => {
    if (list.getEntries().some((e) => e.name === 'ssdprof:chart-drawn')) changed();
  }).observe({ type: 'mark' });
  const start = () => new MutationObserver(changed).observe(document.documentElement,
    { subtree: true, childList: true, characterData: true, attributes: true });
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start);
  const realFetch = window.fetch.bind(window);
  window.fetch = async (...args) => {
    watch.inflight += 1;
    try {
      const response = await realFetch(...args);
      await response.clone().arrayBuffer();
      return response;
    } finally {
      watch.inflight -= 1;
      changed();
    }
  };
}

let serverPid = null;

/** CPU seconds the server process has used (user + system), or NaN off Linux: the engine's share of
 *  an action, which the machine's other load does not inflate as it does the wall clock. */
function serverCpuS() {
  try {
    const fields = readFileSync(`/proc/${serverPid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

/** The time from `act` (run in the page, returning its start time) to the last change painted, and
 *  the server's CPU time meanwhile. */
async function timed(page, act, arg) {
  const cpuBefore = serverCpuS();
  const startedAt = await page.evaluate(act, arg);
  const handle = await page.waitForFunction(([since, quiet]) => {
    const w = window.__watch;
    const now = performance.now();
    if (w.inflight > 0 || w.pending || now - Math.max(w.changedAt, since) < quiet) return false;
    return { ms: Math.max(w.paintedAt, since) - since, elements: document.getElementsByTagName('*').length };
  }, [startedAt, QUIET_MS], { polling: 50, timeout: 180_000 });
  return { ...(await handle.jsonValue()), engineCpuS: serverCpuS() - cpuBefore };
}

const click = (selector) => {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`nothing matches ${selector}`);
  const at = performance.now();
  element.click();
  return at;
};

const scrollTo = (selector) => {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`nothing matches ${selector}`);
  const at = performance.now();
  element.scrollIntoView();
  return at;
};

const clickButton = (name) => {
  const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === name);
  if (!button) throw new Error(`no button ${name}`);
  const at = performance.now();
  button.click();
  return at;
};

/** Sets a React-controlled input or select as typing or choosing does; returns when it did. */
const setValue = ([selector, value]) => {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`nothing matches ${selector}`);
  const proto = element instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  const at = performance.now();
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(element, value);
  element.dispatchEvent(new Event(element instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  return at;
};

async function trials(label, run) {
  const found = [];
  for (let i = 0; i < TRIALS; i += 1) found.push(await run(i));
  return { label, found };
}

async function openResults(page, sweepId) {
  await page.click('#tab-history');
  await page.waitForSelector(`[data-testid=history-table] button:text-is("Open sweep ${sweepId}")`, { timeout: 60_000 });
  return timed(page, (id) => {
    const button = [...document.querySelectorAll('[data-testid=history-table] button')].find((b) => b.textContent === `Open sweep ${id}`);
    const at = performance.now();
    button.click();
    return at;
  }, sweepId);
}

async function exportPdf(page) {
  const download = page.waitForEvent('download', { timeout: 180_000 });
  const cpuBefore = serverCpuS();
  const startedAt = await page.evaluate(clickButton, 'Export PDF');
  await download;
  const doneAt = await page.evaluate(() => performance.now());
  const pages = await page.evaluate(() => document.querySelector('[data-testid=export-note]')?.textContent ?? '');
  return { ms: doneAt - startedAt, elements: await page.evaluate(() => document.getElementsByTagName('*').length), note: pages,
    engineCpuS: serverCpuS() - cpuBefore };
}

/** Models with the study found in History (typed once; the view keeps it, or is given it again); the
 *  time it took when it was typed now. */
async function studyFound(page) {
  await page.click('#tab-models');
  await page.waitForSelector('#model-filter, input[name=model-source]');
  if (!(await page.isChecked('input[name=model-source] >> nth=1'))) await page.check('input[name=model-source] >> nth=1');
  if ((await page.inputValue('#model-filter')) === 'study=ceph') return null;
  return timed(page, setValue, ['#model-filter', 'study=ceph']);
}

/** Resolves once the server has used no CPU for 3 s: its start-up work (the PDF machinery it warms once
 *  the page has been quiet for a second: seconds of CPU) is over and does not share the first action's time. */
async function serverSettled() {
  let quiet = 0;
  for (let last = serverCpuS(), waited = 0; quiet < 3 && waited < 120; waited += 1) {
    await new Promise((done) => setTimeout(done, 1000));
    const now = serverCpuS();
    quiet = now - last > 0.02 ? 0 : quiet + 1;
    last = now;
  }
}

export async function measureStudy(page, sweepId, pid) {
  serverPid = pid;
  await serverSettled();
  const views = [];
  views.push(await trials('Results, 100 runs (click Open sweep -> last paint)', () => openResults(page, sweepId)));
  views.push(await trials('Export PDF of the 100 runs (click -> download)', () => exportPdf(page)));
  // the first time only: the engine reads the 8,640 runs' summaries and works out every answer the view asks
  views.push({ label: 'Models, find study=ceph the first time (last key -> last paint; one trial)', found: [await studyFound(page)] });
  views.push(await trials('Models, find study=ceph (last key -> last paint)', async () => {
    await timed(page, setValue, ['#model-filter', 'study=results-100']);
    return timed(page, setValue, ['#model-filter', 'study=ceph']);
  }));
  views.push(await trials('Models tab, study=ceph kept (click the tab -> last paint)', async () => {
    await timed(page, click, '#tab-designer');
    const found = await timed(page, click, '#tab-models');
    const kept = await page.evaluate(() => document.querySelector('#model-filter')?.value ?? '(no filter field)');
    return { ...found, note: kept === 'study=ceph' ? '' : `the view did not keep the filter: it shows “${kept}”` };
  }));
  await studyFound(page);
  views.push(await trials('Predict (click Fit and predict -> last paint)', () => timed(page, clickButton, 'Fit and predict')));
  views.push(await trials('Scaling what-if (click Fit and project -> last paint)', () => timed(page, clickButton, 'Fit and project')));
  // Groups and the heatmap ask the engine once they come near the screen: the first time, as a reader
  // scrolls down to them after fitting (the runs' summaries are read by then, nothing of theirs is)
  views.push({ label: 'Groups scrolled to the first time (scroll -> last paint; one trial)',
    found: [await timed(page, scrollTo, '.groups-panel')] });
  views.push(await trials('Groups by interface, with Welch (choose -> last paint)', async () => {
    await timed(page, setValue, ['#groups-key', 'tag nodes']);
    return timed(page, setValue, ['#groups-key', 'tag interface']);
  }));
  return views;
}

export function serverMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
    return { peakMb: kb('VmHWM') / 1024, nowMb: kb('VmRSS') / 1024 };
  } catch {
    return { peakMb: NaN, nowMb: NaN };
  }
}

/** The study's store: SSDPROF_STUDY_DB when it names one made by study_scale.py --keep, else built now. */
export function studyStore(python, root, scratch) {
  const kept = process.env.SSDPROF_STUDY_DB;
  const db = kept ?? join(scratch, 'study.sqlite3');
  const marker = `${db}.bench.json`;
  if (!existsSync(marker)) {
    console.log(`building the study in ${db} (about 4 minutes; set SSDPROF_STUDY_DB to keep it) ...`);
    execFileSync(python, [join(root, 'bench', 'study_scale.py'), '--db', db, '--keep', '--build-only'], { cwd: root, stdio: 'inherit' });
  }
  return { db, ...JSON.parse(readFileSync(marker, 'utf8')) };
}

const GOAL_OF = [['Results', GOALS.results], ['PDF', GOALS.pdf], ['find', GOALS.find], ['Models tab', GOALS.models],
  ['Predict', GOALS.predict], ['Scaling', GOALS.scaling], ['Groups', GOALS.groups]];

export function reportStudy({ views, memory, built, load }) {
  const lines = [];
  const best = (values) => Math.min(...values);
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  lines.push(`(d) the full study in the browser: ${built.runs.toLocaleString('en-US')} runs x 8 hosts (bench/study_scale.py), `
    + `+100 runs for Results; best of ${TRIALS}; load average before ${load.before}, after ${load.after} (2 cores, shared)`);
  for (const { label, found } of views) {
    const goal = GOAL_OF.find(([word]) => label.includes(word))?.[1] ?? Infinity;
    const times = found.map((f) => f.ms);
    const elements = Math.max(...found.map((f) => f.elements));
    const verdict = best(times) < goal ? 'MET' : 'NOT MET';
    const domVerdict = elements <= GOALS.elements ? '' : `  elements NOT MET (> ${GOALS.elements})`;
    const notes = [...new Set(found.map((f) => f.note).filter(Boolean))].join('; ');
    lines.push(`    ${label}`);
    const cpu = found.map((f) => f.engineCpuS * 1000);
    lines.push(`      best ${best(times).toFixed(0)} ms, median ${median(times).toFixed(0)} ms  [${times.map((t) => t.toFixed(0)).join(', ')}]`
      + `  goal < ${goal} ms: ${verdict};  ${elements.toLocaleString('en-US')} page elements${domVerdict}${notes ? `  (${notes})` : ''}`);
    lines.push(`      the server's CPU meanwhile: least ${best(cpu).toFixed(0)} ms  [${cpu.map((t) => t.toFixed(0)).join(', ')}]`);
  }
  lines.push(`    server: peak resident ${memory.peakMb.toFixed(0)} MB (VmHWM), now ${memory.nowMb.toFixed(0)} MB`);
  return lines.join('\n');
}

export const loadNow = () => loadavg().map((v) => v.toFixed(2)).join(' ');
