// Write speed each second against the bytes written, the x axis in one binary unit chosen by the
// most bytes drawn (as the PDF's report/sustain_charts.byte_axis), the engine's phases shaded and
// named.
import type { SustainPhase, SustainSample } from '../api';
import type { Band } from '../charts/bands';
import { ChartFigure, type Series } from '../charts/ChartFigure';
import { formatMbPerS, mbPerS } from '../lib/units';

export interface SustainLine {
  label: string;
  samples: SustainSample[];
  style?: Series['style'];
}

const formatAmount = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 2 });

export interface ByteAxis {
  factor: number;
  unit: 'MiB' | 'GiB' | 'TiB';
}

export function byteAxis(largestBytes: number): ByteAxis {
  if (largestBytes >= 2 * 2 ** 40) return { factor: 2 ** 40, unit: 'TiB' };
  if (largestBytes >= 2 * 2 ** 30) return { factor: 2 ** 30, unit: 'GiB' };
  return { factor: 2 ** 20, unit: 'MiB' };
}

/** Each phase as a band on the chart's axis, named as the engine named it, with its speed (bytes over time). */
export function phaseBands(phases: SustainPhase[], axis: ByteAxis): Band[] {
  return phases.map((p) => ({
    from: p.start_bytes / axis.factor, to: (p.start_bytes + p.bytes_written) / axis.factor,
    label: `${p.name}: ${formatMbPerS(p.bw_bytes_per_s)}`,
  }));
}

interface Props {
  id: string;
  title: string;
  lines: SustainLine[];
  phases?: SustainPhase[];
  /** Extra lines already in the chart's units (a speed level, a cache mark). */
  extra?: (axis: ByteAxis) => Series[];
  empty: string;
  /** Keep only each line's last N points in the accessible table (a live fill grows for hours). */
  tableLast?: number;
}

export function SustainChart({ id, title, lines, phases = [], extra, empty, tableLast }: Props) {
  const largest = Math.max(0, ...lines.flatMap((l) => l.samples.map((s) => s.bytes_written)),
    ...phases.map((p) => p.start_bytes + p.bytes_written));
  const axis = byteAxis(largest);
  const series: Series[] = lines.map((l) => ({
    label: l.label, style: l.style,
    points: l.samples.map((s) => ({
      x: s.bytes_written / axis.factor, y: mbPerS(s.bw_bytes_per_s),
    })),
  }));
  const drawn = series.some((s) => s.points.length > 0);
  return (
    <ChartFigure id={id} title={title} kind="line" xLabel={`bytes written (${axis.unit})`}
      yLabel="MB/s" series={drawn ? [...series, ...(extra?.(axis) ?? [])] : []}
      bands={phaseBands(phases, axis)} tableLast={tableLast} empty={empty} formatX={formatAmount} xFromZero />
  );
}
