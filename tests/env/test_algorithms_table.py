"""examples/algorithms_table.py: the algorithms table in docs/rl.md is its runs' files."""

from __future__ import annotations

import importlib.util
import json
import math
import statistics
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "algorithms_table.py"
RUNS = ROOT / "examples" / "runs" / "algorithms"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("algorithms_table", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_run(folder: Path, algo: str, seed: int, mean: float, unfinished: int) -> None:
    run = folder / f"{algo}-s{seed}"
    run.mkdir(parents=True)
    meta = {"algo": algo, "seed": seed, "cpu_minutes": 8.0, "steps": 1_000_000 * (seed + 1)}
    (run / "run.json").write_text(json.dumps(meta))
    evaluation = {"games": 1000, "mean": mean, "unfinished_games": unfinished,
                  "loss_per_decision": 1.0 + seed}  # fmt: skip
    (run / "evaluation.json").write_text(json.dumps(evaluation))
    (run / "curve.csv").write_text("steps,cpu_minutes,mean,se,illegal\n16,0.0,1.0,0.1,1000\n")


def test_the_docs_table_is_the_committed_runs() -> None:
    assert script().main([str(RUNS), "--check"]) == 0


def test_the_table_is_computed_from_the_runs(tmp_path: Path) -> None:
    means = [100.0, 110.0, 125.0]
    for seed, mean in enumerate(means):
        fake_run(tmp_path, "dqn", seed, mean, unfinished=3 if seed == 2 else 0)
    fake_run(tmp_path, "maskable-ppo", 0, 150.0, unfinished=0)
    text = script().table(tmp_path)
    dqn = next(line for line in text.splitlines() if line.startswith("| DQN"))
    se = statistics.stdev(means) / math.sqrt(3)
    assert f"| {statistics.fmean(means):.2f} ± {se:.2f} |" in dqn
    assert "| 100.0, 110.0, 125.0 | 3 of 3,000 | 2.000 |" in dqn  # loss: the seeds' mean
    assert "| 2.0 M |" in dqn  # steps: the mean of 1, 2 and 3 million
    assert "| 0 of 3 seeds |" in dqn  # 125 is above the greedy bot, but 3 games ended illegally
    assert "| MaskablePPO (sb3-contrib) | 1 |" in text and "| 1 of 1 seeds |" in text
    assert text.index("MaskablePPO") < text.index("DQN")  # a fixed order, not the files'


def test_a_folder_without_runs_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        script().main([str(tmp_path), "--check"])
    assert exited.value.code == 2 and "no runs" in capsys.readouterr().err
