"""What every test session shares, for the tests in tests/ and the doctests in src/yacht/.

- The strategy cache and the data folder (saves, records, the web database) are private
  temporary folders: no test reads or writes the user's real ``~/.cache/yacht`` or data folder.
- PostgreSQL and Redis are prepared before the session by ``make services`` (``.ci/services``),
  which writes their addresses to ``build/services.env``; the session only reads that file.
- Tests are marked ``services`` (PostgreSQL and Redis), ``browser`` (Chromium) or ``slow``
  (``make test-fast`` leaves those three out). A test whose service or browser this machine
  lacks is skipped with one line naming what is missing and how to get it; under
  ``YACHT_REQUIRE_ALL=1`` (CI) every skip is a failure instead.

This file sits at the root rather than in tests/ so that it covers the doctests too.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Generator
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]  # tests/test_require_all.py runs these rules on a suite of its own

ROOT = Path(__file__).resolve().parent
SERVICES_ENV = ROOT / "build" / "services.env"
CHROMIUM = Path("/usr/bin/chromium")
REQUIRE_ALL = os.environ.get("YACHT_REQUIRE_ALL") == "1"

_TEMP = Path(tempfile.mkdtemp(prefix="yacht-test-"))
os.environ["YACHT_CACHE_DIR"] = str(_TEMP / "cache")
os.environ["YACHT_DATA_DIR"] = str(_TEMP / "data")


def _read_services() -> None:
    """Take the services' addresses from ``build/services.env`` unless the environment has them."""
    if not SERVICES_ENV.exists():
        return
    for line in SERVICES_ENV.read_text().splitlines():
        name, sep, value = line.partition("=")
        if sep and not line.startswith("#"):
            os.environ.setdefault(name.strip(), value.strip())


_read_services()

_SERVICE_FIXTURES = {"services", "pg_url", "cluster", "redis_prefix"}
_BROWSER_FIXTURES = {"browser", "page", "chromium"}


def missing_services() -> str | None:
    """One line naming the missing PostgreSQL/Redis and how to get them, or None."""
    needed = (("PostgreSQL", "YACHT_TEST_POSTGRES_URL"), ("Redis", "YACHT_TEST_REDIS_URL"))
    missing = [name for name, var in needed if not os.environ.get(var)]
    if not missing:
        return None
    return (
        f"{' and '.join(missing)} not running: `make services` starts them "
        "(as root it installs the Debian packages postgresql and redis-server)"
    )


def missing_browser() -> str | None:
    """One line naming the missing Chromium and how to get it, or None."""
    if CHROMIUM.exists():
        return None
    return f"Chromium not found at {CHROMIUM}: `make services` as root installs the Debian package"


def pytest_configure(config: pytest.Config) -> None:
    for line in (
        "services: needs PostgreSQL and Redis (make services)",
        "browser: drives Chromium (make services installs it as root)",
        "slow: takes more than a few seconds (make test-fast leaves it out)",
        "rl: runs Stable-Baselines3 and torch (extra yacht[rl], part of yacht[test])",
    ):
        config.addinivalue_line("markers", line)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark by what a test uses: its fixtures, or the folder it lives in."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & _SERVICE_FIXTURES or "tests/scale/" in item.nodeid:
            item.add_marker(pytest.mark.services)
        if names & _BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("services") and (why := missing_services()):
        pytest.skip(why)
    if item.get_closest_marker("browser") and (why := missing_browser()):
        pytest.skip(why)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, None]:
    """Under YACHT_REQUIRE_ALL=1 a skipped test fails: CI never passes with a part missing."""
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_ALL and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped, but YACHT_REQUIRE_ALL=1 requires every test: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, None]:
    """A whole module skipped at collection (importorskip) fails too under YACHT_REQUIRE_ALL=1."""
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_ALL and report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped, but YACHT_REQUIRE_ALL=1 requires every test: {reason}"


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_TEMP, ignore_errors=True)
