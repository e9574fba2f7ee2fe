"""The portable engine's measurement through its compiled loop: the program's answer as a Measurement,
in the fio runner's shape and units, proven against the disk's own byte counters as the Python loop's is."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable
from pathlib import Path

from ssdprof import __version__
from ssdprof.fio.jobfile import FioPlan, job_file
from ssdprof.model.results import EngineInfo, HostResult, Measurement, ProgressSample, ValidityWarning
from ssdprof.model.workload import Workload
from ssdprof.portable.aio import backend_label
from ssdprof.portable.directio import io_method
from ssdprof.portable.native import LOOP_NATIVE, NativeBinary
from ssdprof.portable.native_run import NativeOutcome, direction_stats, native_argv, refusal_error, run_native
from ssdprof.portable.proof import DeviceProof, cpu_warnings, disk_of

__all__ = ["measure_native"]

_FIO_EQUIVALENT = {"io_uring": "io_uring", "libaio": "libaio", "iocp": "windowsaio", "sync": "psync"}
_HOW = {"io_uring": "one thread and one io_uring per job, each I/O submitted as it is queued (as fio's io_uring)",
        "libaio": "one thread and one libaio context per job, each I/O submitted as it is queued (as fio's libaio)",
        "iocp": "one thread and one completion port per job, overlapped ReadFile/WriteFile (as diskspd)",
        "sync": "a thread per outstanding I/O, each timing its own call"}


def measure_native(binary: NativeBinary, workload: Workload, path: Path, *, is_device: bool, reason: str, system: str,
                   queue: str | None, on_progress: Callable[[ProgressSample], None] | None,
                   cancel: threading.Event) -> Measurement:
    """One point through ``ssdprof-io``; a refused target raises WorkloadError with the program's reason."""
    argv = native_argv(binary.path, workload, path, seed=secrets.randbits(63), queue=queue)
    proof = DeviceProof(disk_of(path, system)) if workload.direct else None  # a buffered run is labelled as such already
    if proof is not None:
        proof.start()
    outcome = run_native(argv, workload, on_progress=on_progress, cancel=cancel)
    if outcome.refused is not None:
        raise refusal_error(outcome.refused, path)
    if outcome.failed is not None:  # as the Python loop's open() would: this point fails, a sweep goes on to the next
        raise OSError(int(outcome.failed.get("errno") or 0), str(outcome.failed.get("message", "failed")), str(path))
    name = str((outcome.result or outcome.start).get("engine", queue or "sync"))
    info = EngineInfo(name="portable", version=__version__, loop=LOOP_NATIVE, direct=workload.direct,
                      ioengine=io_method(system, direct=workload.direct) if name == "sync"
                      else backend_label(name, system, direct=workload.direct),
                      reason=f"{reason}; {_loop_note(name, outcome)}", effective_queue_depth=workload.queue_depth)
    plan = FioPlan(_FIO_EQUIVALENT.get(name, "psync"), workload.queue_depth, workload.numjobs,
                   "the fio engine that reproduces this queue")
    job_text = job_file(workload, str(path), plan, is_device=is_device)
    raw = "\n".join(outcome.lines)
    if outcome.cancelled:
        return Measurement(engine=info, hosts=[], cancelled=True, job_text=job_text, raw_output=raw)
    result = outcome.result
    if result is None:
        error = f"the compiled I/O loop ({binary.path}) ended without its result: {outcome.ended_how}"
        return Measurement(engine=info, hosts=[], errors=[error], raw_output=raw, progress=outcome.samples, job_text=job_text)
    errors = [str(e) for e in result["errors"]]
    host = HostResult(host="local", read=direction_stats(result["read"], result["runtime_ns"]),
                      write=direction_stats(result["write"], result["runtime_ns"]), jobs=workload.numjobs,
                      error="; ".join(errors) or None, target=str(path))
    return Measurement(engine=info, hosts=[host], raw_output=raw, errors=errors, progress=outcome.samples,
                       job_text=job_text, extra_warnings=_warnings(result, workload, proof))


def _loop_note(name: str, outcome: NativeOutcome) -> str:
    refusals = outcome.start.get("refusals") or ""
    cpu = ""
    if outcome.result and outcome.result.get("elapsed_ns"):
        busy = (outcome.result["cpu_user_ns"] + outcome.result["cpu_system_ns"]) / outcome.result["elapsed_ns"]
        cpu = f"; engine CPU {busy:.2f} core(s)"
    return f"{name}: {_HOW.get(name, name)}{f'; {refusals}' if refusals else ''}{cpu}"


def _warnings(result: dict[str, object], workload: Workload, proof: DeviceProof | None) -> list[ValidityWarning]:
    def number(key: str) -> int:
        value = result.get(key, 0)
        return int(value) if isinstance(value, int | float) else 0

    warnings = cpu_warnings((number("cpu_user_ns") + number("cpu_system_ns")) / 1e9, number("elapsed_ns") / 1e9,
                            os.cpu_count() or 1)
    if proof is not None:
        block = workload.block_size_bytes
        warnings += proof.finish(issued_read_bytes=number("issued_read_ios") * block,
                                 issued_write_bytes=number("issued_write_ios") * block)
    return warnings
