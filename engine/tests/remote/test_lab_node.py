"""ssdprof on a lab node (tests/infra/lab_node.py): a separate Linux machine under QEMU, with its
own kernel and clock, an NVMe controller, a SATA disk on AHCI, virtio disks and a disk QEMU
throttles to a known IOPS, reached as an SSH host through ssdprof's own command line. The points
are short (1-3 s): TCG on two shared cores makes every guest second costly."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import requires_fio
from infra.lab_node import DISKS, SATA_MODEL, LabNode

from ssdprof.model.quantities import format_size
from ssdprof.remote.host_results import SKEW_WARNING_MS
from ssdprof.store.db import Store

# A guest's seconds are slow under TCG on two shared cores: 15 minutes a test (boot included).
pytestmark = [requires_fio, pytest.mark.timeout(900)]

DRIVES = {  # interface -> (serial, model, link) as the guest's kernel reports them
    "NVMe": ("SSDPROF-NVME-1", "QEMU NVMe Ctrl", "2.5 GT/s PCIe x1"),
    "SATA": ("SSDPROF-SATA-1", SATA_MODEL, "1.5 Gbps"),
    "virtio": ("SSDPROF-VD-1", "", ""),
}


@pytest.fixture
def lab(lab_node_session: LabNode) -> Iterator[LabNode]:
    """The session's node; its clock and its throttled disk's limit are put back after each test."""
    limit = lab_node_session.throttle_iops
    yield lab_node_session
    if lab_node_session.throttle_iops != limit:
        lab_node_session.set_throttle(limit)
    if lab_node_session.clock_shifted_s:
        lab_node_session.sync_clock()


def ssdprof(config: Path | None, *args: str, db: Path) -> subprocess.CompletedProcess[str]:
    """ssdprof's command line; `config` for the commands that reach hosts."""
    reach = ["--ssh-config", str(config)] if config is not None else []
    argv = [sys.executable, "-m", "ssdprof", *args, *reach, "--db", str(db)]
    env = {**os.environ, "XDG_DATA_HOME": str(db.parent / "data")}
    return subprocess.run(argv, capture_output=True, text=True, timeout=900, check=False, env=env)


def whole(serial: str) -> str:
    return format_size(next(d.size_bytes for d in DISKS if d.serial == serial))


@pytest.mark.parametrize("interface", list(DRIVES))
def test_whole_device_reads_and_confirmed_writes_at_qd_1_4_32_all_have_data_and_name_the_drive(
    lab: LabNode, interface: str, tmp_path: Path
) -> None:
    serial, model, link = DRIVES[interface]
    device = lab.disk_path(serial)
    done = ssdprof(
        lab.ssh_config_path,
        "sweep",
        "--host",
        lab.alias,
        "--remote-device",
        f"{lab.alias}={device}",
        "--size",
        whole(serial),
        "--vary",
        "qd=1,4,32",
        "--vary",
        "rw=randread,randwrite",
        "--grid",
        "--runtime",
        "1",
        "--ramp",
        "1",
        "--allow-overwrite",
        "--json",
        db=tmp_path / "r.db",
    )
    assert done.returncode == 0, done.stderr
    assert "test file" not in done.stderr, "a device is measured as it is"
    runs = json.loads(done.stdout)["runs"]
    seen = {(r["workload"]["pattern"], r["workload"]["queue_depth"]) for r in runs}
    assert seen == {(p, qd) for p in ("randread", "randwrite") for qd in (1, 4, 32)}, seen
    for run in runs:
        direction = "read" if run["workload"]["pattern"] == "randread" else "write"
        host = run["hosts"][0]
        assert run["status"] == "ok" and host["error"] is None, (
            run["workload"],
            host["error"],
            run["warnings"],
        )
        assert run[direction]["io_count"] > 0 and host[direction]["io_count"] > 0, run["workload"]
        env = run["environment"]
        assert env["target_device"] == device and env["interface"] == interface
        assert env["device_serial"] == serial and env["pcie_link"] == link
        assert env["device_model"] == model
        assert bool(env["device_firmware"]) == (interface != "virtio")
        assert env["logical_block_bytes"] == 512 and env["physical_block_bytes"] == 512


@pytest.mark.lab_quick
@pytest.mark.parametrize("interface", ["NVMe", "SATA"])
def test_one_whole_device_read_on_each_controller_has_data_and_names_the_drive(
    lab: LabNode, interface: str, tmp_path: Path
) -> None:
    """The quick form of the sweep above (npm test): one point, the drive named by its own controller."""
    serial, model, link = DRIVES[interface]
    device = lab.disk_path(serial)
    run = run_point(lab, device, tmp_path, runtime="1")
    host = run["hosts"][0]
    assert host["error"] is None and run["read"]["io_count"] > 0 and host["read"]["io_count"] > 0
    env = run["environment"]
    assert env["target_device"] == device and env["interface"] == interface
    assert env["device_serial"] == serial and env["device_model"] == model and env["pcie_link"] == link


def run_point(
    lab: LabNode, device: str, tmp_path: Path, *extra: str, runtime: str = "3"
) -> dict[str, Any]:
    done = ssdprof(
        lab.ssh_config_path,
        "run",
        "--host",
        lab.alias,
        "--remote-device",
        f"{lab.alias}={device}",
        "--size",
        "256MiB",
        "--rw",
        "randread",
        "--qd",
        "8",
        "--runtime",
        runtime,
        "--ramp",
        "1",
        "--json",
        *extra,
        db=tmp_path / "r.db",
    )
    assert done.returncode == 0, done.stderr
    run: dict[str, Any] = json.loads(done.stdout)
    assert run["status"] == "ok", run["warnings"]
    return run


@pytest.fixture(scope="module")
def known_limit(lab_node_session: LabNode, tmp_path_factory: pytest.TempPathFactory) -> int:
    """A throttle well below what the guest's CPU drives (a quarter of the throttled disk's own
    IOPS with its throttle lifted, measured the same way first; at most the node's 1000): TCG's
    ceiling moves with the load on this machine, and a limit above it would measure the CPU, not
    the throttle."""
    ceilings: list[float] = []
    throttled = lab_node_session.throttle_iops
    lab_node_session.set_throttle(0)
    try:
        for attempt in range(3):  # a burst of other work here can stall the guest for seconds
            if attempt:
                time.sleep(20)
            ceilings.append(run_point(
                lab_node_session,
                lab_node_session.disk_path("SSDPROF-THR"),
                tmp_path_factory.mktemp("ceiling"),
            )["read"]["iops"])
            if ceilings[-1] >= 400:
                break
    finally:
        lab_node_session.set_throttle(throttled)
    ceiling = max(ceilings)
    limit = min(1000, int(ceiling / 4) // 50 * 50)
    assert limit >= 100, (
        f"the guest drives an unthrottled disk at only {ceilings} IOPS; {_load(lab_node_session)}"
    )
    return limit


def _load(lab: LabNode) -> str:
    """What the machine and the guest were doing, for a ceiling too low to throttle under (a CI run
    read 76 IOPS three times where this machine alone reads over 10,000)."""
    guest = lab.run(["sh", "-c", "cat /proc/loadavg; "
                     "cat /sys/devices/system/clocksource/clocksource0/current_clocksource; "
                     "top -b -n 1 | head -12; dmesg | tail -15"], check=False)
    host = subprocess.run(["sh", "-c", "cat /proc/loadavg; top -b -n 1 | head -20"],
                          capture_output=True, text=True, check=False)
    return f"guest: {guest.stdout.strip()}\nhost: {host.stdout.strip()}"


@pytest.mark.lab_quick
def test_a_disk_throttled_to_n_iops_is_measured_at_n_within_3_percent(
    lab: LabNode, known_limit: int, tmp_path: Path
) -> None:
    lab.set_throttle(known_limit)
    measured = run_point(lab, lab.disk_path("SSDPROF-THR"), tmp_path)["read"]["iops"]
    assert measured == pytest.approx(known_limit, rel=0.03)


def test_a_throttle_lowered_mid_run_shows_in_the_per_second_series_within_2_s(
    lab: LabNode, known_limit: int, tmp_path: Path
) -> None:
    high, low = known_limit, known_limit * 2 // 5
    lab.set_throttle(high)
    changed_ns: list[int] = []

    def lower_when_running() -> (
        None
    ):  # QEMU's own counters tell when the run's I/O has begun: no guest work
        start = _reads(lab)
        while (
            _reads(lab) - start < 3.5 * high
        ):  # the ramp (and its burst) and ~2.5 measured seconds
            time.sleep(0.1)
        lab.set_throttle(low)
        changed_ns.append(time.time_ns())

    lowering = threading.Thread(target=lower_when_running, daemon=True)
    lowering.start()
    run = run_point(lab, lab.disk_path("SSDPROF-THR"), tmp_path, runtime="7")
    lowering.join(5)
    assert changed_ns, "the throttle was never lowered"
    host = run["hosts"][0]
    fio_start_ns = host["start_epoch_ns"] - host["clock_offset_ns"]  # on our clock
    change_s = (changed_ns[0] - fio_start_ns) / 1e9
    store = Store(tmp_path / "r.db")
    stored = store.run(run["id"])
    assert stored is not None
    series = [(s.elapsed_s, s.read_iops) for s in stored.progress if not s.ramping]
    store.close()
    before = [iops for elapsed, iops in series if elapsed <= change_s]
    after = [iops for elapsed, iops in series if elapsed >= change_s + 2.0]
    assert before and after, (series, change_s)
    assert all(iops == pytest.approx(high, rel=0.1) for iops in before), (series, change_s)
    assert all(iops == pytest.approx(low, rel=0.1) for iops in after), (series, change_s)


def _reads(lab: LabNode) -> int:
    stats = lab.qmp("query-blockstats")
    return int(next(s["stats"]["rd_operations"] for s in stats if s.get("device") == "thr0"))


@pytest.mark.parametrize("shift_s", [pytest.param(2.5, marks=pytest.mark.lab_quick), -2.5],
                         ids=["guest-ahead", "guest-behind"])
def test_a_guest_clock_off_by_2_5_s_still_starts_with_a_netns_host_within_the_skew_goal(
    lab: LabNode, ssh_hosts: Any, shift_s: float, tmp_path: Path
) -> None:
    config = (
        tmp_path / "ssh_config"
    )  # one file naming both machines, as a user's ~/.ssh/config would
    config.write_text(lab.ssh_config_path.read_text() + ssh_hosts.ssh_config_path.read_text())
    lab.shift_clock(shift_s)
    offset_s, bound_s = lab.clock_offset_s()
    assert offset_s == pytest.approx(shift_s, abs=bound_s + 0.05), (
        "the guest's clock moved as asked"
    )
    done = ssdprof(
        config,
        "run",
        "--host",
        lab.alias,
        "--host",
        "h1",
        "--remote-device",
        f"{lab.alias}={lab.disk_path('SSDPROF-VD-2')}",
        f"--remote-dir=h1={ssh_hosts.host_dirs['h1']}",
        "--size",
        "32MiB",
        "--rw",
        "randread",
        "--qd",
        "4",
        "--runtime",
        "2",
        "--ramp",
        "0",
        "--json",
        db=tmp_path / "r.db",
    )
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    hosts = {h["host"]: h for h in run["hosts"]}
    assert all(h["error"] is None and h["read"]["io_count"] > 0 for h in hosts.values()), hosts
    guest, netns = hosts[lab.alias], hosts["h1"]
    assert (
        abs(guest["clock_offset_ns"] / 1e9 - offset_s)
        <= guest["clock_offset_bound_ns"] / 1e9 + bound_s + 0.05
    )
    assert abs(netns["clock_offset_ns"]) <= netns["clock_offset_bound_ns"] + 5_000_000, (
        "h1 shares our clock"
    )
    assert run["start_skew_ms"] is not None and run["start_skew_ms"] < SKEW_WARNING_MS, run[
        "start_skew_ms"
    ]
    assert not [w for w in run["warnings"] if w["code"] == "start_skew"]


def runs_of(done: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    runs: list[dict[str, Any]] = (
        answer["runs"]
        if isinstance(answer, dict) and "runs" in answer
        else (answer if isinstance(answer, list) else [answer])
    )
    return runs


def test_sata_against_nvme_on_one_node_is_compared_by_welch_and_reported(
    lab: LabNode, tmp_path: Path
) -> None:
    db = tmp_path / "r.db"
    groups: dict[str, list[int]] = {}
    for serial in (DRIVES["SATA"][0], DRIVES["NVMe"][0]):  # the same sweep on both drives
        runs = runs_of(
            ssdprof(
                lab.ssh_config_path,
                "run",
                "--host",
                lab.alias,
                "--remote-device",
                f"{lab.alias}={lab.disk_path(serial)}",
                "--size",
                "256MiB",
                "--rw",
                "randread",
                "--qd",
                "4",
                "--runtime",
                "1",
                "--ramp",
                "1",
                "--repeat",
                "3",
                "--json",
                db=db,
            )
        )
        for run in runs:  # tagged with what the probe found, as a lab engineer would
            interface = run["environment"]["interface"]
            tagged = ssdprof(None, "runs", "tag", str(run["id"]), f"interface={interface}", db=db)
            assert tagged.returncode == 0, tagged.stderr
            groups.setdefault(interface, []).append(run["id"])
    assert {k: len(v) for k, v in groups.items()} == {"SATA": 3, "NVMe": 3}
    compared = ssdprof(
        None,
        "compare",
        "--tag",
        "interface=SATA",
        "--with-tag",
        "interface=NVMe",
        "--metric",
        "iops",
        "--json",
        db=db,
    )
    assert compared.returncode == 0, compared.stderr
    assert "welch" in compared.stdout.lower(), compared.stdout[:2000]
    pdf = tmp_path / "sata-vs-nvme.pdf"
    reported = ssdprof(
        None,
        "report",
        "--group",
        f"SATA={','.join(map(str, groups['SATA']))}",
        "--group",
        f"NVMe={','.join(map(str, groups['NVMe']))}",
        "-o",
        str(pdf),
        db=db,
    )
    assert reported.returncode == 0, reported.stderr
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "SATA" in text and "NVMe" in text and SATA_MODEL in text and "SSDPROF-SATA-1" in text, (
        text[:3000]
    )


MEMBERS = [f"SSDPROF-VD-{k}" for k in range(1, 5)]
LVM = ["env", "DM_DISABLE_UDEV=1", "lvm"]  # no udev in the guest: device-mapper makes its own nodes
LVM_CONFIG = [
    "--config",
    "activation { udev_sync = 0 udev_rules = 0 } devices { obtain_device_list_from_udev = 0 }",
]


def read_device(lab: LabNode, device: str, tmp_path: Path) -> dict[str, Any]:
    done = ssdprof(
        lab.ssh_config_path,
        "run",
        "--host",
        lab.alias,
        "--remote-device",
        f"{lab.alias}={device}",
        "--size",
        "64MiB",
        "--rw",
        "randread",
        "--qd",
        "4",
        "--runtime",
        "1",
        "--ramp",
        "0",
        "--json",
        db=tmp_path / "r.db",
    )
    assert done.returncode == 0, done.stderr
    run: dict[str, Any] = json.loads(done.stdout)
    assert run["status"] == "ok" and run["read"]["io_count"] > 0, run["warnings"]
    return run


def refused_write(lab: LabNode, device: str, tmp_path: Path) -> str:
    done = ssdprof(
        lab.ssh_config_path,
        "run",
        "--host",
        lab.alias,
        "--remote-device",
        f"{lab.alias}={device}",
        "--size",
        "16MiB",
        "--rw",
        "write",
        "--bs",
        "1m",
        "--runtime",
        "1",
        "--ramp",
        "0",
        "--allow-overwrite",
        "--json",
        db=tmp_path / "r.db",
    )
    assert done.returncode == 2, (done.returncode, done.stderr)
    return done.stderr


@pytest.mark.parametrize(
    ("level", "stack"),
    [
        ("0", "md RAID 0, chunk 64KiB"),
        ("1", "md RAID 1"),
        ("5", "md RAID 5, chunk 64KiB"),
        ("10", "md RAID 10, chunk 64KiB"),
    ],
)
def test_an_md_array_over_four_virtio_disks_records_its_level_chunk_and_members(
    lab: LabNode, level: str, stack: str, tmp_path: Path
) -> None:
    members = [lab.disk_path(serial) for serial in MEMBERS]
    chunk = [] if level == "1" else ["--chunk=64"]  # a mirror has no chunk
    create = ["mdadm", "--create", "/dev/md0", "--run", "--assume-clean", "--metadata=1.2"]
    lab.run([*create, f"--level={level}", *chunk, f"--raid-devices={len(members)}", *members])
    try:
        run = read_device(lab, "/dev/md0", tmp_path)
        layers = run["environment"]["device_stack"]
        names = ", ".join(f"{m.removeprefix('/dev/')} (virtio)" for m in members)
        assert f"md0: {stack}, over {names}" in layers, layers
        assert (
            run["environment"]["interface"] == "virtio"
            and run["environment"]["target_device_kind"] == "md"
        )
        if level == "1":  # once is enough: the refusal does not depend on the level
            assert "held by md0" in refused_write(lab, members[0], tmp_path)
    finally:
        lab.run(["mdadm", "--stop", "/dev/md0"], check=False)
        lab.run(["mdadm", "--zero-superblock", *members], check=False)


def test_an_lvm_striped_volume_records_its_stripes_and_keeps_its_members_from_being_written(
    lab: LabNode, tmp_path: Path
) -> None:
    members = [lab.disk_path(serial) for serial in MEMBERS[:2]]
    lab.run([*LVM, "pvcreate", "-q", *LVM_CONFIG, *members])
    try:
        lab.run([*LVM, "vgcreate", "-q", *LVM_CONFIG, "labvg", *members])
        lab.run(
            [
                *LVM,
                "lvcreate",
                "-q",
                *LVM_CONFIG,
                "--type",
                "striped",
                "-i",
                "2",
                "-I",
                "64k",
                "-L",
                "128m",
                "-n",
                "striped",
                "labvg",
                "-y",
            ]
        )
        run = read_device(lab, "/dev/mapper/labvg-striped", tmp_path)  # no udev: no /dev/dm-N links
        layers = run["environment"]["device_stack"]
        names = ", ".join(f"{m.removeprefix('/dev/')} (virtio)" for m in members)
        what = f"device-mapper labvg-striped, striped over 2 (chunk 64KiB), over {names}"
        assert any(re.fullmatch(r"dm-\d+: " + re.escape(what), layer) for layer in layers), layers
        assert "held by" in refused_write(lab, members[0], tmp_path), (
            "device-mapper's claim refuses the write"
        )
    finally:
        lab.run([*LVM, "vgremove", "-q", "-f", *LVM_CONFIG, "labvg"], check=False)
        lab.run([*LVM, "pvremove", "-q", *LVM_CONFIG, *members], check=False)
