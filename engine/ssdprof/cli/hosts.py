"""``ssdprof hosts add|list|test|remove|set-link|set-role|ceph-osd-hosts``: remote hosts reached
with the system's OpenSSH; a monitor-only host (a storage node) is watched during runs and runs no
I/O."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.cli.flags import command, command_actions, common

if TYPE_CHECKING:
    from ssdprof.remote.addresses import HostAddress
    from ssdprof.remote.probe import HostProbe
    from ssdprof.remote.ssh import Ssh, SshSettings
    from ssdprof.store.db import Store

__all__ = ["handle", "register", "ssh_settings"]


def register(sub: Any) -> None:
    """Add the ``hosts`` command; ``command`` and ``common`` are cli.py's helpers."""
    actions = command_actions(sub, "hosts", "add, list, test or remove remote hosts (ssh aliases or user@host:port)",
                              "ssdprof hosts add ceph-client-1\n  ssdprof hosts test ceph-client-1 root@10.0.0.12:2222")
    add = command(actions, "add", "check a host's key and tools, and remember it",
                  "ssdprof hosts add lab-node-3 --accept-fingerprint SHA256:abc...")
    add.add_argument("host")
    add.add_argument("--accept-fingerprint", metavar="SHA256:...", help="accept the host key with exactly this fingerprint")
    add.add_argument("--link-gbps", type=link_gbps, metavar="GBPS",
                     help="the host's network link in Gb/s, when its NIC misreports (a VM): the lowest of this, the NIC's speed "
                          "and any egress shaping is its link limit")
    add.add_argument("--monitor-only", action="store_true",
                     help="a storage node (Ceph OSD or MON, a server behind the target): it runs "
                          "no I/O; its CPU, network and disks are watched during every run on SSH "
                          "hosts, and named when they were the limit")
    watching = watch_commands(actions, command)
    link = command(actions, "set-link", "set or clear the link speed of a remembered host",
                   "ssdprof hosts set-link lab-node-3 --link-gbps 10\n  ssdprof hosts set-link lab-node-3 --clear")
    link.add_argument("host")
    choice = link.add_mutually_exclusive_group(required=True)
    choice.add_argument("--link-gbps", type=link_gbps, metavar="GBPS", help="the host's network link in Gb/s")
    choice.add_argument("--clear", action="store_true", help="forget the speed set: the NIC and its shaping decide")
    lst = command(actions, "list", "list remembered hosts", "ssdprof hosts list --json")
    test = command(actions, "test", "test connection: reachability, fio and its engines, Ceph tools, CPUs, NICs",
                   "ssdprof hosts test lab-node-3")
    test.add_argument("hosts", nargs="+", metavar="HOST")
    remove = command(actions, "remove", "forget a host", "ssdprof hosts remove lab-node-3")
    remove.add_argument("host")
    for parser in (add, lst, test, remove, link, *watching):
        common(parser)
        ssh_flags(parser)


def watch_commands(actions: Any, command: Any) -> list[Any]:
    """``set-role`` and ``ceph-osd-hosts``: which hosts are only watched during runs."""
    role = command(actions, "set-role", "mark a remembered host monitor-only (watched) or a client",
                   "ssdprof hosts set-role osd1 --monitor-only\n"
                   "  ssdprof hosts set-role osd1 --client")
    role.add_argument("host")
    which = role.add_mutually_exclusive_group(required=True)
    which.add_argument("--monitor-only", action="store_true", help="watched during runs; no I/O")
    which.add_argument("--client", action="store_true", help="runs the I/O when named with --host")
    osds = command(actions, "ceph-osd-hosts",
                   "a Ceph cluster's OSD hosts from its own map (ceph osd tree), matched to the "
                   "hosts in the list",
                   "ssdprof hosts ceph-osd-hosts --via ceph-client-1 "
                   "--ceph-conf /etc/ceph/ceph.conf --watch-osd-hosts")
    osds.add_argument("--via", required=True, metavar="HOST",
                      help="a host that reaches the cluster (its ceph CLI), e.g. an RBD client")
    osds.add_argument("--ceph-conf", default="", metavar="PATH",
                      help="ceph.conf on that host (default: ceph's own)")
    osds.add_argument("--ceph-user", default="admin", metavar="NAME",
                      help="the Ceph client name (default: admin)")
    osds.add_argument("--watch-osd-hosts", action="store_true",
                      help="mark every OSD host found in the list monitor-only: watched "
                           "during runs")
    return [role, osds]


def link_gbps(text: str) -> float:
    """--link-gbps: a speed in Gb/s, 0 < x <= 10000 (argparse shows the message with the flag's name)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of Gb/s (e.g. 10 or 0.2)") from None
    if not 0 < value <= 10_000:
        raise argparse.ArgumentTypeError(f"{text} Gb/s is out of range: give a speed above 0 and at most 10000 Gb/s")
    return value


def ssh_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ssh-config", type=Path, help="an ssh_config to use instead of ~/.ssh/config (ssh -F)")


def ssh_settings(args: argparse.Namespace) -> SshSettings:
    from ssdprof.remote.ssh import SshSettings

    config = getattr(args, "ssh_config", None)
    return SshSettings(config=config) if config else SshSettings()


def handle(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.remote.addresses import parse_host
    from ssdprof.remote.ssh import Ssh

    ssh = Ssh(ssh_settings(args))
    if args.hosts_command == "list":
        rows = store.hosts()
        if args.json:
            from ssdprof.app.contract.base import Params
            from ssdprof.app.service.hosts import Hosts

            print(Hosts(store, ssh_settings(args)).list(Params()).model_dump_json(indent=2))
        for row in [] if args.json else rows:
            probe = row["probe"]
            link = f"link {row['link_gbps']:g} Gb/s (set)" if row.get("link_gbps") else ""
            watched = "  monitor-only (watched)" if row.get("role") == "monitor" else ""
            print(f"{row['name']:30} {probe.get('fio_version') or 'no fio':10} {probe.get('cpu_count', 0):3} CPUs  {row['fingerprint']}"
                  + (f"  {link}" if link else "") + watched)
        return 0
    if args.hosts_command == "remove":
        return _changed(args.host, store.remove_host(args.host), f"removed {args.host}")
    if args.hosts_command == "set-link":
        speed = None if args.clear else args.link_gbps
        return _changed(args.host, store.set_host_link(args.host, speed),
                        f"{args.host}: link speed {'cleared' if speed is None else f'set to {speed:g} Gb/s'}")
    if args.hosts_command in ("set-role", "ceph-osd-hosts"):
        watch = _set_role if args.hosts_command == "set-role" else _ceph_osd_hosts
        return watch(args, store)
    if args.hosts_command == "test":
        probes = {h: ssh.probe(parse_host(h)) for h in args.hosts}
        _print_probes(probes, args.json)
        return 0 if all(p.reachable for p in probes.values()) else 1
    return _add(parse_host(args.host), ssh, store, args)


def _add(host: HostAddress, ssh: Ssh, store: Store, args: argparse.Namespace) -> int:
    from ssdprof.remote.addresses import HostError

    fingerprint = ""
    try:
        known = ssh.is_known(host)
        if not known:
            keys = ssh.scan_keys(host)
            print(f"{host.name} offers host key(s):", file=sys.stderr)
            for key in keys:
                print(f"  {key.key_type:10} {key.fingerprint}", file=sys.stderr)
            fingerprint = args.accept_fingerprint or _ask(keys[0].fingerprint)
            if not fingerprint:
                print(f"ssdprof: not added. Check the fingerprint with the host's administrator, then run:\n"
                      f"  ssdprof hosts add {host.name} --accept-fingerprint {keys[0].fingerprint}", file=sys.stderr)
                return 2
            ssh.accept_key(host, fingerprint)
    except HostError as exc:
        print(f"ssdprof: {exc}", file=sys.stderr)
        return 1
    probe = ssh.probe(host)
    _print_probes({host.name: probe}, args.json)
    if not probe.reachable:
        return 1
    store.save_host(host.name, fingerprint or "known to ssh", dataclasses.asdict(probe),
                    link_gbps=args.link_gbps, role="monitor" if args.monitor_only else "client")
    if args.monitor_only:
        print(f"{host.name}: monitor-only: watched during every run on SSH hosts; it runs no I/O")
    return 0


def _set_role(args: argparse.Namespace, store: Store) -> int:
    role = "monitor" if args.monitor_only else "client"
    said = "monitor-only: watched during runs, runs no I/O" if role == "monitor" else "client"
    return _changed(args.host, store.set_host_role(args.host, role), f"{args.host}: {said}")


def _changed(host: str, found: bool, said: str) -> int:
    """``said`` once the store changed ``host``; a KeyError (exit 1) when it holds no such host."""
    if not found:
        raise KeyError(f"host {host} is not in the list; see: ssdprof hosts list")
    print(said)
    return 0


def _ceph_osd_hosts(args: argparse.Namespace, store: Store) -> int:
    """The OSD hosts the cluster's map names, each with the known host it is (or none yet)."""
    from ssdprof.app.contract.hosts import CephOsdHostsParams
    from ssdprof.app.service.hosts import Hosts

    params = CephOsdHostsParams(via=args.via, ceph_conf=args.ceph_conf, ceph_user=args.ceph_user,
                                watch=args.watch_osd_hosts)
    found = Hosts(store, ssh_settings(args)).ceph_osd_hosts(params)
    if args.json:
        print(found.model_dump_json(indent=2))
        return 0
    for host in found.osd_hosts:
        known = f"host {host.known_host} ({host.role})" if host.known_host else "no SSH host yet"
        print(f"{host.name:30} {len(host.osds)} OSD(s), {host.osds_up} up: "
              f"{', '.join(host.osds)}  -> {known}")
    print(found.message)
    return 0


def _ask(fingerprint: str) -> str:
    if not sys.stdin.isatty():
        return ""
    answer = input(f"Accept the key {fingerprint}? Type yes to accept: ").strip().lower()
    return fingerprint if answer == "yes" else ""


def _print_probes(probes: dict[str, HostProbe], as_json: bool) -> None:
    if as_json:
        print(json.dumps({"hosts": {name: dataclasses.asdict(p) for name, p in probes.items()}}, indent=2))
        return
    from ssdprof.remote.links import NOMINAL_SPEED_KINDS

    for name, probe in probes.items():
        if not probe.reachable:
            print(f"{name}: UNREACHABLE - {probe.error}")
            continue
        nics = ", ".join((f"{n} {s} Mb/s" if s > 0 else f"{n} ({probe.nic_kinds[n]}: no real speed)"
                          if probe.nic_kinds.get(n) in NOMINAL_SPEED_KINDS else f"{n} (speed unknown)")
                         + (f", {probe.shaping[n][0]} {probe.shaping[n][1] * 8 / 1e6:g} Mb/s" if n in probe.shaping else "")
                         for n, s in probe.nics.items() if n != "lo")
        print(f"{name}: {probe.os}; {probe.cpu_count} CPUs; {probe.fio_version or 'fio MISSING'}"
              f" ({', '.join(e for e in probe.fio_engines if e in ('io_uring', 'libaio', 'rbd', 'psync'))});"
              f" Ceph tools: {', '.join(probe.ceph_tools) or 'none'}; NICs: {nics or 'none'}")
