# shellcheck shell=sh
# Each host's wrapper around fio for one point (ssdprof.remote.launch), run as
#   sh -c PROGRAM ssdprof-run FIO_ARGV...
# after watchdog.sh. Reports readiness, waits for "go" (every other line on stdin is ssdprof's
# heartbeat), starts fio, reports its PID, the host's clock at start and fio's exit status, samples
# CPU and network every second, and ends fio by its PID on "cancel", when stdin closes, or after
# lost_after_s of silence. Protocol lines ("ssdprof-...") go to stderr; fio's JSON to stdout.
exec 3<&0
stop_fio() { kill -INT "$pid" 2>/dev/null; nap 10; kill -KILL "$pid" 2>/dev/null; }
trap 'end_helpers "$dog"; exit 0' TERM
watchdog kill -TERM $$; dog=$!
echo "ssdprof-ready" >&2
while :; do
  read -r line <&3 || { end_helpers "$dog"; exit 0; }
  [ "$line" = go ] && break
  kill -USR1 "$dog" 2>/dev/null
done
echo "ssdprof-start $(date +%s%N)" >&2
"$@" </dev/null &
pid=$!
echo "ssdprof-pid $pid" >&2
end_helpers "$dog"; trap - TERM
watchdog stop_fio; dog=$!
( while :; do
    net=$(tail -n +3 /proc/net/dev 2>/dev/null | tr -s ' ' | tr '\n' ';')
    echo "ssdprof-mon $(date +%s%N) $(head -n 1 /proc/stat 2>/dev/null) | $net" >&2
    nap 1
  done ) &
mon=$!
( while read -r line <&3; do kill -USR1 "$dog" 2>/dev/null; [ "$line" = cancel ] && break; done
  stop_fio ) &
watch=$!
wait "$pid"; rc=$?
( echo "ssdprof-exit $rc" >&2 )  # in a subshell: a write to a dropped connection raises SIGPIPE
# The helpers and their sleeps hold none of the session's descriptors, so SSH does not wait for them.
end_helpers "$mon" "$watch" "$dog"
exit "$rc"
