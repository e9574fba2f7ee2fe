"""The cool-down gate between points: planned by one rule, waited for real, kept with the run.

A hot drive cannot be made here (this machine's disk has no hwmon sensor and the lab node's QEMU
drive reports a fixed temperature), so the temperature path runs against a fake for that fault: a
sys tree laid out as the lab node's real one (tests/data/health/lab_hwmon.txt) whose sensor a thread
cools while the gate waits. Everything else is real: the gate's clock, this machine's disk with no
sensor, fio.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import requires_fio

from ssdprof.app.cooldown import CoolDownRequest, cool_down, gate_before, plan_cool_down, with_wait
from ssdprof.app.planner import SweepRequest, WorkloadInput, plan_sweep
from ssdprof.app.runner import Runner
from ssdprof.model.cooldown import CoolDownSpec, CoolDownWait
from ssdprof.model.events import Cooling, PointProgress, RunEvent
from ssdprof.model.problems import WorkloadError
from ssdprof.model.results import EngineInfo, RunResult
from ssdprof.model.sweep import SweepSpec, cool_down_words, estimate_s
from ssdprof.model.workload import parse_workload
from ssdprof.target import health_run
from ssdprof.target.environment import capture_environment
from ssdprof.target.health import read_hwmon_c
from ssdprof.target.health_run import read_temperature

LAB_HWMON = Path(__file__).parents[1] / "data" / "health" / "lab_hwmon.txt"


class HotDrive:
    """A fake for a fault this machine cannot produce: a drive that is hot and cools. The layout is
    the lab node's own (hwmon0 beneath the NVMe controller the block device's ``device`` link
    names), its sensor file in millidegrees as the kernel writes it."""

    def __init__(self, root: Path, disk: str, celsius: float):
        _, name, millidegrees, controller = LAB_HWMON.read_text().split()
        assert name == "nvme" and int(millidegrees) > 0
        self.root = root
        sensor_dir = root / controller.removeprefix("/sys/") / "hwmon0"
        sensor_dir.mkdir(parents=True)
        (sensor_dir / "name").write_text(f"{name}\n")
        self.sensor = sensor_dir / "temp1_input"
        (root / "block" / disk).mkdir(parents=True)
        (root / "block" / disk / "device").symlink_to(root / controller.removeprefix("/sys/"))
        self.set(celsius)

    def set(self, celsius: float) -> None:
        self.sensor.write_text(f"{round(celsius * 1000)}\n")

    def cool_to(self, celsius: float, *, after_s: float) -> threading.Thread:
        """Lowers the sensor to ``celsius`` after ``after_s``, as a drive left idle would."""
        def cool() -> None:
            time.sleep(after_s)
            self.set(celsius)
        thread = threading.Thread(target=cool, daemon=True)
        thread.start()
        return thread


@pytest.fixture
def hot_drive(tmp_path: Path) -> Iterator[HotDrive]:
    yield HotDrive(tmp_path / "sys", "nvme0n1", 52.0)


def events() -> tuple[list[RunEvent], threading.Event]:
    """What a gate told, and the cancel it watches."""
    return [], threading.Event()


# ------------------------------------------------------------------------------------ the plan


def test_a_temperature_gate_waits_at_most_five_minutes_unless_told() -> None:
    spec = plan_cool_down(CoolDownRequest(cool_to_c="45"), on_hosts=False)
    assert spec == CoolDownSpec(to_c=45.0, max_s=300.0)
    idle = plan_cool_down(CoolDownRequest(cool_idle_s="2m"), on_hosts=False)
    assert idle is not None and idle.idle_s == 120.0 and idle.longest_s == 120.0


def test_no_cool_down_asked_plans_none() -> None:
    assert plan_cool_down(None, on_hosts=False) is None
    assert plan_cool_down(CoolDownRequest(cool_to_c=""), on_hosts=False) is None


def test_every_bad_cool_down_field_is_named_at_once_with_its_range_and_an_example() -> None:
    with pytest.raises(WorkloadError) as refused:
        plan_cool_down(CoolDownRequest(cool_to_c="5", cool_idle_s="soon", cool_max_s="2h"),
                       on_hosts=False)
    said = {p.field: str(p) for p in refused.value.problems}
    assert said["cool_to_c"] == ("cool down to (--cool-to): 5 is out of range; allowed 20–100 °C, "
                                 "e.g. 45")
    assert said["cool_idle_s"].startswith(
        "idle between points (--cool-idle): 'soon' is not a number")
    assert said["cool_max_s"].startswith(
        "wait at most (--cool-max): '2h' is out of range; allowed 1 s–1 h")


def test_a_limit_shorter_than_the_idle_time_or_alone_is_refused() -> None:
    with pytest.raises(WorkloadError, match=r"--cool-max\): 10 s is shorter than the idle time"):
        plan_cool_down(CoolDownRequest(cool_idle_s=30, cool_max_s=10), on_hosts=False)
    # the view's field and the command line's flag named together
    said = r"needs a temperature to wait for \(Cool down to, --cool-to\) or an idle time \(Or idle for, --cool-idle\)"
    with pytest.raises(WorkloadError, match=said):
        plan_cool_down(CoolDownRequest(cool_max_s=10), on_hosts=False)


def test_hosts_drives_are_idled_not_read_so_a_temperature_gate_on_hosts_is_refused() -> None:
    with pytest.raises(WorkloadError, match=r"not the hosts'; give an idle time \(Or idle for, --cool-idle\)"):
        plan_sweep(SweepRequest(hosts=["node1"], cool_down=CoolDownRequest(cool_to_c=45)))
    spec = plan_sweep(SweepRequest(hosts=["node1"], cool_down=CoolDownRequest(cool_idle_s=5)))
    assert spec.cool_down is not None and spec.cool_down.idle_s == 5.0


def test_the_estimate_counts_the_idle_between_points_and_says_up_to_for_a_temperature() -> None:
    base = WorkloadInput(runtime_s=10, ramp_s=0)
    plain = plan_sweep(SweepRequest(base=base, factors={"queue_depth": [1, 2, 4]}))
    idle = plain.model_copy(update={"cool_down": CoolDownSpec(idle_s=30, max_s=30)})
    assert estimate_s(idle) == pytest.approx(estimate_s(plain) + 2 * 30)
    assert cool_down_words(idle) == ("includes 30 s before each of the 2 point(s) after the first "
                                     "to idle (1m00s)")
    warm = plain.model_copy(update={"cool_down": CoolDownSpec(to_c=45, max_s=300)})
    assert estimate_s(warm) == pytest.approx(estimate_s(plain))
    assert cool_down_words(warm) == ("plus up to 300 s before each of the 2 point(s) after the "
                                     "first while the drive cools to 45 °C (up to 10m00s more)")


# ------------------------------------------------------------------------------------ the wait


def test_the_fake_hot_drive_is_read_as_hwmon_reads_a_real_one(hot_drive: HotDrive) -> None:
    assert read_hwmon_c("/dev/nvme0n1", hot_drive.root) == 52.0
    assert read_temperature("nvme0n1", sys_root=hot_drive.root)[:2] == (52.0, "hwmon")


def test_a_hot_drive_is_waited_for_until_it_cools_and_each_check_is_told(
        hot_drive: HotDrive) -> None:
    seen, cancel = events()
    hot_drive.cool_to(44.0, after_s=1.5)
    wait = gate_before(CoolDownSpec(to_c=45, max_s=60, check_s=0.5), device="nvme0n1",
                       on_hosts=False, number=2, emit=seen.append, cancel=cancel,
                       sys_root=hot_drive.root)
    assert wait.ended == "cool" and wait.start_c == 52.0 and wait.end_c == 44.0
    assert wait.source == "hwmon" and 1.5 <= wait.waited_s < 60
    assert wait.note == f"cooled 52 °C → 44 °C in {wait.waited_s:.0f} s"
    cooling = [e for e in seen if isinstance(e, Cooling)]
    assert cooling[0].text == "cooling before point 2: 52 °C → 45 °C, 0 s (at most 60 s)"
    assert cooling[-1].done and cooling[-1].text == f"cool-down before point 2: {wait.note}"
    assert all(not e.done for e in cooling[:-1])


def test_a_drive_already_cool_does_not_wait(hot_drive: HotDrive) -> None:
    hot_drive.set(40.0)
    seen, cancel = events()
    wait = gate_before(CoolDownSpec(to_c=45, max_s=60), device="nvme0n1", on_hosts=False,
                       number=3, emit=seen.append, cancel=cancel, sys_root=hot_drive.root)
    assert wait.ended == "cool" and wait.waited_s < 1
    assert wait.note == "the drive was at 40 °C, at or below 45 °C: no wait"


def test_a_drive_that_stays_hot_is_waited_for_at_most_the_limit_and_its_point_is_warned(
        hot_drive: HotDrive) -> None:
    seen, cancel = events()
    spec = CoolDownSpec(to_c=45, max_s=1.5, check_s=0.5)
    started = time.monotonic()
    wait = gate_before(spec, device="nvme0n1", on_hosts=False, number=2, emit=seen.append,
                       cancel=cancel, sys_root=hot_drive.root)
    assert time.monotonic() - started >= 1.5
    assert wait.ended == "at_most" and wait.end_c == 52.0
    assert wait.note.startswith("waited the longest wait, ")
    assert wait.note.endswith("s: the drive 52 °C → 52 °C, still above 45 °C")


def test_cancelling_ends_the_wait_at_once(hot_drive: HotDrive) -> None:
    seen, cancel = events()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    wait = cool_down(CoolDownSpec(to_c=45, max_s=60, check_s=5), number=2, emit=seen.append,
                     cancel=cancel,
                     read=lambda: read_temperature("nvme0n1", sys_root=hot_drive.root))
    assert wait.ended == "cancelled" and time.monotonic() - started < 5


def test_this_machines_disk_has_no_temperature_so_the_gate_idles_and_says_so(
        disk_dir: Path) -> None:
    device = _this_disk(disk_dir)
    reading = read_temperature(device)
    if reading.celsius is not None:
        pytest.skip(f"{device} reports a temperature here; the hot-drive fake covers the wait")
    seen, cancel = events()
    spec = CoolDownSpec(to_c=45, idle_s=1, max_s=60, check_s=0.5)
    started = time.monotonic()
    wait = gate_before(spec, device=device, on_hosts=False, number=2, emit=seen.append,
                       cancel=cancel)
    assert time.monotonic() - started >= 1.0 and wait.waited_s >= 1.0
    assert wait.ended == "idled" and wait.start_c is None
    assert wait.note.startswith(f"no temperature from the drive ({reading.why_none})")
    assert wait.note.endswith("idled 1 s in its place")
    assert "no temperature" in next(e for e in seen if isinstance(e, Cooling)).text


# ---------------------------------------------------------------------------- with the runner


def _this_disk(disk_dir: Path) -> str:
    device = capture_environment(disk_dir, {}).device
    if not device:
        pytest.skip("the test folder's disk is not known here")
    return device


def _two_points(disk_dir: Path, cool: CoolDownSpec) -> SweepSpec:
    points = [parse_workload({"target": str(disk_dir), "runtime_s": 1, "ramp_s": 0,
                              "size_bytes": "16MiB", "queue_depth": qd}) for qd in (1, 2)]
    return SweepSpec(name="cooled", points=points, cool_down=cool)


@requires_fio
def test_a_short_idle_between_real_points_is_waited_and_kept_with_the_second_run(
        disk_dir: Path) -> None:
    seen: list[RunEvent] = []
    outcome = Runner(None).run_sweep(_two_points(disk_dir, CoolDownSpec(idle_s=2, max_s=2)),
                                     on_event=seen.append)
    first, second = outcome.results
    assert first.cool_down is None  # nothing ran before it in this sweep
    assert second.cool_down is not None and second.cool_down.waited_s >= 2.0
    assert second.cool_down.ended == "idled"
    assert [e.number for e in seen if isinstance(e, Cooling) and e.done] == [2]
    if second.cool_down.start_c is None:
        assert second.cool_down.note == f"idled {second.cool_down.waited_s:.0f} s"


@requires_fio
def test_a_temperature_gate_on_a_disk_with_none_idles_and_the_run_says_so(disk_dir: Path) -> None:
    device = _this_disk(disk_dir)
    if read_temperature(device).celsius is not None:
        pytest.skip(f"{device} reports a temperature here")
    spec = _two_points(disk_dir, CoolDownSpec(to_c=45, idle_s=1, max_s=60))
    second = Runner(None).run_sweep(spec).results[1]
    assert second.cool_down is not None and second.cool_down.start_c is None
    note = next(w for w in second.warnings if w.code == "cool_down_no_temperature")
    assert note.severity.value == "info" and "idled 1 s in its place" in note.message


@requires_fio
def test_a_hot_drive_under_a_real_sweep_is_cooled_for_and_its_temperatures_drawn_live(
        disk_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drive = HotDrive(tmp_path / "sys", _this_disk(disk_dir), 47.0)
    # SMART's last answer is reused for 5 s per device: an earlier test's, read without the fake
    # sensor, would be this run's before-snapshot
    monkeypatch.setattr(health_run, "_last", {})
    seen: list[RunEvent] = []

    def on_event(event: RunEvent) -> None:
        seen.append(event)
        if isinstance(event, Cooling) and not event.done:
            drive.set(event.celsius - 1 if event.celsius else 40.0)  # it cools while idle

    spec = _two_points(disk_dir, CoolDownSpec(to_c=45, max_s=30, check_s=0.5))
    first, second = Runner(None, sys_root=drive.root).run_sweep(spec, on_event=on_event).results
    assert second.cool_down is not None and second.cool_down.ended == "cool"
    assert second.cool_down.start_c == 47.0 and second.cool_down.end_c == 45.0
    assert not any(w.code.startswith("cool_down") for w in second.warnings)
    live = [e.drive_temperature_c for e in seen if isinstance(e, PointProgress)]
    assert live and all(c is not None for c in live)
    assert first.drive_health is not None
    assert first.drive_health.before.temperature_source == "hwmon"


def test_a_point_started_still_hot_is_warned_on_its_rates() -> None:
    run = RunResult(engine=EngineInfo(name="fio", reason="installed"),
                    workload=parse_workload({"runtime_s": 1}))
    wait = CoolDownWait(waited_s=300, start_c=60, end_c=52, ended="at_most", note="waited")
    kept = with_wait(run, wait, CoolDownSpec(to_c=45, max_s=300))
    assert kept.cool_down == wait
    warning = next(w for w in kept.warnings if w.code == "cool_down_still_hot")
    assert "52 °C when this point started, above the 45 °C asked" in warning.message
    assert "allow a longer wait (Wait at most, --cool-max)" in warning.message  # the view's field and the flag
    assert "read.iops" in warning.concerns
