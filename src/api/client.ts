// What components use: the bridge's replies turned into results or a thrown EngineError that
// keeps the engine's field problems, plus a subscription to run events.
import { ERROR_CODES, type FieldProblem, type MethodName, type Methods, type RunEventNotification } from '../../contract/contract.gen';
import { type EngineApi, type Notification, type SavePdfRequest, type SavePdfResult } from '../../contract/engine-api';

export class EngineError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly problems: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export type RunEvent = RunEventNotification['event'];

export class Engine {
  constructor(private readonly bridge: EngineApi) {}

  async call<M extends MethodName>(method: M, params: Methods[M]['params']): Promise<Methods[M]['result']> {
    if (typeof this.bridge.call !== 'function') throw new EngineError(`the engine bridge cannot call ${method}`, ERROR_CODES.bridge_missing);
    const reply = await this.bridge.call(method, params);
    if (!reply.ok) throw new EngineError(reply.error.message, reply.error.code, reply.error.data?.problems ?? []);
    return reply.result;
  }

  async savePdf(request: SavePdfRequest): Promise<SavePdfResult> {
    const reply = await this.bridge.savePdf(request);
    if (!reply.ok) throw new EngineError(reply.error.message, reply.error.code);
    return reply.result;
  }

  onNotification(listener: (note: Notification) => void): () => void {
    return this.bridge.onNotification(listener);
  }

  onRunEvent(listener: (event: RunEvent) => void): () => void {
    return this.bridge.onNotification((note) => {
      if (note.method === 'run.event') listener(note.params.event);
    });
  }
}
