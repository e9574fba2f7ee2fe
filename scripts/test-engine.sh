#!/usr/bin/env bash
# The engine's tests; pytest's exit code 5 (no tests collected) is a failure here too.
set -euo pipefail
cd "$(dirname "$0")/../engine"
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
