// An in-memory engine for component tests: answers chosen methods, records every call, and
// lets a test push notifications. Realistic results come from sample-run.ts (a real fio run).
import { Engine } from '../api/client';
import type { FieldProblem, MethodName, Methods } from '../../contract/contract.gen';
import { type EngineApi, type Notification, type Reply, type RpcErrorBody } from '../../contract/engine-api';
import { ERROR_CODES } from '../../contract/contract.gen';

type Handlers = { [M in MethodName]?: (params: Methods[M]['params']) => Methods[M]['result'] };

/** Thrown by a handler to answer with a JSON-RPC error. */
export class RpcReplyError extends Error {
  constructor(readonly error: RpcErrorBody) {
    super(error.message);
  }
}

/** The engine's refusal of a request's fields (invalid_params), each problem naming its field. */
export function invalidParams(problems: FieldProblem[]): RpcReplyError {
  return new RpcReplyError({ code: ERROR_CODES.invalid_params, message: 'invalid params', data: { problems } });
}

export interface FakeEngine {
  engine: Engine;
  calls: { method: MethodName; params: unknown }[];
  /** PDFs the component asked to save (file names). */
  saved: string[];
  notify: (note: Notification) => void;
}

export function fakeEngine(handlers: Handlers): FakeEngine {
  const calls: FakeEngine['calls'] = [];
  const saved: string[] = [];
  const listeners = new Set<(note: Notification) => void>();
  const reply = (method: MethodName, params: unknown): Reply<unknown> => {
    const handler = handlers[method] as ((p: unknown) => unknown) | undefined;
    if (!handler) return { ok: false, error: { code: ERROR_CODES.method_not_found, message: `${method} is not faked` } };
    try {
      return { ok: true, result: handler(params) };
    } catch (thrown) {
      if (thrown instanceof RpcReplyError) return { ok: false, error: thrown.error };
      throw thrown;
    }
  };
  const call = (method: MethodName, params: unknown) => {
    calls.push({ method, params });
    // Whatever else a handler throws becomes a rejection, as it would from an async bridge.
    return new Promise<Reply<unknown>>((resolve) => resolve(reply(method, params)));
  };
  const bridge = {
    call,
    savePdf: (request: { filename: string }) => {
      saved.push(request.filename);
      return Promise.resolve({ ok: true, result: { saved: true, path: `/tmp/${request.filename}` } });
    },
    onNotification: (listener: (note: Notification) => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  } as unknown as EngineApi;
  return { engine: new Engine(bridge), calls, saved, notify: (note) => listeners.forEach((l) => l(note)) };
}
