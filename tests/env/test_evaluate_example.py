"""examples/evaluate_agent.py, run as a user runs it."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from yacht.rules import rules_by_name
from yacht.strategy import solve

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "evaluate_agent.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120
    )


def test_evaluates_a_masked_random_agent_against_the_optimum() -> None:
    # knizia, not the default preset, and not clubhouse, whose table is 64 times larger
    done = run("--agent", "masked-random", "--episodes", "30", "--rules", "knizia")
    assert done.returncode == 0, done.stderr
    match = re.match(
        r"masked-random under knizia: mean ([\d.]+) \+- ([\d.]+) over 30 games "
        r"\(([\d.]+)% of the exact optimum ([\d.]+)\)\npercentiles: p5 \d+, .*, p95 \d+\n"
        r"points lost per decision ([\d.]+) ",
        done.stdout,
    )
    assert match, done.stdout
    mean, optimum = float(match.group(1)), float(match.group(4))
    assert float(match.group(5)) > 0
    assert "\nyacht " in done.stdout and "category          mean  optimal    gap" in done.stdout
    assert optimum == round(solve(rules_by_name("knizia")).expected, 2)
    assert 0 < mean < optimum


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--episodes", "1"], "--episodes must be at least 2"),
        (["--rules", "yahtzee"], "invalid choice"),
    ],
    ids=["one-episode", "unknown-rules"],
)
def test_bad_arguments_exit_with_a_usage_error(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # in this process: the script's own parser, without a second interpreter's start-up
    spec = importlib.util.spec_from_file_location("evaluate_agent", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    with pytest.raises(SystemExit) as exited:
        script.main(args)
    assert exited.value.code == 2 and said in capsys.readouterr().err
