// @vitest-environment node
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineCommand, frozenEngine } from './paths';

const root = '/checkout';
const resources = '/opt/ssdprof/resources';
const only = (...present: string[]) => (path: string) => present.includes(path);

describe('engineCommand', () => {
  it('runs the frozen engine from the resources folder of an installed app', () => {
    const frozen = join(resources, 'engine', 'ssdprof');
    const command = engineCommand(root, { SSDPROF_DB: '/data/db.sqlite3' }, { resourcesPath: resources, platform: 'linux', exists: only(frozen) });
    expect(command).toEqual({ command: frozen, args: ['rpc', '--db', '/data/db.sqlite3'], cwd: resources });
  });

  it('runs the engine python of the checkout when the resources folder holds no engine', () => {
    const command = engineCommand(root, {}, { resourcesPath: resources, platform: 'linux', exists: only() });
    expect(command).toEqual({ command: join(root, 'engine', '.venv', 'bin', 'python'), args: ['-m', 'ssdprof', 'rpc'], cwd: root });
  });

  it('runs the engine python outside Electron, where there is no resources folder', () => {
    const command = engineCommand(root, {}, { resourcesPath: undefined, platform: 'linux', exists: () => true });
    expect(command.args).toEqual(['-m', 'ssdprof', 'rpc']);
  });

  it('prefers SSDPROF_PYTHON over the frozen engine', () => {
    const frozen = join(resources, 'engine', 'ssdprof');
    const command = engineCommand(root, { SSDPROF_PYTHON: '/usr/bin/python3' }, { resourcesPath: resources, platform: 'linux', exists: only(frozen) });
    expect(command.command).toBe('/usr/bin/python3');
  });
});

describe('frozenEngine', () => {
  it('names the Windows executable with .exe', () => {
    expect(frozenEngine('C:\\ssdprof\\resources', 'win32')).toMatch(/ssdprof\.exe$/);
  });
});
