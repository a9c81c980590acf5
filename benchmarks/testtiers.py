"""Figures of the test tiers for docs/development.md.

``python -m benchmarks.testtiers wall [RUNS]`` runs the fast tier (``make test-fast``'s pytest
command) RUNS times (3) and prints the median and worst wall time with the machine.
``python -m benchmarks.testtiers coverage FAST FULL`` prints the lines of src/yacht that the fast
tier's coverage data covers as a share of what the full run's covers (``make coverage-fast``).

Each writes the line it prints into ``docs/development.md`` between its markers
(``<!-- testtiers-wall:start -->`` ... ``:end -->``, and ``testtiers-coverage``), so the page's
figures are the benchmark's own output, never typed in.
"""

from __future__ import annotations

import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.machine import cpu_model

ROOT = Path(__file__).resolve().parents[1]
FAST = [
    str(ROOT / ".venv" / "bin" / "pytest"),
    *("-n", "2", "-m", "not slow and not services and not browser and not rl"),
]
"""The Makefile's ``test-fast`` (its ``FAST``, the marks ``conftest.FAST_TIER_OUT`` names)."""
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
"""As the Makefile runs it: with the bytecode caches, whatever the environment says."""
DOC = ROOT / "docs" / "development.md"
SHARE = 0.85
"""The fast tier covers at least this share of the full run's lines."""


def wall(runs: int) -> None:
    seconds = []
    for run in range(1, runs + 1):
        start = time.perf_counter()
        done = subprocess.run(FAST, cwd=ROOT, capture_output=True, text=True, env=ENV)
        seconds.append(time.perf_counter() - start)
        log = ROOT / "build" / f"test-fast-{run}.log"  # with the tests that hid in the tier
        log.parent.mkdir(exist_ok=True)
        log.write_text(done.stdout + done.stderr)
        last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
        print(f"run {run}: {seconds[-1]:.0f} s, exit {done.returncode}: {last} ({log})", flush=True)
    load = os.getloadavg()[0]
    line = (
        f"`pytest {shlex.join(FAST[1:])}`: median {statistics.median(seconds):.0f} s, worst "
        f"{max(seconds):.0f} s of {runs} runs (each: {', '.join(f'{s:.0f} s' for s in seconds)}; "
        f"{os.cpu_count()} cores, {cpu_model()}, Python {sys.version.split()[0]}, load average "
        f"{load:.2f} after; {time.strftime('%Y-%m-%d')})"
    )
    print(line)
    write_doc("testtiers-wall", line)


def write_doc(mark: str, text: str) -> None:
    """Put ``text`` between the page's ``<!-- mark:start -->`` and ``<!-- mark:end -->``."""
    start, end = f"<!-- {mark}:start -->", f"<!-- {mark}:end -->"
    page = DOC.read_text()
    if start in page and end in page:
        head, rest = page.split(start, 1)
        DOC.write_text(f"{head}{start}\n{text}\n{end}{rest.split(end, 1)[1]}")


def covered(data_file: str) -> dict[str, set[int]]:
    """File -> covered line numbers of a coverage data file, by path relative to the package."""
    from coverage import CoverageData

    data = CoverageData(data_file)
    data.read()
    lines: dict[str, set[int]] = {}
    for name in data.measured_files():
        marker = name.rfind("/yacht/")
        if marker >= 0:
            key = name[marker + 1 :]
            lines.setdefault(key, set()).update(data.lines(name) or ())
    return lines


def coverage(fast_file: str, full_file: str) -> int:
    fast, full = covered(fast_file), covered(full_file)
    full_lines = sum(len(lines) for lines in full.values())
    both = sum(len(lines & fast.get(name, set())) for name, lines in full.items())
    share = both / full_lines if full_lines else 0.0
    line = (
        f"The fast tier covers {both:,} of the {full_lines:,} lines of `src/yacht` the full run "
        f"covers: {share:.1%} (at least {SHARE:.0%} wanted; {time.strftime('%Y-%m-%d')})."
    )
    print(line)
    write_doc("testtiers-coverage", line)
    missed = sorted(
        ((len(lines - fast.get(name, set())), name) for name, lines in full.items()), reverse=True
    )
    for count, name in missed[:10]:
        if count:
            print(f"  {count:5d} lines only in the full run: {name}")
    return 0 if share >= SHARE else 1


def main(argv: list[str]) -> int:
    if argv[:1] == ["wall"]:
        wall(int(argv[1]) if len(argv) > 1 else 3)
        return 0
    if argv[:1] == ["coverage"] and len(argv) == 3:
        return coverage(argv[1], argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
