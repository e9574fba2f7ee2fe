"""The CI rule itself: a skip is a failure with its reason under CI=true, and stays a skip elsewhere."""

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

SKIPPING = """
import pytest

def test_needs_a_missing_part():
    pytest.skip("fio is not installed")

@pytest.mark.xfail(reason="known")
def test_expected_to_fail():
    assert False

@pytest.mark.kernel_feature("device-mapper")
def test_needs_a_kernel_feature():
    pytest.skip("this kernel has no device-mapper driver")
"""


def _run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, ci: str | None) -> pytest.RunResult:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    pytester.syspathinsert(Path(__file__).parents[1])
    pytester.makeconftest('pytest_plugins = ["infra.ci_rule"]')
    pytester.makeini("[pytest]\nmarkers =\n    kernel_feature(name): a kernel capability\n")
    pytester.makepyfile(SKIPPING)
    return pytester.runpytest_inprocess("-p", "no:cacheprovider")


def test_under_ci_a_skip_fails_with_its_reason(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(pytester, monkeypatch, "true")
    result.assert_outcomes(failed=1, xfailed=1, skipped=1)
    result.stdout.fnmatch_lines(["*fails instead of skipping*fio is not installed*"])


def test_elsewhere_a_skip_stays_a_skip(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(pytester, monkeypatch, None).assert_outcomes(skipped=2, xfailed=1)
