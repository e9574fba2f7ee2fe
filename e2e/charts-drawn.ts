// What a chart's legend names must be on its canvas. The app hands every chart it draws to
// `window.ssdprofChartProbe` when a test has set it (src/charts/ChartFigure.tsx); this reads each
// chart still on the page: for every series its legend shows, each value must have a mark drawn
// inside the plot (a marker of some size, a line through it, or a bar), and one of its marks must
// show the series' colour on the canvas itself. A chart that drew a series' points with radius 0
// (a silent cap) fails here.
import type { Page } from '@playwright/test';

/** Installs the probe before the app loads: every chart drawn, the newest per id. */
export async function watchCharts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const charts = new Map<string, unknown>();
    (window as unknown as { ssdprofCharts: Map<string, unknown> }).ssdprofCharts = charts;
    (window as unknown as { ssdprofChartProbe: (id: string, chart: unknown) => void }).ssdprofChartProbe = (id, chart) => {
      charts.set(id, chart);
    };
  });
}

export interface Undrawn {
  chart: string;
  series: string;
  why: string;
}

/** Every series a legend on the page names whose values are not all drawn, and why. */
export function undrawnSeries(page: Page): Promise<Undrawn[]> {
  return page.evaluate(() => {
    type Element = { x: number; y: number; skip?: boolean; width?: number; options?: { radius?: number } };
    type Chart = {
      canvas: HTMLCanvasElement | null; ctx: CanvasRenderingContext2D; currentDevicePixelRatio: number; config: { type: string };
      chartArea: { left: number; right: number; top: number; bottom: number };
      legend: { legendItems?: { text: string; datasetIndex?: number; hidden?: boolean }[] };
      data: { datasets: { data: unknown[]; showLine?: boolean; backgroundColor?: string }[] };
      getDatasetMeta: (i: number) => { data: Element[]; hidden: boolean | null };
    };
    const charts = (window as unknown as { ssdprofCharts: Map<string, Chart> }).ssdprofCharts;
    const found: { chart: string; series: string; why: string }[] = [];
    const rgb = (css: string) => {
      const probe = document.createElement('canvas').getContext('2d')!;
      probe.fillStyle = css;
      const hex = probe.fillStyle; // '#rrggbb'
      return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    };
    for (const [id, chart] of charts) {
      if (!chart.canvas?.isConnected) continue; // destroyed, or no longer on the page
      const area = chart.chartArea;
      const inside = (e: Element) => e.x >= area.left - 1 && e.x <= area.right + 1 && e.y >= area.top - 1 && e.y <= area.bottom + 1;
      for (const item of chart.legend.legendItems ?? []) {
        if (item.hidden || item.datasetIndex === undefined) continue;
        const dataset = chart.data.datasets[item.datasetIndex]!;
        const meta = chart.getDatasetMeta(item.datasetIndex);
        const valued = meta.data.filter((_, i) => {
          const value = dataset.data[i] as number | { y: number | null } | null;
          return value !== null && (typeof value === 'number' || value.y !== null);
        });
        const bar = chart.config.type === 'bar';
        const marked = (e: Element) => !e.skip && inside(e) && (bar ? (e.width ?? 0) > 0 : (e.options?.radius ?? 0) > 0);
        const line = !bar && dataset.showLine !== false && valued.length >= 2;
        const unmarked = valued.filter((e) => !marked(e));
        if (!line && unmarked.length > 0) {
          found.push({ chart: id, series: item.text, why: `${unmarked.length} of ${valued.length} values have no mark in the plot` });
          continue;
        }
        if (line || bar || valued.length === 0) continue;
        // the markers are there: one of them must show the series' colour on the canvas
        const [r, g, b] = rgb(dataset.backgroundColor ?? '#000');
        const scale = chart.currentDevicePixelRatio;
        const seen = valued.some((e) => {
          const [pr, pg, pb] = chart.ctx.getImageData(Math.round(e.x * scale), Math.round(e.y * scale), 1, 1).data;
          return Math.abs(pr! - r!) + Math.abs(pg! - g!) + Math.abs(pb! - b!) < 60;
        });
        if (!seen) found.push({ chart: id, series: item.text, why: 'no marker shows the series\' colour on the canvas' });
      }
    }
    return found;
  });
}
