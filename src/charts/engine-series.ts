// The engine's chart series (runs.charts, runs.bars) as ChartFigure draws them. Nothing is computed
// here: values keep the engine's numbers, divided by `scale` for display only (ns -> µs: 1e3). A
// setting's series share a colour; its statistics differ by dash (palette.ts).
import type { ChartSeries } from '../api';
import type { Series } from './ChartFigure';
import type { Dash } from './palette';

const DASH: Record<ChartSeries['statistic'], Dash> = {
  '': 'solid', mean: 'solid', p50: 'solid', p99: 'dashed', 'p99.9': 'dotted',
};

export function drawn(series: ChartSeries[], scale = 1): Series[] {
  return series.map((s) => ({
    label: s.label,
    group: s.setting || s.label,
    dash: DASH[s.statistic],
    points: s.points.map((p) => ({
      x: p.x, y: p.y === null ? null : p.y / scale,
      err: p.half_width === null ? undefined : p.half_width / scale,
    })),
  }));
}
