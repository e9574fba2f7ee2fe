#!/usr/bin/env bash
# End-to-end tests against the real engine and real fio.
#   scripts/e2e.sh browser   : browser mode (`ssdprof serve`) driven in Debian's Chromium
#   scripts/e2e.sh electron  : the same specs through Playwright's Electron launcher
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-browser}
shift || true
say() { printf 'e2e: %s\n' "$*" >&2; }

if [ "$mode" = electron ]; then
  if ! node scripts/electron-binary.mjs >/dev/null 2>&1; then
    say "skipped: the Electron binary is not installed here (npm installs its types only when the binary cannot be downloaded)."
    say "where it can be downloaded: npx install-electron, then npm run e2e:electron"
    exit 0
  fi
  [ -f dist/electron/electron/main.js ] || npm run build:electron
else
  chromium=${SSDPROF_CHROMIUM:-/usr/bin/chromium}
  if [ ! -x "$chromium" ]; then
    say "Chromium is missing at $chromium: install it (Debian/Ubuntu: apt install chromium) or set SSDPROF_CHROMIUM"
    exit 1
  fi
fi
[ -f dist/renderer/index.html ] || npm run build:renderer
SSDPROF_E2E_MODE=$mode exec npx playwright test "$@"
