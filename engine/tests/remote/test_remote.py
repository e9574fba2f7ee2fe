import subprocess

from ssdprof.fio.jobfile import FioPlan, job_options
from ssdprof.model.workload import Workload
from ssdprof.remote.heartbeat import LOST_AFTER_S, host_program
from ssdprof.remote.monitor import MonitorParser

STAT = "cpu  {user} 0 {system} {idle} 0 0 0 0 0 0"
NET = "lo: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0; eth0: {rx} 10 0 0 0 0 0 0 {tx} 10 0 0 0 0 0 0;"


def test_job_options_become_fio_command_line_options_and_the_same_job_file() -> None:
    options = job_options(Workload(queue_depth=8), "/data/f", FioPlan("libaio", 8, 1, ""))
    argv = options.as_argv()
    assert argv[:4] == ["fio", "--output-format=json+", "--status-interval=1", "--name=ssdprof"]
    assert "--iodepth=8" in argv and "--filename=/data/f" in argv and "--time_based=1" in argv
    assert not any(a.startswith("--[") or a.startswith("--;") for a in argv)
    in_file = [line for line in options.as_job_file().splitlines() if "=" in line and not line.startswith(";")]
    assert [f"--{line}" for line in in_file] == argv[4:]


def test_monitor_snapshots_become_cpu_and_network_rates() -> None:
    parser = MonitorParser("h1")
    assert parser.feed(f"1000000000 {STAT.format(user=100, system=0, idle=900)} | {NET.format(rx=0, tx=0)}") is None
    sample = parser.feed(f"2000000000 {STAT.format(user=175, system=0, idle=925)} | {NET.format(rx=125_000_000, tx=1_000)}")
    assert sample is not None
    assert sample.cpu_busy_pct == 75.0
    assert sample.net_rx_bytes_per_s["eth0"] == 125_000_000
    assert sample.net_tx_bytes_per_s["eth0"] == 1_000
    assert sample.elapsed_s == 1.0


def test_host_programs_are_posix_sh_that_set_the_watchdog_limit_first() -> None:
    for program in (host_program("fio_wrapper.sh"), host_program("keeper.sh", probe=True)):
        assert program.startswith(f"lost_after_s={LOST_AFTER_S}\n")
        assert subprocess.run(["sh", "-n", "-c", program], check=False).returncode == 0
    assert "probe_host() {" in host_program("keeper.sh", probe=True)
