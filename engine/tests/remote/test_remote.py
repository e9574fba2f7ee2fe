import os
import subprocess
from pathlib import Path

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


def test_the_run_sessions_program_starts_no_bash_that_reads_the_users_bashrc(tmp_path: Path) -> None:
    """In sshd's environment (SSH_CLIENT set, SHLVL=0 after the login shell) a plain `bash -c` reads ~/.bashrc: on
    this machine root's pyenv init, 0.08 s of CPU per session, and anything it prints lands in the session's output."""
    home, marks = tmp_path / "home", tmp_path / "marks"
    home.mkdir()
    (home / ".bashrc").write_text(f"echo read >> '{marks}'\n")
    sshd_env = {"PATH": os.environ["PATH"], "HOME": str(home), "SSH_CLIENT": "192.0.2.1 50000 22", "SHLVL": "0",
                "TMPDIR": str(tmp_path)}
    subprocess.run(["sh", "-c", "bash -c true"], env=sshd_env, check=True, timeout=30)
    assert marks.exists(), "this environment no longer makes bash -c read ~/.bashrc: the test checks nothing"
    marks.unlink()
    done = subprocess.run(["sh", "-c", host_program("fio_wrapper.sh"), "ssdprof-run"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, env=sshd_env, check=False, timeout=30)
    assert done.returncode == 0, done.stderr
    assert not marks.exists(), "the run session's program started a bash that read ~/.bashrc"
    assert not list(tmp_path.glob("ssdprof-run.*")), "the session's folder is left behind"
