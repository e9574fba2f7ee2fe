"""``ssdprof sweeps``: the stored sweeps, PTS tests and sustained writes, each as running (a live
process holds it), interrupted (resumable) or how it ended, with who ran it, where and since when."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ssdprof.cli.commands import commands_of
from ssdprof.cli.flags import command, command_actions, common

if TYPE_CHECKING:
    from ssdprof.model.sweep_info import SweepInfo
    from ssdprof.store.db import Store

__all__ = ["COMMANDS", "handle", "register"]

COMMANDS = commands_of("sweeps")


def register(sub: Any) -> None:
    actions = command_actions(sub, "sweeps", "list stored sweeps: running, interrupted or ended, who ran them, where",
                              "ssdprof sweeps list --db postgresql://lab@db.lab/ssdprof")
    listed = command(actions, "list", "every stored sweep, newest first",
                     "ssdprof sweeps list --mine")
    listed.add_argument("--mine", action="store_true", help="only the sweeps this login last ran on this machine")
    common(listed)


def handle(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.app.contract.runs import SweepsResult
    from ssdprof.model.sweep_info import last_finished

    rows = store.list_sweeps()
    me = store.claimant
    if args.mine:
        rows = [r for r in rows if (r.owner, r.owner_host) == (me.user, me.host)]
    try:
        mine = store.resumable("sweep").id
    except KeyError:
        mine = None
    if args.json:
        print(SweepsResult(sweeps=rows, interrupted=next((r for r in rows if r.id == mine), None),
                           last_finished=last_finished(rows)).model_dump_json(indent=2))
        return 0
    print(format_sweeps(rows))
    if mine is not None:
        print(f"your last interrupted sweep: {mine}; continue it with: ssdprof sweep --resume")
    return 0


def format_sweeps(rows: list[SweepInfo]) -> str:
    from ssdprof.store.sweeps import RESUME_COMMANDS

    if not rows:
        return "no sweeps stored"
    lines = [f"{'id':>5}  {'kind':7} {'standing':11} {'runs':>5}  {'name':24} who, where, since"]
    for row in rows:
        who = f"{row.owner or '?'} on {row.owner_host or '?'}" + (f" (pid {row.owner_pid})" if row.owner_pid else "")
        since = f", since {row.since}" if row.since else ""
        heard = f", last heard from {row.renewed_at}" if row.standing in ("running", "interrupted") and row.renewed_at else ""
        resume = f"  -> {RESUME_COMMANDS[row.kind]} {row.id}" if row.standing == "interrupted" else ""
        lines.append(f"{row.id:>5}  {row.kind:7} {row.standing:11} {row.runs:>5}  {row.name[:24]:24} "
                     f"{who if row.owner else 'stored before owners were kept'}{since}{heard}{resume}")
    return "\n".join(lines)
