"""Leave-one-setting-out prediction on real sweeps: RMSE and R² of the engine's models.

Goal (issue 6): "Leave-one-out prediction on real sweeps recorded by the suite reports its RMSE and R²".
Records two sweeps with the real CLI into a scratch database — a sequential-read access-size sweep
4 KiB..4 MiB at QD1 and a random-read queue-depth sweep 1..64 at 4 KiB — then, for each model the
engine picks (log-polynomial in access size; queueing saturation for throughput against QD), leaves
each setting out in turn, refits on the rest and predicts it with a 95 % prediction interval. Last,
the issue's example through ``ssdprof predict --json``: 1 MiB predicted from 4 KiB, 128 KiB and 4 MiB.
The scratch folder (test file and database) is removed afterwards.

Run: engine/.venv/bin/python bench/prediction.py [--runtime 2] [--ramp 1] [--repeat 2] [--size 1GiB] [--target DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from ssdprof.analysis.prediction import SeriesReport, predict_runs
from ssdprof.model.quantities import format_number as number
from ssdprof.model.quantities import format_size
from ssdprof.model.results import RunResult
from ssdprof.store.db import RunFilter, Store

SIZES = ("4k", "8k", "16k", "32k", "64k", "128k", "256k", "512k", "1m", "2m", "4m")
QUEUE_DEPTHS = (1, 2, 4, 8, 16, 32, 64)
EXAMPLE_FIT_BYTES = (4096, 128 * 1024, 4 * 1024 * 1024)
EXAMPLE_AT_BYTES = 1024 * 1024
CONFIDENCE = 0.95
UNITS = {"bw_bytes_per_s": (1e6, "MB/s"), "iops": (1.0, "IOPS"), "lat_ns_mean": (1e3, "µs")}


@dataclass(frozen=True)
class Case:
    """One model to validate: a metric of one recorded sweep against its swept factor."""

    title: str
    sweep: str
    vary: str
    metric: str


CASES = (Case("sequential-read bandwidth vs access size", "size", "block_size", "bw_bytes_per_s"),
         Case("sequential-read mean latency vs access size", "size", "block_size", "lat_ns_mean"),
         Case("random-read IOPS vs outstanding I/Os", "qd", "outstanding", "iops"),
         Case("random-read mean latency vs outstanding I/Os", "qd", "outstanding", "lat_ns_mean"))


def record(db: Path, target: Path, args: argparse.Namespace, workload: Sequence[str]) -> int:
    """One sweep through the CLI, as a user would run it; returns its sweep id. Progress goes to stderr."""
    command = [sys.executable, "-m", "ssdprof", "sweep", "--engine", "fio", "--target", str(target), "--size", args.size,
               *workload, "--runtime", str(args.runtime), "--ramp", str(args.ramp),
               "--repeat", str(args.repeat), "--tag", "bench=prediction", "--db", str(db), "--json"]
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"sweep failed (exit {done.returncode}): {' '.join(command)}")
    outcome = json.loads(done.stdout)
    if outcome["status"] != "done":
        raise SystemExit(f"sweep {outcome['sweep_id']} ended {outcome['status']!r}, not done")
    return int(outcome["sweep_id"])


def header(runs: Sequence[RunResult], args: argparse.Namespace) -> str:
    env = runs[0].environment
    devices = {(r.environment.device, r.environment.device_model) for r in runs}
    if len(devices) > 1:
        raise SystemExit(f"runs span several devices {sorted(devices)}; the fit needs one drive")
    model = env.device_model or "model not reported"
    warned = sum(1 for r in runs if r.warnings)
    device = (f"/dev/{env.device} ({model}, {env.interface or 'interface unknown'}, "
              f"{'rotational' if env.rotational else 'non-rotational'} as the kernel reports it)")
    tools = (f"{env.tool_versions.get('fio', 'fio version unknown')}, {runs[0].engine.ioengine}, direct={runs[0].workload.direct}; "
             f"kernel {env.kernel}; {env.cpu_count} × {env.cpu_model}")
    plan = (f"{len(runs)} ({args.repeat} repeat(s) per setting), {args.runtime} s measured after {args.ramp} s ramp, "
            f"{args.size} test file; {warned} run(s) carry warnings (e.g. CPU-bound)")
    return "\n".join([
        "Leave-one-setting-out prediction on real sweeps (issue 6)",
        f"device:     {device}",
        f"filesystem: {env.filesystem} on {env.mount_point} ({env.mount_options})",
        f"tools:      {tools}",
        f"runs:       {plan}",
        f"intervals:  {CONFIDENCE:.0%} prediction intervals for one new run, from the fit without the setting"])


def only_report(runs: Sequence[RunResult], case: Case, at: Sequence[float] = ()) -> SeriesReport:
    reports = predict_runs(runs, case.metric, vary=case.vary, at=at, confidence=CONFIDENCE)
    if len(reports) != 1:
        raise SystemExit(f"{case.title}: expected one series, the engine found {len(reports)}")
    return reports[0]


def label(x: float, vary: str) -> str:
    return format_size(int(x)) if vary == "block_size" else f"{x:g}"


def validate(runs: Sequence[RunResult], case: Case) -> dict[str, Any]:
    """Print one row per left-out setting and return the model's summary for the final table."""
    full = only_report(runs, case)
    scale, unit = UNITS[case.metric]
    print(f"\n== {case.title}\n   model: {full.model.family}")
    print(f"   {'left out':>9} {'measured':>10} {'repeats':>17} {'predicted':>10}   {'95 % interval':<21} {'error':>8}  inside")
    inside_count = 0
    settings = sorted(set(full.series.xs))
    for point in full.validation.points:
        rest = [r for r in full.series.runs if full.series.setting_of(r) != point.x]
        refit = only_report(rest, case, at=[point.x])
        guess = refit.predictions[0]
        if point.predicted is None or not math.isclose(guess.value, point.predicted, rel_tol=1e-6):
            raise SystemExit(f"{case.title}: refit at {point.x} gives {guess.value}, the engine's LOO {point.predicted}")
        inside = guess.contains(point.actual)
        inside_count += bool(inside)
        interval = "none" if guess.low is None or guess.high is None else f"{number(guess.low / scale)} – {number(guess.high / scale)}"
        extrapolated = "*" if point.x in (settings[0], settings[-1]) else " "
        held = [y for x, y in zip(full.series.xs, full.series.ys, strict=True) if x == point.x]
        spread = f"{number(min(held) / scale)} – {number(max(held) / scale)}"
        print(f"   {label(point.x, case.vary):>8}{extrapolated} {number(point.actual / scale):>10} {spread:>17} "
              f"{number(guess.value / scale):>10}   "
              f"{interval:<21} {point.error_pct or 0:>+7.1f}%  {'yes' if inside else 'no' if inside is False else '-'}")
    loo = full.validation
    print(f"   * extrapolated beyond the remaining settings; values in {unit}")
    means_rmse, means_r2 = fit_on_means(full)
    return {"case": case, "rmse": full.model.rmse / scale, "r2": full.model.r2, "means_rmse": means_rmse / scale, "means_r2": means_r2,
            "loo_rmse": (loo.rmse or math.nan) / scale,
            "loo_r2": loo.r2, "mape": loo.mean_abs_error_pct, "inside": inside_count, "points": len(loo.points), "unit": unit}


def fit_on_means(report: SeriesReport) -> tuple[float, float | None]:
    """In-sample RMSE and R² over setting means, the basis of the engine's LOO figures (its Fit.rmse/r2 use every run)."""
    xs = np.array([p.x for p in report.validation.points])
    means = np.array([p.actual for p in report.validation.points])
    errors = report.model.value_at(xs) - means
    total = float(np.sum((means - means.mean()) ** 2))
    return float(np.sqrt(np.mean(errors**2))), None if total == 0 else 1 - float(errors @ errors) / total


def summary(rows: Sequence[dict[str, Any]]) -> None:
    def r2(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.3f}"

    print("\n== RMSE and R² per model\n"
          "   fit: the model fitted to every setting, scored on every run (as ssdprof predict reports it) and on setting means;\n"
          "   LOO: each setting left out, predicted by the fit to the rest, scored on setting means")
    print(f"   {'model':<46} {'unit':>5} {'fit RMSE':>9} {'fit R²':>7} {'(means)':>9} {'(means)':>7} "
          f"{'LOO RMSE':>9} {'LOO R²':>7} {'mean |err|':>10} {'inside':>7}")
    for row in rows:
        print(f"   {row['case'].title:<46} {row['unit']:>5} {number(row['rmse']):>9} {r2(row['r2']):>7} {number(row['means_rmse']):>9} "
              f"{r2(row['means_r2']):>7} {number(row['loo_rmse']):>9} {r2(row['loo_r2']):>7} {row['mape']:>9.1f}% "
              f"{row['inside']:>3}/{row['points']:<3}")


def issue_example(db: Path, runs: Sequence[RunResult]) -> None:
    """The issue's example as a user would type it: ssdprof predict ID... --at 1MiB --json."""
    fit_ids = [str(r.id) for r in runs if r.workload.block_size_bytes in EXAMPLE_FIT_BYTES]
    measured = statistics.mean(r.read.bw_bytes_per_s for r in runs if r.workload.block_size_bytes == EXAMPLE_AT_BYTES)
    command = [sys.executable, "-m", "ssdprof", "predict", *fit_ids, "--metric", "bw_bytes_per_s", "--at", "1MiB",
               "--confidence", str(CONFIDENCE), "--db", str(db), "--json"]
    answer = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    (report,) = answer["series"]
    guess = report["predictions"][0]
    low, high = guess["low"], guess["high"]
    interval = "no interval" if low is None or high is None else f"{CONFIDENCE:.0%} interval {number(low / 1e6)} – {number(high / 1e6)}"
    inside = "n/a" if low is None or high is None else "yes" if low <= measured <= high else "no"
    print(f"\n== issue example: sequential-read bandwidth at 1 MiB from 4 KiB, 128 KiB and 4 MiB only (ssdprof predict --json)\n"
          f"   model: {report['model']} on runs {', '.join(fit_ids)}\n"
          f"   predicted {number(guess['value'] / 1e6)} MB/s, {interval}; measured {number(measured / 1e6)} MB/s "
          f"(mean of {len(runs) // len(SIZES)} run(s)); error {100 * (guess['value'] - measured) / measured:+.1f} %; inside: {inside}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runtime", default="2", help="measured seconds per run (default 2)")
    parser.add_argument("--ramp", default="1", help="warm-up seconds per run (default 1)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per setting; 2+ gives intervals run-to-run scatter (default 2)")
    parser.add_argument("--size", default="1GiB", help="test file size (default 1GiB)")
    parser.add_argument("--target", type=Path, default=Path("/var/tmp"), help="where the scratch folder goes (default /var/tmp)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ssdprof-bench-", dir=args.target) as scratch:
        db, target = Path(scratch) / "results.sqlite3", Path(scratch) / "target"
        target.mkdir()
        sweeps = {"size": record(db, target, args, ["--rw", "read", "--qd", "1", "--vary", f"bs={','.join(SIZES)}"]),
                  "qd": record(db, target, args, ["--rw", "randread", "--bs", "4k", "--vary", f"qd={','.join(map(str, QUEUE_DEPTHS))}"])}
        store = Store(db)
        try:
            runs = {name: store.runs(RunFilter(sweep_id=sweep_id, limit=None)) for name, sweep_id in sweeps.items()}
        finally:
            store.close()
        print(header([*runs["size"], *runs["qd"]], args))
        summary([validate(runs[case.sweep], case) for case in CASES])
        issue_example(db, runs["size"])
        leftovers = [p.name for p in target.iterdir()]
        if leftovers:
            print(f"\nnote: the CLI left {leftovers} in the scratch folder; removed with it", file=sys.stderr)


if __name__ == "__main__":
    main()
