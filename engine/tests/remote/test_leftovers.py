"""The record of test files a lost host kept: only ssdprof test files, per host, forgotten once removed."""

from pathlib import Path

from ssdprof.remote.leftovers import Leftovers, is_test_file

FILE = "/var/tmp/ssdprof-testfile-123-abcd0123.dat"


def test_a_recorded_file_is_pending_for_its_host_only(tmp_path: Path) -> None:
    leftovers = Leftovers(tmp_path / "l.json")
    leftovers.add("root@10.0.0.2:22", FILE)
    assert leftovers.pending("root@10.0.0.2:22") == [FILE]
    assert leftovers.pending("root@10.0.0.3:22") == []


def test_forgotten_files_are_no_longer_pending(tmp_path: Path) -> None:
    leftovers = Leftovers(tmp_path / "l.json")
    leftovers.add("h", FILE)
    leftovers.forget("h", [FILE])
    assert leftovers.pending("h") == []


def test_only_absolute_paths_to_ssdprof_test_files_are_ever_recorded(tmp_path: Path) -> None:
    leftovers = Leftovers(tmp_path / "l.json")
    for path in ("/etc/passwd", "ssdprof-testfile-1-a.dat", "/data/ssdprof-testfile-1-a.dat\n/etc/passwd", "/data/ssdprof-testfile-1"):
        leftovers.add("h", path)
        assert not is_test_file(path)
    assert leftovers.pending("h") == []


def test_a_damaged_record_reads_as_empty(tmp_path: Path) -> None:
    (tmp_path / "l.json").write_text("{not json")
    assert Leftovers(tmp_path / "l.json").pending("h") == []
