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
  if [ -r "/proc/$$/task/$$/children" ]; then
    # Linux lists a process's children in /proc: read there, not by pkill's scan of every process on the
    # host (16 hosts on one machine spent 1.4 s of CPU in pkill for one point). A helper already gone
    # has no file, and its children are no longer its own.
    for helper; do
      children=; read -r children 2>/dev/null <"/proc/$helper/task/$helper/children" || :
      # shellcheck disable=SC2086 # process IDs, split on purpose
      [ -z "$children" ] || kill -KILL $children 2>/dev/null
    done
  else
    for helper; do pkill -KILL -P "$helper" 2>/dev/null; done
  fi
  kill -KILL "$@" 2>/dev/null
}
