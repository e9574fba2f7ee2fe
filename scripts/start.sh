#!/usr/bin/env bash
# npm start: the desktop app where the Electron binary is installed; otherwise browser mode on
# 127.0.0.1, printing the URL with its per-launch token. Either way on the default target (a
# scratch folder on the local disk) unless the designer is given another.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf 'start: %s\n' "$*" >&2; }

# stale OUTPUT SOURCES... : OUTPUT is missing or older than any of SOURCES
stale() {
  local output=$1; shift
  [ ! -f "$output" ] || [ -n "$(find "$@" -newer "$output" -type f -print -quit 2>/dev/null)" ]
}

if stale dist/renderer/index.html src contract index.html vite.config.mts package-lock.json; then
  say "building the app (dist/renderer)"
  npx vite build --logLevel warn
fi

# The binary is under node_modules/electron/dist or the override's folder: with neither there is none, and
# node (a quarter of a second here) need not be asked.
if { [ -n "${ELECTRON_OVERRIDE_DIST_PATH:-}" ] || [ -d node_modules/electron/dist ]; } &&
   binary=$(node scripts/electron-binary.mjs 2>/dev/null); then
  if stale dist/electron/electron/main.js electron contract; then
    npm run --silent build:electron
  fi
  flags=()
  [ "$(id -u)" -eq 0 ] && flags+=(--no-sandbox)  # Chromium refuses to run as root with its sandbox
  exec "$binary" . "${flags[@]}" "$@"
fi

say "no Electron binary here: starting browser mode (open the URL below; Ctrl-C stops)"
exec engine/.venv/bin/python -m ssdprof serve "$@"
