// The renderer's only door to the engine: one typed call for every RPC method. Sandboxed preloads
// may load nothing but 'electron', so this file imports types only.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { CallEngine, EngineApi, Notification, Reply, SavePdfRequest, SavePdfResult } from '../contract/engine-api';

const api = {
  call: ((method, params) => ipcRenderer.invoke('engine:call', { method, params })) as CallEngine,
  savePdf: (request: SavePdfRequest) => ipcRenderer.invoke('file:save-pdf', request) as Promise<Reply<SavePdfResult>>,
  onNotification(listener: (note: Notification) => void) {
    const relay = (_event: IpcRendererEvent, note: Notification) => listener(note);
    ipcRenderer.on('engine:notification', relay);
    return () => {
      ipcRenderer.removeListener('engine:notification', relay);
    };
  },
} satisfies EngineApi;

contextBridge.exposeInMainWorld('ssdprof', api);
