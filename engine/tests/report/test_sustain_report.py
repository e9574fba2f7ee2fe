"""A sustained-write test's PDF page, read back with poppler: the verdict in the engine's words, the
cliff's figures, every phase and recovery row, the charts' phase names; a drive without a cliff said
so; throttling named; and a real test on this machine's disk reported as the engine answered it."""

from __future__ import annotations

import base64
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import BaseModel
from test_report_pdf import needs_poppler, page_texts

from ssdprof.analysis.sustain import detect
from ssdprof.app.contract.cli import PdfWritten
from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.contract.sustain import SustainEstimate
from ssdprof.app.rpc import EngineService, handle_message
from ssdprof.cli.main import main
from ssdprof.model.quantities import format_duration, format_elapsed
from ssdprof.model.sustain_results import (
    RecoveryRow,
    SustainParameters,
    SustainResult,
    SustainSample,
    SustainThrottle,
)
from ssdprof.report.layout import fmt_mb
from ssdprof.report.sustain import build_sustain_pdf, fmt_bytes

pytestmark = needs_poppler

FAST, SLOW = 1_800e6, 450e6


def _series(seconds: int, speed: object, seed: int) -> list[SustainSample]:
    """Per-second samples at ``speed(second)`` with 2 % noise; bytes are the running sum."""
    rng = np.random.default_rng(seed)
    samples, written = [], 0
    for second in range(seconds):
        bw = float(speed(second)) * (1 + rng.normal(0, 0.02))  # type: ignore[operator]
        written += int(bw)
        samples.append(
            SustainSample(
                elapsed_s=second + 1,
                bytes_written=written,
                bw_bytes_per_s=bw,
                lat_ns_mean=8 * (1 << 20) / bw * 1e9,
                lat_ns_p99=16 * (1 << 20) / bw * 1e9,
            )
        )
    return samples


def _result(
    samples: list[SustainSample],
    recovery: list[RecoveryRow],
    throttle: SustainThrottle | None = None,
) -> SustainResult:
    """The engine's reading of ``samples`` (its change points) as ``sustain.get`` answers it."""
    found = detect(samples, throttle)
    parameters = SustainParameters(
        target="/dev/nvme0n1",
        pattern="write",
        block_size_bytes=1 << 20,
        queue_depth=8,
        engine="fio",
        region_bytes=1 << 40,
        offset_bytes=0,
        write_bytes=samples[-1].bytes_written,
        idle_s=[r.idle_s for r in recovery],
        recovery_bytes=None,
    )
    return SustainResult(
        id=7,
        created_at="2026-11-26T20:00:00",
        name="sustain write",
        status="done",
        label="write 1MiB QD8, 1TiB to /dev/nvme0n1",
        parameters=parameters,
        fill_run_id=1,
        fill_seconds=samples[-1].elapsed_s,
        fill_bytes=samples[-1].bytes_written,
        samples=samples,
        phases=found.phases,
        verdict=found.verdict,
        throttle=throttle,
        recovery=recovery,
    )


def _recovery(step: int, idle_s: float, fast_s: int) -> RecoveryRow:
    samples = _series(20, lambda s: FAST if s < fast_s else SLOW, seed=step)
    fast = samples[fast_s - 1].bytes_written
    return RecoveryRow(
        step=step,
        idle_s=idle_s,
        status="done",
        run_id=step + 1,
        bytes_written=samples[-1].bytes_written,
        seconds=20,
        recovered_bytes=fast,
        recovered_pct=100 * fast / (40 * FAST),
        fast_bw_bytes_per_s=FAST,
        bw_bytes_per_s=samples[-1].bytes_written / 20,
        samples=samples,
    )


@pytest.fixture(scope="module")
def cliff() -> SustainResult:
    """40 s at 1,800 MB/s, then 80 s at 450 MB/s; recovery after 10 s, 60 s and 5 min idle (the
    last not run)."""
    recovery = [
        _recovery(1, 10, 4),
        _recovery(2, 60, 12),
        RecoveryRow(step=3, idle_s=300, status="pending"),
    ]
    return _result(_series(120, lambda s: FAST if s < 40 else SLOW, seed=1), recovery)


def _text(result: SustainResult, tmp_path: Path, *, raw: bool = False) -> str:
    """The page's words, whitespace runs as one space; ``raw``: in drawing order (a chart's
    labels together)."""
    pdf = tmp_path / "sustain.pdf"
    pdf.write_bytes(build_sustain_pdf(result))
    if raw:
        return " ".join(
            subprocess.run(
                ["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True
            ).stdout.split()
        )
    return " ".join(" ".join(page_texts(pdf)).split())


def test_the_page_says_the_cliff_in_the_engines_words_with_the_cache_speeds_ratio_and_confidence(
    cliff: SustainResult, tmp_path: Path
) -> None:
    text = _text(cliff, tmp_path)
    v = cliff.verdict
    assert (
        v.kind == "cliff"
        and v.cache_bytes is not None
        and v.ratio is not None
        and v.confidence is not None
    )
    assert " ".join(v.sentence.split()) in text
    assert (
        f"written before the drop (cache) {fmt_bytes(v.cache_bytes)} ({v.cache_bytes:,} bytes)"
        in text
    )
    assert f"speed before {fmt_mb(v.before_bw_bytes_per_s)} MB/s" in text
    assert f"speed after {fmt_mb(v.after_bw_bytes_per_s)} MB/s" in text
    assert f"before / after {v.ratio:.2f} x" in text
    assert f"confidence {v.confidence_words}, {v.confidence:.2f}" in text


def test_every_phase_is_a_row_and_is_named_on_the_chart(
    cliff: SustainResult, tmp_path: Path
) -> None:
    text, drawn = _text(cliff, tmp_path), _text(cliff, tmp_path, raw=True)
    assert [p.name for p in cliff.phases] == ["cache", "after the cache"]
    for phase in cliff.phases:
        cells = [
            f"{phase.index + 1} {phase.name}",
            fmt_bytes(phase.start_bytes),
            fmt_bytes(phase.bytes_written),
            format_duration(phase.duration_s),
            fmt_mb(phase.bw_bytes_per_s),
        ]
        # poppler may join a narrow cell's words, so the row is compared without spaces
        assert "".join(cells).replace(" ", "") in text.replace(" ", ""), cells
        band = f"{phase.name} {phase.bw_bytes_per_s / 1e6:,.0f} MB/s"  # the chart's label
        assert band in drawn
    assert "Figure 1: The fill of sustained-write test 7." in text


def test_recovery_is_tabulated_against_idle_time_with_the_recovered_bytes_and_speed(
    cliff: SustainResult, tmp_path: Path
) -> None:
    text = _text(cliff, tmp_path)
    for row in cliff.recovery:
        if row.status == "done":
            assert row.recovered_bytes is not None and row.recovered_pct is not None
            cells = [
                format_duration(row.idle_s),
                "done",
                fmt_bytes(row.bytes_written),
                format_duration(row.seconds),
                fmt_bytes(row.recovered_bytes),
                f"{row.recovered_pct:.0f} %",
                fmt_mb(row.fast_bw_bytes_per_s),
            ]
            assert " ".join(cells) in text
        else:
            assert f"{format_duration(row.idle_s)} pending – – – – – –" in text
    assert "after 10s idle" in text and "after 1m00s idle" in text  # the recovery chart's legend


def test_a_drive_without_a_cliff_is_reported_so_with_no_cache_or_ratio(tmp_path: Path) -> None:
    flat = _result(_series(60, lambda s: SLOW, seed=3), [])
    text = _text(flat, tmp_path)
    assert flat.verdict.kind == "no_cliff"
    assert " ".join(flat.verdict.sentence.split()) in text
    assert (
        "written before the drop" not in text
        and "before / after" not in text
        and "Recovery after idle time" not in text
    )


def test_thermal_throttling_the_drive_reported_is_named_on_the_page(tmp_path: Path) -> None:
    throttle = SustainThrottle(
        throttled_s=60,
        transitions=2,
        temperature_max_c=82,
        warning_temp_c=75,
        hot_from_s=38,
        overlaps_drop=True,
        text="the drive reported 60 s of thermal throttling from second 38 (up to 82 °C)",
    )
    throttled = _result(_series(120, lambda s: FAST if s < 40 else SLOW, seed=4), [], throttle)
    text = _text(throttled, tmp_path)
    assert f"Thermal throttling: {throttle.text}" in text
    assert " ".join(throttled.verdict.sentence.split()) in text


@pytest.fixture(scope="module")
def answered() -> Iterator[tuple[SustainResult, bytes, Path]]:
    """A real short test on this machine's disk through the RPC, as the GUI asks: its
    ``sustain.get`` answer, the PDF ``sustain.report`` sent, and the store it is kept in."""
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (npm test installs it)")
    folder = Path(
        tempfile.mkdtemp(
            prefix="ssdprof-sustain-report-", dir="/var/tmp" if Path("/var/tmp").is_dir() else None
        )
    )
    service = EngineService(
        folder / "results.sqlite3", lambda method, payload: None, default_dir=folder
    )

    def call(method: str, params: dict[str, Any]) -> Any:
        reply = handle_message(
            service, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        )
        assert "error" not in reply, reply
        return reply["result"]

    try:
        started = call(
            "sustain.start",
            {
                "target": str(folder),
                "size_bytes": "64m",
                "write_bytes": "128m",
                "idle_s": ["1s"],
                "recovery_bytes": "16m",
                "engine": "fio",
            },
        )
        while call("sustain.status", {})["running"]:
            time.sleep(0.2)
        result = SustainResult.model_validate(
            call("sustain.get", {"sustain_id": started["sustain_id"]})
        )
        report = ReportResult.model_validate(
            call("sustain.report", {"sustain_id": started["sustain_id"]})
        )
        assert report.filename == f"ssdprof-sustain-{result.id}.pdf"
        yield result, base64.b64decode(report.pdf_base64), folder / "results.sqlite3"
    finally:
        service.close()
        shutil.rmtree(folder, ignore_errors=True)


def test_the_pdf_the_rpc_sends_reports_a_real_test_as_the_engine_answered(
    answered: tuple[SustainResult, bytes, Path], tmp_path: Path
) -> None:
    result, pdf, _ = answered
    (tmp_path / "sent.pdf").write_bytes(pdf)
    text = " ".join(" ".join(page_texts(tmp_path / "sent.pdf")).split())
    assert " ".join(result.verdict.sentence.split()) in text
    assert result.label in text
    assert (
        f"{fmt_bytes(result.fill_bytes)} written in {format_elapsed(result.fill_seconds)}" in text
    )
    assert f"{format_duration(1)} {result.recovery[0].status}" in text


def test_the_command_line_writes_a_stored_tests_page(
    answered: tuple[SustainResult, bytes, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result, _, db = answered
    out = tmp_path / "cli.pdf"
    argv = ["sustain", "--show", str(result.id), "--pdf", str(out), "--title", "Drive A", "--json"]
    assert main([*argv, "--db", str(db)]) == 0
    written = PdfWritten.model_validate_json(capsys.readouterr().out)
    assert written.output == str(out) and written.bytes == out.stat().st_size
    text = " ".join(" ".join(page_texts(out)).split())
    assert text.startswith("Drive A Sustained-write test") and result.verdict.sentence in text


@pytest.mark.parametrize(
    ("name", "model"),
    [
        ("sustain-estimate.json", SustainEstimate),
        ("sustain-flat.json", SustainResult),
        ("sustain-cliff.json", SustainResult),
    ],
)
def test_the_views_recorded_answers_still_parse_as_the_contracts_models(
    name: str, model: type[BaseModel]
) -> None:
    """scripts/gen_sustain_fixtures.py wrote them from the real engine; they must not drift."""
    model.model_validate_json(
        (Path(__file__).resolve().parents[3] / "src" / "test" / name).read_text(encoding="utf-8")
    )


def test_the_recorded_real_fill_renders_its_page(tmp_path: Path) -> None:
    recorded = SustainResult.model_validate_json(
        (Path(__file__).resolve().parents[3] / "src" / "test" / "sustain-flat.json").read_text(
            encoding="utf-8"
        )
    )
    text = _text(recorded, tmp_path)
    assert " ".join(recorded.verdict.sentence.split()) in text
    for phase in recorded.phases:
        assert f"{phase.index + 1} {phase.name}" in text


def test_a_fill_of_one_second_is_drawn_as_a_marked_point_on_an_axis_from_zero() -> None:
    from ssdprof.report.page_drawing import Shape
    from ssdprof.report.sustain_charts import fill_chart
    from ssdprof.report.vector import _number

    (only,) = _series(1, lambda s: FAST, seed=3)
    chart = fill_chart(_result([only], []))
    assert chart is not None
    # its one second is marked where it lies (a line of one point, unmarked, was nothing on the page)
    ((x, y),) = chart.drawing.groups["fill-speed"][0]
    at = f"q 1 0 0 1 {_number(x)} {_number(y)} cm"
    assert any(isinstance(p, Shape) and at in p.ops for p in chart.drawing.parts), "the second is not drawn"
    # the bytes axis starts at 0: the one point sits at its bytes (the axis' far end), not alone mid-axis
    assert x > chart.drawing.width * 0.8
    # its caption a sentence after the figure's title ('... test 7. The fill's ...'), of 1 second
    assert chart.caption.startswith("The fill's write speed each second") and "bytes written, 1 second;" in chart.caption
