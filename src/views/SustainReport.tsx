// A stored sustained-write test as the engine answered it (`sustain.get`): the verdict in its words
// (the cache, the speeds before and after, their ratio and the confidence, or no cliff; throttling
// named where the drive reported it), the fill with its phases shaded and named, the phases, and
// the recovery after each idle interval. Every number is the engine's; this only formats and draws.
import { useState } from 'react';
import { useEngine, type SustainResult, type SustainVerdict } from '../api';
import type { Series } from '../charts/ChartFigure';
import { saveReport } from '../lib/save-report';
import {
  formatBytes, formatDuration, formatElapsed, formatLatencyNs, formatMbPerS, formatSize, mbPerS,
} from '../lib/units';
import { SustainChart, type ByteAxis } from './SustainChart';

/** The cache the engine found, as an upright line across the fill's chart (in its units). */
function cacheMark(result: SustainResult): (axis: ByteAxis) => Series[] {
  return (axis) => {
    const { cache_bytes: cache } = result.verdict;
    const speeds = result.samples.map((s) => mbPerS(s.bw_bytes_per_s));
    if (cache === null || speeds.length === 0) return [];
    const x = cache / axis.factor;
    return [{ label: `cache: ${formatBytes(cache)} before the drop`, style: 'dashed',
      points: [{ x, y: 0 }, { x, y: Math.max(...speeds) }] }];
  };
}

export function SustainReport({ result }: { result: SustainResult }) {
  const engine = useEngine();
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const recoveryLines = result.recovery.filter((r) => r.samples.length > 0)
    .map((r) => ({ label: `after ${formatDuration(r.idle_s)} idle`, samples: r.samples }));
  // a write of one second is a dot: its speed is in the table
  const drawRecovery = recoveryLines.some((l) => l.samples.length > 1);

  async function exportPdf() {
    setNote(null);
    const asked = { sustain_id: result.id, title: null };
    setNote(await saveReport(engine, () => engine.call('sustain.report', asked)));
  }

  return (
    <section className="sustain-report" aria-labelledby="sustain-report-title"
      data-testid="sustain-report">
      <h3 id="sustain-report-title">Sustained writes #{result.id}: {result.label}</h3>
      <p>Status: {result.status}{result.reason ? ` — ${result.reason}` : ''}.</p>
      <Verdict result={result} />
      <button type="button" onClick={() => void exportPdf()}>Export PDF</button>
      {note && (
        <p role={note.ok ? 'status' : 'alert'} className={note.ok ? 'hint' : 'error'}>
          {note.text}
        </p>
      )}
      <SustainChart id="sustain-fill"
        title="The fill: write speed each second against bytes written (MB/s = 10⁶ B/s)"
        lines={[{ label: 'each second', samples: result.samples }]} phases={result.phases}
        extra={cacheMark(result)} empty="The fill wrote no full second." />
      <Phases result={result} />
      <Recovery result={result} />
      {drawRecovery && (
        <SustainChart id="sustain-recovery"
          title="Recovery: write speed against the bytes each recovery write wrote"
          lines={recoveryLines} empty="No recovery write has finished." />
      )}
      <Parameters result={result} />
      {result.notes.map((n) => <p key={n} className="hint">{n}</p>)}
    </section>
  );
}

/** The cliff's figures the engine sent, as label and value (none for a drive without a cliff). */
function cliffRows(v: SustainVerdict): [string, string][] {
  const rows: [string, string][] = [];
  const add = (label: string, value: number | null, text: (n: number) => string) => {
    if (value !== null) rows.push([label, text(value)]);
  };
  add('written before the drop (cache)', v.cache_bytes,
    (n) => `${formatBytes(n)} (${n.toLocaleString('en-US')} bytes)`);
  add('speed before', v.before_bw_bytes_per_s, formatMbPerS);
  add('speed after', v.after_bw_bytes_per_s, formatMbPerS);
  add('before / after', v.ratio, (n) => `${n.toFixed(2)} ×`);
  add(v.kind === 'no_cliff' ? 'speed over the whole write' : 'sustained speed (the last phase)',
    v.sustained_bw_bytes_per_s, formatMbPerS);
  add('confidence', v.confidence, (n) => `${v.confidence_words ?? ''} (${n.toFixed(2)})`.trim());
  v.drops.slice(1).forEach((d, i) => rows.push([`drop ${i + 2}`,
    `at ${formatBytes(d.at_bytes)}: ${formatMbPerS(d.before_bw_bytes_per_s)} → `
    + `${formatMbPerS(d.after_bw_bytes_per_s)} (−${d.drop_pct.toFixed(0)} %, ${d.cause})`]));
  return rows;
}

function Verdict({ result }: { result: SustainResult }) {
  const v = result.verdict;
  const rows = cliffRows(v);
  return (
    <div className="sustain-verdict" data-testid="sustain-verdict">
      <p data-kind={v.kind}><strong>{v.sentence}</strong></p>
      {result.throttle?.text && (
        <p className="warning" data-testid="sustain-throttle">
          <strong>Thermal throttling:</strong> {result.throttle.text}
        </p>
      )}
      {rows.length > 0 && <Facts label="The cliff" rows={rows} testId="sustain-cliff" />}
    </div>
  );
}

const num = (key: string) => <th key={key} scope="col" className="num">{key}</th>;

function Phases({ result }: { result: SustainResult }) {
  if (result.phases.length === 0) return null;
  const spread = (mean: number | null, sd: number | null) =>
    `${formatLatencyNs(mean)}${sd !== null ? ` ± ${formatLatencyNs(sd)}` : ''}`;
  return (
    <table className="data" aria-label="Phases of the fill" data-testid="sustain-phases">
      <caption>The phases of the fill between the engine&apos;s change points: speed, its bytes over
        its time (± the standard deviation of its seconds&apos; speeds); total latency, mean ±
        standard deviation over its seconds; p99, the median of its seconds&apos; own</caption>
      <thead>
        <tr><th scope="col">phase</th>
          {['from', 'written', 'time', 'speed', 'latency', 'p99 (median second)'].map(num)}</tr>
      </thead>
      <tbody>
        {result.phases.map((p) => (
          <tr key={p.index}>
            <th scope="row">{p.index + 1} {p.name}</th>
            <td className="num">{formatBytes(p.start_bytes)}</td>
            <td className="num">{formatBytes(p.bytes_written)}</td>
            <td className="num">{formatDuration(p.duration_s)}</td>
            <td className="num">
              {formatMbPerS(p.bw_bytes_per_s)} ± {formatMbPerS(p.bw_sd_bytes_per_s)}
            </td>
            <td className="num">{spread(p.lat_ns_mean, p.lat_ns_sd)}</td>
            <td className="num">{formatLatencyNs(p.lat_ns_p99_second_median)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Recovery({ result }: { result: SustainResult }) {
  if (result.recovery.length === 0) return null;
  const done = (status: string, text: string) => (status === 'done' ? text : '–');
  const columns = ['written', 'time', 'recovered', 'of the cache', 'fast speed', 'speed'];
  return (
    <table className="data" aria-label="Recovery after idle time" data-testid="sustain-recovery">
      <caption>Recovery: after each idle interval, the bytes written at the fast speed before it
        fell again; each speed is bytes over the time they took</caption>
      <thead>
        <tr><th scope="col">idle</th><th scope="col">status</th>{columns.map(num)}</tr>
      </thead>
      <tbody>
        {result.recovery.map((r) => (
          <tr key={r.step}>
            <th scope="row">{formatDuration(r.idle_s)}</th><td>{r.status}</td>
            <td className="num">{done(r.status, formatBytes(r.bytes_written))}</td>
            <td className="num">{done(r.status, formatElapsed(r.seconds))}</td>
            <td className="num">{formatBytes(r.recovered_bytes)}</td>
            <td className="num">{r.recovered_pct === null ? '–' : `${r.recovered_pct.toFixed(0)} %`}
            </td>
            <td className="num">{formatMbPerS(r.fast_bw_bytes_per_s)}</td>
            <td className="num">{formatMbPerS(r.bw_bytes_per_s)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Label and value rows as a compact table (the page's tables, not a styled list). */
interface FactsProps { label: string; rows: [string, string][]; testId: string }

export function Facts({ label, rows, testId }: FactsProps) {
  return (
    <table className="data compact" style={{ width: 'auto' }} aria-label={label} data-testid={testId}>
      <tbody>
        {rows.map(([k, value]) => <tr key={k}><th scope="row">{k}</th><td>{value}</td></tr>)}
      </tbody>
    </table>
  );
}

function Parameters({ result }: { result: SustainResult }) {
  const p = result.parameters;
  const hosts = p.hosts.length ? ` on ${p.hosts.join(', ')}` : '';
  const offset = p.offset_bytes.toLocaleString('en-US');
  const rows: [string, string][] = [
    ['target', `${p.target || 'the default scratch folder'}${hosts}`],
    ['writes', `${p.pattern} ${formatSize(p.block_size_bytes)} at QD${p.queue_depth}, ${p.engine}`],
    ['region', `${formatBytes(p.region_bytes)} from offset ${offset} bytes`],
    ['the fill', `${formatBytes(p.write_bytes)} asked; ${formatBytes(result.fill_bytes)} written`
      + ` in ${formatElapsed(result.fill_seconds)}`
      + (result.fill_bw_bytes_per_s !== null ? `: ${formatMbPerS(result.fill_bw_bytes_per_s)}` : '')],
    ['idle intervals', p.idle_s.map(formatDuration).join(', ') || 'none'],
    ['each recovery write',
      p.recovery_bytes !== null ? formatBytes(p.recovery_bytes) : '1.5 × the cache found'],
  ];
  if (result.wear) rows.push(['wear', result.wear.text]);
  return <Facts label="What the test wrote" rows={rows} testId="sustain-parameters" />;
}
