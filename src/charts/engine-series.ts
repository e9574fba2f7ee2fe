// The engine's chart series (runs.charts, runs.bars) as ChartFigure draws them. Nothing is computed
// here: values keep the engine's numbers, divided by `scale` for display only (ns -> µs: 1e3).
import type { ChartSeries } from '../api';
import type { Series } from './ChartFigure';

export function drawn(series: ChartSeries[], scale = 1): Series[] {
  return series.map((s) => ({
    label: s.label,
    points: s.points.map((p) => ({ x: p.x, y: p.y === null ? null : p.y / scale, err: p.half_width === null ? undefined : p.half_width / scale })),
  }));
}
