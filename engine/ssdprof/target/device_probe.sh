#!/bin/sh
# Facts about one block device, as key=value lines read by ssdprof.target.devices (parse_probe).
# The same script runs on this machine and, over SSH, on remote hosts: POSIX sh, coreutils, sysfs.
#
#   target=NAME KIND SIZE_BYTES LOGICAL_BLOCK   the device as given (kind: disk partition loop zram ram dm md)
#   layer=NAME KIND DETAIL                      what lies beneath it, one line per step, down to a disk
#                                               (md: layer=NAME md LEVEL CHUNK_BYTES)
#   member=LAYER NAME HW_PATH                   each member of an md or dm layer, its hardware path
#   dmtable=LAYER TYPE ARGS...                  a dm layer's first target (dmsetup, where it answers)
#   base.KEY=VALUE                              the disk at the bottom: model, serial, queue limits, link
#   mount=MOUNTPOINT  holder=NAME  swap=PATH    uses of the device or its partitions
#   error=TEXT                                  the device cannot be described
set -u
dev=${1:?usage: device_probe.sh /dev/DEVICE}
[ -b "$dev" ] || { echo "error=$dev is not a block device"; exit 0; }

read_file() { [ -r "$1" ] && head -n 1 "$1" 2>/dev/null | tr -d '\n'; }
node_of() { readlink -f "/sys/dev/block/$1"; }   # MAJOR:MINOR -> its sysfs node
queue_of() { if [ -d "$1/queue" ]; then echo "$1/queue"; else echo "${1%/*}/queue"; fi; }
# SCSI VPD page 0x80 (unit serial number; libata answers it for ATA disks, which have no serial
# file): a 4-byte header, then the serial, space padded.
vpd_serial() {
  [ -r "$1" ] && tail -c +5 "$1" 2>/dev/null | tr -d '\000\n' | sed 's/^ *//; s/ *$//'
}
# VPD page 0x89 (ATA information; libata's SAT layer) holds the disk's IDENTIFY DEVICE data from
# byte 60: its bytes 20-93 are the serial, firmware and model (40 characters: the SCSI model file
# keeps 16), as hex for ssdprof to decode (ATA strings swap each pair of bytes).
ata_identify() {
  [ -r "$1" ] && tail -c +81 "$1" 2>/dev/null | head -c 74 | od -An -v -tx1 | tr -d ' \n'
}

hw_of() {  # $1 = sysfs node: the hardware behind it (a partition's, its disk's)
  n=$1; [ -f "$n/partition" ] && n=${n%/*}
  [ -e "$n/device" ] && readlink -f "$n/device"
}

kind_of() {  # $1 = sysfs node
  name=${1##*/}
  if [ -f "$1/partition" ]; then echo partition
  elif [ -d "$1/loop" ]; then echo loop
  elif [ -d "$1/dm" ]; then echo dm
  elif [ -d "$1/md" ]; then echo md
  else case $name in zram*) echo zram ;; ram[0-9]*) echo ram ;; *) echo disk ;; esac
  fi
}

node=$(node_of "$(stat -L -c '%Hr:%Lr' -- "$dev")")
[ -d "$node" ] || { echo "error=no sysfs entry for $dev"; exit 0; }
kind=$(kind_of "$node")
echo "target=${node##*/} $kind $(( $(read_file "$node/size") * 512 )) $(read_file "$(queue_of "$node")/logical_block_size")"

# Down the stack: a partition to its disk, a loop device to the disk holding its backing file,
# device-mapper and md to their first member. A loop over a RAM filesystem ends there.
here=$node
steps=0
while [ "$steps" -lt 8 ]; do
  steps=$((steps + 1))
  case $(kind_of "$here") in
    partition) part=${here##*/}; here=${here%/*}; echo "layer=$part partition of ${here##*/}" ;;
    loop)
      backing=$(read_file "$here/loop/backing_file")
      fs=$(stat -f -c %T -- "$backing" 2>/dev/null || echo unknown)
      echo "layer=${here##*/} loop $(read_file "$here/loop/dio") $fs $backing"
      numbers=$(stat -L -c '%Hd:%Ld' -- "$backing" 2>/dev/null) || break
      below=$(node_of "$numbers")
      [ -d "$below" ] || { echo "layer=- filesystem $fs"; here=; break; }
      here=$below ;;
    dm | md)
      first=; for slave in "$here"/slaves/*; do [ -e "$slave" ] && first=${slave##*/}; break; done  # the first, as ls would
      name=${here##*/}
      if [ -d "$here/md" ]; then
        echo "layer=$name md $(read_file "$here/md/level") $(read_file "$here/md/chunk_size")"
      else
        echo "layer=$name dm $(read_file "$here/dm/name")"
        table=$(dmsetup table "$(read_file "$here/dm/name")" 2>/dev/null | head -n 1)
        # shellcheck disable=SC2086 # its words: start, length, type, arguments
        [ -n "$table" ] && set -- $table && shift 2 && echo "dmtable=$name $*"
      fi
      for slave in "$here"/slaves/*; do
        [ -e "$slave" ] && echo "member=$name ${slave##*/} $(hw_of "$(readlink -f "$slave")")"
      done
      [ -n "$first" ] || break
      here=$(readlink -f "$here/slaves/$first") ;;
    *) break ;;
  esac
done

if [ -n "$here" ]; then
  queue=$(queue_of "$here")
  hw=
  [ -e "$here/device" ] && hw=$(readlink -f "$here/device")
  echo "base.name=${here##*/}"
  echo "base.kind=$(kind_of "$here")"
  echo "base.model=$(read_file "$here/device/model")"
  serial=$(read_file "$here/device/serial")
  [ -n "$serial" ] || serial=$(read_file "$here/serial")
  [ -n "$serial" ] || serial=$(vpd_serial "$here/device/vpd_pg80")
  echo "base.serial=$serial"
  echo "base.ata_identify=$(ata_identify "$here/device/vpd_pg89")"
  echo "base.firmware=$(read_file "$here/device/firmware_rev" || read_file "$here/device/rev")"
  echo "base.hw_path=$hw"
  for key in rotational logical_block_size physical_block_size nr_requests max_hw_sectors_kb; do
    echo "base.$key=$(read_file "$queue/$key")"
  done
  echo "base.scheduler=$(read_file "$queue/scheduler")"
  echo "base.device_queue_depth=$(read_file "$here/device/queue_depth")"
  if [ -n "$hw" ]; then
    echo "base.pcie_speed=$(read_file "$hw/device/current_link_speed")"
    echo "base.pcie_width=$(read_file "$hw/device/current_link_width")"
    d=$hw
    while [ -n "$d" ] && [ "$d" != / ]; do
      case ${d##*/} in ata[0-9]*)
        for spd in "$d"/link*/ata_link/link*/sata_spd; do
          [ -r "$spd" ] && echo "base.sata_speed=$(read_file "$spd")" && break
        done ;;
      esac
      d=${d%/*}
    done
  fi
fi

# Uses of the device and of its partitions: mounts (by device number and by source), holders, swap.
for part in "$node" "$node"/"${node##*/}"*; do
  [ -f "$part/dev" ] || continue
  numbers=$(read_file "$part/dev")
  name=${part##*/}
  while read -r _ _ mm _ point _; do
    [ "$mm" = "$numbers" ] && echo "mount=$point /dev/$name"
  done < /proc/self/mountinfo
  awk -v src="/dev/$name" '{ for (i = 1; i <= NF; i++) if ($i == "-") { if ($(i + 2) == src) print "mount=" $5 " " src; break } }' /proc/self/mountinfo
  for holder in "$part"/holders/*; do
    [ -e "$holder" ] && echo "holder=${holder##*/} $(read_file "$holder/dm/name") /dev/$name"
  done
  while read -r swap _; do
    [ "$(readlink -f -- "$swap" 2>/dev/null)" = "/dev/$name" ] && echo "swap=$swap"
  done < /proc/swaps
done
exit 0
