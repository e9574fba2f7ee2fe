# shellcheck shell=sh
# Each host's one session for every point of a sweep (ssdprof.remote.launch), run as
#   sh -c PROGRAM ssdprof-run
# after watchdog.sh and drive_word.sh. Lines on stdin (any other line is ssdprof's heartbeat):
#   run N J [D]   followed by N lines, one argument each: fio's argv for the next point, which runs J jobs.
#                 Answers "ssdprof-ready CLOCK_NS" at once (the host's clock, for the start time's offset).
#                 Then it starts fio with every job held at a gate just before its first I/O (fio's
#                 exec_prerun runs gate.sh, below, after the job's set-up: parsing, files, buffers, engine).
#                 With D (MAJOR:MINOR of the device counting the point's I/O), the drive beneath it is asked for
#                 its own word (drive_word, in drive_word.sh) while fio sets up (no I/O is let through before
#                 the answer is in) and again once fio has ended.
#                 "ssdprof-pid PID", then "ssdprof-armed" once all J jobs wait at the gate.
#   go AT_NS      opens the gate at AT_NS on this host's clock (at once when that has passed); each job
#                 reports "ssdprof-began SECONDS.FRACTION", the host's clock read by the job's gate as it
#                 opened, right before fio's I/O loop. Samples CPU and network every second; /proc/diskstats
#                 as "ssdprof-disks before LINE;LINE;..." here and "ssdprof-disks after ..." once fio has
#                 ended, before its exit status; after that prints "ssdprof-point-end" on stdout and waits
#                 for the next point.
#   cancel        ends fio by its PID (fio still prints its report)
#   put NAME B    followed by B bytes (not a line): appended to the file NAME in this session's directory, where fio
#                 runs (a trace replay's iologs, read by fio's read_iolog). NAME is a plain file name.
#   check NAME    answers "ssdprof-file NAME BYTES" (its size; "missing" if none), so ssdprof knows what arrived.
# A replay's jobs log each I/O's submission (write_lat_log=ssdprof-issued): once fio has ended, those logs are sent
# back as "ssdprof-issued FILE LINE" lines before the exit status, and removed.
# A fio that ends before its jobs reach the gate reports its exit status at once (and then its point's end).
# fio is ended by its PID also when stdin closes, or after lost_after_s of silence. Protocol lines
# ("ssdprof-...") go to stderr, except the point's end, which follows fio's JSON on stdout.
#
# One loop reads one stream of events (the FIFO "events"): ssdprof's lines ("in ..."), forwarded by a
# reader of stdin, and what fio, its gate and the watchdog say. The session's files live in a directory
# of its own, removed at its end; fio writes its exec_prerun output (ssdprof.prerun.txt) there.
exec 3<&0
for old in "${TMPDIR:-/tmp}"/ssdprof-run.*.*; do  # a session killed outright (a reboot, kill -9) left its directory
  owner=${old##*/ssdprof-run.}
  [ -d "$old" ] && ! kill -0 "${owner%%.*}" 2>/dev/null && rm -rf "$old"
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/ssdprof-run.$$.XXXXXX") || exit 1
if ! cd "$dir" || ! mkfifo events gate; then rm -rf "$dir"; exit 1; fi
exec 5<>events
# Opening a FIFO for reading waits for a writer: this loop opens the gate (fd 4) when it receives "go".
# With bash 5 each job then waits by itself until the start time in "start_at" (read -t: a timer, no fork) and
# reads the clock without a fork (EPOCHREALTIME), so the start is one wake-up per job. Elsewhere this loop
# sleeps until the start time and then opens the gate, and date reads the clock. --norc: sshd leaves SHLVL=0, so a
# plain bash -c here counts as run by sshd and reads the user's ~/.bashrc (root's pyenv init: 0.08 s of CPU and
# 0.15 s per session on a test host, and what a .bashrc prints would land in the session's output).
if bash --norc -c '[ -n "${EPOCHREALTIME:-}" ]' 2>/dev/null; then
  timed_gate=1 prerun="env LC_ALL=C bash $dir/gate.sh"
  mkfifo never || { rm -rf "$dir"; exit 1; }
  cat >gate.sh <<'GATE'
echo parked >&5
: <gate || exit 1
read -r at_us <start_at
wait_us=$((at_us - ${EPOCHREALTIME/./}))
if [ "$wait_us" -gt 0 ] && [ "$wait_us" -lt 5000000 ]; then
  printf -v fraction %06d $((wait_us % 1000000))
  read -r -t "$((wait_us / 1000000)).$fraction" _ <>never
fi
echo "ssdprof-began $EPOCHREALTIME" >&6
exit 0
GATE
else
  timed_gate='' prerun="sh $dir/gate.sh"
  cat >gate.sh <<'GATE'
echo parked >&5
: <gate || exit 1
echo "ssdprof-began $(date +%s.%N)" >&6
exit 0
GATE
fi

say() { ( echo "$1" >&2 ); }  # in a subshell: a write to a dropped connection raises SIGPIPE
lost() { echo lost >&5; }
pid='' runner='' mon='' killer='' ending='' stopping='' health=''

arm() {  # "N J [D]", then N argument lines
  # shellcheck disable=SC2086 # three numbers, split on purpose
  set -- $1; n=$1 jobs=$2 health=${3:-} parked=0; set --
  while [ "$n" -gt 0 ]; do
    IFS= read -r arg <&5 || return
    set -- "$@" "${arg#in }"; n=$((n - 1))
  done
  say "ssdprof-ready $(date +%s%N)"
  { sh -c 'echo "pid $$" >&5; exec "$@"' ssdprof-fio "$@" "--exec_prerun=$prerun" </dev/null 6>&2
    echo "exit $?" >&5; } &
  runner=$!
  # While fio sets up (its jobs wait at the gate: no I/O yet), the drive's own word before the point. This
  # loop reads fio's "parked" only after it, so "ssdprof-armed", and with it the start, come after too.
  [ -z "$health" ] || drive_word before "$health"
}

disks() {  # before|after: every disk's counters, for how much of the queue reached the device
  [ -r /proc/diskstats ] || return 0
  lines=; while IFS= read -r line; do lines="$lines$line;"; done </proc/diskstats
  say "ssdprof-disks $1 $lines"
}

go() {  # the start time, on this host's clock
  disks before
  monitor & mon=$!  # its first sample before the start, so its forks are not the start's
  if [ -n "$timed_gate" ]; then
    echo $(($1 / 1000)) >start_at
    exec 4<>gate
    return
  fi
  wait_ns=$(($1 - $(date +%s%N)))
  if [ "$wait_ns" -gt 0 ] && [ "$wait_ns" -lt 5000000000 ]; then
    nap "$(printf '%d.%09d' $((wait_ns / 1000000000)) $((wait_ns % 1000000000)))"
  fi
  exec 4<>gate  # every job waiting at the gate starts now
}

monitor() {
  while :; do
    read -r cpu </proc/stat
    net=; { read -r _; read -r _; while read -r entry; do net="$net$entry;"; done; } </proc/net/dev
    echo "ssdprof-mon $(date +%s%N) $cpu | $net" >&2
    nap 1
  done
}

stop_fio() {  # by its PID; jobs still at the gate are let through, to see that they must end
  stopping=1  # a fio whose PID is not yet known is stopped as soon as it is
  [ -n "$pid" ] || return 0
  kill -INT "$pid" 2>/dev/null
  exec 4<>gate
  [ -n "$killer" ] || { ( nap 10; kill -KILL "$pid" 2>/dev/null ) & killer=$!; }
}

point_end() {  # fio's exit status
  wait "$runner"
  [ -z "$mon" ] || disks after  # a fio that never started its I/O has no before
  # The helpers and their sleeps hold none of the session's descriptors, so SSH does not wait for them.
  [ -z "$mon$killer" ] || end_helpers ${mon:+"$mon"} ${killer:+"$killer"}
  # Before the exit status: ssdprof reads this host's lines up to it before the point counts as done.
  [ -z "$health" ] || drive_word after "$health"
  issued_logs
  say "ssdprof-exit $1"
  exec 4<>gate 4>&-  # a gate whose job was killed while waiting lets its shell go
  pid='' runner='' mon='' killer='' stopping=''
  ( echo "ssdprof-point-end" )
}

plain_name() {  # a file name of this session's directory: no path, nothing hidden
  case $1 in ''|.*|*[!A-Za-z0-9._-]*) return 1 ;; esac
}

put_file() {  # "NAME BYTES": the BYTES bytes that follow on stdin appended to NAME (read exactly: not a byte more)
  name=${1% *} bytes=${1##* }
  case $bytes in ''|*[!0-9]*) say "ssdprof-file $name unreadable put: $1"; return 1 ;; esac
  plain_name "$name" || name=/dev/null
  if [ "$kernel" = Linux ]; then head -c "$bytes" <&3 >>"$name"  # GNU and busybox head read no further
  else dd bs=1 count="$bytes" <&3 >>"$name" 2>/dev/null; fi
}

check_file() {
  if plain_name "$1" && [ -f "$1" ]; then say "ssdprof-file $1 $(($(wc -c <"$1")))"
  else say "ssdprof-file $1 missing"; fi
}

issued_logs() {  # a replay's per-I/O submission logs, one per job: sent back whole, then removed
  for log in ssdprof-issued_*.log; do
    [ -f "$log" ] || continue
    case $log in *_slat.*) sed "s/^/ssdprof-issued $log /" "$log" >&2 ;; esac
    rm -f "$log"
  done
}

kernel=$(uname -s 2>/dev/null)
watchdog lost; dog=$!
( while IFS= read -r line <&3; do
    kill -USR1 "$dog" 2>/dev/null
    case $line in
      "put "*) put_file "${line#put }" || break ;;
      "check "*) check_file "${line#check }" ;;
      *) printf 'in %s\n' "$line" >&5 ;;
    esac
  done
  echo eof >&5 ) &
reader=$!
while IFS= read -r event <&5; do
  case $event in
    "in run "*) arm "${event#in run }" ;;
    "in go "*) [ -z "$runner" ] || go "${event#in go }" ;;
    "in cancel") [ -z "$runner" ] || stop_fio ;;
    "pid "*) pid=${event#pid }; say "ssdprof-pid $pid"; [ -z "$stopping" ] || stop_fio ;;
    parked) parked=$((parked + 1)); [ "$parked" -ne "$jobs" ] || say "ssdprof-armed" ;;
    "exit "*) point_end "${event#exit }"; [ -z "$ending" ] || break ;;
    lost|eof) ending=1; [ -n "$runner" ] || break; stop_fio ;;
  esac
done
end_helpers "$dog" "$reader"
cd / && rm -rf "$dir"
