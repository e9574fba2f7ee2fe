// Where things are when running from a checkout: the built renderer and preload, the engine's
// Python, and the results database (SSDPROF_DB overrides, e.g. for tests).
import { join, resolve } from 'node:path';
import type { EngineCommand } from './engine-process';

export function repoRoot(compiledDir: string): string {
  // dist/electron/electron/main.js -> the checkout's root
  return resolve(compiledDir, '..', '..', '..');
}

export function enginePython(root: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? join(root, 'engine', '.venv', 'Scripts', 'python.exe') : join(root, 'engine', '.venv', 'bin', 'python');
}

export function engineCommand(root: string, env: NodeJS.ProcessEnv = process.env): EngineCommand {
  const db = env.SSDPROF_DB;
  return {
    command: env.SSDPROF_PYTHON ?? enginePython(root),
    args: ['-m', 'ssdprof', 'rpc', ...(db ? ['--db', db] : [])],
    cwd: root,
  };
}

export function rendererIndex(root: string): string {
  return join(root, 'dist', 'renderer', 'index.html');
}
