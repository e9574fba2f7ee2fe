// A chart's numbers as a table, for screen readers and the end-to-end tests (they check the points drawn).
import type { ChartFigureProps, Point } from './ChartFigure';

/** Rows per series in the accessible table (the first; `tableLast`: the last); the caption says so. */
export const TABLE_ROWS = 200;

export function ChartTable(props: ChartFigureProps) {
  const fx = props.formatX ?? ((x: number) => (props.categories ? (props.categories[x] ?? String(x)) : plain(x)));
  const fy = props.formatY ?? ((y: number) => String(Number(y.toPrecision(4))));
  return (
    <div className="sr-only">{/* a table ignores its own size, so a wrapper hides it */}
    <table>
      <caption>{props.title}{tableNote(props)}</caption>
      <thead>
        <tr><th scope="col">series</th><th scope="col">{props.xLabel}</th><th scope="col">{props.yLabel}</th><th scope="col">± 95 % CI</th></tr>
      </thead>
      <tbody>
        {props.series.flatMap((s) => tail(s.points, props.tableLast).map(({ p, i }) => (
          <tr key={`${s.label}-${i}`} data-x={p.x} data-y={p.y ?? ''}>
            <td>{s.label}</td><td>{fx(p.x)}</td><td>{p.y === null ? '–' : fy(p.y)}</td><td>{p.err ? fy(p.err) : ''}</td>
          </tr>
        )))}
      </tbody>
    </table>
    </div>
  );
}

/** A number as it was meant: 12 significant digits drop a sum's binary noise (3 + 1.001 is
 *  4.0009999999999994 as a double) and keep every digit a measurement has. */
function plain(x: number): string {
  return String(Number(x.toPrecision(12)));
}

/** The table's rows of a series: its last `last` points, else its first TABLE_ROWS. */
function tail(points: Point[], last: number | undefined): { p: Point; i: number }[] {
  const from = last === undefined ? 0 : Math.max(0, points.length - last);
  const to = last === undefined ? TABLE_ROWS : points.length;
  return points.slice(from, to).map((p, k) => ({ p, i: from + k }));
}

function tableNote(props: ChartFigureProps): string {
  if (props.tableLast !== undefined) return ` (each series' last ${props.tableLast} points)`;
  const most = Math.max(0, ...props.series.map((s) => s.points.length));
  return most > TABLE_ROWS ? ` (each series' first ${TABLE_ROWS} points; the longest has ${most.toLocaleString('en-US')})` : '';
}
