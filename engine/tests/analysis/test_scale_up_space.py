"""The design space: every way to cable the chassis and enclosures to SAS controllers, predicted and
judged against the limits; held to the framework's published use case (240 SSDs).
"""

import pytest
from scale_up_published import read_points, write_points

from ssdprof.analysis.scale_up_inputs import ScaleUpInputs, ScaleUpPoint
from ssdprof.analysis.scale_up_space import design_space, partitions
from ssdprof.model.problems import WorkloadError

PUBLISHED_DAISY_CHAIN_WRITE_IOPS = 27_000
PUBLISHED_DAISY_CHAIN_READ_IOPS = 86_000


def test_the_architectures_of_small_unit_counts_are_the_ones_counted_by_hand() -> None:
    assert list(partitions(1)) == [(1,)]
    assert list(partitions(2)) == [(2,), (1, 1)]
    assert list(partitions(3)) == [(3,), (2, 1), (1, 1, 1)]
    assert list(partitions(4)) == [(4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
    assert len(list(partitions(5))) == 7  # 5, 41, 32, 311, 221, 2111, 11111
    assert len(list(partitions(10))) == 42  # the 240-SSD case: a chassis and nine enclosures


def test_96_ssds_in_24_bay_shelves_have_five_architectures_each_named_by_its_cabling() -> None:
    result = design_space(ScaleUpInputs(points=write_points(), target_ssds=96))
    assert (result.units, result.enclosures, result.count) == (4, 3, 5)
    labels = {a.key: a.label for a in result.architectures}
    assert labels == {
        "4": "chassis + 3 enclosures",
        "3-1": "chassis + 2 enclosures | 1 enclosure",
        "2-2": "chassis + 1 enclosure | 2 enclosures",
        "2-1-1": "chassis + 1 enclosure | 1 enclosure | 1 enclosure",
        "1-1-1-1": "chassis | 1 enclosure | 1 enclosure | 1 enclosure",
    }
    assert [a.pcie_slots for a in result.architectures] == [4, 3, 2, 2, 1]  # most IOPS first


def test_the_240_ssd_daisy_chain_is_predicted_within_13_pct_of_the_published_27k_writes() -> None:
    result = design_space(ScaleUpInputs(points=write_points(), target_ssds=240))
    chain = result.daisy_chain
    assert chain.key == "10" and chain.pcie_slots == 1 and chain.arrays == 80
    assert chain.iops == pytest.approx(174_000 * 0.9 * 0.8**8)
    assert abs(chain.iops / PUBLISHED_DAISY_CHAIN_WRITE_IOPS - 1) < 0.13


def test_three_controllers_reach_13_to_15_times_the_daisy_chain_in_three_slots_and_55_cores() -> (
    None
):
    result = design_space(
        ScaleUpInputs(points=write_points(), target_ssds=240, max_pcie_slots=3, max_cpu_cores=55)
    )
    assert (
        result.best_uniform is not None
        and result.best_priority is not None
        and result.best is not None
    )
    assert result.best_uniform.key == "4-3-3" and result.best_uniform.iops > 350_000
    assert result.best_priority.key == "8-1-1"
    for pick in (result.best_uniform, result.best_priority):
        assert 13 <= pick.iops / result.daisy_chain.iops <= 15
        assert pick.pcie_slots == 3 and pick.cpu_cores is not None and pick.cpu_cores <= 55
    assert result.best == result.best_priority
    # the partitions of 10 into one chain (1), two (5: 9+1 ... 5+5) and three (8: 8+1+1 ... 4+3+3)
    assert sum(a.within_limits for a in result.architectures) == 14
    four = next(a for a in result.architectures if a.key == "4-2-2-2")
    assert four.broken == ["needs 4 PCIe slots, 3 available", "needs 74.1 CPU cores, 55 available"]


def test_reads_fall_along_the_chain_to_about_86k_and_reach_about_1m_over_three_controllers() -> (
    None
):
    result = design_space(
        ScaleUpInputs(points=read_points(), target_ssds=240, max_pcie_slots=3, max_cpu_cores=25)
    )
    assert abs(result.daisy_chain.iops / PUBLISHED_DAISY_CHAIN_READ_IOPS - 1) < 0.13
    assert result.best_uniform is not None and 1.0e6 <= result.best_uniform.iops <= 1.2e6
    assert 13 <= result.best_uniform.iops / result.daisy_chain.iops <= 15


def test_the_uniform_pick_evens_out_the_arrays_and_the_priority_pick_favours_short_chains() -> None:
    result = design_space(ScaleUpInputs(points=write_points(), target_ssds=240, max_pcie_slots=3))
    assert result.best_uniform is not None and result.best_priority is not None
    assert result.best_uniform.even and not result.best_priority.even
    long_chain, short_chain, _ = result.best_priority.chains
    assert long_chain.has_chassis and (long_chain.units, short_chain.units) == (8, 1)
    assert short_chain.iops_per_array > 10 * long_chain.iops_per_array


def test_per_array_qos_rules_out_the_architectures_that_starve_a_chain() -> None:
    result = design_space(
        ScaleUpInputs(points=write_points(), target_ssds=240, max_pcie_slots=3, min_array_iops=3000)
    )
    starved = next(a for a in result.architectures if a.key == "8-1-1")
    assert not starved.within_limits
    assert starved.broken == [
        "64 arrays get less than the 3,000 IOPS each needs (down to 641 in a chain of 8)"
    ]
    assert (
        result.best is not None and result.best.key == "4-4-2"
    )  # 3,131 IOPS an array on the 4-unit chains


def test_limits_that_exclude_every_architecture_are_said_plainly() -> None:
    result = design_space(
        ScaleUpInputs(points=write_points(), target_ssds=240, max_cpu_cores=1, min_array_iops=1e6)
    )
    assert result.best is None and result.best_uniform is None and result.best_priority is None
    assert not any(a.within_limits for a in result.architectures)
    assert result.none_fit.startswith(
        "No architecture of the 42 meets every limit: the least CPU any architecture "
        "needs is 3.4 cores, 1 available; no architecture gives every array 1,000,000 "
        "IOPS: the most its slowest array gets is 21,750"
    )


def test_every_prediction_names_its_profiling_runs_and_carries_the_published_error_band() -> None:
    result = design_space(ScaleUpInputs(points=write_points(), target_ssds=240))
    chain = result.daisy_chain
    assert "chassis IOPS 174,000" in chain.basis and "6 arrays (run 2)" in chain.basis
    assert "(1 − 10 %) × (1 − 20 %)^8" in chain.basis and "runs 1, 2, 3, 4" in chain.basis
    assert (chain.iops_low, chain.iops_high) == pytest.approx(
        (chain.iops * 0.868, chain.iops * 1.132)
    )
    assert chain.cpu_cores is not None and chain.cpu_cores_high == pytest.approx(
        chain.cpu_cores * 1.135
    )
    assert "10.9–13.2 % (IOPS) and 11.1–13.5 % (CPU)" in result.error_band.text
    assert result.profile.run_ids == [1, 2, 3, 4]


def test_bad_inputs_are_refused_field_by_field_all_at_once() -> None:
    inputs = ScaleUpInputs(
        points=[ScaleUpPoint(arrays=16, enclosures=1, iops=1e5)], target_ssds=250, max_cpu_cores=50
    )
    with pytest.raises(WorkloadError) as caught:
        design_space(inputs)
    problems = {p.field: p for p in caught.value.problems}
    assert set(problems) == {"target_ssds", "points", "max_cpu_cores"}
    assert problems["target_ssds"].flag == "--target-ssds"
    assert (
        "250 does not fill whole chassis and enclosures of 24 SSDs; 240 or 264 do"
        in problems["target_ssds"].message
    )
    assert "chassis alone" in problems["points"].message
    assert "CPU figures" in problems["max_cpu_cores"].message


def test_a_target_beyond_what_the_model_enumerates_is_refused_with_the_limit() -> None:
    with pytest.raises(
        WorkloadError, match="needs 31 chassis and enclosures of 24 SSDs, more than the 30"
    ):
        design_space(ScaleUpInputs(points=write_points(), target_ssds=744))


def test_a_pick_on_one_controller_is_said_in_one_pcie_slot_and_whole_iops() -> None:
    result = design_space(ScaleUpInputs(points=write_points(), target_ssds=240, max_pcie_slots=1))
    assert result.summary[1] == (
        "QoS-uniformity: chassis + 9 enclosures (1 PCIe slot): 26,273 IOPS, 1.0× the daisy chain; "
        "328 IOPS per array, 3.4 CPU cores."
    )


@pytest.mark.parametrize(("ssds", "sized"), [(240, "240 SSDs in a chassis and 9 enclosures"),
                                             (48, "48 SSDs in a chassis and 1 enclosure"), (24, "24 SSDs in a chassis")])
def test_what_is_sized_is_said_once_for_every_face_one_enclosure_in_the_singular(ssds: int, sized: str) -> None:
    assert design_space(ScaleUpInputs(points=write_points(), target_ssds=ssds)).sized == sized
