"""The knee named in words: where p99 reaches twice its light-load value."""

from ssdprof.analysis.knee import find_knee
from ssdprof.model.curves import CurvePoint


def point(pct: int | None, p99_us: float, achieved: float | None = None) -> CurvePoint:
    """A point offered pct x 100 IOPS, achieving that (or ``achieved``: saturated when 5 % short)."""
    offered = 0.0 if pct is None else pct * 100.0
    got = offered if achieved is None else achieved
    return CurvePoint(index=0 if pct is None else pct, pct=pct, offered_iops=offered, achieved_iops=got,
                      saturated=pct is None or got < offered * 0.95, lat_ns_p99=p99_us * 1000)


def test_the_knee_is_named_between_the_last_point_below_twice_and_the_first_at_it() -> None:
    knee = find_knee([point(None, 900), point(10, 100), point(50, 120), point(70, 150), point(80, 230), point(90, 800)])
    assert knee is not None and (knee.from_pct, knee.to_pct) == (70, 80)
    assert knee.text.startswith("p99 doubles between 70 % and 80 % of the maximum")


def test_a_steep_rise_says_how_many_fold() -> None:
    knee = find_knee([point(10, 100), point(90, 650)])
    assert knee is not None and "rises 6-fold between 10 % and 90 %" in knee.text


def test_a_flat_curve_says_so_and_one_point_is_not_a_curve() -> None:
    flat = find_knee([point(10, 100), point(50, 110), point(100, 190)])
    assert flat is not None and flat.to_pct is None and "stays under twice" in flat.text and "100 %" in flat.text
    assert find_knee([point(None, 500), point(10, 100)]) is None


def test_a_knee_is_never_read_from_a_saturated_point() -> None:
    # the curve: the 50 % point achieved 9,434 of 21,505 offered; its p99 is a queue, not a knee
    knee = find_knee([point(10, 100), point(50, 400, achieved=2000), point(70, 420, achieved=2100), point(80, 150)])
    assert knee is not None and knee.to_pct is None, "10 % and 80 % kept up: 1.5x, no knee"
    assert "stays under twice its light-load value up to 80 %" in knee.text
    assert "the saturated points at 50 %, 70 % left out" in knee.text
    assert knee.saturation == "", "half saturated is not most"


def test_most_points_saturated_says_so_why_and_names_no_knee() -> None:
    # as the curve: the 50 % point achieved 9,434 of 21,505 offered IOPS (here 2,200 of 5,000)
    points = [point(10, 100), *(point(pct, 4000, achieved=44.0 * pct) for pct in (50, 70, 80, 90, 100))]
    knee = find_knee(points)
    assert knee is not None and knee.from_pct is None and knee.to_pct is None
    assert knee.text.startswith("none named: only 1 of the 6 offered rates kept up")
    assert knee.saturation.startswith("5 of the 6 offered rates saturated")
    assert "at 50 % of the maximum the drive achieved 2,200 of 5,000 offered IOPS" in knee.saturation
    assert "not a rate the drive could sustain" in knee.saturation
