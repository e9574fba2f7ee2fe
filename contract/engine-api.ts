// The bridge between the renderer and the engine, whatever carries it (Electron's preload or
// browser mode's HTTP): one typed call for every RPC method of the generated contract. Shared by
// the shell (electron/) and the renderer (src/api/), which both import this folder.
import type { ErrorData, MethodName, Methods, NotificationName, Notifications } from './contract.gen';

/** A JSON-RPC error as the engine sends it; `data.problems` names each bad field. */
export interface RpcErrorBody {
  code: number;
  message: string;
  data?: ErrorData;
}

/** Replies cross the bridge as values, never as thrown errors, so field problems survive it. */
export type Reply<T> = { ok: true; result: T } | { ok: false; error: RpcErrorBody };

export type Notification = { [N in NotificationName]: { method: N; params: Notifications[N] } }[NotificationName];

/** A PDF the engine made (`report.pdf`), to be saved where the user says. */
export interface SavePdfRequest {
  filename: string;
  pdf_base64: string;
}

/** `saved` false when the user closed the dialog; `path` where the file went (null in a browser download). */
export interface SavePdfResult {
  saved: boolean;
  path: string | null;
}

/** Calls RPC method `method` (a name of the contract, e.g. 'sweep.start'); the engine answers it with the handler marked @handles('…'), or a test kind's with the operation its module names ('sweep.start': app/kinds/sweep.py). */
export type CallEngine = <M extends MethodName>(method: M, params: Methods[M]['params']) => Promise<Reply<Methods[M]['result']>>;

export type EngineApi = {
  readonly call: CallEngine;
  /** Calls `listener` with every notification until the returned function is called. */
  readonly onNotification: (listener: (note: Notification) => void) => () => void;
  /** Saves a PDF: Electron's save dialog in the desktop app, a download in browser mode. */
  readonly savePdf: (request: SavePdfRequest) => Promise<Reply<SavePdfResult>>;
};
