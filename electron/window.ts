// The one place a BrowserWindow is made: isolated, sandboxed, no Node; navigation blocked, new
// windows denied (http(s) links open in the user's browser), permission requests refused.
import { BrowserWindow, shell, type WebContents } from 'electron';
import { pathToFileURL } from 'node:url';

export interface WindowPaths {
  preload: string;
  indexHtml: string;
}

export function appUrl(indexHtml: string): string {
  return pathToFileURL(indexHtml).href;
}

export function isExternalLink(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** Applied to every web contents the app creates. */
export function harden(contents: WebContents, allowedUrl: string): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (url.split(/[?#]/)[0] !== allowedUrl) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
}

export function createMainWindow(paths: WindowPaths): BrowserWindow {
  const window = new BrowserWindow({
    width: 1360,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'ssdprof',
    webPreferences: {
      preload: paths.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      // middle-click would open a link in a new window without passing the window-open handler
      disableBlinkFeatures: 'Auxclick',
    },
  });
  harden(window.webContents, appUrl(paths.indexHtml));
  window.once('ready-to-show', () => window.show());
  void window.loadFile(paths.indexHtml);
  return window;
}
