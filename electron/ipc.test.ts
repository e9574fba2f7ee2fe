// @vitest-environment node
import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  handlers: new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>(),
  windows: new Set<unknown>(),
}));

vi.mock('electron', () => ({
  ipcMain: { handle: (channel: string, fn: (event: unknown, payload: unknown) => Promise<unknown>) => electron.handlers.set(channel, fn) },
  BrowserWindow: { fromWebContents: (contents: unknown) => (electron.windows.has(contents) ? {} : null) },
}));

const { handle, validateEngineCall, PayloadError } = await import('./ipc');

const APP = 'file:///app/dist/renderer/index.html';
const ours = { id: 1 };

function event(sender: unknown, url = APP) {
  return { sender, senderFrame: { url } };
}

beforeEach(() => {
  electron.handlers.clear();
  electron.windows.clear();
  electron.windows.add(ours);
});

describe('handle', () => {
  it('runs the handler for our window with a valid payload', async () => {
    const run = vi.fn((p: { method: string }) => Promise.resolve(p.method));
    handle('engine:call', APP, validateEngineCall, run);
    const result = await electron.handlers.get('engine:call')!(event(ours), { method: 'runs.list', params: {} });
    expect(result).toBe('runs.list');
  });

  it('refuses a sender that is not one of our windows', async () => {
    const run = vi.fn(() => Promise.resolve('ran'));
    handle('engine:call', APP, validateEngineCall, run);
    await expect(electron.handlers.get('engine:call')!(event({ id: 2 }), { method: 'runs.list', params: {} })).rejects.toThrow(/untrusted/);
    expect(run).not.toHaveBeenCalled();
  });

  it('refuses our window once it shows another page', async () => {
    const run = vi.fn(() => Promise.resolve('ran'));
    handle('engine:call', APP, validateEngineCall, run);
    await expect(electron.handlers.get('engine:call')!(event(ours, 'https://example.com/'), { method: 'runs.list' })).rejects.toThrow(/untrusted/);
    expect(run).not.toHaveBeenCalled();
  });

  it('refuses an invalid payload before the handler runs', async () => {
    const run = vi.fn(() => Promise.resolve('ran'));
    handle('engine:call', APP, validateEngineCall, run);
    await expect(electron.handlers.get('engine:call')!(event(ours), { method: 'fs.readFile' })).rejects.toThrow(/unknown method/);
    expect(run).not.toHaveBeenCalled();
  });
});

describe('validateEngineCall', () => {
  it('accepts a contract method with missing params as empty params', () => {
    expect(validateEngineCall({ method: 'engine.info' })).toEqual({ method: 'engine.info', params: {} });
  });

  it.each([
    [null, /expected/],
    [['engine.info'], /expected/],
    [{ method: 'engine.info', params: [] }, /plain object/],
    [{ method: 'engine.info', params: {}, extra: 1 }, /unexpected keys/],
    [{ method: 'engine.info', params: { big: 'x'.repeat(1 << 20) } }, /too large/],
  ])('rejects %j', (payload, message) => {
    expect(() => validateEngineCall(payload)).toThrow(PayloadError);
    expect(() => validateEngineCall(payload)).toThrow(message);
  });
});

describe('validateSavePdf', async () => {
  const { validateSavePdf } = await import('./ipc');
  const pdf = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');

  it('accepts a bare .pdf name and base64 that decodes to a PDF', () => {
    expect(validateSavePdf({ filename: 'ssdprof-runs-3.pdf', pdf_base64: pdf }).pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses a name with a folder in it', () => {
    expect(() => validateSavePdf({ filename: '../../etc/x.pdf', pdf_base64: pdf })).toThrow(/bare name/);
  });

  it('refuses bytes that are not a PDF', () => {
    expect(() => validateSavePdf({ filename: 'a.pdf', pdf_base64: Buffer.from('MZ...').toString('base64') })).toThrow(/not a PDF/);
  });

  it('refuses extra keys', () => {
    expect(() => validateSavePdf({ filename: 'a.pdf', pdf_base64: pdf, path: '/etc' })).toThrow(/unexpected keys/);
  });
});
