#!/usr/bin/env bash
# Runs shellcheck over every shell program in the repository (tracked, or new and not ignored): scripts/, the engine's host-side programs
# (engine/ssdprof/**/*.sh, run over SSH or locally with sh -c) and .ci/run. Fails with the findings.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v shellcheck >/dev/null || {
  echo "shellcheck is not installed: bash scripts/setup.sh installs it (Debian/Ubuntu: apt install shellcheck; macOS: brew install shellcheck)" >&2
  exit 1
}
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.sh' .ci/run | sort -u)
[ ${#files[@]} -gt 0 ] || { echo "no shell programs found" >&2; exit 1; }
shellcheck --external-sources -- "${files[@]}"
echo "shellcheck: ${#files[@]} files clean"
