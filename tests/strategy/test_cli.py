"""``yacht solve``, ``yacht hint`` and ``yacht distribution`` as a user runs them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.strategy.target import TargetTable


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_json_in_a_fresh_process(cache_dir: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "yacht", "solve", "--json"],
        capture_output=True,
        text=True,
        check=True,
        env={"YACHT_CACHE_DIR": cache_dir, "PATH": ""},
    )
    data = json.loads(proc.stdout)
    assert list(data) == ["rules", "expected", "seconds"]
    assert data["rules"] == "traditional"
    assert data["expected"] == pytest.approx(166.9550677, abs=1e-6)


def test_solve_readable_no_cache_and_target(
    capsys: pytest.CaptureFixture[str], targets: TargetTable
) -> None:
    status, out, _ = run(capsys, "solve", "--rules", "knizia", "--no-cache")
    assert status == 0 and out.startswith("knizia: expected final total under optimal play 169.")
    status, out, _ = run(capsys, "solve", "--target", "60", "--json")
    data = json.loads(out)
    assert list(data) == ["rules", "target", "probability"]
    assert data["target"] == 60 and 0.99 < data["probability"] < 1
    status, out, _ = run(capsys, "solve", "--target", "306", "--rules", "knizia", "--json")
    assert json.loads(out)["probability"] == 0.0  # knizia's best sheet is 305


def test_hint_json_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "hint", "--dice", "1", "2", "3", "4", "6", "--rolls-left", "2", "--json"
    )
    data = json.loads(out)
    assert status == 0 and data["best"] == data["options"][0]
    assert data["best"]["action"] == "keep" and data["best"]["keep"] == [1, 2, 3, 4]
    status, out, _ = run(
        capsys, "hint", "--dice", "6", "6", "6", "2", "3", "--rolls-left", "0",
        "--used", "ones,twos", "--upper", "5", "--rules", "clubhouse",
    )  # fmt: skip
    lines = out.splitlines()
    assert status == 0 and "open: threes, fours" in lines[0]
    assert lines[2].startswith("* score ") and "keep" not in out


def test_hint_with_target(capsys: pytest.CaptureFixture[str], targets: TargetTable) -> None:
    status, out, _ = run(
        capsys, "hint", "--dice", "6", "6", "6", "6", "1", "--rolls-left", "1",
        "--used", "ones,twos,threes,fours,fives,sixes,full_house,four_of_a_kind,"
        "little_straight,big_straight,choice", "--target", "150", "--banked", "100", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert status == 0 and data["best"]["keep"] == [6, 6, 6, 6]
    assert data["best"]["probability"] == pytest.approx(1 / 6)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dice", "1", "2", "3", "4", "5", "6", "--rolls-left", "2"], "need five dice"),
        (["--dice", "1", "2", "3", "4", "7", "--rolls-left", "2"], "'7' is not a die face"),
        (["--dice", "1", "2", "3", "4", "5", "--rolls-left", "3"], "invalid choice: 3"),
        (["--dice", "1", "2", "3", "4", "5", "--rolls-left", "1", "--used", "bonus"], "bonus"),
        (
            ["--dice", "1", "2", "3", "4", "5", "--rolls-left", "1", "--used",
             "ones,twos,threes,fours,fives,sixes,full_house,four_of_a_kind,little_straight,"
             "big_straight,choice,yacht"],
            "all categories are used",
        ),
        (["--dice", "1", "2", "3", "4", "5", "--rolls-left", "1", "--upper", "3"], "no upper"),
        (
            ["--dice", "1", "2", "3", "4", "5", "--rolls-left", "1", "--rules", "clubhouse",
             "--used", "ones", "--upper", "7"],
            "upper subtotal 7 is impossible",
        ),
        (["--dice", "1", "2", "3", "4", "5", "--rolls-left", "1", "--banked", "3"], "--target"),
    ],
)  # fmt: skip
def test_hint_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    try:
        status = main(["hint", *argv])
    except SystemExit as e:  # argparse rejects the argument itself
        status = int(str(e.code))
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("yacht: error: ") and message in err


def test_distribution_json_text_and_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(capsys, "distribution", "--json")
    data = json.loads(out)
    assert status == 0 and list(data) == ["mean", "stdev", "percentiles", "probabilities"]
    assert data["mean"] == pytest.approx(166.9550677, abs=1e-6)
    assert len(data["probabilities"]) == 298
    plot = tmp_path / "totals.svg"
    status, out, _ = run(capsys, "distribution", "--plot", str(plot))
    assert status == 0 and "mean 166.9551" in out and "50%: 167" in out
    assert plot.read_text().lstrip().startswith("<?xml") and "<svg" in plot.read_text()
    status, _, err = run(capsys, "distribution", "--plot", str(tmp_path / "totals.gif"))
    assert status == 2 and "must end in .png or .svg" in err
