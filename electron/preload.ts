// The renderer's only door to the engine: one typed method per operation. Sandboxed preloads
// may load nothing but 'electron', so this file imports types only.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { MethodName, Methods } from '../src/api/contract.gen';
import type { EngineApi, Notification, Reply, SavePdfRequest, SavePdfResult } from '../src/api/engine-api';

function invoke<M extends MethodName>(method: M) {
  return (params: Methods[M]['params']) => ipcRenderer.invoke('engine:call', { method, params }) as Promise<Reply<Methods[M]['result']>>;
}

const api = {
  engineInfo: invoke('engine.info'),
  workloadValidate: invoke('workload.validate'),
  presetsList: invoke('presets.list'),
  devicesList: invoke('devices.list'),
  sweepEstimate: invoke('sweep.estimate'),
  sweepStart: invoke('sweep.start'),
  sweepResume: invoke('sweep.resume'),
  sweepCancel: invoke('sweep.cancel'),
  sweepStatus: invoke('sweep.status'),
  sweepsList: invoke('sweeps.list'),
  runsList: invoke('runs.list'),
  runsGet: invoke('runs.get'),
  runsTag: invoke('runs.tag'),
  runsDelete: invoke('runs.delete'),
  exportCsv: invoke('export.csv'),
  specsList: invoke('specs.list'),
  specsMatch: invoke('specs.match'),
  specsCompare: invoke('specs.compare'),
  specsSave: invoke('specs.save'),
  specsDelete: invoke('specs.delete'),
  runsCompare: invoke('runs.compare'),
  analysisPredict: invoke('analysis.predict'),
  analysisScaling: invoke('analysis.scaling'),
  analysisObserve: invoke('analysis.observe'),
  analysisCorrelation: invoke('analysis.correlation'),
  reportPdf: invoke('report.pdf'),
  hostsList: invoke('hosts.list'),
  hostsAdd: invoke('hosts.add'),
  hostsTest: invoke('hosts.test'),
  hostsRemove: invoke('hosts.remove'),
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
