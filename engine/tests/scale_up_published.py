"""The framework's published profiling figures (Ajdari et al., IEEE CAL 2024) as profiling points.

Published: write IOPS of a 24-SSD chassis at 1, 6 and 8 arrays (45 K, 193 K, 155 K → chassis 174 K)
and a 10 % drop up to the first enclosure. The CPU samples are not among the figures available here:
the ones below are illustrative, a line cores/IOPS = 1e-6·N + 5e-5 through four samples (1, 6, 8 and
16 arrays), as the framework fits four. The read profile is likewise illustrative: a 570 K chassis,
which the published drops carry to the paper's ~86 K for the 240-SSD daisy chain.
"""

from __future__ import annotations

from ssdprof.analysis.scale_up_inputs import ScaleUpPoint


def _cpu(arrays: int, iops: float, slope: float, intercept: float) -> float:
    return iops * (slope * arrays + intercept)


def write_points() -> list[ScaleUpPoint]:
    chassis = [(1, 45_000.0), (6, 193_000.0), (8, 155_000.0)]
    points = [
        ScaleUpPoint(arrays=n, iops=iops, cpu_cores=_cpu(n, iops, 1e-6, 5e-5), run_ids=[i + 1])
        for i, (n, iops) in enumerate(chassis)
    ]
    chained = 174_000.0 * 0.9  # the chassis and one enclosure: the published 10 % drop
    return [
        *points,
        ScaleUpPoint(
            arrays=16,
            enclosures=1,
            iops=chained,
            cpu_cores=_cpu(16, chained, 1e-6, 5e-5),
            run_ids=[4],
        ),
    ]


def read_points() -> list[ScaleUpPoint]:
    chassis = [(1, 150_000.0), (6, 600_000.0), (8, 540_000.0)]
    return [
        ScaleUpPoint(arrays=n, iops=iops, cpu_cores=_cpu(n, iops, 1e-7, 1e-5))
        for n, iops in chassis
    ]
