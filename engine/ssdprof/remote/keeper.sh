# shellcheck shell=sh
# Each host's keeper for a whole run (ssdprof.remote.keeper), run as
#   sh -c PROGRAM ssdprof-keeper N LEFTOVER... COUNTED TARGET LAYOUT_ARGV...
# after watchdog.sh and probe.sh (as the function probe_host). Removes the N leftover files, probes the
# host, lays out TARGET on "layout" by running LAYOUT_ARGV, and removes TARGET on "remove", when stdin
# closes, or after lost_after_s of silence. TARGET is '' for an RBD image or a device (never removed).
# COUNTED is the file or device whose disk counts the run's I/O ('' for none): once laid out, the keeper
# says which device that is, "ssdprof-counted dev ST_DEV" (a file: its filesystem's device number, decimal)
# or "ssdprof-counted rdev MAJOR MINOR" (a block device: its own numbers, hex), for /proc/diskstats.
# Protocol lines on stdout; the layout's output on stderr.
exec 3<&0
n=$1; shift
while [ "$n" -gt 0 ]; do rm -f -- "$1"; n=$((n - 1)); shift; done
counted=$1 target=$2; shift 2
lay=; reader=
finish() {
  trap '' TERM
  [ -n "$lay" ] && kill -KILL "$lay" 2>/dev/null && wait "$lay"
  [ -n "$target" ] && rm -f -- "$target"
  ( echo "ssdprof-removed" )
  # shellcheck disable=SC2086 # $reader is empty until the reader starts: no argument then
  end_helpers "$dog" $reader
  exit 0
}
trap finish TERM
watchdog kill -TERM $$; dog=$!
probe_host
echo "ssdprof-probed"
while :; do
  read -r line <&3 || finish
  kill -USR1 "$dog" 2>/dev/null
  case $line in layout) break ;; remove) finish ;; esac
done
( while read -r line <&3; do kill -USR1 "$dog" 2>/dev/null; [ "$line" = remove ] && break; done
  kill -TERM $$ ) &
reader=$!
"$@" </dev/null >&2 &
lay=$!
wait "$lay"; rc=$?; lay=
if [ "$rc" -eq 0 ] && [ -n "$counted" ]; then
  if [ -b "$counted" ]; then numbers=$(stat -L -c 'rdev %t %T' -- "$counted" 2>/dev/null)
  else numbers=$(stat -c 'dev %d' -- "$counted" 2>/dev/null); fi
  [ -z "$numbers" ] || ( echo "ssdprof-counted $numbers" )
fi
( echo "ssdprof-laid-out $rc" )
wait "$reader"
finish
