// Where things are: the built renderer and preload, the engine, and the results database
// (SSDPROF_DB overrides, e.g. for tests). An installed app runs the frozen engine that
// electron-builder put in its resources folder (extraResources: engine/); a checkout runs the
// engine's Python (SSDPROF_PYTHON overrides either).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EngineCommand } from './engine-process';

export function repoRoot(compiledDir: string): string {
  // dist/electron/electron/main.js -> the checkout's root (in an installed app: its app.asar)
  return resolve(compiledDir, '..', '..', '..');
}

export function enginePython(root: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? join(root, 'engine', '.venv', 'Scripts', 'python.exe') : join(root, 'engine', '.venv', 'bin', 'python');
}

/** The frozen engine (scripts/freeze-engine.sh) as electron-builder installs it. */
export function frozenEngine(resourcesPath: string, platform: NodeJS.Platform = process.platform): string {
  return join(resourcesPath, 'engine', platform === 'win32' ? 'ssdprof.exe' : 'ssdprof');
}

export interface EngineLocation {
  /** Electron's process.resourcesPath; undefined outside Electron. */
  resourcesPath?: string;
  platform?: NodeJS.Platform;
  exists?: (path: string) => boolean;
}

export function engineCommand(root: string, env: NodeJS.ProcessEnv = process.env, where: EngineLocation = {}): EngineCommand {
  const db = env.SSDPROF_DB;
  const dbArgs = db ? ['--db', db] : [];
  const { resourcesPath = (process as { resourcesPath?: string }).resourcesPath, platform = process.platform, exists = existsSync } = where;
  const frozen = resourcesPath === undefined ? undefined : frozenEngine(resourcesPath, platform);
  if (!env.SSDPROF_PYTHON && frozen && exists(frozen)) {
    // the working directory must be a real folder (not inside app.asar)
    return { command: frozen, args: ['rpc', ...dbArgs], cwd: resourcesPath };
  }
  return {
    command: env.SSDPROF_PYTHON ?? enginePython(root, platform),
    args: ['-m', 'ssdprof', 'rpc', ...dbArgs],
    cwd: root,
  };
}

export function rendererIndex(root: string): string {
  return join(root, 'dist', 'renderer', 'index.html');
}
