# shellcheck shell=sh
# Each host's one session for every point of a sweep (ssdprof.remote.launch), run as
#   sh -c PROGRAM ssdprof-run
# after watchdog.sh. Lines on stdin (any other line is ssdprof's heartbeat):
#   run N         followed by N lines, one argument each: fio's argv for the next point; answers
#                 "ssdprof-ready CLOCK_NS" (the host's clock, for the start time's offset)
#   go AT_NS      starts fio at AT_NS on this host's clock (at once when that has passed); reports
#                 fio's PID, the host's clock at start and fio's exit status, samples CPU and network
#                 every second, then prints "ssdprof-point-end" on stdout and waits for the next point
#   cancel        ends the running fio by its PID (fio still prints its report)
# fio is ended by its PID also when stdin closes, or after lost_after_s of silence. Protocol lines
# ("ssdprof-...") go to stderr, except the point's end, which follows fio's JSON on stdout.
exec 3<&0
stop_fio() { kill -INT "$pid" 2>/dev/null; nap 10; kill -KILL "$pid" 2>/dev/null; }
idle() { trap 'end_helpers "$dog"; exit 0' TERM; watchdog kill -TERM $$; dog=$!; }
idle
while :; do
  read -r line <&3 || { end_helpers "$dog"; exit 0; }
  kill -USR1 "$dog" 2>/dev/null
  case $line in
    "run "*)
      n=${line#run }; set --
      while [ "$n" -gt 0 ]; do
        IFS= read -r arg <&3 || { end_helpers "$dog"; exit 0; }
        set -- "$@" "$arg"; n=$((n - 1))
      done
      ( echo "ssdprof-ready $(date +%s%N)" >&2 ) ;;
    "go "*)
      wait_ns=$((${line#go } - $(date +%s%N)))
      if [ "$wait_ns" -gt 0 ] && [ "$wait_ns" -lt 5000000000 ]; then
        nap "$(printf '%d.%09d' $((wait_ns / 1000000000)) $((wait_ns % 1000000000)))"
      fi
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
      ( echo "ssdprof-point-end" )
      idle ;;
  esac
done
