// "% of spec": the vendor spec sheet chosen by the drive model (or by the user), each rated
// figure beside the measured number, with the percentage only where the conditions match and a
// note saying why elsewhere. The engine decides what is fair (`specs.compare`). A sheet the user
// picks is remembered by the engine for the runs' device (`specs.remember`) and applied next time;
// for a drive the OS does not name (a virtual disk) the library can be searched.
import { useEffect, useState } from 'react';
import {
  useEngine, useEngineQuery, type RunResult, type RunSpecComparison, type Spec,
} from '../api';

const NO_SPECS: Spec[] = [];

export const AUTO = 'auto';
export const NONE = 'none';

interface Props {
  runs: RunResult[];
  choice: string;
  onChoice: (choice: string) => void;
  /** The spec in use (chosen, or the one matched for the runs' drive), for the charts' reference points. */
  onSpec: (spec: Spec | null) => void;
}

export function formatMeasured(c: RunSpecComparison['comparison']): string {
  const value = c.measured;
  if (value === null) return '–';
  const unit = c.figure.unit;
  if (unit === 'IOPS') return `${Math.round(value).toLocaleString('en-US')} IOPS`;
  if (unit === 'us' || unit === 'ms') return `${(value / 1e3).toFixed(1)} µs`;
  return `${(value / 1e6).toFixed(1)} MB/s`;
}

/** Runs left out for the same reason together (a 1000-run sweep gives one line, not 1000). */
function byReason(unmatched: [string, string][]): [string, number[]][] {
  const groups = new Map<string, number[]>();
  for (const [id, why] of unmatched) {
    const ids = groups.get(why);
    if (ids) ids.push(Number(id));
    else groups.set(why, [Number(id)]);
  }
  return [...groups.entries()];
}

/** "run #4", or "runs #1–#3, #7" with consecutive ids as ranges. */
export function runList(ids: number[]): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i += 1) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    parts.push(j > i ? `#${sorted[i]}–#${sorted[j]}` : `#${sorted[i]}`);
    i = j;
  }
  return `${sorted.length === 1 ? 'run' : 'runs'} ${parts.join(', ')}`;
}

/** "Samsung 970 EVO Plus 1TB": how the picker names a sheet, and what its search box matches. */
export function specName(s: Spec): string {
  return `${s.vendor} ${s.model}`;
}

export function SpecPanel({ runs, choice, onChoice, onSpec }: Props) {
  const engine = useEngine();
  const [query, setQuery] = useState('');
  const [remembered, setRemembered] = useState<string | null>(null);
  const [notKept, setNotKept] = useState<string | null>(null);
  const ids = runs.map((r) => r.id).filter((id): id is number => id !== null);
  const specs = useEngineQuery('specs.list', {}).data?.specs ?? NO_SPECS;
  const compared = useEngineQuery('specs.compare', choice === NONE || ids.length === 0 ? null
    : { run_ids: ids, spec_id: choice === AUTO ? null : choice });
  const result = compared.data;
  const problem = compared.error ?? notKept;

  const usedId = choice === AUTO ? result?.comparisons[0]?.spec_id : choice === NONE ? undefined : choice;
  const used = specs.find((s) => s.id === usedId) ?? null;
  useEffect(() => onSpec(used), [used, onSpec]);

  const rows = result?.comparisons ?? [];
  const unmatched = Object.entries(result?.unmatched ?? {});
  const byRun = new Map(runs.map((r) => [r.id, r]));
  const unnamed = runs.length > 0 && !runs.some((r) => r.environment.device_model);
  const searchable = unnamed || (choice === AUTO && rows.length === 0 && unmatched.length > 0);
  const words = query.trim().toLowerCase();
  const matches = (s: Spec) => `${specName(s)} ${s.interface}`.toLowerCase().includes(words);
  const shown = words ? specs.filter(matches) : specs;
  const chosen = specs.filter((s) => s.id === choice && !shown.includes(s));
  const listed = [...chosen, ...shown];
  const runId = runs.find((r) => r.id !== null)?.id ?? null;

  /** The user's pick, kept by the engine for the runs' device (null forgets it). */
  function choose(specId: string | null) {
    onChoice(specId ?? NONE);
    setNotKept(null);
    if (runId === null) return;
    engine.call('specs.remember', { run_id: runId, spec_id: specId }).then(
      (r) => setRemembered(r.spec_id
        ? `Remembered for ${r.device}: applied next time, in the app, the CLI and the PDF.`
        : `Forgot the sheet chosen for ${r.device}.`),
      (e: unknown) => setNotKept(e instanceof Error ? e.message : String(e)));
  }
  function onSearch(text: string) {
    setQuery(text);
    const exact = specs.find((s) => specName(s).toLowerCase() === text.trim().toLowerCase());
    if (exact) choose(exact.id);
  }
  function onSelect(value: string) {
    if (value === AUTO || value === NONE) onChoice(value);
    else choose(value);
  }
  return (
    <section className="spec-panel" aria-labelledby="spec-title">
      <h3 id="spec-title">Vendor spec sheet</h3>
      {searchable && (
        <div className="field inline">
          <label htmlFor="spec-search">Find a spec sheet</label>
          <input id="spec-search" type="search" list="spec-library" value={query}
            placeholder="vendor, model or interface, e.g. 970 EVO"
            onChange={(e) => onSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && shown.length === 1) choose(shown[0]!.id);
            }} />
          <datalist id="spec-library">
            {shown.map((s) => <option key={s.id} value={specName(s)}>{s.interface}</option>)}
          </datalist>
          {words && (
            <span className="hint" data-testid="spec-matches">
              {shown.length} of {specs.length} sheets match
            </span>
          )}
        </div>
      )}
      <div className="field inline">
        <label htmlFor="spec-choice">Spec sheet</label>
        <select id="spec-choice" value={choice} onChange={(e) => onSelect(e.target.value)}>
          <option value={AUTO}>automatic (by drive model, or as chosen before)</option>
          <option value={NONE}>none</option>
          {listed.map((s) => <option key={s.id} value={s.id}>{specName(s)}</option>)}
        </select>
        {unnamed && used && (
          <button type="button" onClick={() => choose(null)}>Forget this choice</button>
        )}
      </div>
      {remembered && (
        <p role="status" className="hint" data-testid="spec-remembered">{remembered}</p>
      )}
      {used && <p className="hint" data-testid="spec-used">Compared with {used.vendor} {used.model} ({used.interface}){rows[0] ? ` — ${rows[0].how}` : ''}</p>}
      {problem && <p role="alert" className="error">{problem}</p>}
      {unmatched.length > 0 && (
        <ul className="hint">{byReason(unmatched).map(([why, ids]) => <li key={why}>{runList(ids)}: {why}</li>)}</ul>
      )}
      {rows.length > 0 && (
        <table className="data" data-testid="spec-table">
          <caption>Measured against the rated figures (repeats of a setting as their mean); % of spec only where the conditions match</caption>
          <thead><tr><th>runs</th><th>rated</th><th>conditions</th><th>measured</th><th>% of spec</th><th>note</th></tr></thead>
          <tbody>
            {rows.map((row, i) => {
              const c = row.comparison;
              const run = byRun.get(row.run_id);
              return (
                <tr key={i} data-status={c.status}>
                  <td>{runList(row.run_ids)}{run ? ` ${run.workload.pattern}` : ''}</td>
                  <td>{c.figure.value.toLocaleString('en-US')} {c.figure.unit}</td>
                  <td>{conditions(c.figure)}</td>
                  <td>{formatMeasured(c)}</td>
                  <td className="pct" data-testid="pct-of-spec">{c.pct_of_spec === null ? 'not compared' : `${c.pct_of_spec.toFixed(0)} % of spec${c.status === 'unstated' ? ' (indicative)' : ''}`}</td>
                  <td className="hint">{c.notes.join('; ')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

function conditions(f: Spec['figures'][number]): string {
  const size = f.block_size_bytes ? `${f.block_size_bytes / 1024} KiB` : 'size not stated';
  const qd = f.queue_depth ? `QD${f.queue_depth}` : 'QD not stated';
  return `${f.metric.replace('_', ' ')}, ${size}, ${qd}${f.threads ? ` ×${f.threads}` : ''}`;
}
