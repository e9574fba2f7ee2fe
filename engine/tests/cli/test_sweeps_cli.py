"""``ssdprof sweeps list``: each stored sweep running, interrupted or ended, who ran it and where, and
how to resume the interrupted ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from claimants import another_person, ended_process
from stored_sweeps import a_sweep

from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.store.db import Store


def test_sweeps_list_says_which_are_running_interrupted_or_done_and_whose(tmp_path: Path) -> None:
    db = tmp_path / "lab.sqlite3"
    spec = SweepSpec(name="qd sweep", points=[Workload(target="/data")])
    for claimant, end in ((ended_process(), None), (another_person("bob"), None), (None, "done")):
        store = Store(db, claimant=claimant) if claimant else Store(db)
        sweep_id = store.create_sweep(spec)
        if end:
            store.set_sweep_status(sweep_id, end)
        else:
            store.release_all()  # its process is gone, or on another machine
        store.close()
    listed = subprocess.run([sys.executable, "-m", "ssdprof", "sweeps", "list", "--db", str(db)], capture_output=True,
                            text=True, check=True, timeout=120).stdout.splitlines()
    assert listed[0].split()[:5] == ["id", "kind", "standing", "runs", "name"]
    rows = {line.split()[0]: line for line in listed[1:4]}
    assert rows["3"].split()[2] == "done"
    assert rows["2"].split()[2] == "running" and "bob on lab-pc-2 (pid 4242)" in rows["2"]  # its lease is a minute old at most
    assert rows["1"].split()[2] == "interrupted" and rows["1"].endswith("-> ssdprof sweep --resume 1")
    assert listed[-1] == "your last interrupted sweep: 1; continue it with: ssdprof sweep --resume"


def test_each_listing_of_stored_tests_says_when_there_are_none(tmp_path: Path) -> None:
    db = str(tmp_path / "empty.sqlite3")
    for args, said in ((["pts", "list"], "no PTS tests stored"), (["sustain", "--list"], "no sustained-write tests stored"),
                       (["replay", "--list"], "no trace replays stored"), (["sweeps", "list"], "no sweeps stored")):
        listed = subprocess.run([sys.executable, "-m", "ssdprof", *args, "--db", db], capture_output=True, text=True,
                                check=True, timeout=120)
        assert listed.stdout.strip() == said, args
        as_json = subprocess.run([sys.executable, "-m", "ssdprof", *args, "--db", db, "--json"], capture_output=True,
                                 text=True, check=True, timeout=120)
        assert said not in as_json.stdout, args  # --json stays JSON


def test_sweeps_list_json_names_the_sweep_results_opens_as_the_app_is_told(tmp_path: Path) -> None:
    db = tmp_path / "lab.sqlite3"
    store = Store(db)
    done = a_sweep(store, "done")
    a_sweep(store, "cancelled", runs=0)  # cancelled before its first point: nothing to open
    a_sweep(store, "failed")
    store.close()
    listed = json.loads(subprocess.run([sys.executable, "-m", "ssdprof", "sweeps", "list", "--db", str(db), "--json"],
                                       capture_output=True, text=True, check=True, timeout=120).stdout)
    assert listed["last_finished"] is not None and listed["last_finished"]["id"] == done
    assert listed["interrupted"] is None
