"""A latency percentile of several runs (analysis/pooled.py): from their added bins, never averaged; read
for summaries from the store's documents."""

from __future__ import annotations

from conftest import FIO_DATA

from ssdprof.analysis.pooled import StoredBins, pooled_percentile
from ssdprof.model.histogram import merge, percentile
from ssdprof.model.results import RunResult
from ssdprof.store.db import Store
from ssdprof.store.interchange import import_fio_output


def _slower(run: RunResult, factor: int) -> RunResult:
    def scaled(bins: dict[int, int]) -> dict[int, int]:
        return {value * factor: count for value, count in bins.items()}

    return run.model_copy(update={"read": run.read.model_copy(update={"lat_bins_ns": scaled(run.read.lat_bins_ns)}),
                                  "write": run.write.model_copy(update={"lat_bins_ns": scaled(run.write.lat_bins_ns)})})


def _two(store: Store) -> list[RunResult]:
    run = import_fio_output(FIO_DATA / "fio-3.33_randrw_psync_lat.jsonplus.json")[0]
    return [store.add_run(run), store.add_run(_slower(run, 3))]


def test_the_p99_of_two_mixed_runs_is_that_of_all_their_ios_bins_added(fresh_store: Store) -> None:
    runs = _two(fresh_store)
    every = merge([b for r in runs for b in (r.read.lat_bins_ns, r.write.lat_bins_ns)])
    assert pooled_percentile(runs, "lat_ns_p99") == percentile(every, 99)
    mean_of_p99s = sum(r.mixed.lat_ns.p99 or 0 for r in runs) / 2
    assert pooled_percentile(runs, "lat_ns_p99") != mean_of_p99s


def test_summaries_are_pooled_from_their_documents_bins_as_whole_runs_are(fresh_store: Store) -> None:
    runs = _two(fresh_store)
    summaries = fresh_store.summaries_of([r.id or 0 for r in runs])
    bins = StoredBins(fresh_store.latency_bins, [r.id or 0 for r in runs])
    for metric in ("lat_ns_p50", "lat_ns_p99", "lat_ns_p99_9", "read_lat_ns_p99", "write_lat_ns_p99"):
        assert pooled_percentile(summaries, metric, bins) == pooled_percentile(runs, metric)
    reads = merge([r.read.lat_bins_ns for r in runs])
    assert pooled_percentile(summaries, "read_lat_ns_p99", bins) == percentile(reads, 99)


def test_no_percentile_is_made_up_for_runs_whose_bins_are_not_known(fresh_store: Store) -> None:
    runs = _two(fresh_store)
    summaries = fresh_store.summaries_of([r.id or 0 for r in runs])
    assert pooled_percentile(summaries, "lat_ns_p99") is None
    assert pooled_percentile(summaries[:1], "lat_ns_p99") == runs[0].mixed.lat_ns.p99, "one run: its own"
