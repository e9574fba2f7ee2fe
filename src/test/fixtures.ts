import type {
  EngineInfoResult, MethodName, RunResult, RunRow, Spec, SpecChoices, Workload,
} from '../api';
import { RpcReplyError } from './fake-engine';
import charts from './student-charts.json';
import sample from './student-runs.json';

/** A real student sweep (fio 3.33): light runs as runs.list returns them, and one run in full. */
export const studentRuns = sample.runs as unknown as RunResult[];
export const fullRun = sample.full as unknown as RunResult;

/** A run as the engine lists it in a page of History (runs.page). */
export function pageRow(run: RunResult): RunRow {
  return {
    id: run.id!, sweep_id: run.sweep_id, repeat: run.repeat, started_at: run.started_at, status: run.status,
    label: run.workload.label, target: run.workload.target, device: run.environment.device_model, engine: run.engine.name,
    iops: run.read.iops + run.write.iops, bw_bytes_per_s: run.read.bw_bytes_per_s + run.write.bw_bytes_per_s,
    tags: run.tags, measured_by: 'ana', measured_on: 'lab-1', source: run.source,
  };
}

export const defaults: Workload = {
  pattern: 'randread', read_pct: 100, block_size_bytes: 4096, queue_depth: 1, numjobs: 1, runtime_s: 10, ramp_s: 2,
  size_bytes: 256 << 20, offset_bytes: 0, target: '', direct: true, engine: 'auto', allow_overwrite: false, keep_file: false, rate_iops: 0,
  label: 'randread 4KiB QD1 T1',
};

export const info: EngineInfoResult = {
  version: '0.1.0', fio_path: '/usr/bin/fio', fio_version: 'fio-3.33', portable_available: false,
  portable_reason: 'not in this build', default_target: '/home/student/.cache/ssdprof/scratch', db_path: '/tmp/db',
  platform: 'Linux 6.1', defaults, field_rules: {
    // as engine.info sends them (model/workload.py FIELD_RULES)
    queue_depth: {
      flag: '--qd', allowed: '1–4096', label: 'queue depth', example: '32', choices: [], applies_with: {},
    },
    read_pct: {
      flag: '--read-pct', allowed: '0 to 100 % reads (a read/write mix only)', label: 'read share',
      example: '70', choices: [], applies_with: { pattern: ['rw', 'randrw'] },
    },
    pattern: {
      flag: '--rw', allowed: 'randread, randwrite, randrw, read, write or rw', label: 'pattern',
      example: 'randread', applies_with: {}, choices: [
        { value: 'randread', label: 'random read' }, { value: 'randwrite', label: 'random write' },
        { value: 'randrw', label: 'random read/write mix' }, { value: 'read', label: 'sequential read' },
        { value: 'write', label: 'sequential write' }, { value: 'rw', label: 'sequential read/write mix' }],
    },
    test: {
      flag: 'TEST', allowed: 'iops, throughput, latency or write-saturation', label: 'test', example: 'iops',
      applies_with: {}, choices: [
        { value: 'iops', label: 'IOPS (access size × read/write mix)' },
        { value: 'throughput', label: 'Throughput (sequential 128 KiB and 1 MiB)' },
        { value: 'latency', label: 'Latency (QD1, 0.5/4/8 KiB)' },
        { value: 'write-saturation', label: 'Write saturation (4 KiB random writes)' }],
    },
    profile: {
      flag: '--profile', allowed: 'pts or laptop', label: 'profile', example: 'laptop', applies_with: {},
      choices: [
        { value: 'laptop', label: 'laptop (short rounds, small region; not PTS-compliant)' },
        { value: 'pts', label: 'PTS (60 s per point, up to 25 rounds: hours)' }],
    },
    precondition: {
      flag: '--precondition', allowed: 'auto or none', label: 'preconditioning', example: 'auto',
      applies_with: {}, choices: [
        { value: 'auto', label: 'sequential 128 KiB writes over 2× the region first' },
        { value: 'none', label: 'none (measure as found)' }],
    },
    engine: {
      flag: '--engine', allowed: 'auto, fio or portable', label: 'engine', example: 'auto',
      applies_with: {}, choices: [
        { value: 'auto', label: 'auto (fio where installed, else portable)' }, { value: 'fio', label: 'fio' },
        { value: 'portable', label: "portable (ssdprof's own engine)" }],
    },
  },
};

/** A bundled spec sheet (assets/specs/samsung-970-evo-plus-1tb.json), its random-read figures. */
export const evoPlus: Spec = {"schema_version": 1, "id": "samsung-970-evo-plus-1tb", "vendor": "Samsung", "model": "970 EVO Plus 1TB", "match_patterns": ["Samsung SSD 970 EVO Plus 1TB", "MZ-V7S1T0*"], "capacity_bytes": 1000000000000, "interface": "NVMe", "link": "PCIe 3.0 x4", "form_factor": "M.2 2280", "figures": [{"metric": "rand_read", "value": 19000, "unit": "IOPS", "block_size_bytes": 4096, "queue_depth": 1, "threads": null, "statistic": "up_to", "source": 0, "read_pct": null, "note": ""}, {"metric": "rand_read", "value": 600000, "unit": "IOPS", "block_size_bytes": 4096, "queue_depth": 32, "threads": null, "statistic": "up_to", "source": 0, "read_pct": null, "note": ""}], "sources": [{"title": "datasheet", "url": "", "kind": ""}], "notes": "", "unsourced": true, "endurance_tbw": null};

/** The spec-sheet form's lists as the engine sends them (specs.list's choices). */
export const specChoices: SpecChoices = {
  interfaces: ['SATA', 'NVMe', 'PCIe', 'SAS'].map((v) => ({ value: v, label: v })),
  accesses: [
    { value: 'seq_read', label: 'sequential read' }, { value: 'seq_write', label: 'sequential write' },
    { value: 'rand_read', label: 'random read' }, { value: 'rand_write', label: 'random write' },
    { value: 'rand_mixed', label: 'random mixed' },
  ],
  units: ['MB/s', 'GB/s', 'MiB/s', 'GiB/s', 'IOPS', 'us', 'ms']
    .map((v) => ({ value: v, label: v === 'us' ? 'µs' : v })),
};

/** What the real engine answered (scripts/gen_chart_fixtures.py, checked fresh by the engine's tests). */
export const chartAnswers = charts.answers as { case: string; method: MethodName; params: Record<string, unknown>; result: unknown }[];

export function chartCase(name: string): (typeof chartAnswers)[number] {
  const found = chartAnswers.find((a) => a.case === name);
  if (!found) throw new Error(`no chart answer named ${name}`);
  return found;
}

/** Fake handlers for the chart methods: the engine's recorded answer to the same params, else an error saying so. */
export function chartHandlers() {
  const answer = (method: MethodName) => (params: unknown) => {
    const key = JSON.stringify(params);
    const found = chartAnswers.find((a) => a.method === method && JSON.stringify(a.params) === key);
    if (!found) throw new RpcReplyError({ code: -32001, message: `${method} ${key} is not among the recorded answers` });
    return found.result as never;
  };
  return {
    'runs.charts': answer('runs.charts'), 'runs.percentiles': answer('runs.percentiles'),
    'runs.bars': answer('runs.bars'),
  };
}
