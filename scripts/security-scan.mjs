// Electron security scan (Doyensec's Electronegativity) over the built shell and renderer, as an
// installed app would hold them. Every finding must be explained in electron/security-review.md
// (a line "- `CHECK_NAME` in `file`: why"); an unexplained one fails `npm test`.
//   npm run security
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REVIEW = join(ROOT, 'electron', 'security-review.md');
const electronVersion = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies.electron;

for (const [built, script] of [['dist/electron/electron/main.js', 'build:electron'], ['dist/renderer/index.html', 'build:renderer']]) {
  if (!existsSync(join(ROOT, built))) execFileSync('npm', ['run', script], { cwd: ROOT, stdio: 'inherit' });
}
// The shell is built from electron/ and the shared contract/ alone: a renderer file in its build
// would mean electron/ imports from src/ again.
const shellParts = readdirSync(join(ROOT, 'dist', 'electron')).sort();
if (shellParts.join(',') !== 'contract,electron') {
  console.error(`security: dist/electron holds ${shellParts.join(', ')}; expected only contract and electron (is a stale build there? npm run build)`);
  process.exit(1);
}
const app = mkdtempSync(join(tmpdir(), 'ssdprof-security-'));
try {
  cpSync(join(ROOT, 'dist', 'electron'), join(app, 'electron'), { recursive: true });
  cpSync(join(ROOT, 'dist', 'renderer'), join(app, 'renderer'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(app, 'package.json'));
  // SARIF, not CSV: Electronegativity writes the CSV header and the rows with two racing async
  // writes, so the header can land over the first row (seen in CI). SARIF is one write.
  const report = join(app, 'findings.sarif');
  // The version is given so the scan needs no network (it would look up Electron's releases).
  execFileSync(join(ROOT, 'node_modules', '.bin', 'electronegativity'), ['-i', app, '-e', electronVersion, '-r', '-v', 'false', '-o', report],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const findings = JSON.parse(readFileSync(report, 'utf8')).runs[0].results.map((result) => {
    const where = result.locations[0].physicalLocation;
    return {
      check: result.ruleId,
      level: result.level,
      file: where.artifactLocation.uri,
      location: `${where.region.startLine}:${where.region.startColumn - 1}`,
    };
  });
  const review = readFileSync(REVIEW, 'utf8');
  const unexplained = findings.filter((f) => !review.includes(`\`${f.check}\` in \`${f.file}\``));
  for (const f of findings) {
    console.log(`${unexplained.includes(f) ? 'UNEXPLAINED' : 'explained  '} ${f.check} (${f.level}) ${f.file}:${f.location}`);
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
