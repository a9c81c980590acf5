"""What every test session shares, for the tests in tests/ and the doctests in src/yacht/.

- The data folder (saves, records, the web database) is a private temporary folder and the
  strategy cache is ``build/test-tables/<digest of the code the tables come from>``: no test
  reads or writes the user's real ``~/.cache/yacht`` or data folder.
- PostgreSQL and Redis are prepared before the session by ``make services`` (``.ci/services``),
  which writes their addresses to ``build/services.env``; the session only reads that file.
- Tests are marked ``services`` (PostgreSQL and Redis), ``browser`` (Chromium) or ``rl``
  (torch and Stable-Baselines3) by what they need, and ``slow`` by what they took: a test whose
  measured time in ``tests/durations.json`` (``make durations``) is over ``SLOW_SECONDS``.
  ``make test-fast`` leaves out ``slow``, ``services``, ``browser`` and ``rl``; a test not
  measured yet counts as fast, and the end of every run names the fast tests that took over
  ``HIDING_SECONDS``, so a slow one cannot hide in the fast tier.
- A test whose service, browser or package this machine lacks is skipped with one line naming
  what is missing and how to get it; under ``YACHT_REQUIRE_ALL=1`` (CI) every skip is a failure.

This file sits at the root rather than in tests/ so that it covers the doctests too.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]  # tests/test_require_all.py runs these rules on a suite of its own

# Importing it imports Stable-Baselines3 and torch (extra yacht[rl]), seconds in every pytest
# process and an error where the extra is not installed: no doctests there, it is tested by
# tests/env/test_sb3_vector.py (marked rl).
collect_ignore = ["src/yacht/env/sb3.py"]

ROOT = Path(__file__).resolve().parent
SERVICES_ENV = ROOT / "build" / "services.env"
CHROMIUM = Path("/usr/bin/chromium")
REQUIRE_ALL = os.environ.get("YACHT_REQUIRE_ALL") == "1"
DURATIONS = ROOT / "tests" / "durations.json"
SLOW_SECONDS = 2.0
"""A test measured over this (setup, call and teardown, one process) is marked ``slow``."""
HIDING_SECONDS = 5.0
"""A fast-tier test over this in a run is named at the end of the run."""
FAST_TIER_OUT = ("slow", "services", "browser", "rl")
"""The marks ``make test-fast`` leaves out."""

_TEMP = Path(tempfile.mkdtemp(prefix="yacht-test-"))
os.environ["YACHT_DATA_DIR"] = str(_TEMP / "data")


def _tables_digest() -> str:
    """What the strategy tables are built from: the core and ``yacht.strategy`` (which the
    layers contract in pyproject.toml keeps from importing anything above them), numpy and
    Python. A change to any of them gives a new digest, so a cached table is always the table
    this code would build."""
    import hashlib
    import sys

    import numpy

    src = ROOT / "src" / "yacht"
    core = ("actions", "dice", "fields", "game", "game_json", "i18n", "rules", "scorers", "start")
    files = [src / f"{name}.py" for name in core] + sorted((src / "strategy").rglob("*.py"))
    files = [path for path in files if path.exists()]  # (a copy of this file elsewhere: none)
    digest = hashlib.sha256(f"{sys.version} numpy {numpy.__version__}".encode())
    for path in files:
        digest.update(path.relative_to(src).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


TABLES = ROOT / "build" / "test-tables" / _tables_digest()
"""The strategy tables the tests build, kept between runs (they take minutes to build and are
the same for the same code); ``YACHT_TEST_FRESH_TABLES=1`` builds them afresh in a private
folder instead."""
if os.environ.get("YACHT_TEST_FRESH_TABLES") == "1":
    TABLES = _TEMP / "tables"
os.environ["YACHT_CACHE_DIR"] = str(TABLES / "shared")


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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--write-durations",
        metavar="PATH",
        help="write each test's seconds (setup, call and teardown) to PATH as JSON",
    )


def pytest_configure(config: pytest.Config) -> None:
    for line in (
        "services: needs PostgreSQL and Redis (make services)",
        "browser: drives Chromium (make services installs it as root)",
        f"slow: measured over {SLOW_SECONDS:g} s in tests/durations.json (make test-fast "
        "leaves it out)",
        "rl: runs Stable-Baselines3 and torch (extra yacht[rl], which make test installs)",
    ):
        config.addinivalue_line("markers", line)
    config.pluginmanager.register(Timings(config), "yacht-timings")


def measured() -> dict[str, float]:
    """Node id -> seconds from ``tests/durations.json``; empty if the file is missing."""
    try:
        data = json.loads(DURATIONS.read_text())
    except FileNotFoundError:
        return {}
    return {str(nodeid): float(seconds) for nodeid, seconds in data.items()}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark by what a test uses (its fixtures, or the folder it lives in) and by what it took.

    First of the plugins' hooks: under ``--dist loadgroup`` an xdist worker's own hook puts
    each test of an ``xdist_group`` into its group by adding ``@group`` to the test's id, so
    it must come after the groups given here and after the ids are looked up in
    ``tests/durations.json``."""
    seconds = measured()
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & _SERVICE_FIXTURES or "tests/scale/" in item.nodeid:
            item.add_marker(pytest.mark.services)
        if names & _BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if seconds.get(item.nodeid, 0.0) > SLOW_SECONDS:
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("services") is not None:
            # One at a time on one worker under `-n 2 --dist loadgroup`: each starts servers,
            # databases or Redis of its own, and two of them side by side on a 2-core machine
            # starve each other's timers (slot expiry, grace periods, recovery bounds).
            item.add_marker(pytest.mark.xdist_group("services"))


class Timings:
    """Each test's seconds in this run (setup, call and teardown summed). Under xdist the
    workers' reports, marks included, reach the controller, which prints and writes."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.seconds: dict[str, float] = {}
        self.fast: set[str] = set()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration
        if report.when == "call" and not any(mark in report.keywords for mark in FAST_TIER_OUT):
            self.fast.add(report.nodeid)

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        hiding = sorted(
            (seconds, nodeid)
            for nodeid, seconds in self.seconds.items()
            if seconds > HIDING_SECONDS and nodeid in self.fast
        )
        if hiding:
            terminalreporter.section(f"fast-tier tests over {HIDING_SECONDS:g} s")
            for seconds, nodeid in reversed(hiding):
                terminalreporter.write_line(f"{seconds:6.1f} s  {nodeid}")
            terminalreporter.write_line(
                "make each faster, or `make durations` measures it into the slow tier"
            )

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        path = self.config.getoption("--write-durations")
        if path and not hasattr(self.config, "workerinput"):
            ordered = sorted(self.seconds.items(), key=lambda kv: (-kv[1], kv[0]))
            data = {nodeid: round(seconds, 2) for nodeid, seconds in ordered}
            Path(path).write_text(json.dumps(data, indent=0) + "\n")


@pytest.fixture(scope="session")
def own_tables() -> Callable[[str], Path]:
    """A cache folder of a test module's own, kept between runs like the shared one (for
    tables the rest of the session must not find, such as a duel's solved layers). Both xdist
    workers share it: build into it inside :func:`one_builder`."""

    def folder(name: str) -> Path:
        path = TABLES / name
        path.mkdir(parents=True, exist_ok=True)
        return path

    return folder


@contextlib.contextmanager
def one_builder(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s lock while building into it: a second pytest worker building the same
    layered table at once would write the same partial files, so it waits, then finds the
    layers built and reads them."""
    with open(folder / ".building", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


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
