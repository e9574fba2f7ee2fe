// The drive's own word around the run in detail (RunResult.drive_health, or a host's): who it is, the
// rows the engine wrote (temperature, its count of the bytes written against the run's, wear,
// errors, throttling, what is missing and how to get it), and its temperature each second.
import { useId } from 'react';
import { ChartFigure } from '../charts/ChartFigure';
import type { HealthRecord } from '../api';

export function DrivePanel({ record, host = '' }: { record: HealthRecord; host?: string }) {
  const titleId = useId();
  return (
    <section className="drive-health" aria-labelledby={titleId}>
      <h3 id={titleId}>The drive&apos;s own word{host ? ` on ${host}` : ''}</h3>
      <table className="data" data-testid="drive-health-table">
        <caption>{record.title}</caption>
        <tbody>
          {record.rows.map((row, i) => (
            <tr key={`${row.label}-${i}`}><th scope="row">{row.label}</th><td>{row.value}</td></tr>
          ))}
        </tbody>
      </table>
      {record.temperatures.length > 0 && (
        <ChartFigure id={`drive-temperature${host ? `-${host}` : ''}`} title="Drive temperature (°C)" kind="line"
          xLabel="seconds since the run started" yLabel="°C"
          series={[{ label: 'hwmon', points: record.temperatures.map((s) => ({ x: s.elapsed_s, y: s.celsius })) }]} />
      )}
    </section>
  );
}
