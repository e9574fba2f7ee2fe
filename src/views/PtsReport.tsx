// A PTS test's report pages, as the PTS shows them: drive state and parameters first, the
// steady-state convergence plot, the measurement window, the determination table, the access size ×
// mix matrix (table, 2-D plot, heat colouring), latency with max and five nines, and write
// saturation. Every number comes from the engine's `pts.get`; this only lays it out.
import { useState } from 'react';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import { useEngine, type PtsMatrixCell, type PtsResult, type SteadyState } from '../api';
import { formatSize } from '../lib/units';
import { saveReport } from '../lib/save-report';

/** A figure as the rest of the app shows it: thousands separated, a fixed number of decimals. */
const num = (v: number | null | undefined, digits = 0) => (v === null || v === undefined ? '–'
  : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const us = (ns: number | null | undefined) => num(ns === null || ns === undefined ? ns : ns / 1e3, 1);

/** The matrix's headline quantity for the test: IOPS, MB/s (10^6 bytes/s) for throughput, mean µs for latency. */
function cellValue(test: string, cell: PtsMatrixCell): number | null {
  if (test === 'throughput') return cell.bw_bytes_per_s / 1e6;
  if (test === 'latency') return cell.lat_mean_ns === null ? null : cell.lat_mean_ns / 1e3;
  return cell.iops;
}
const CELL_UNIT: Record<string, string> = { throughput: 'MB/s', latency: 'mean latency µs' };

function windowSeries(result: PtsResult): Series[] {
  const ss = result.steady_state;
  if (ss.window.length !== 2 || ss.mean === null) return [];
  const [first, last] = ss.window as [number, number];
  const inWindow = result.rounds.filter((r) => r.round >= first && r.round <= last);
  const flat = (label: string, factor: number, sameColourAs?: number): Series => ({
    label, style: 'dashed', sameColourAs, points: [{ x: first, y: ss.mean! * factor }, { x: last, y: ss.mean! * factor }],
  });
  const series: Series[] = [
    { label: `${ss.tracking} per round`, style: 'points', points: inWindow.map((r) => ({ x: r.round, y: r.tracking_value })) },
    { label: 'window mean', style: 'curve', points: [{ x: first, y: ss.mean }, { x: last, y: ss.mean }] },
    flat('±10 % of the mean', 1.1), flat('-10 %', 0.9, 2), flat('±20 % of the mean', 1.2), flat('-20 %', 0.8, 4),
  ];
  if (ss.fit_first !== null && ss.fit_last !== null) {
    series.push({ label: 'least-squares fit', style: 'curve', points: [{ x: first, y: ss.fit_first }, { x: last, y: ss.fit_last }] });
  }
  return series;
}

function convergenceSeries(result: PtsResult): Series[] {
  const labels = [...new Set(result.rounds.flatMap((r) => Object.keys(r.convergence)))];
  return labels.map((label) => ({
    label, points: result.rounds.map((r) => ({ x: r.round, y: r.convergence[label] ?? null })),
  }));
}

export function PtsReport({ result }: { result: PtsResult }) {
  const engine = useEngine();
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const p = result.parameters;
  const sizes = [...new Set(result.matrix.map((c) => c.block_size_bytes))].sort((a, b) => a - b);
  const mixes = [...new Set(result.matrix.map((c) => c.read_pct))].sort((a, b) => b - a);
  const cell = (bs: number, mix: number) => result.matrix.find((c) => c.block_size_bytes === bs && c.read_pct === mix);
  const values = result.matrix.map((c) => cellValue(result.test, c)).filter((v): v is number => v !== null);
  const top = Math.max(...values, 0);
  const unit = CELL_UNIT[result.test] ?? 'IOPS';

  async function exportPdf() {
    setNote(null);
    setNote(await saveReport(engine, () => engine.call('pts.report', { pts_id: result.id, title: null })));
  }

  return (
    <section className="pts-report" aria-labelledby="pts-report-title" data-testid="pts-report">
      <h3 id="pts-report-title">PTS {result.test} #{result.id}: {result.name}</h3>
      <p className={result.pts_compliant ? 'hint' : 'warning'}>{result.compliance_note}</p>
      <p>Status: {result.status}{result.reason ? ` — ${result.reason}` : ''}. <strong>{result.steady_state.reason}</strong></p>
      <button type="button" onClick={() => void exportPdf()}>Export PDF</button>
      {note && <p role={note.ok ? 'status' : 'alert'} className={note.ok ? 'hint' : 'error'}>{note.text}</p>}
      <dl className="pts-parameters" data-testid="pts-parameters">
        <dt>Target</dt><dd>{p.target} — region {formatSize(p.region_bytes)} at offset {formatSize(p.offset_bytes)}</dd>
        <dt>Engine</dt><dd>{p.engine}, QD{p.queue_depth} × {p.numjobs} job(s), {p.round_time_s} s per point</dd>
        <dt>Steady-state rule</dt><dd>window {p.window}, data excursion ≤ {p.data_limit_pct} %, slope excursion ≤ {p.slope_limit_pct} %, {p.min_rounds}–{p.max_rounds} rounds</dd>
        <dt>Preparation</dt><dd>{p.purge ? 'purge, ' : ''}{p.precondition === 'auto' ? `preconditioning ${p.precondition_passes}× the region` : 'no preconditioning'}</dd>
        <dt>Drive state</dt><dd data-testid="pts-drive-state">{result.drive_state_text}
          {result.drive_state?.purge ? ` (${result.drive_state.purge.detail})` : ''}</dd>
      </dl>
      <div className="chart-grid">
        <ChartFigure id="pts-convergence" title="Steady-state convergence" kind="line" xLabel="round" yLabel={result.steady_state.unit}
          series={convergenceSeries(result)} empty="No round has finished yet." />
        <ChartFigure id="pts-window" title="Measurement window" kind="line" xLabel="round" yLabel={result.steady_state.unit}
          series={windowSeries(result)} empty="Fewer rounds than the window: no measurement window yet." />
      </div>
      <Determination checks={result.checks} />
      {result.test === 'write-saturation' ? (
        <div className="chart-grid">
          <ChartFigure id="pts-saturation-time" title="Write saturation: IOPS against time" kind="line" xLabel="s" yLabel="IOPS"
            series={[{ label: 'IOPS', points: result.rounds.map((r) => ({ x: r.elapsed_s, y: r.tracking_value })) }]} />
          <ChartFigure id="pts-saturation-bytes" title="Write saturation: IOPS against bytes written" kind="line" xLabel="GB written" yLabel="IOPS"
            series={[{ label: 'IOPS', points: result.rounds.map((r) => ({ x: r.bytes_written / 1e9, y: r.tracking_value })) }]} />
        </div>
      ) : (
        <>
          <table className="data pts-matrix" aria-label={`Access size × mix: ${unit}`} data-testid="pts-matrix">
            <caption>Access size × read/write mix, {unit}, averaged over the measurement window</caption>
            <thead><tr><th scope="col">access size</th>{mixes.map((m) => <th key={m} scope="col">{m}/{100 - m}</th>)}</tr></thead>
            <tbody>
              {sizes.map((bs) => (
                <tr key={bs}>
                  <th scope="row">{formatSize(bs)}</th>
                  {mixes.map((m) => {
                    const c = cell(bs, m);
                    const v = c ? cellValue(result.test, c) : null;
                    const heat = v !== null && top > 0 ? `hsla(215, 75%, 50%, ${(0.6 * v) / top})` : undefined;
                    return <td key={m} style={{ background: heat }}>{num(v, result.test === 'iops' ? 0 : 1)}</td>;
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          <ChartFigure id="pts-matrix-plot" title={`${unit} by access size, one line per mix`} kind="line" xLabel="access size" yLabel={unit} xLog2
            formatX={formatSize}
            series={mixes.map((m) => ({ label: `${m}/${100 - m}`, points: sizes.map((bs) => { const c = cell(bs, m); return { x: bs, y: c ? cellValue(result.test, c) : null }; }) }))} />
          <table className="data pts-latency" aria-label="Total latency" data-testid="pts-latency">
            <caption>Total latency (submission to completion), µs: mean, maximum and five nines (p99.999, from histogram bins)</caption>
            <thead><tr><th scope="col">access size</th><th scope="col">mix</th><th scope="col">mean</th><th scope="col">max</th><th scope="col">p99.999</th></tr></thead>
            <tbody>
              {result.matrix.map((c) => (
                <tr key={`${c.block_size_bytes}-${c.read_pct}`}>
                  <td>{formatSize(c.block_size_bytes)}</td><td>{c.mix}</td><td>{us(c.lat_mean_ns)}</td><td>{us(c.lat_max_ns)}</td><td>{us(c.lat_p99_999_ns)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function Determination({ checks }: { checks: SteadyState[] }) {
  return (
    <table className="data pts-determination" aria-label="Steady-state determination" data-testid="pts-determination">
      <caption>Steady-state determination: measured against allowed excursions over the measurement window</caption>
      <thead>
        <tr><th scope="col">tracking variable</th><th scope="col">window</th><th scope="col">mean</th><th scope="col">data excursion (allowed)</th>
          <th scope="col">slope excursion (allowed)</th><th scope="col">steady state</th></tr>
      </thead>
      <tbody>
        {checks.map((c) => (
          <tr key={c.tracking}>
            <td>{c.tracking} ({c.unit}){c.gating ? '' : ', reported only'}</td>
            <td>{c.window.length === 2 ? `rounds ${c.window[0]}–${c.window[1]}` : '–'}</td>
            <td>{num(c.mean, 1)}</td>
            <td>{num(c.data_excursion, 1)} ({num(c.data_limit, 1)}, {c.data_limit_pct} %)</td>
            <td>{num(c.slope_excursion, 1)} ({num(c.slope_limit, 1)}, {c.slope_limit_pct} %)</td>
            <td>{c.attained ? 'reached' : 'NOT reached'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
