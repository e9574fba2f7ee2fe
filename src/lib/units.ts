// Numbers as people read them. Units are always stated: MB/s is 10^6 bytes per second, MiB/s
// 2^20; latencies arrive in nanoseconds and are shown in µs or ms.

const SPELLINGS: [string, number][] = [['TiB', 2 ** 40], ['TB', 1e12], ['GiB', 2 ** 30], ['GB', 1e9],
  ['MiB', 2 ** 20], ['MB', 1e6], ['KiB', 2 ** 10], ['kB', 1e3]];

/** The engine's spelling (model/quantities.format_size): the largest unit, binary or decimal, that
 *  holds the size whole: 4096 -> '4KiB', 1e13 -> '10TB' (not '9765625000KiB'), 1536 -> '1536B'. */
export function formatSize(bytes: number): string {
  for (const [suffix, factor] of SPELLINGS) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${suffix}`;
  }
  return `${bytes}B`;
}

/** A short form for a size field: 4096 -> "4k", 33554432 -> "32m". */
export function sizeInput(bytes: number): string {
  return formatSize(bytes).replace(/([KMGT])iB$/, (_, unit: string) => unit.toLowerCase());
}

export function formatLatencyNs(ns: number | null | undefined): string {
  if (ns === null || ns === undefined) return '–';
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e3).toFixed(1)} µs`;
}

export function latencyUs(ns: number | null | undefined): number | null {
  return ns === null || ns === undefined ? null : ns / 1e3;
}

export function formatIops(iops: number): string {
  if (iops >= 1e5) return `${(iops / 1e3).toFixed(0)}k`;
  if (iops >= 1e4) return `${(iops / 1e3).toFixed(1)}k`;
  return iops.toFixed(0);
}

/** A percentile (share of I/Os at or below, in %) cut, never rounded, to 4 decimals: where the figure
 *  reaches 99.9 or 99.99 is where the distribution does (four significant digits printed 99.8985 as
 *  99.9, one bucket before the run's p99.9). */
export function formatPercentile(pct: number): string {
  return String(Math.floor(pct * 1e4 + 1e-6) / 1e4);
}

/** Axis ticks, short and without separators: 1500 -> '1.5k', 2e6 -> '2M' (the PDF's format_count). */
export function formatCount(value: number): string {
  const tidy = (v: number) => String(Number(v.toPrecision(6)));
  for (const [factor, suffix] of [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']] as const) {
    if (Math.abs(value) >= factor) return `${tidy(value / factor)}${suffix}`;
  }
  return tidy(value);
}

/** A byte count in binary units, two decimals: '12.35 GiB' (the PDF's report.sustain.fmt_bytes). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '–';
  const units: [string, number][] = [
    ['TiB', 2 ** 40], ['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10],
  ];
  const two = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  for (const [suffix, factor] of units) {
    if (bytes >= factor) return `${(bytes / factor).toLocaleString('en-US', two)} ${suffix}`;
  }
  return `${bytes} B`;
}

/** A speed in MB/s (10^6 bytes per second), one decimal: '1,234.5 MB/s' (the PDF's fmt_mb). */
export function formatMbPerS(bytesPerS: number | null | undefined): string {
  if (bytesPerS === null || bytesPerS === undefined) return '–';
  const one = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
  return `${(bytesPerS / 1e6).toLocaleString('en-US', one)} MB/s`;
}

export function mbPerS(bytesPerS: number): number {
  return bytesPerS / 1e6;
}

export function mibPerS(bytesPerS: number): number {
  return bytesPerS / 2 ** 20;
}

/** A measured time: tenths under 10 s (a 32 MiB write took 0.4s, not "0s"), else as
 *  formatDuration. */
export function formatElapsed(seconds: number): string {
  if (seconds >= 9.95 || seconds <= 0) return formatDuration(seconds);
  return `${Number(seconds.toPrecision(2))}s`;
}

export function formatDuration(seconds: number): string {
  const total = Math.max(Math.round(seconds), 0);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) return `${h}h${String(m).padStart(2, '0')}m${String(s).padStart(2, '0')}s`;
  if (m) return `${m}m${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}
