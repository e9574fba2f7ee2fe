// The only module that knows how the renderer reaches the engine: Electron's preload bridge
// when present, otherwise browser mode's HTTP server with the token from the page's URL.
import { createContext, useContext } from 'react';
import { Engine } from './client';
import type { EngineApi } from '../../contract/engine-api';
import { createHttpApi } from './http';

export { Engine, EngineError, type RunEvent } from './client';
export type { EngineApi, Notification, SavePdfRequest, SavePdfResult } from '../../contract/engine-api';
export * from '../../contract/contract.gen';

declare global {
  interface Window {
    /** Set by electron/preload.ts; absent in browser mode. */
    readonly ssdprof?: EngineApi;
  }
}

export class NoTokenError extends Error {}

export function connect(): Engine {
  if (window.ssdprof) return new Engine(window.ssdprof);
  const params = new URLSearchParams(window.location.search);
  const token = params.get('token') ?? window.sessionStorage.getItem('ssdprof-token');
  if (!token) throw new NoTokenError('open the URL that `ssdprof serve` (or `npm start`) printed: it carries the token');
  window.sessionStorage.setItem('ssdprof-token', token);
  return new Engine(createHttpApi({ token }));
}

export const EngineContext = createContext<Engine | null>(null);

export function useEngine(): Engine {
  const engine = useContext(EngineContext);
  if (!engine) throw new Error('useEngine() outside <EngineContext.Provider>');
  return engine;
}

export { forgetKeptQueries, useEngineQuery, type EngineQuery, type QueryOptions } from './use-engine-query';
