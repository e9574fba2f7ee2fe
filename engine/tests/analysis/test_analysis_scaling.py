"""The Universal Scalability Law against curves with known parameters, and the network cap."""

import pytest
from analysis_runs import make_run

from ssdprof.analysis.prediction import scale_runs
from ssdprof.analysis.scaling import fit_usl, project
from ssdprof.model.results import RunResult


def usl(n: float, lam: float = 1000.0, sigma: float = 0.05, kappa: float = 0.002) -> float:
    return lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))


def test_usl_fit_recovers_known_contention_and_coherency() -> None:
    counts = [1, 2, 3, 4, 5, 6, 8]
    fit = fit_usl(counts, [usl(n) for n in counts])
    assert (fit.lam, fit.sigma, fit.kappa) == pytest.approx((1000, 0.05, 0.002), rel=1e-4)
    assert fit.peak_units == pytest.approx(((1 - 0.05) / 0.002) ** 0.5, rel=1e-3)  # ≈ 21.8 units
    assert fit.value_at(12) == pytest.approx(usl(12), rel=1e-4)


def test_linear_scaling_has_no_peak() -> None:
    fit = fit_usl([2, 3, 4, 5], [200.0, 300.0, 400.0, 500.0])
    assert fit.sigma == pytest.approx(0, abs=1e-6) and fit.kappa == pytest.approx(0, abs=1e-8)
    assert fit.peak_units is None


def test_two_node_counts_fit_contention_only() -> None:
    fit = fit_usl([2, 4], [usl(2, sigma=0.1, kappa=0), usl(4, sigma=0.1, kappa=0)])
    assert fit.kappa == 0 and fit.sigma == pytest.approx(0.1, rel=1e-4)


def test_the_network_binds_when_clients_cannot_carry_what_the_nodes_deliver() -> None:
    fit = fit_usl([2, 3, 4, 5], [usl(n, lam=1e9) for n in (2, 3, 4, 5)])
    ten_gbe = 10e9 / 8
    (at_3, at_10) = project(fit, [3, 10], clients=4, client_link=ten_gbe)
    assert at_3.binding == "scalability" and at_3.predicted == pytest.approx(usl(3, lam=1e9), rel=1e-4)
    assert at_10.binding == "client network" and at_10.predicted == pytest.approx(4 * ten_gbe)
    assert "limited by client network" in at_10.sentence("nodes", 1e6, "MB/s")


def test_node_links_cap_in_proportion_to_node_count() -> None:
    fit = fit_usl([1, 2], [3e9, 6e9])
    (point,) = project(fit, [4], node_link=1e9)
    assert point.binding == "node network" and point.predicted == pytest.approx(4e9)


def test_node_tags_give_a_scalability_fit_per_setting() -> None:
    runs = [make_run(rw="read", bs=4 << 20, iops=usl(n, lam=100.0), tags={"nodes": str(n)}, hosts=4) for n in (2, 3, 4, 5)]
    (report,) = scale_runs(runs, "iops", at=[8], client_link_bytes_per_s=10e9 / 8)
    assert report.fit.lam == pytest.approx(100, rel=1e-3)
    # 4 clients x 10 GbE = 5e9 bytes/s = 1192 IOPS of 4 MiB: more than the USL gives at 8 nodes.
    assert report.projections[0].binding == "scalability"
    assert report.projections[0].client_network_cap == pytest.approx(4 * 10e9 / 8 / (4 << 20))


def test_scaling_needs_two_node_counts() -> None:
    with pytest.raises(ValueError, match="nodes=N"):
        scale_runs([make_run(tags={"nodes": "3"})], "iops")


def test_without_a_given_link_the_hosts_recorded_limits_cap_the_projection_and_are_named() -> None:
    def shaped(run: RunResult, slow_host: int) -> RunResult:
        hosts = [h.model_copy(update={"link_limit_bytes_per_s": 25e6 if i == slow_host else 1.25e9,
                                      "link_limit_source": "tbf rate on eth0" if i == slow_host else "NIC speed of eth0"})
                 for i, h in enumerate(run.hosts)]
        return run.model_copy(update={"hosts": hosts})

    runs = [shaped(make_run(rw="read", bs=4 << 20, iops=usl(n, lam=100.0), tags={"nodes": str(n)}, hosts=4), 1) for n in (2, 3, 4, 5)]
    (report,) = scale_runs(runs, "iops", at=[8])
    assert report.client_link_bytes_per_s == 25e6
    assert report.client_link_source == "recorded on the hosts (lowest: client1: tbf rate on eth0)"
    # 4 clients x 25 MB/s = 100 MB/s = 23.8 IOPS of 4 MiB: the network binds, well below the USL's figure.
    assert report.projections[0].binding == "client network"
    assert report.projections[0].client_network_cap == pytest.approx(4 * 25e6 / (4 << 20))
    (given,) = scale_runs(runs, "iops", at=[8], client_link_bytes_per_s=10e9 / 8)
    assert given.client_link_source == "given" and given.projections[0].binding == "scalability"


def test_three_node_counts_fit_the_usl_exactly_and_report_no_r2() -> None:
    fit = fit_usl([1, 2, 3], [usl(n) for n in (1, 2, 3)])
    assert fit.quality.check == "none" and fit.quality.r2 is None and fit.quality.rmse is None
    assert "exact fit: no check possible (3 parameters for 3 settings)" in fit.describe()


def test_two_node_counts_fit_contention_only_and_exactly() -> None:
    assert fit_usl([2, 4], [200.0, 350.0]).quality.parameters == 2
    assert fit_usl([2, 4], [200.0, 350.0]).quality.check == "none"
