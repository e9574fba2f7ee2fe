# shellcheck shell=sh
# Shell functions shared by the host-side programs (fio_wrapper.sh, keeper.sh), put ahead of them by
# ssdprof.remote.heartbeat.host_program, which also sets lost_after_s (LOST_AFTER_S in heartbeat.py).
#
# watchdog CMD...   runs CMD once ssdprof has been silent for lost_after_s seconds; the caller sends the
#                   watchdog USR1 (kill -USR1 "$dog") for each line received, which resets the count.
# end_helpers PID...  ends background helpers and their sleeps.
# nap SECONDS       sleeps holding none of the session's descriptors, so SSH never waits for a sleep.
# A subshell's echo keeps SIGPIPE from a dropped connection away from the shell that must still clean up.

nap() {
  # shellcheck disable=SC2217 # sleep reads nothing: the redirections close the session's pipes for it
  sleep "$1" </dev/null >/dev/null 2>&1
}

watchdog() {
  ( trap 'quiet=0' USR1; quiet=0
    while [ "$quiet" -lt "${lost_after_s:?}" ]; do nap 1; quiet=$((quiet + 1)); done
    ( echo "ssdprof-lost" >&2 ); "$@" ) &
}

end_helpers() {  # frozen first, so they start nothing new, then their sleeps, then themselves
  kill -STOP "$@" 2>/dev/null
  for helper; do pkill -KILL -P "$helper" 2>/dev/null; done
  kill -KILL "$@" 2>/dev/null
}
