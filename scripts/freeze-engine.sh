#!/usr/bin/env bash
# Freezes the engine with PyInstaller into dist/engine/ssdprof/ (one folder; its `ssdprof`
# executable is the CLI, `ssdprof rpc` included), so the desktop app needs no Python.
#   scripts/freeze-engine.sh          build, unless the engine's sources and lock files are unchanged
#   scripts/freeze-engine.sh --force  build anyway
#   scripts/freeze-engine.sh --smoke  build if needed, then check the frozen engine (npm run test:frozen):
#                                     --version, `rpc` answers engine.info, `run` measures with fio, and
#                                     `run --engine portable` measures through the bundled compiled loop
# The frozen engine runs on the OS (and CPU architecture) it was built on only.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf 'freeze: %s\n' "$*" >&2; }

out=dist/engine
binary=$out/ssdprof/ssdprof
[ "${OS:-}" = Windows_NT ] && binary=$binary.exe

bash scripts/setup.sh freeze

# Everything that goes into the bundle: a change to any of it rebuilds.
inputs_hash() {
  {
    git ls-files -co --exclude-standard -- engine/ssdprof engine/native assets/specs 2>/dev/null || find engine/ssdprof engine/native assets/specs -type f
    printf '%s\n' engine/pyproject.toml engine/requirements.lock engine/requirements-build.lock scripts/freeze-engine.sh scripts/freeze-engine.spec
    printf '%s\n' engine/native/build/ssdprof-io engine/native/build/ssdprof-io.exe  # the compiled loop it bundles
  } | grep -v -e '__pycache__' -e '\.pyc$' | LC_ALL=C sort -u | while read -r file; do
    [ -f "$file" ] && printf '%s  %s\n' "$(sha256sum <"$file" | cut -c1-64)" "$file"
  done
  engine/.venv/bin/python -c 'import platform, sys; print(sys.version, platform.machine())'
}
stamp=$out/.ssdprof-freeze-$(inputs_hash | sha256sum | cut -c1-16)

freeze() {
  say "freezing the engine with PyInstaller into $out/ssdprof (about a minute)"
  rm -rf "$out"
  engine/.venv/bin/python -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$out" --workpath build/pyinstaller scripts/freeze-engine.spec
  "$binary" --version >/dev/null
  touch "$stamp"
  say "built $binary"
}

# smoke: the frozen executable alone (no Python involved) answers --version, rpc and run.
smoke() {
  local version status=0
  # on the disk, not /tmp: the engine refuses RAM filesystems as targets
  scratch=$(mktemp -d "${SSDPROF_SCRATCH:-/var/tmp}/ssdprof-frozen.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
  version=$("$binary" --version)
  [[ $version == "ssdprof "* ]] || { say "FAIL: --version printed '$version'"; return 1; }
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"engine.info"}' \
    | "$binary" rpc --db "$scratch/results.db" >"$scratch/rpc.jsonl"
  "$binary" run --target "$scratch" --size 32MiB --runtime 1 --ramp 0 --json --db "$scratch/results.db" \
    >"$scratch/run.json" 2>"$scratch/run.log" || status=$?
  [ "$status" -eq 0 ] || { cat "$scratch/run.log" >&2; say "FAIL: ssdprof run exited $status"; return 1; }
  "$binary" run --engine portable --target "$scratch" --size 32MiB --runtime 1 --ramp 0 --qd 4 --json \
    --db "$scratch/results.db" >"$scratch/portable.json" 2>"$scratch/portable.log" || status=$?
  [ "$status" -eq 0 ] || { cat "$scratch/portable.log" >&2; say "FAIL: ssdprof run --engine portable exited $status"; return 1; }
  local bundled=no
  compgen -G "$(dirname "$binary")/_internal/ssdprof_native/ssdprof-io*" >/dev/null && bundled=yes
  node - "$scratch" "$bundled" <<'JS'
const { readFileSync } = require('node:fs');
const dir = process.argv[2];
const bundled = process.argv[3] === 'yes';
const problems = [];
const rpc = JSON.parse(readFileSync(`${dir}/rpc.jsonl`, 'utf8').split('\n')[0]);
if (rpc.id !== 1 || !rpc.result?.version) problems.push(`rpc engine.info answered ${JSON.stringify(rpc).slice(0, 200)}`);
const run = JSON.parse(readFileSync(`${dir}/run.json`, 'utf8'));
if (run.engine?.name !== 'fio') problems.push(`run used engine ${run.engine?.name}, not fio`);
if (!(run.read?.iops > 0)) problems.push(`run measured read.iops ${run.read?.iops}`);
const portable = JSON.parse(readFileSync(`${dir}/portable.json`, 'utf8'));
// the bundle carries the compiled loop where this machine could build it (scripts/setup.sh); then it must measure
if (bundled && portable.engine?.loop !== 'native') problems.push(`the portable run used the ${portable.engine?.loop} loop: ${portable.engine?.reason}`);
if (!(portable.read?.iops > 0)) problems.push(`the portable run measured read.iops ${portable.read?.iops}`);
if (problems.length) { for (const p of problems) console.error(`freeze: FAIL: ${p}`); process.exit(1); }
console.error(`freeze: ok: rpc engine.info version ${rpc.result.version}; run on fio ${run.engine.version}: ${Math.round(run.read.iops)} read IOPS; portable (${portable.engine.loop} loop): ${Math.round(portable.read.iops)} read IOPS`);
JS
  say "ok: $version"
}

if [ "${1:-}" = --force ] || [ ! -f "$stamp" ] || [ ! -x "$binary" ]; then
  freeze
else
  say "up to date: $binary"
fi
if [ "${1:-}" = --smoke ]; then smoke; fi
