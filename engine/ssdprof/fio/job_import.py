"""Import a user's fio job file as ssdprof workloads — without ever handing that file to fio.

Security model: an allow-list, not a deny-list. The file is parsed here (sections, ``[global]``,
``key=value`` and bare flags, ``;``/``#`` comments) and every option must be one ssdprof translates
into a :class:`~ssdprof.model.workload.Workload` field (rw, bs, iodepth, numjobs, runtime,
ramp_time, size, rwmixread, direct, ...) or one on a short list of options that are harmless and
ignored (name, description, group_reporting, ...). Anything else is refused, naming the line and the
option; options known to run commands or touch other files (``exec_prerun``, ``ioengine=exec``,
``write_*_log``, ``include``, a ``filename`` outside the target, ...) are refused with the reason.
The accepted jobs run through ssdprof's own job writer on the target the user chose, so nothing a
job file says can execute or write anywhere else, even where this parser and fio's disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ssdprof.model.quantities import parse_duration_s
from ssdprof.model.workload import Pattern, Workload, WorkloadError, parse_workload

__all__ = ["ALLOWED_OPTIONS", "IGNORED_OPTIONS", "JobFileError", "JobImport", "parse_job_file", "read_job_file"]

MAX_JOB_FILE_BYTES = 256 << 10
MAX_JOBS = 64

_ALIASES = {"readwrite": "rw", "blocksize": "bs", "timeout": "runtime", "ramp": "ramp_time"}
ALLOWED_OPTIONS = ("rw", "bs", "iodepth", "numjobs", "runtime", "ramp_time", "size", "rwmixread", "rwmixwrite", "direct",
                   "buffered", "time_based", "ioengine", "filename", "directory", "filename_format")
IGNORED_OPTIONS = ("name", "description", "group_reporting", "thread", "stonewall", "wait_for_previous", "new_group",
                   "randrepeat", "norandommap", "refill_buffers", "scramble_buffers", "random_generator", "clocksource", "gtod_reduce",
                   "lat_percentiles", "clat_percentiles", "percentile_list", "invalidate", "unlink", "overwrite",
                   "allrandrepeat", "disable_lat", "disable_slat", "disable_clat")
_REFUSED = {
    "include": "pulls in another file; paste its options into this one",
    "exec_prerun": "runs a shell command before the job; ssdprof never runs commands from a job file",
    "exec_postrun": "runs a shell command after the job; ssdprof never runs commands from a job file",
    "pre_read": "reads the file into the page cache first, so the run would measure the cache, not the SSD",
    "opendir": "adds every file under a directory of its choosing",
    "read_iolog": "replays I/O read from another file", "replay_redirect": "replays I/O onto another device",
    "write_iolog": "writes a log to a path of its choosing", "ioscheduler": "changes the system's I/O scheduler",
    "allow_mounted_write": "allows writing to the block device of a mounted file system",
    "trigger": "runs a command on a trigger", "trigger-cmd": "runs a command on a trigger",
    "cgroup": "creates control groups", "verify_state_save": "writes state files to the working directory",
    "offset": "ssdprof lays out the test region itself", "offset_increment": "ssdprof lays out the test region itself",
}
_LOCAL_ENGINES = {"libaio", "io_uring", "psync", "sync", "pvsync", "pvsync2", "vsync", "posixaio", "windowsaio", "solarisaio", "mmap"}
_SYNC_ENGINES = {"psync", "sync", "pvsync", "pvsync2", "vsync", "mmap"}
_PATTERNS = {"read": "read", "write": "write", "randread": "randread", "randwrite": "randwrite", "rw": "rw", "readwrite": "rw",
             "randrw": "randrw"}
_SIZE = re.compile(r"^(\d+)\s*([kmgtp]?)(i?b)?$", re.IGNORECASE)


class JobFileError(ValueError):
    """The job file was refused; ``problems`` names each line and option."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class JobImport:
    workloads: tuple[tuple[str, Workload], ...]
    """(job name, workload) in file order."""
    notes: tuple[str, ...]
    """What was ignored, assumed or changed, in words."""


@dataclass(frozen=True)
class _Option:
    line: int
    key: str
    value: str | None


def read_job_file(path: Path, target: str) -> JobImport:
    if path.stat().st_size > MAX_JOB_FILE_BYTES:
        raise JobFileError([f"{path.name}: larger than {MAX_JOB_FILE_BYTES >> 10} KiB; not a fio job file"])
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JobFileError([f"{path.name}: not UTF-8 text (byte {exc.start})"]) from None
    return parse_job_file(text, target, name=path.name)


def parse_job_file(text: str, target: str, name: str = "job file") -> JobImport:
    """Validate ``text`` and turn each job section into a workload on ``target``; refuse with every problem."""
    if "\x00" in text:
        raise JobFileError([f"{name}: contains NUL bytes; not a fio job file"])
    problems: list[str] = []
    jobs = _sections(text, name, problems)
    if not jobs and not problems:
        problems.append(f"{name}: no job section; add one, e.g. [randread-4k] after [global]")
    if len(jobs) > MAX_JOBS:
        problems.append(f"{name}: {len(jobs)} jobs; at most {MAX_JOBS} are imported at once")
    notes: list[str] = []
    workloads = []
    for job_name, options in jobs[:MAX_JOBS]:
        found = _workload(job_name, options, target, name=name, problems=problems, notes=notes)
        if found is not None:
            workloads.append((job_name, found))
    if problems:
        raise JobFileError(problems)
    if len(jobs) > 1 and not any(o.key in ("stonewall", "wait_for_previous") for _, opts in jobs for o in opts):
        notes.append(f"fio would run these {len(jobs)} jobs at the same time; ssdprof measures them one after another")
    return JobImport(tuple(workloads), tuple(dict.fromkeys(notes)))


def _sections(text: str, name: str, problems: list[str]) -> list[tuple[str, list[_Option]]]:
    """Each job with the [global] options in force where it starts, in file order (fio's own rule)."""
    global_options: list[_Option] = []
    jobs: list[tuple[str, list[_Option]]] = []
    current: list[_Option] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] in ";#":
            continue
        where = f"{name} line {number}"
        if line.startswith("["):
            section = line[1:-1].strip() if line.endswith("]") else ""
            if not section:
                problems.append(f"{where}: {line[:60]!r} is not a [section] header")
                current = None
            elif section == "global":
                current = global_options
            else:
                current = list(global_options)
                jobs.append((section[:64], current))
            continue
        key, sep, value = line.partition("=")
        key = key.strip().lower()
        key = _ALIASES.get(key, key)
        if not key:
            problems.append(f"{where}: {line[:60]!r} has no option name")
        elif key.split()[0] == "include":
            problems.append(f"{where}: include {_REFUSED['include']}")
        elif current is None:
            problems.append(f"{where}: option {key!r} outside a [section]")
        else:
            current.append(_Option(number, key, value.strip() if sep else None))
    return jobs


def _refusal(option: _Option) -> str | None:
    """Why an option may not be imported, or None when it may."""
    key, value = option.key, (option.value or "")
    checks = (
        (key in _REFUSED, _REFUSED.get(key, "")),
        (key.startswith(("write_", "log_")) or key.endswith("_log"),
         "writes a log to a path of its choosing; ssdprof records per-second data itself"),
        (key.startswith(("exec", "verify", "trigger", "cgroup", "replay")),
         "is not something an imported job may do (commands, files or system settings outside the test)"),
        ("$" in value, "uses $-expansion (environment variables or expressions); write the value out"),
        (key == "ioengine" and value not in _LOCAL_ENGINES,
         f"={value}: {_engine_risk(value)}; allowed: {', '.join(sorted(_LOCAL_ENGINES))}"),
        (key not in ALLOWED_OPTIONS and key not in IGNORED_OPTIONS,
         f"is not imported (allowed: {', '.join(ALLOWED_OPTIONS)}; ignored: {', '.join(IGNORED_OPTIONS)})"),
    )
    return next((reason for hit, reason in checks if hit), None)


def _engine_risk(engine: str) -> str:
    if engine == "exec":
        return "runs programs"
    return "loads a shared library" if engine.startswith("external") or "/" in engine else "is not a local file engine"


def _inside(path_text: str, target: str) -> bool:
    """True when ``path_text`` names the target itself or a plain name inside the target directory."""
    if not path_text or path_text.startswith("-") or ":" in path_text or "\\" in path_text:
        return False
    base = Path(target).resolve()
    path = Path(path_text)
    if not path.is_absolute():
        return ".." not in path.parts and not path_text.startswith("~")
    resolved = path.resolve()
    return resolved == base or (base.is_dir() and base in resolved.parents)


def _workload(job: str, options: list[_Option], target: str, *, name: str, problems: list[str], notes: list[str]) -> Workload | None:
    values: dict[str, str | None] = {}
    before = len(problems)
    for option in options:
        reason = _refusal(option)
        if reason is None and option.key in ("filename", "directory", "filename_format") and not _inside(option.value or "", target):
            reason = f"={option.value!r} points outside the target {target}; ssdprof writes only its own test file there"
        if reason is not None:
            problems.append(f"{name} line {option.line}: [{job}] {option.key}{'' if reason.startswith('=') else ' '}{reason}")
        elif option.key in ALLOWED_OPTIONS:
            values[option.key] = option.value
        else:
            notes.append(f"{option.key} is ignored (it does not change what is measured)")
    if len(problems) > before:
        return None
    try:
        raw, job_notes = _fields(values)
        notes += job_notes
        return parse_workload({**raw, "target": target})
    except (ValueError, WorkloadError) as exc:
        problems.append(f"{name}: [{job}] {exc}")
        return None


def _fio_size(text: str | None, option: str) -> int:
    """fio's sizes: k, KB, KiB are all 1024 unless kb_base says otherwise (which is ignored here)."""
    match = _SIZE.match((text or "").strip())
    if not match:
        raise ValueError(f"{option}={text!r}: use one size such as 4k, 128k or 1g (ranges, lists and % are not imported)")
    exponent = "_kmgtp".index((match.group(2) or "_").lower())
    return int(match.group(1)) << (10 * exponent)


def _int(values: dict[str, str | None], key: str, default: int) -> int:
    text = (values.get(key) or str(default)).strip()
    if not text.isdigit():
        raise ValueError(f"{key}={text!r}: a whole number")
    return int(text)


def _flag(text: str | None) -> bool:
    return (text or "1").strip() not in ("0", "false", "off")


def _fields(values: dict[str, str | None]) -> tuple[dict[str, object], list[str]]:
    notes: list[str] = []
    rw = (values.get("rw") or "read").strip()
    if rw not in _PATTERNS:
        raise ValueError(f"rw={rw!r}: one of {', '.join(_PATTERNS)} (trims and ':N' offsets are not imported)")
    sizes = {_fio_size(part, "bs") for part in (values.get("bs") or "4k").split(",") if part.strip()}
    if len(sizes) != 1:
        raise ValueError(f"bs={values.get('bs')!r}: ssdprof measures one access size per point; give one")
    raw: dict[str, object] = {"pattern": _PATTERNS[rw], "block_size_bytes": sizes.pop(),
                              "queue_depth": _int(values, "iodepth", 1), "numjobs": _int(values, "numjobs", 1)}
    if Pattern(raw["pattern"]).fixed_read_pct is None:
        if "rwmixread" in values:
            raw["read_pct"] = _int(values, "rwmixread", 50)
        elif "rwmixwrite" in values:
            raw["read_pct"] = 100 - _int(values, "rwmixwrite", 50)
    raw["runtime_s"] = parse_duration_s(values["runtime"] or "") if values.get("runtime") else 10.0
    raw["ramp_s"] = parse_duration_s(values["ramp_time"] or "") if values.get("ramp_time") else 0.0
    if "size" in values:
        raw["size_bytes"] = _fio_size(values["size"], "size")
    else:
        notes.append("no size= given: ssdprof uses a 256 MiB test region")
    if not values.get("runtime"):
        notes.append("no runtime= given: ssdprof runs each job for 10 s")
    if "time_based" not in values:
        notes.append("ssdprof always runs time_based, so a fast drive cannot finish early")
    direct = _flag(values["direct"]) if "direct" in values else not _flag(values["buffered"]) if "buffered" in values else False
    raw["direct"] = direct
    if not direct:
        notes.append("direct=1 is not set, so fio's default (buffered, through the page cache) is kept and the results "
                     "are labelled buffered; add direct=1 to measure the device")
    engine = values.get("ioengine")
    if engine in _SYNC_ENGINES and _int(values, "iodepth", 1) > 1:
        notes.append(f"ioengine={engine} ignores iodepth, so the imported job measures queue depth 1 as fio would")
        raw["queue_depth"] = 1
    if engine:
        notes.append(f"ioengine={engine}: ssdprof picks the engine itself (io_uring/libaio on Linux) and records it")
    return raw, notes
