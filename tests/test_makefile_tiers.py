"""The fast tier is one definition: the Makefile's ``make test-fast``, the benchmark that times
it and the marks the end-of-run report leaves out all name the same marks."""

from __future__ import annotations

import re
from pathlib import Path

from benchmarks.testtiers import FAST
from conftest import FAST_TIER_OUT

ROOT = Path(__file__).resolve().parents[1]


def test_make_test_fast_the_benchmark_and_the_report_leave_out_the_same_marks() -> None:
    make = re.search(r'^FAST := -m "(.*)"$', (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert make is not None
    expected = " and ".join(f"not {mark}" for mark in FAST_TIER_OUT)
    assert make.group(1) == expected
    assert FAST[FAST.index("-m") + 1] == expected
