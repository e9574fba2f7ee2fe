"""What a sustained-write test will do, said before it starts (bytes, time, wear against the drive's
rating, the device it overwrites), and the stored tests listed."""

from __future__ import annotations

import shutil
from pathlib import Path

from ssdprof.analysis.spec_folders import bundled_spec_dir, default_user_spec_dir
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.specs import Spec
from ssdprof.analysis.sustain_result import label_of, parameters_of, planned_recovery_bytes, wear_of
from ssdprof.app.contract.runs import target_device
from ssdprof.app.contract.sustain import SustainEstimate
from ssdprof.app.sustain import NOT_RUN, SustainRunner
from ssdprof.model.quantities import format_amount, format_duration
from ssdprof.model.sustain import ASSUMED_WRITE_BYTES_PER_S
from ssdprof.model.sustain_results import SustainInfo
from ssdprof.model.sweep import SweepSpec
from ssdprof.store.db import Store
from ssdprof.target.plan import default_target_dir, device_region

__all__ = ["estimate_sustain", "list_sustain"]


def estimate_sustain(spec: SweepSpec, default_dir: Path | None = None) -> SustainEstimate:
    plan = spec.sustain
    assert plan is not None
    fill = spec.points[0]
    region = device_region([fill]) if spec.remote is None else None
    auto = plan.recovery_bytes is None
    each = planned_recovery_bytes(plan, NOT_RUN, plan.write_bytes)
    total = plan.write_bytes + each * len(plan.idle_s)
    idle = sum(plan.idle_s)
    seconds = total / ASSUMED_WRITE_BYTES_PER_S + idle
    free = None
    if spec.remote is None and region is None:
        folder = Path(fill.target).expanduser() if fill.target else (default_dir or default_target_dir())
        free = shutil.disk_usage(folder if folder.is_dir() else folder.parent).free
    notes = [f"about {format_duration(seconds)} at {ASSUMED_WRITE_BYTES_PER_S / 1e6:.0f} MB/s (a slow drive after its "
             f"cache) plus {format_duration(idle)} idle; a fast drive takes less, and the time left is shown live"]
    if auto:
        notes.append("each recovery write is 1.5x the cache the fill finds (10 % of the fill without one): "
                     f"{format_amount(each)} is assumed here")
    if plan.write_bytes > plan.region_bytes:
        notes.append(f"the fill writes {plan.write_bytes / plan.region_bytes:.1f}x the region, wrapping around it")
    return SustainEstimate(
        name=spec.name, label=label_of(spec), parameters=parameters_of(spec, fill.engine.value),
        write_bytes=plan.write_bytes, recovery_bytes_each=each, recovery_bytes_auto=auto, total_bytes=total,
        idle_total_s=idle, estimated_s=seconds, assumed_bw_bytes_per_s=ASSUMED_WRITE_BYTES_PER_S, free_bytes=free,
        wear=wear_of(total, _spec_sheet(region.device.model if region else "")),
        device=target_device(region.device) if region else None, overwrite_bytes=region.size_bytes if region else 0,
        region=region.sentence() if region else "", notes=notes)


def _spec_sheet(model: str) -> Spec | None:
    if not model:
        return None
    return SpecLibrary.load((bundled_spec_dir(), default_user_spec_dir())).match(model)


def list_sustain(store: Store) -> list[SustainInfo]:
    """Stored sustained-write tests, newest first, with their verdicts."""
    runner = SustainRunner(store)
    found = []
    for row in store.list_sweeps():
        stored = store.sweep(row.id)
        if stored is None or stored.kind != "sustain" or stored.spec.sustain is None:
            continue
        result = runner.result(row.id)
        found.append(SustainInfo(id=row.id, created_at=row.created_at, name=row.name, status=row.status,
                                 target=result.parameters.target, write_bytes=result.parameters.write_bytes,
                                 verdict=result.verdict.kind, cache_bytes=result.verdict.cache_bytes,
                                 recovery_done=sum(1 for r in result.recovery if r.status == "done"),
                                 recovery_total=len(result.recovery)))
    return found
