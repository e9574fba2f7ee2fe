// What components use: the bridge's replies turned into results or a thrown EngineError that
// keeps the engine's field problems, plus a subscription to run events.
import type { FieldProblem, MethodName, Methods, RunEventNotification } from './contract.gen';
import { apiName, type EngineApi, type Notification, type SavePdfRequest, type SavePdfResult } from './engine-api';

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
    const fn = (this.bridge as unknown as Record<string, (p: unknown) => ReturnType<EngineApi['runsList']>>)[apiName(method)];
    if (!fn) throw new EngineError(`the engine bridge has no ${method}`, -32601);
    const reply = await fn(params);
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
