# shellcheck shell=sh
# A watched host's one session for a whole sweep (ssdprof.remote.watch): a host that runs no I/O of
# ssdprof's (a Ceph OSD or MON node, a server behind the target), run as
#   sh -c PROGRAM ssdprof-watch
# after watchdog.sh and probe.sh (as the function probe_host). Probes the host ("ssdprof-probed" after the
# probe's lines), then every second prints one line on stdout,
#   ssdprof-mon CLOCK_NS CPU_LINE | NET_ENTRY;... | DISK_LINE;...
# (/proc/stat's cpu line, /proc/net/dev's interfaces, /proc/diskstats), read by ssdprof.remote.monitor.
# Ends when stdin closes, or after lost_after_s without a line from ssdprof (its heartbeat).
exec 3<&0
sampler=''
finish() {
  trap '' TERM
  # shellcheck disable=SC2086 # $sampler is empty until the sampler starts: no argument then
  end_helpers "$dog" $sampler
  exit 0
}
trap finish TERM
watchdog kill -TERM $$; dog=$!
probe_without_fio=1 probe_host  # it runs no fio, not even --version
echo "ssdprof-probed"
( while :; do
    read -r cpu </proc/stat
    net=; { read -r _; read -r _; while read -r entry; do net="$net$entry;"; done; } </proc/net/dev
    disks=; [ -r /proc/diskstats ] && while IFS= read -r line; do disks="$disks$line;"; done </proc/diskstats
    ( echo "ssdprof-mon $(date +%s%N) $cpu | $net | $disks" ) || exit 0
    nap 1
  done ) &
sampler=$!
while read -r _ <&3; do kill -USR1 "$dog" 2>/dev/null; done
finish
