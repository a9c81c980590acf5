"""examples/evaluate_agent.py, run as a user runs it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from yacht.rules import rules_by_name
from yacht.strategy import solve

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "evaluate_agent.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120
    )


def test_evaluates_a_masked_random_agent_against_the_optimum() -> None:
    done = run("--agent", "masked-random", "--episodes", "30", "--rules", "clubhouse")
    assert done.returncode == 0, done.stderr
    match = re.match(
        r"masked-random under clubhouse: mean ([\d.]+) \+- ([\d.]+) over 30 games "
        r"\(([\d.]+)% of the exact optimum ([\d.]+)\)\npercentiles: p5 \d+, .*, p95 \d+\n"
        r"points lost per decision ([\d.]+) ",
        done.stdout,
    )
    assert match, done.stdout
    mean, optimum = float(match.group(1)), float(match.group(4))
    assert float(match.group(5)) > 0
    assert "\nyacht " in done.stdout and "category          mean  optimal    gap" in done.stdout
    assert optimum == round(solve(rules_by_name("clubhouse")).expected, 2)
    assert 0 < mean < optimum


def test_bad_arguments_exit_with_a_usage_error() -> None:
    done = run("--episodes", "1")
    assert done.returncode == 2 and "--episodes must be at least 2" in done.stderr
    done = run("--rules", "yahtzee")
    assert done.returncode == 2 and "invalid choice" in done.stderr
