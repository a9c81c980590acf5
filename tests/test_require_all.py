"""The session rules of the root conftest.py, run on a small suite of their own (pytester).

A test that lacks a service is skipped with one line naming what is missing; under
YACHT_REQUIRE_ALL=1 (CI) that skip is a failure, so CI cannot pass with a part of the suite missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

SUITE = """
import os
import pytest

def test_plain():
    assert True

def test_needs_services(services):
    assert False, "not reached without the services"

@pytest.fixture
def services():
    return None

def test_skips_itself():
    pytest.skip("something this machine lacks")

def test_cache_and_data_are_private():
    home = os.path.expanduser("~")
    for var in ("YACHT_CACHE_DIR", "YACHT_DATA_DIR"):
        assert not os.environ[var].startswith(os.path.join(home, ".")), os.environ[var]
"""


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # seconds of imports none need
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_suite=SUITE)
    for var in ("YACHT_TEST_POSTGRES_URL", "YACHT_TEST_REDIS_URL", "YACHT_REQUIRE_ALL"):
        monkeypatch.delenv(var, raising=False)
    return pytester


def test_a_missing_service_is_a_skip_that_names_it(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("-rs")
    result.assert_outcomes(passed=2, skipped=2)
    result.stdout.fnmatch_lines(["*PostgreSQL and Redis not running: `make services` starts them*"])


def test_under_require_all_every_skip_fails(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YACHT_REQUIRE_ALL", "1")
    result = suite.runpytest_subprocess()
    result.assert_outcomes(passed=2, failed=1, errors=1)  # the service skip comes in setup
    result.stdout.fnmatch_lines(["*YACHT_REQUIRE_ALL=1 requires every test*"])
    assert result.ret != 0
