// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

const created = vi.hoisted(() => ({ windows: [] as FakeWindow[], opened: [] as string[] }));

class FakeContents {
  listeners = new Map<string, Listener>();
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  permissionHandler: ((c: unknown, p: string, cb: (ok: boolean) => void) => void) | null = null;
  session = { setPermissionRequestHandler: (fn: FakeContents['permissionHandler']) => { this.permissionHandler = fn; } };
  on(name: string, fn: Listener) { this.listeners.set(name, fn); }
  setWindowOpenHandler(fn: FakeContents['openHandler']) { this.openHandler = fn; }
}

class FakeWindow {
  webContents = new FakeContents();
  loaded = '';
  constructor(readonly options: { webPreferences: Record<string, unknown> }) { created.windows.push(this); }
  once() {}
  show() {}
  loadFile(path: string) { this.loaded = path; return Promise.resolve(); }
}

vi.mock('electron', () => ({ BrowserWindow: FakeWindow, shell: { openExternal: (url: string) => { created.opened.push(url); return Promise.resolve(); } } }));

const { createMainWindow, isExternalLink } = await import('./window');

function make() {
  createMainWindow({ preload: '/app/preload.js', indexHtml: '/app/dist/renderer/index.html' });
  return created.windows.at(-1)!;
}

describe('createMainWindow', () => {
  it('isolates the renderer: context isolation, sandbox, no Node', () => {
    const prefs = make().options.webPreferences;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, preload: '/app/preload.js' });
    expect(prefs).toMatchObject({ webviewTag: false, allowRunningInsecureContent: false, disableBlinkFeatures: 'Auxclick' });
  });

  it('denies new windows and opens http(s) links in the browser', () => {
    const contents = make().webContents;
    expect(contents.openHandler!({ url: 'https://fio.readthedocs.io/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(created.opened).toEqual(['https://fio.readthedocs.io/']);
  });

  it('blocks navigation away from the app page', () => {
    const navigate = make().webContents.listeners.get('will-navigate')!;
    const away = { preventDefault: vi.fn() };
    navigate(away, 'https://evil.example/');
    expect(away.preventDefault).toHaveBeenCalled();
    const reload = { preventDefault: vi.fn() };
    navigate(reload, 'file:///app/dist/renderer/index.html#results');
    expect(reload.preventDefault).not.toHaveBeenCalled();
  });

  it('refuses every permission request', () => {
    const answer = vi.fn();
    make().webContents.permissionHandler!(null, 'media', answer);
    expect(answer).toHaveBeenCalledWith(false);
  });

  it('loads the built renderer from disk', () => {
    expect(make().loaded).toBe('/app/dist/renderer/index.html');
  });
});

describe('isExternalLink', () => {
  it('accepts only http and https', () => {
    expect(isExternalLink('https://a.example')).toBe(true);
    expect(isExternalLink('javascript:alert(1)')).toBe(false);
    expect(isExternalLink('not a url')).toBe(false);
  });
});
