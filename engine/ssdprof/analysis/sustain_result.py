"""A stored sustained-write test read back whole: its fill (the newest fill run), phases and verdict,
throttling, recovery rows and wear; and the wear of a planned test against the drive's rating."""

from __future__ import annotations

from ssdprof.analysis.specs import Spec
from ssdprof.analysis.sustain import detect
from ssdprof.analysis.sustain_series import overlapping, per_gib, recovery_row, samples_of, throttle_of
from ssdprof.model.quantities import format_bytes, format_size
from ssdprof.model.results import RunResult
from ssdprof.model.status import SweepState
from ssdprof.model.sustain import SustainPlan, SustainWear
from ssdprof.model.sustain_results import SustainParameters, SustainResult, SustainVerdict
from ssdprof.model.sweep import RemoteSpec, SweepSpec

__all__ = ["FILL_TAG", "STEP_TAG", "label_of", "parameters_of", "recovery_tag", "sustain_result",
           "target_of", "wear_of"]

STEP_TAG = "sustain_step"
FILL_TAG = "fill"


def recovery_tag(step: int) -> str:
    return f"recovery-{step}"


def label_of(spec: SweepSpec) -> str:
    assert spec.sustain is not None
    fill = spec.points[0]
    return (f"{fill.pattern.value} {format_size(fill.block_size_bytes)} QD{fill.queue_depth}, "
            f"{format_size(spec.sustain.write_bytes)} to {target_of(spec)}")


def target_of(spec: SweepSpec) -> str:
    """What the test writes: this machine's target, or each host's device, RBD image or folder."""
    remote = spec.remote
    if remote is None:
        return spec.points[0].target or "the default folder"
    return ", ".join(f"{host}: {_host_target(remote, host)}" for host in remote.hosts)


def _host_target(remote: RemoteSpec, host: str) -> str:
    if host in remote.devices:
        return remote.devices[host]
    if remote.rbd:
        return f"RBD image {remote.rbd}"
    return remote.target_dirs.get(host) or remote.target_dir or "the default folder"


def parameters_of(spec: SweepSpec, engine: str) -> SustainParameters:
    plan = spec.sustain
    assert plan is not None
    fill = spec.points[0]
    return SustainParameters(target=fill.target if spec.remote is None else target_of(spec),
                             hosts=spec.remote.hosts if spec.remote else [],
                             pattern="randwrite" if fill.pattern.is_random else "write",
                             block_size_bytes=fill.block_size_bytes, queue_depth=fill.queue_depth, engine=engine,
                             region_bytes=plan.region_bytes, offset_bytes=fill.offset_bytes,
                             write_bytes=plan.write_bytes, idle_s=plan.idle_s, recovery_bytes=plan.recovery_bytes)


def wear_of(bytes_written: int, spec: Spec | None) -> SustainWear:
    """The bytes against the spec sheet's endurance rating (TBW), where it has one."""
    amount = format_bytes(bytes_written)  # binary, as every size beside it (the fill, the recovery writes)
    if spec is None or spec.endurance_tbw is None:
        why = "no spec sheet matches the drive" if spec is None else f"{spec.title}'s spec sheet has no endurance rating"
        return SustainWear(bytes_written=bytes_written, text=f"{amount} written; wear against a rating unknown ({why})")
    pct = 100 * bytes_written / (spec.endurance_tbw * 1e12)
    return SustainWear(bytes_written=bytes_written, rated_tbw=spec.endurance_tbw, rated_pct=pct, spec_id=spec.id,
                       text=f"{amount}: {pct:.3g} % of the {spec.endurance_tbw:g} TBW rating ({spec.title})")


def planned_recovery_bytes(plan: SustainPlan, verdict: SustainVerdict, fill_bytes: int) -> int:
    """Each recovery write: as asked, or 1.5x the cache found (10 % of the fill without one), at
    least 64 MiB; it wraps around the region as the fill does."""
    if plan.recovery_bytes:
        return plan.recovery_bytes
    guess = int(1.5 * verdict.cache_bytes) if verdict.cache_bytes else fill_bytes // 10
    return max(guess, 64 << 20) // 512 * 512


def sustain_result(*, sweep_id: int, created_at: str, name: str, status: SweepState, spec: SweepSpec,
                   runs: list[RunResult], reason: str = "", spec_sheet: Spec | None = None) -> SustainResult:
    plan = spec.sustain
    assert plan is not None
    fills = [r for r in runs if r.tags.get(STEP_TAG) == FILL_TAG and r.status in ("ok", "partial")]
    fill = fills[-1] if fills else None
    engine = fill.engine.name if fill else spec.points[0].engine.value
    common = {"id": sweep_id, "created_at": created_at, "name": name, "status": status, "reason": reason,
              "label": label_of(spec), "parameters": parameters_of(spec, engine)}
    if fill is None:
        return SustainResult(**common, verdict=SustainVerdict(kind="not_run", sentence="the fill has not finished yet"),
                             recovery=[recovery_row(i + 1, s, None, SustainVerdict(kind="not_run", sentence=""))
                                       for i, s in enumerate(plan.idle_s)])
    samples = samples_of(fill)
    written = fill.write.io_bytes or (samples[-1].bytes_written if samples else 0)  # fio's own count
    seconds = fill.write.runtime_ms / 1000 if fill.write.runtime_ms else (samples[-1].elapsed_s if samples else 0.0)
    throttle = throttle_of(fill)
    first = detect(samples, None, (written, seconds))
    drop_s = first.verdict.drops[0].at_s if first.verdict.drops else None
    throttle = overlapping(throttle, drop_s)
    found = detect(samples, throttle, (written, seconds)) if throttle is not None and throttle.overlaps_drop else first
    later = [r for r in runs if r.id is not None and fill.id is not None and r.id > fill.id]
    rows = []
    for index, idle in enumerate(plan.idle_s):
        run = next((r for r in reversed(later) if r.tags.get(STEP_TAG) == recovery_tag(index + 1)), None)
        rows.append(recovery_row(index + 1, idle, run, found.verdict))
    total = fill.write.io_bytes + sum(r.bytes_written for r in rows)
    notes = [w.message for w in fill.warnings]
    return SustainResult(**common, fill_run_id=fill.id, fill_seconds=seconds, fill_bytes=written,
                         fill_bw_bytes_per_s=written / seconds if seconds > 0 else None, samples=samples,
                         per_gib=per_gib(samples), phases=found.phases,
                         verdict=found.verdict, throttle=throttle, recovery=rows, wear=wear_of(total, spec_sheet),
                         notes=notes)
