#!/usr/bin/env bash
# npm run dist: installers for this OS (Linux AppImage + deb, macOS dmg, Windows NSIS) in
# dist/installers/, with the engine frozen by PyInstaller inside so a student needs no Python.
# electron-builder packages the Electron binary that npm installed; where there is none (npm
# installs only its types when the binary cannot be downloaded) nothing can be built: this says
# so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf 'dist: %s\n' "$*" >&2; }
# run on demand (with its exact version) rather than kept in devDependencies, so that every
# npm ci, CI's included, does not fetch ~90 MB of packaging tools it cannot use
builder=electron-builder@26.17.0

if ! node scripts/electron-binary.mjs >/dev/null 2>&1; then
  say "SKIPPED: no installers were built. electron-builder packages the Electron binary, and it is not installed here"
  say "(npm installs only the electron package's types when the binary cannot be downloaded, as on this machine)."
  say "Where it can be downloaded: npx install-electron, then npm run dist."
  say "The frozen engine alone can still be built and checked: npm run test:frozen"
  exit 0
fi

bash scripts/setup.sh runtime
bash scripts/freeze-engine.sh --smoke
npm run build
say "packaging with $builder (electron-builder.yml) into dist/installers/"
exec npx --yes "$builder" --config electron-builder.yml --publish never "$@"
