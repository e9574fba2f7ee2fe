// A second y axis on the right of a line chart, for one quantity drawn beside the chart's own in a
// unit of its own (a drive's temperature in °C beside IOPS): its series say `axis: 'right'`.
import { formatCount } from '../lib/units';

interface Theme { fg: string; grid: string }

/** Chart.js's id for the right axis; the left one is Chart.js's default, 'y'. */
export const RIGHT_AXIS = 'y2';

/** The datasets' axis id for a series. */
export function axisOf(series: { axis?: 'right' }): string {
  return series.axis === 'right' ? RIGHT_AXIS : 'y';
}

/** The right axis's scale, keyed by its id; none without a title (no series draws on it). Its
 * grid is left off: the left axis's lines already cross the chart. */
export function rightScale(title: string | undefined, theme: Theme) {
  if (!title) return {};
  return {
    [RIGHT_AXIS]: {
      type: 'linear' as const, position: 'right' as const, beginAtZero: false,
      title: { display: true, text: title, color: theme.fg },
      ticks: { color: theme.fg, callback: (v: number | string) => formatCount(Number(v)) },
      grid: { drawOnChartArea: false, color: theme.grid },
    },
  };
}
