"""The root conftest.py's tiers, run on a small suite of their own (pytester): a test measured
slow in tests/durations.json is marked ``slow``, an unmeasured one is fast, and the end of a
run names the fast tests that took too long."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

SUITE = """
def test_quick():
    assert True

def test_measured_slow():
    assert True

def test_new():
    assert True
"""


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # seconds of imports none need
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_suite=SUITE)
    (pytester.path / "tests").mkdir()
    durations = {"test_suite.py::test_quick": 0.01, "test_suite.py::test_measured_slow": 30.0}
    (pytester.path / "tests" / "durations.json").write_text(json.dumps(durations))
    return pytester


def test_a_test_measured_slow_is_left_out_of_the_fast_tier(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("-m", "not slow", "-v")
    result.assert_outcomes(passed=2, deselected=1)
    result.stdout.fnmatch_lines(["*test_quick PASSED*", "*test_new PASSED*"])  # new: fast


@pytest.mark.parametrize("workers", [[], ["-p", "xdist", "-n", "2"]], ids=["one", "xdist"])
def test_a_fast_test_that_took_too_long_is_named_at_the_end(
    suite: pytest.Pytester, workers: list[str]
) -> None:
    conftest = suite.path / "conftest.py"
    conftest.write_text(
        conftest.read_text().replace("HIDING_SECONDS = 5.0", "HIDING_SECONDS = 0.0")
    )
    result = suite.runpytest_subprocess(*workers)
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*fast-tier tests over 0 s*", "*s  test_suite.py::test_new"])
    named = [line for line in result.stdout.lines if line.endswith("test_measured_slow")]
    assert not named, "a test marked slow is not hiding"


def test_durations_are_written_slowest_first(suite: pytest.Pytester, tmp_path: Path) -> None:
    out = tmp_path / "durations.json"
    suite.runpytest_subprocess(f"--write-durations={out}").assert_outcomes(passed=3)
    written = json.loads(out.read_text())
    assert set(written) == {f"test_suite.py::test_{n}" for n in ("quick", "measured_slow", "new")}
    assert list(written.values()) == sorted(written.values(), reverse=True)
    assert all(seconds >= 0 for seconds in written.values())
