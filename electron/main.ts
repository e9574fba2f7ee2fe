// The desktop shell: starts the engine, relays calls and notifications, opens the window, and
// stops the engine (and so any fio) when the app quits.
import { app, BrowserWindow, dialog } from 'electron';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ERROR_CODES } from '../contract/contract.gen';
import type { Notification } from '../contract/engine-api';
import { EngineProcess } from './engine-process';
import { handle, validateEngineCall, validateSavePdf, type SavePdf } from './ipc';
import { engineCommand, rendererIndex, repoRoot } from './paths';
import { appUrl, createMainWindow, harden } from './window';

const root = repoRoot(__dirname);
const indexHtml = rendererIndex(root);
const engine = new EngineProcess(engineCommand(root));

function broadcast(note: Notification): void {
  for (const window of BrowserWindow.getAllWindows()) window.webContents.send('engine:notification', note);
}

app.on('web-contents-created', (_event, contents) => harden(contents, appUrl(indexHtml)));

void app.whenReady().then(() => {
  engine.onNotification(broadcast);
  engine.onStatus((status) => broadcast({ method: 'engine.status', params: status }));
  engine.start();
  handle('engine:call', appUrl(indexHtml), validateEngineCall, ({ method, params }) => engine.call(method, params));
  handle('file:save-pdf', appUrl(indexHtml), validateSavePdf, savePdf);
  createMainWindow({ preload: join(__dirname, 'preload.js'), indexHtml });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow({ preload: join(__dirname, 'preload.js'), indexHtml });
  });
});

/** The engine made the PDF; the main process only asks where to put it and writes the bytes. */
async function savePdf({ filename, pdf }: SavePdf) {
  const window = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  const options = { defaultPath: join(app.getPath('documents'), filename), filters: [{ name: 'PDF', extensions: ['pdf'] }] };
  const chosen = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
  if (chosen.canceled || !chosen.filePath) return { ok: true, result: { saved: false, path: null } } as const;
  try {
    await writeFile(chosen.filePath, pdf);
  } catch (error) {
    return { ok: false, error: { code: ERROR_CODES.file_not_written, message: `could not write ${chosen.filePath}: ${String(error)}` } } as const;
  }
  return { ok: true, result: { saved: true, path: chosen.filePath } } as const;
}

app.on('window-all-closed', () => app.quit());

let engineStopped = false;
app.on('before-quit', (event) => {
  if (engineStopped) return;
  event.preventDefault();
  void engine.stop().finally(() => {
    engineStopped = true;
    app.quit();
  });
});
