// Electron security scan (Doyensec's Electronegativity) over the built shell and renderer, as an
// installed app would hold them. Every finding must be explained in electron/security-review.md
// (a line "- `CHECK_NAME` in `file`: why"); an unexplained one fails `npm test`.
//   npm run security
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REVIEW = join(ROOT, 'electron', 'security-review.md');
const electronVersion = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies.electron;

for (const [built, script] of [['dist/electron/electron/main.js', 'build:electron'], ['dist/renderer/index.html', 'build:renderer']]) {
  if (!existsSync(join(ROOT, built))) execFileSync('npm', ['run', script], { cwd: ROOT, stdio: 'inherit' });
}
const app = mkdtempSync(join(tmpdir(), 'ssdprof-security-'));
try {
  cpSync(join(ROOT, 'dist', 'electron'), join(app, 'electron'), { recursive: true });
  cpSync(join(ROOT, 'dist', 'renderer'), join(app, 'renderer'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(app, 'package.json'));
  const csv = join(app, 'findings.csv');
  // The version is given so the scan needs no network (it would look up Electron's releases).
  execFileSync(join(ROOT, 'node_modules', '.bin', 'electronegativity'), ['-i', app, '-e', electronVersion, '-r', '-v', 'false', '-o', csv],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const findings = readFileSync(csv, 'utf8').trim().split('\n').slice(1).filter(Boolean).map((line) => {
    const [check, severity, confidence, file, location] = line.split(',').map((cell) => cell.replace(/^"|"$/g, ''));
    return { check, severity, confidence, file, location };
  });
  const review = readFileSync(REVIEW, 'utf8');
  const unexplained = findings.filter((f) => !review.includes(`\`${f.check}\` in \`${f.file}\``));
  for (const f of findings) {
    console.log(`${unexplained.includes(f) ? 'UNEXPLAINED' : 'explained  '} ${f.check} (${f.severity}, ${f.confidence}) ${f.file}:${f.location}`);
  }
  if (unexplained.length) {
    console.error(`security: ${unexplained.length} finding(s) not explained in electron/security-review.md: fix them, or explain why they are safe there`);
    process.exitCode = 1;
  } else {
    console.log(`security: ${findings.length} finding(s), each explained in electron/security-review.md`);
  }
} finally {
  rmSync(app, { recursive: true, force: true });
}
