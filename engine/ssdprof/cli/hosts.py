"""``ssdprof hosts add|list|test|remove``: remote hosts reached with the system's OpenSSH."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from ssdprof.app.contract.base import Params
from ssdprof.app.service.hosts import Hosts
from ssdprof.remote.addresses import HostAddress, HostError, parse_host
from ssdprof.remote.links import NOMINAL_SPEED_KINDS
from ssdprof.remote.probe import HostProbe
from ssdprof.remote.ssh import Ssh, SshSettings
from ssdprof.store.db import Store

__all__ = ["handle", "register", "ssh_settings"]


def register(sub: Any, command: Any, common: Any) -> None:
    """Add the ``hosts`` command; ``command`` and ``common`` are cli.py's helpers."""
    hosts = command(sub, "hosts", "add, list, test or remove remote hosts (ssh aliases or user@host:port)",
                    "ssdprof hosts add ceph-client-1\n  ssdprof hosts test ceph-client-1 root@10.0.0.12:2222")
    actions = hosts.add_subparsers(dest="hosts_command", metavar="ACTION", required=True)
    add = command(actions, "add", "check a host's key and tools, and remember it",
                  "ssdprof hosts add lab-node-3 --accept-fingerprint SHA256:abc...")
    add.add_argument("host")
    add.add_argument("--accept-fingerprint", metavar="SHA256:...", help="accept the host key with exactly this fingerprint")
    add.add_argument("--link-gbps", type=link_gbps, metavar="GBPS",
                     help="the host's network link in Gb/s, when its NIC misreports (a VM): the lowest of this, the NIC's speed "
                          "and any egress shaping is its link limit")
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
    for parser in (add, lst, test, remove, link):
        common(parser)
        ssh_flags(parser)


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
    config = getattr(args, "ssh_config", None)
    return SshSettings(config=config) if config else SshSettings()


def handle(args: argparse.Namespace, store: Store) -> int:
    ssh = Ssh(ssh_settings(args))
    if args.hosts_command == "list":
        rows = store.hosts()
        if args.json:
            print(Hosts(store, ssh_settings(args)).list(Params()).model_dump_json(indent=2))
        for row in [] if args.json else rows:
            probe = row["probe"]
            link = f"link {row['link_gbps']:g} Gb/s (set)" if row.get("link_gbps") else ""
            print(f"{row['name']:30} {probe.get('fio_version') or 'no fio':10} {probe.get('cpu_count', 0):3} CPUs  {row['fingerprint']}"
                  + (f"  {link}" if link else ""))
        return 0
    if args.hosts_command == "remove":
        if not store.remove_host(args.host):
            raise KeyError(f"host {args.host} is not in the list; see: ssdprof hosts list")
        print(f"removed {args.host}")
        return 0
    if args.hosts_command == "set-link":
        speed = None if args.clear else args.link_gbps
        if not store.set_host_link(args.host, speed):
            raise KeyError(f"host {args.host} is not in the list; see: ssdprof hosts list")
        print(f"{args.host}: link speed {'cleared' if speed is None else f'set to {speed:g} Gb/s'}")
        return 0
    if args.hosts_command == "test":
        probes = {h: ssh.probe(parse_host(h)) for h in args.hosts}
        _print_probes(probes, args.json)
        return 0 if all(p.reachable for p in probes.values()) else 1
    return _add(parse_host(args.host), ssh, store, args)


def _add(host: HostAddress, ssh: Ssh, store: Store, args: argparse.Namespace) -> int:
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
    store.save_host(host.name, fingerprint or "known to ssh", dataclasses.asdict(probe), link_gbps=args.link_gbps)
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
