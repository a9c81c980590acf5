"""The batched learners' examples, run as a user runs them: examples/train_vector_ppo.py and
examples/compare_algorithms.py write a model, examples/evaluate_agent.py --model plays it back
to the same figures, and the model shipped in examples/models scores what the docs say."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

pytestmark = pytest.mark.rl

if find_spec("stable_baselines3") is None or find_spec("sb3_contrib") is None:
    pytest.skip(
        "Stable-Baselines3 and sb3-contrib not installed: pip install -e '.[rl]'",
        allow_module_level=True,
    )

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SHIPPED = EXAMPLES / "models" / "vector-ppo.pt"
FINAL_SEED = "20000000"  # where both training scripts' final evaluations start


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def mean_of(report: str) -> float:
    match = re.search(r"mean ([\d.]+) \+- ", report)
    assert match, report
    return float(match.group(1))


def test_the_vector_ppo_example_trains_saves_and_plays_back(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["--cpu-minutes", "0.03", "--envs", "64", "--steps", "8", "--minibatch", "256"]
    done = run("train_vector_ppo.py", *args, "--eval-every", "1", "--eval-games", "20",
               "--final-games", "6", "--out", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader((out / "curve.csv").open()))
    assert rows and all(int(r["steps"]) % (64 * 8) == 0 for r in rows)
    evaluation = json.loads((out / "evaluation.json").read_text())
    assert evaluation["games"] == 6
    played = run("evaluate_agent.py", "--model", str(out / "model.pt"), "--episodes", "6",
                 "--seed", FINAL_SEED)  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("vector-ppo under traditional")
    assert mean_of(played.stdout) == pytest.approx(evaluation["mean"], abs=0.005)


@pytest.mark.parametrize("algo", ["dqn", "maskable-ppo"])
def test_an_algorithm_run_writes_its_files_and_its_model_plays_back(
    algo: str, tmp_path: Path
) -> None:
    out = tmp_path / algo
    done = run("compare_algorithms.py", "--algo", algo, "--cpu-minutes", "0.02",
               "--final-games", "6", "--out", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    meta = json.loads((out / "run.json").read_text())
    assert (meta["algo"], meta["seed"], meta["steps"] > 0) == (algo, 0, True)
    rows = list(csv.DictReader((out / "curve.csv").open()))
    assert len(rows) >= 2 and 0 <= int(rows[-1]["illegal"]) <= 1000
    evaluation = json.loads((out / "evaluation.json").read_text())
    played = run("evaluate_agent.py", "--model", str(out / "model.zip"), "--episodes", "6",
                 "--seed", FINAL_SEED)  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert mean_of(played.stdout) == pytest.approx(evaluation["mean"], abs=0.005)
    if algo == "maskable-ppo":  # masked: never an illegal action
        assert evaluation["illegal_actions"] == 0


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--model", "no/such/model.zip"], "no model file"),
        (["--model", str(Path(__file__))], "neither a Stable-Baselines3 .zip"),
        (["--agent", "no/such/model.zip"], "no model file"),  # --agent MODEL.zip: not a traceback
    ],
    ids=["missing", "not-a-model", "agent-path"],
)
def test_a_bad_model_file_is_a_usage_error(args: list[str], said: str) -> None:
    done = run("evaluate_agent.py", *args, "--episodes", "2")
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr


def test_the_shipped_model_scores_its_documented_figure_within_one_percent() -> None:
    documented = json.loads(SHIPPED.with_suffix(".json").read_text())
    played = run("evaluate_agent.py", "--model", str(SHIPPED), "--episodes",
                 str(documented["games"]), "--seed", str(documented["seed"]))  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert mean_of(played.stdout) == pytest.approx(documented["mean"], rel=0.01)
    assert "UNFINISHED" not in played.stdout
    assert (
        f"**{documented['mean']:.2f} ± {documented['standard_error']:.2f}**"
        in (ROOT / "docs" / "rl.md").read_text()
    )
