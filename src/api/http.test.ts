import { describe, expect, it, vi } from 'vitest';
import { Engine, EngineError } from './client';
import { createHttpApi, TOKEN_HEADER } from './http';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('browser-mode transport', () => {
  it('posts JSON-RPC with the token header and returns the result', async () => {
    const fetch = vi.fn((_url: RequestInfo | URL, _init?: RequestInit) => Promise.resolve(jsonResponse({ jsonrpc: '2.0', id: 1, result: { presets: [] } })));
    const engine = new Engine(createHttpApi({ token: 'tok', fetch }));
    await expect(engine.call('presets.list', {})).resolves.toEqual({ presets: [] });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/rpc');
    expect((init!.headers as Record<string, string>)[TOKEN_HEADER]).toBe('tok');
    expect(JSON.parse(init!.body as string)).toMatchObject({ jsonrpc: '2.0', method: 'presets.list' });
  });

  it('keeps the field problems of an error reply', async () => {
    const problems = [{ field: 'queue_depth', flag: '--qd', message: 'must be an integer from 1 to 4096; got 0' }];
    const fetch = vi.fn(() => Promise.resolve(jsonResponse({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad', data: { problems } } })));
    const engine = new Engine(createHttpApi({ token: 'tok', fetch }));
    const error = await engine.call('sweep.start', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).problems).toEqual(problems);
  });

  it('says what to do when the server refuses the token', async () => {
    const engine = new Engine(createHttpApi({ token: 'old', fetch: vi.fn(() => Promise.resolve(new Response('no', { status: 403 }))) }));
    await expect(engine.call('engine.info', {})).rejects.toThrow(/open the URL/);
  });

  it('delivers server-sent notifications to subscribers', () => {
    const sources: { url: string; onmessage: ((m: MessageEvent<string>) => void) | null; close: () => void }[] = [];
    const api = createHttpApi({ token: 't k', eventSource: (url) => {
      const source = { url, onmessage: null, close: vi.fn() };
      sources.push(source);
      return source as unknown as EventSource;
    } });
    const seen: string[] = [];
    const stop = api.onNotification((note) => seen.push(note.method));
    expect(sources[0]!.url).toBe('/events?token=t%20k');
    sources[0]!.onmessage!(new MessageEvent('message', { data: JSON.stringify({ jsonrpc: '2.0', method: 'engine.log', params: { level: 'info', message: 'hi' } }) }));
    sources[0]!.onmessage!(new MessageEvent('message', { data: JSON.stringify({ jsonrpc: '2.0', method: 'unknown.thing', params: {} }) }));
    expect(seen).toEqual(['engine.log']);
    stop();
    expect(sources[0]!.close).toHaveBeenCalled();
  });
});
