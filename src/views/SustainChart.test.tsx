import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ChartFigureProps } from '../charts/ChartFigure';
import { SustainChart } from './SustainChart';

const drawn: ChartFigureProps[] = [];
vi.mock('../charts/ChartFigure', () => ({
  ChartFigure: (props: ChartFigureProps) => { drawn.push(props); return null; },
}));

describe('SustainChart', () => {
  it('starts its bytes-written axis at 0, so a one-second fill is drawn where it wrote, not mid-axis', () => {
    const MiB = 2 ** 20;
    render(<SustainChart id="fill" title="Write speed" empty="nothing yet" lines={[{ label: 'fill', samples: [
      { elapsed_s: 1, bytes_written: 240 * MiB, bw_bytes_per_s: 240e6, lat_ns_mean: null, lat_ns_p99: null, interval_s: 1 },
      { elapsed_s: 1.1, bytes_written: 270 * MiB, bw_bytes_per_s: 300e6, lat_ns_mean: null, lat_ns_p99: null, interval_s: 0.1 },
    ] }]} />);
    const props = drawn.at(-1);
    expect(props?.xFromZero).toBe(true);
    expect(props?.series[0]?.points.map((p) => p.x)).toEqual([240, 270]);
  });
});
