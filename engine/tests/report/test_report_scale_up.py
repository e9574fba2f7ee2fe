"""The scale-up page: the profile's sources, the picks against the daisy chain, the limits missed.
"""

import shutil
import subprocess
from pathlib import Path

import pytest
from scale_up_published import write_points

from ssdprof.analysis.scale_up_inputs import ScaleUpInputs
from ssdprof.analysis.scale_up_space import design_space
from ssdprof.report.scale_up import build_scale_up_pdf, charted, scale_up_chart

needs_poppler = pytest.mark.skipif(
    shutil.which("pdftotext") is None,
    reason="poppler-utils is not installed (setup.sh installs it)",
)


@needs_poppler
def test_the_page_names_the_profile_the_picks_and_the_limits_each_architecture_misses(
    tmp_path: Path,
) -> None:
    result = design_space(
        ScaleUpInputs(
            points=write_points(),
            target_ssds=240,
            max_pcie_slots=3,
            max_cpu_cores=55,
            label="write IOPS",
        )
    )
    pdf = build_scale_up_pdf(result)
    (tmp_path / "scale-up.pdf").write_bytes(pdf)
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "scale-up.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    )
    words = " ".join(text.stdout.split())
    assert "Sizing an all-flash array of 240 SSDs" in words
    assert "193,000 IOPS at 6 arrays (run 2)" in words
    assert (
        "QoS-uniformity: chassis + 3 enclosures | 3 enclosures | 3 enclosures (3 PCIe slots)"
        in words
    )
    assert "QoS-priority: chassis + 7 enclosures | 1 enclosure | 1 enclosure" in words
    assert "needs 10 PCIe slots, 3 available" in words and "yes" in words
    assert "10.9–13.2 % (IOPS)" in words


def test_the_chart_holds_the_most_iops_and_always_the_picks_and_the_daisy_chain() -> None:
    result = design_space(ScaleUpInputs(points=write_points(), target_ssds=240, max_pcie_slots=3))
    keys = [a.key for a in charted(result)]
    assert len(keys) == len(set(keys)) and {"4-3-3", "8-1-1", "10"} <= set(keys)


def test_the_chart_names_cpu_only_when_the_profile_predicts_it() -> None:
    typed = [p.model_copy(update={"cpu_cores": None}) for p in write_points()]
    without = scale_up_chart(design_space(ScaleUpInputs(points=typed, target_ssds=240)))
    assert without.title.startswith("Predicted IOPS of ") and "CPU" not in without.title
    assert "CPU" not in without.caption
    with_cpu = scale_up_chart(design_space(ScaleUpInputs(points=write_points(), target_ssds=240)))
    assert with_cpu.title.startswith("Predicted IOPS and CPU") and "CPU cores" in with_cpu.caption
