# shellcheck shell=sh
# `ssdprof drive show --host H DEVICE`: the drive's own word now (drive_word.sh's lines on stdout),
# in a directory of its own, removed at the end. Run as: sh -c PROGRAM ssdprof-drive DEVICE
say() { printf '%s\n' "$1"; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/ssdprof-drive.XXXXXX") || exit 1
cd "$dir" || exit 1
drive_word now "$1"
cd / && rm -rf "$dir"
