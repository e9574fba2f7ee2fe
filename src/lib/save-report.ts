// Saving a PDF the engine made: one outcome line for the views' export buttons (Results, Curves, the
// latency-target search, PTS), whether the user saved it, cancelled, or the engine could not make it.
import type { Engine, ReportResult } from '../api';

export interface SaveNote {
  ok: boolean;
  text: string;
}

export async function saveReport(engine: Engine, make: () => Promise<ReportResult>, detail = (r: ReportResult) => `${Math.ceil(r.bytes / 1024)} KiB`): Promise<SaveNote> {
  try {
    const report = await make();
    const saved = await engine.savePdf({ filename: report.filename, pdf_base64: report.pdf_base64 });
    return saved.saved ? { ok: true, text: `Saved ${saved.path ?? report.filename} (${detail(report)})` } : { ok: true, text: 'Not saved.' };
  } catch (error) {
    return { ok: false, text: `The report could not be made: ${error instanceof Error ? error.message : String(error)}` };
  }
}
