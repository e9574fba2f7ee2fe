// The engine's rates over steps (each with the time it covers: start_s, span_s) as stepped lines, drawn level
// across each step as the engine counted them; a step the engine left empty (null: past the trace's or the
// replay's end) ends the line. Nothing is computed here but the mapping to points.
import type { Series } from '../charts/ChartFigure';

interface Step { start_s: number; span_s: number }

export function steppedLine<S extends Step>(label: string, steps: readonly S[], value: (s: S) => number | null,
  dash?: Series['dash']): Series {
  const kept = steps.filter((s) => value(s) !== null);
  const first = kept[0];
  const points = first === undefined ? [] : [
    { x: first.start_s, y: value(first) },
    ...kept.map((s) => ({ x: s.start_s + s.span_s, y: value(s) })),
  ];
  return { label, stepped: true, points, ...(dash ? { dash, group: label.split(' ')[0] } : { group: label.split(' ')[0] }) };
}
