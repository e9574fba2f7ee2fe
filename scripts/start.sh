#!/usr/bin/env bash
# npm start: the main job on the embedded default target (a test file in a scratch folder on the
# local disk). Until the desktop app lands this is the CLI's quick profile.
set -euo pipefail
cd "$(dirname "$0")/.."
exec engine/.venv/bin/ssdprof sweep --preset quick --runtime 5 --ramp 1 --size 256MiB "$@"
