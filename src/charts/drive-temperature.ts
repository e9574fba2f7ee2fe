// The drive's temperature as a series beside IOPS: dashed, on the right axis in °C, named with its
// unit (the accessible table's value column is the left axis's). One spelling for the live chart
// and a stored run's time series.
import type { Point, Series } from './ChartFigure';

export const TEMPERATURE_AXIS = '°C';

export function temperatureSeries(points: Point[]): Series {
  return { label: 'drive temperature (°C, right axis)', points, axis: 'right', style: 'dashed' };
}
