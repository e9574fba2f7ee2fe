// Browser mode's transport: JSON-RPC over POST /rpc and notifications as server-sent events.
import { ERROR_CODES, NOTIFICATION_NAMES, TOKEN_HEADER, type MethodName } from '../../contract/contract.gen';
import { type EngineApi, type Notification, type Reply, type RpcErrorBody } from '../../contract/engine-api';

export { TOKEN_HEADER };

export interface HttpOptions {
  token: string;
  base?: string;
  fetch?: typeof fetch;
  eventSource?: (url: string) => EventSource;
  document?: Document;
}

export function createHttpApi(options: HttpOptions): EngineApi {
  const base = options.base ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  let nextId = 0;

  async function call(method: MethodName, params: unknown): Promise<Reply<unknown>> {
    nextId += 1;
    let response: Response;
    try {
      response = await doFetch(`${base}/rpc`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: options.token },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId, method, params }),
      });
    } catch (error) {
      return failure(ERROR_CODES.server_unreachable, `the ssdprof server cannot be reached (${String(error)}); is \`ssdprof serve\` still running?`);
    }
    if (response.status === 401 || response.status === 403) {
      return failure(ERROR_CODES.token_refused, 'the server refused this page: open the URL (with its token) that `ssdprof serve` printed');
    }
    if (!response.ok) return failure(ERROR_CODES.http_error, `the server answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { result?: unknown; error?: RpcErrorBody };
    return body.error ? { ok: false, error: body.error } : { ok: true, result: body.result };
  }

  const listeners = new Set<(note: Notification) => void>();
  let source: EventSource | null = null;
  const known = new Set<string>(NOTIFICATION_NAMES);

  function open(): void {
    const url = `${base}/events?token=${encodeURIComponent(options.token)}`;
    source = options.eventSource ? options.eventSource(url) : new EventSource(url);
    source.onmessage = (message: MessageEvent<string>) => {
      const note = JSON.parse(message.data) as Notification;
      if (!known.has(note.method)) return;
      for (const listener of listeners) listener(note);
    };
  }

  return {
    call,
    savePdf: (request) => {
      try {
        download(request.filename, request.pdf_base64, options.document ?? document);
        return Promise.resolve({ ok: true, result: { saved: true, path: null } });
      } catch (error) {
        return Promise.resolve(failure(ERROR_CODES.download_refused, `the browser did not take the download: ${String(error)}`));
      }
    },
    onNotification(listener) {
      listeners.add(listener);
      if (!source) open();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && source) {
          source.close();
          source = null;
        }
      };
    },
  } as EngineApi;
}

/** Browser mode has no file dialog: the PDF becomes a download (the browser asks where, or uses its folder). */
function download(filename: string, base64: string, doc: Document): void {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
  const link = doc.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  doc.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function failure(code: number, message: string): Reply<never> {
  return { ok: false, error: { code, message } };
}
