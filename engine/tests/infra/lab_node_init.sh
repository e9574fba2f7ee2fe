#!/bin/sh
# The lab node's init (engine/tests/infra/lab_node.py), in two stages.
#
# Stage 1 is /init in a busybox-static initramfs: it loads virtio, 9p and overlay from /modules (in the
# order their dependencies need), mounts this machine's / (9p tag "root", read-only) under a tmpfs
# overlay, the guest kernel's modules (9p tag "modules") at /lib/modules/VERSION, and switch_roots
# into stage 2 with the machine's own /bin/sh.
#
# Stage 2 runs the machine's programs under the guest's kernel: it loads the drivers of the guest's
# disks (no udev runs here), sets up user-mode networking (10.0.2.15, QEMU's slirp), and starts sshd
# with the configuration in the folder named by ssdprof.lab= on the kernel command line (the test's
# folder, visible through the root share). It says "ssdprof-lab ready" on the console when sshd runs.

say() { echo "ssdprof-lab: $*" > /dev/console; }

stage1() {
  /bin/busybox --install -s /bin
  export PATH=/bin
  mkdir -p /proc /sys /dev /lower /rw /newroot
  mount -t proc proc /proc
  mount -t sysfs sysfs /sys
  mount -t devtmpfs devtmpfs /dev
  for module in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci \
                netfs fscache 9pnet 9pnet_virtio 9p overlay; do
    [ -e "/modules/$module.ko" ] && insmod "/modules/$module.ko"
  done
  opts=trans=virtio,version=9p2000.L,msize=262144
  mount -t 9p -o "$opts,ro" root /lower || { say "cannot mount the root share"; exec sh; }
  mount -t tmpfs -o mode=755 tmpfs /rw
  mkdir -p /rw/upper /rw/work
  mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot \
    || { say "cannot mount the overlay"; exec sh; }
  version=$(uname -r)
  mkdir -p "/newroot/lib/modules/$version"
  mount -t 9p -o "$opts,ro" modules "/newroot/lib/modules/$version"
  cp /init /newroot/ssdprof-lab-init
  for point in proc sys dev; do mkdir -p "/newroot/$point"; mount --move "/$point" "/newroot/$point"; done
  exec switch_root /newroot /bin/sh /ssdprof-lab-init stage2
}

stage2() {
  export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  mkdir -p /dev/pts /dev/shm
  mount -t devpts devpts /dev/pts
  mount -t tmpfs tmpfs /dev/shm
  mount -t tmpfs -o mode=755 tmpfs /run
  mount -t tmpfs -o mode=1777 tmpfs /tmp
  # root's own home, empty and mode 700: this machine's /root holds shell start-up files (pyenv's
  # rehash waited 60 s on its lock in every ssh session) and sshd refuses a writable home
  mount -t tmpfs -o mode=700 tmpfs /root
  for module in virtio_net virtio_blk nvme ahci sd_mod; do modprobe "$module" || say "no module $module"; done
  lab=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^ssdprof\.lab=//p')
  hostname "$(cat "$lab/hostname" 2>/dev/null || echo lab)"
  ip link set lo up
  ip addr add 10.0.2.15/24 dev eth0 && ip link set eth0 up && ip route add default via 10.0.2.2
  mkdir -p /run/sshd && chmod 755 /run/sshd
  /usr/sbin/sshd -D -e -f "$lab/sshd_config" 2> /dev/console &
  say "ready"
  while :; do wait; sleep 60; done
}

case ${1:-stage1} in
  stage2) stage2 ;;
  *) stage1 ;;
esac
