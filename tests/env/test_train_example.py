"""examples/train_maskable_ppo.py, run as a user runs it, for a few seconds."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

pytestmark = pytest.mark.rl
if find_spec("sb3_contrib") is None:  # (found, not imported: it brings torch)
    pytest.skip("sb3-contrib not installed: pip install -e '.[rl]'", allow_module_level=True)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_short_training_run_writes_its_curve_model_and_evaluation(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["--minutes", "0.05", "--envs", "2", "--eval-every", "512", "--eval-games", "4"]
    args += ["--anneal"]  # the learning rate follows the clock; the run is the same otherwise
    done = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES / "train_maskable_ppo.py"),
            *args,
            "--final-games",
            "3",
            "--out",
            str(out),
            "--rules",
            "clubhouse",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    with (out / "curve.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert rows and list(rows[0]) == ["steps", "minutes", "mean", "se", "train_mean"]
    assert all(float(r["mean"]) >= 0 for r in rows)
    assert (out / "model.zip").stat().st_size > 0
    report = json.loads((out / "evaluation.json").read_text())
    assert report["games"] == 3 and report["rules"] == "clubhouse"
    assert report["illegal_actions"] == 0  # the learner plays through the mask
    assert "maskable-ppo under clubhouse: mean" in done.stdout


def test_bad_arguments_exit_with_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_maskable_ppo.py"), "--minutes", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "--minutes must be > 0" in done.stderr
