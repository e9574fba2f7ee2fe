# shellcheck shell=sh
# What a host offers, as key=value lines read by ssdprof.remote.probe.parse_probe: run alone by
# Ssh.probe (sh -c PROGRAM), and as the function probe_host inside keeper.sh.
echo "os=$(uname -srm)"
echo "hostname=$(uname -n)"  # matched against the host names a Ceph cluster's map gives
echo "cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 0)"
# A watched host (watch.sh sets probe_without_fio) runs no fio at all, not even to ask its version.
if [ -z "${probe_without_fio:-}" ] && command -v fio >/dev/null 2>&1; then
  echo "fio=$(fio --version)"
  echo "engines=$(fio --enghelp 2>/dev/null | tail -n +2 | tr -d '\t' | tr '\n' ' ')"
fi
for tool in ceph rbd rados; do command -v "$tool" >/dev/null 2>&1 && echo "ceph_tool=$tool"; done
for nic in /sys/class/net/*; do
  [ -e "$nic" ] || continue
  echo "nic=$(basename "$nic") $(cat "$nic/speed" 2>/dev/null || echo -1)"
done
# Interface kinds (veth, tun, ... report a placeholder speed, not a limit), read by ssdprof.remote.links.
ip=$(PATH="$PATH:/sbin:/usr/sbin" command -v ip 2>/dev/null)
[ -n "$ip" ] && echo "links=$("$ip" -j -d link show 2>/dev/null | tr -d '\n')"
# Egress shaping (tbf in the qdisc list; htb's rates live in its classes), read by ssdprof.remote.links.
tc=$(PATH="$PATH:/sbin:/usr/sbin" command -v tc 2>/dev/null)
if [ -n "$tc" ]; then
  echo "qdisc=$("$tc" -j qdisc show 2>/dev/null | tr -d '\n')"
  for nic in /sys/class/net/*; do
    [ -e "$nic" ] || continue
    "$tc" class show dev "$(basename "$nic")" 2>/dev/null | sed -n "s|^\\(class htb .* root .*\\)|htb_class=$(basename "$nic") \\1|p"
  done
fi
