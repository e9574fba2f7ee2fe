# shellcheck shell=sh
# The drive's own word, asked on a host: shell functions put ahead of the programs that call them
# (fio_wrapper.sh before and after each point, drive_show.sh for `ssdprof drive show --host`) by
# ssdprof.remote.heartbeat.host_program. The caller defines say LINE (where protocol lines go) and
# runs in a directory of its own (ask keeps the tool's output in health.out and health.err there).
# ssdprof.remote.drive_word reads the lines, in the order ssdprof.target.health.snapshot asks:
#   ssdprof-health WHEN device /dev/NAME
#   ssdprof-health WHEN KEY STATUS ONE-LINE-STDOUT   (KEY: smart-log, id-ctrl, id-ns, smartctl)
#   ssdprof-health WHEN KEY missing                  (the program is not installed)
#   ssdprof-health-err WHEN KEY FIRST-300-BYTES-OF-STDERR
#   ssdprof-health WHEN hwmon MILLIDEGREES

# drive_word WHEN DISK: WHEN before, after or now; DISK MAJOR:MINOR, /dev/NAME or NAME (a partition:
# its disk). Identity (id-ctrl, id-ns) is asked except after a point: the before reading has it.
drive_word() {
  dev=$(whole_disk "$2") || return 0
  say "ssdprof-health $1 device $dev"
  case ${dev##*/} in
    nvme*)
      ask "$1" smart-log nvme smart-log "$dev" -o json
      if [ "$asked" != 0 ]; then ask "$1" smartctl smartctl --json -a "$dev"
      elif [ "$1" != after ]; then
        ask "$1" id-ctrl nvme id-ctrl "$dev" -o json; ask "$1" id-ns nvme id-ns "$dev" -o json
      fi ;;
    *) ask "$1" smartctl smartctl --json -a "$dev" ;;
  esac
  for sensor in /sys/block/"${dev##*/}"/device/hwmon*/temp1_input \
      /sys/block/"${dev##*/}"/device/hwmon/hwmon*/temp1_input; do
    [ -r "$sensor" ] && read -r milli <"$sensor" && { say "ssdprof-health $1 hwmon $milli"; break; }
  done
}

whole_disk() {  # MAJOR:MINOR, /dev/NAME or NAME -> /dev/NAME of the whole disk
  case $1 in
    *:*) node=$(readlink -f "/sys/dev/block/$1" 2>/dev/null) ;;
    *) node=$(readlink -f "/sys/class/block/${1##*/}" 2>/dev/null) ;;
  esac
  [ -n "$node" ] && [ -d "$node" ] || return 1
  [ ! -f "$node/partition" ] || node=${node%/*}
  echo "/dev/${node##*/}"
}

# ask WHEN KEY PROGRAM ARG...: one tool's answer, its output on one line (JSON has no raw line break)
ask() {
  when=$1 key=$2; shift 2
  tool=$(command -v "$1" || PATH=/usr/sbin:/sbin command -v "$1") || {
    asked=missing; say "ssdprof-health $when $key missing"; return; }
  shift
  if command -v timeout >/dev/null; then timeout 20 "$tool" "$@" >health.out 2>health.err
  else "$tool" "$@" >health.out 2>health.err; fi
  asked=$?
  say "ssdprof-health $when $key $asked $(tr -d '\r\n' <health.out)"
  say "ssdprof-health-err $when $key $(head -c 300 health.err | tr '\r\n' '  ')"
}
