// Every ipcMain.handle goes through handle(): it answers only our own window's frames, and only
// with a payload that passed its validator.
import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { METHOD_NAMES, type MethodName } from '../contract/contract.gen';

export class PayloadError extends Error {}

export type Validator<T> = (payload: unknown) => T;

/** Only frames showing the app's own page may call in (not a navigated-away or injected frame). */
export function isTrustedSender(event: IpcMainInvokeEvent, appUrl: string): boolean {
  if (!BrowserWindow.fromWebContents(event.sender)) return false;
  const url = event.senderFrame?.url ?? '';
  return url.split(/[?#]/)[0] === appUrl;
}

export function handle<T, R>(channel: string, appUrl: string, validate: Validator<T>, run: (payload: T) => Promise<R>): void {
  ipcMain.handle(channel, async (event, payload: unknown) => {
    if (!isTrustedSender(event, appUrl)) throw new Error(`${channel}: refused a call from an untrusted sender`);
    return run(validate(payload));
  });
}

export interface SavePdf {
  filename: string;
  pdf: Buffer;
}

const MAX_PDF_BASE64_CHARS = 200 << 20;

/** {filename, pdf_base64}: a bare *.pdf name (the dialog picks the folder) and base64 that decodes to a PDF. */
export const validateSavePdf: Validator<SavePdf> = (payload) => {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new PayloadError('expected {filename, pdf_base64}');
  const { filename, pdf_base64: base64, ...rest } = payload as Record<string, unknown>;
  if (Object.keys(rest).length) throw new PayloadError(`unexpected keys: ${Object.keys(rest).join(', ')}`);
  if (typeof filename !== 'string' || !/^[\w.-]{1,200}\.pdf$/.test(filename)) throw new PayloadError('filename must be a bare name ending in .pdf');
  if (typeof base64 !== 'string' || base64.length > MAX_PDF_BASE64_CHARS || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) {
    throw new PayloadError('pdf_base64 must be base64');
  }
  const pdf = Buffer.from(base64, 'base64');
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new PayloadError('pdf_base64 is not a PDF');
  return { filename, pdf };
};

const KNOWN = new Set<string>(METHOD_NAMES);
const MAX_PAYLOAD_CHARS = 1 << 20;

export interface EngineCall {
  method: MethodName;
  params: Record<string, unknown>;
}

/** {method, params}: a contract method and a plain object; the engine validates the fields. */
export const validateEngineCall: Validator<EngineCall> = (payload) => {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new PayloadError('expected {method, params}');
  const { method, params, ...rest } = payload as Record<string, unknown>;
  if (Object.keys(rest).length) throw new PayloadError(`unexpected keys: ${Object.keys(rest).join(', ')}`);
  if (typeof method !== 'string' || !KNOWN.has(method)) throw new PayloadError(`unknown method ${String(method)}`);
  const plain = params === undefined || params === null ? {} : params;
  if (typeof plain !== 'object' || Array.isArray(plain) || Object.getPrototypeOf(plain) !== Object.prototype) {
    throw new PayloadError('params must be a plain object');
  }
  if (JSON.stringify(plain).length > MAX_PAYLOAD_CHARS) throw new PayloadError('params are too large');
  return { method: method as MethodName, params: plain as Record<string, unknown> };
};
