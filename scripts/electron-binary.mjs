// Prints the Electron binary's path and exits 0 when it is installed; exits 1 otherwise.
// Never downloads (require('electron') would try to).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'electron');
const pathFile = join(root, 'path.txt');
const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
const binary = override ? join(override, relative) : join(root, 'dist', relative);
if (!existsSync(binary)) process.exit(1);
console.log(binary);
