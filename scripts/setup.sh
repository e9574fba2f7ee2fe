#!/usr/bin/env bash
# Installs whatever ssdprof needs and is missing: system packages (where we may), the engine's
# Python environment from its lock file, and the front end's npm packages from package-lock.json.
# Safe to run again: each step is skipped when already up to date.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

say() { printf 'setup: %s\n' "$*" >&2; }

apt_install() {
  # apt_install PACKAGE... : install Debian/Ubuntu packages when we are root (or have sudo without a password).
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else return 1; fi
  fi
  command -v apt-get >/dev/null || return 1
  if [ ! -f /tmp/.ssdprof-apt-updated ] || [ -n "$(find /tmp/.ssdprof-apt-updated -mmin +600 2>/dev/null)" ]; then
    $sudo apt-get update -qq >/dev/null && touch /tmp/.ssdprof-apt-updated
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

need_command() {
  # need_command CMD DEBIAN_PACKAGE HINT : make CMD available or say how to get it.
  local cmd=$1 pkg=$2 hint=$3
  command -v "$cmd" >/dev/null && return 0
  say "installing $pkg (for $cmd)"
  if apt_install "$pkg" && command -v "$cmd" >/dev/null; then return 0; fi
  say "could not install $cmd automatically. $hint"
  return 1
}

system_packages() {
  need_command fio fio "Install fio (Debian/Ubuntu: apt install fio; macOS: brew install fio; Windows: winget install fio) or use --engine portable." || true
  for extra in "$@"; do
    IFS=: read -r cmd pkg hint <<<"$extra"
    need_command "$cmd" "$pkg" "$hint" || true
  done
}

test_host_packages() {
  # The integration tests' SSH hosts, Ceph cluster and lab node (a QEMU guest with NVMe, SATA and virtio disks,
  # engine/tests/infra; its kernel package is fetched by the tests into /var/cache/ssdprof-lab), and shellcheck
  # for `npm run lint:sh`; without these, those tests skip (and fail under CI=true) and lint:sh fails.
  local missing=() extra cmd pkg
  for extra in sshd:openssh-server ssh:openssh-client ip:iproute2 ceph-mon:ceph-mon ceph-mgr:ceph-mgr ceph-osd:ceph-osd ceph:ceph-common \
      qemu-system-x86_64:qemu-system-x86 busybox:busybox-static cpio:cpio depmod:kmod nvme:nvme-cli smartctl:smartmontools \
      mdadm:mdadm lvm:lvm2 shellcheck:shellcheck; do
    IFS=: read -r cmd pkg <<<"$extra"
    command -v "$cmd" >/dev/null || [ -x "/usr/sbin/$cmd" ] || missing+=("$pkg")
  done
  # the compiled I/O loop's Windows build runs under wine64 in the tests (engine/tests/native); Debian keeps it off the PATH
  [ -x /usr/lib/wine/wine64 ] || missing+=(wine64)
  # the lab node's initramfs needs busybox linked statically; Debian's plain busybox is not
  if command -v busybox >/dev/null && ldd "$(command -v busybox)" >/dev/null 2>&1; then missing+=(busybox-static); fi
  # the results store's tests run on a throwaway PostgreSQL server too (engine/tests/store/pg_server.py);
  # Debian keeps initdb and pg_ctl off the PATH, in /usr/lib/postgresql/<version>/bin
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null || missing+=(postgresql)
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]} (for the SSH-host, Ceph and lab-node integration tests, and shellcheck for lint:sh)"
  apt_install "${missing[@]}" || say "could not install ${missing[*]}: needs root (or sudo) and apt-get; the SSH-host, Ceph and lab-node tests will skip (and fail under CI=true), and without shellcheck \`npm run lint:sh\` fails (Debian/Ubuntu: apt install shellcheck; macOS: brew install shellcheck)."
}

python_env() {
  local venv=$root/engine/.venv lock=$root/engine/requirements.lock tests=$root/engine/requirements-test.lock stamp
  stamp=$venv/.ssdprof-lock-$( (cat "$lock" "$tests" "$root/engine/pyproject.toml") | sha256sum | cut -c1-16)
  [ -f "$stamp" ] && return 0
  local python=""
  for candidate in python3.13 python3.12 python3.11 python3.10 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
      python=$(command -v "$candidate"); break
    fi
  done
  if [ -z "$python" ]; then
    need_command python3 python3 "Install Python 3.10 or newer." || exit 1
    python=$(command -v python3)
  fi
  if [ ! -x "$venv/bin/python" ]; then
    say "creating the engine's Python environment in engine/.venv"
    if ! "$python" -m venv "$venv" 2>/dev/null; then
      rm -rf "$venv"
      local ver; ver=$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
      apt_install "python$ver-venv" || apt_install python3-venv || { say "python3 -m venv failed; install the venv module for $python"; exit 1; }
      "$python" -m venv "$venv"
    fi
  fi
  say "installing the engine's Python packages (engine/requirements.lock)"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$lock"
  # the tests' own tools (fio-plot, to draw what ssdprof exports for it), pinned apart from what the engine needs
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps -r "$tests"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps -e "$root/engine"
  rm -f "$venv"/.ssdprof-lock-*
  touch "$stamp"
}

native_loop() {
  # The portable engine's compiled I/O loop (engine/native/), built with this machine's C compiler into
  # engine/native/build/ (skipped when its sources are unchanged). Without a compiler, as root on Debian/Ubuntu
  # gcc is installed; elsewhere the engine measures with its Python loop, slower at depth, and says so on each run.
  local python=$root/engine/.venv/bin/python status=0
  "$python" "$root/engine/native/build.py" || status=$?
  if [ "$status" -eq 3 ] && apt_install gcc libc6-dev; then
    status=0
    "$python" "$root/engine/native/build.py" || status=$?
  fi
  case $status in
    0) ;;
    3) say "no C compiler: the portable engine will use its Python loop (slower at queue depth; each run says so)." ;;
    *) say "building the compiled I/O loop failed (above); the portable engine will use its Python loop" ;;
  esac
}

engine_bytecode() {
  # The engine's modules compiled to bytecode beside them (engine/ssdprof/**/__pycache__). pip does this for a
  # normal install, not for the editable one here; and where PYTHONDONTWRITEBYTECODE is set (this project's
  # machines, CI) Python never writes it, so every ssdprof start would compile every module it imports again
  # (~0.1 s of a CLI command). Only what changed since the last run is compiled.
  "$root/engine/.venv/bin/python" -m compileall -q -j 0 "$root/engine/ssdprof" >/dev/null
}

lock_into_venv() {
  # lock_into_venv NAME LOCK WHAT : pip-install an extra lock file into engine/.venv, once per version of it.
  local name=$1 lock=$root/$2 what=$3 venv=$root/engine/.venv stamp
  stamp=$venv/.ssdprof-$name-lock-$(sha256sum "$lock" | cut -c1-16)
  [ -f "$stamp" ] && return 0
  say "installing $what ($2)"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$lock"
  rm -f "$venv"/.ssdprof-"$name"-lock-*
  touch "$stamp"
}

# zig (the ziglang package) for the tests that cross-build the compiled loop for Windows and macOS.
cross_tools() { lock_into_venv cross engine/requirements-cross.lock "the cross-compiler for the native loop's tests"; }

# PyInstaller for scripts/freeze-engine.sh, from its own lock file; only when freezing.
build_tools() { lock_into_venv build engine/requirements-build.lock "the engine's build tools"; }

node_modules() {
  [ -f "$root/package-lock.json" ] || return 0
  local stamp
  stamp=$root/node_modules/.ssdprof-lock-$(sha256sum "$root/package-lock.json" | cut -c1-16)
  [ -f "$stamp" ] && return 0
  say "installing npm packages (package-lock.json)"
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
  mkdir -p "$root/node_modules"
  rm -f "$root"/node_modules/.ssdprof-lock-*
  touch "$stamp"
}

mode=${1:-all}
case $mode in
  runtime) system_packages; python_env; engine_bytecode; native_loop; node_modules ;;
  all)
    system_packages "chromium:chromium:Install Chromium for the end-to-end tests (Debian/Ubuntu: apt install chromium), or set SSDPROF_CHROMIUM to a Chromium binary." \
      "pdftotext:poppler-utils:Install poppler-utils for the PDF report tests (Debian/Ubuntu: apt install poppler-utils; macOS: brew install poppler)." \
      "blkparse:blktrace:Install blktrace for reading blktrace traces (Debian/Ubuntu: apt install blktrace)."
    test_host_packages
    python_env
    engine_bytecode
    native_loop
    cross_tools
    node_modules
    ;;
  freeze) python_env; engine_bytecode; native_loop; build_tools ;;
  *) say "usage: setup.sh [runtime|all|freeze]"; exit 2 ;;
esac
