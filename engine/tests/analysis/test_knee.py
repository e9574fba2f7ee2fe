"""The knee named in words: where p99 reaches twice its light-load value."""

from ssdprof.analysis.knee import find_knee
from ssdprof.model.curves import CurvePoint


def point(pct: int | None, p99_us: float) -> CurvePoint:
    return CurvePoint(index=0 if pct is None else pct, pct=pct, offered_iops=0 if pct is None else pct * 100.0,
                      achieved_iops=100.0, saturated=False, lat_ns_p99=p99_us * 1000)


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
