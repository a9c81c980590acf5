"""The bots' marks on the skill scale: runs ``yacht skill --marks --json`` and writes its output
(with the machine and the command) to benchmarks/results/skill_marks.json, and the table
docs/strategy/skill.md includes to benchmarks/results/skill_marks.md.

    python -m benchmarks.skill_marks [GAMES] [SEED]    (default: 1000 games, seed 1)
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.machine import machine

RESULTS = Path(__file__).parent / "results"


def flag_check(games: int, seed: int, draws: int = 100_000) -> dict[str, Any]:
    """What the flag would do to a player as good as the ``hard`` bot: its per-game losses
    over the same games as the table, and ``draws`` stretches of 20 of them drawn at random
    (with replacement) against the bound."""
    from yacht.skill import FLAG_GAMES, FLAG_LOSS, bot_mark

    losses = bot_mark("hard", games=games, seed=seed).losses
    rng = random.Random(seed)
    means = [statistics.fmean(rng.choices(losses, k=FLAG_GAMES)) for _ in range(draws)]
    return {
        "bot": "hard",
        "games": len(losses),
        "mean": statistics.fmean(losses),
        "stdev": statistics.stdev(losses),
        "lowest_game": min(losses),
        "games_below_bound": sum(x < FLAG_LOSS for x in losses),
        "draws": draws,
        "lowest_drawn_mean": min(means),
        "flagged_draws": sum(m < FLAG_LOSS for m in means),
        "bound": FLAG_LOSS,
        "window": FLAG_GAMES,
    }


def table(run: dict[str, Any]) -> str:
    """The marks as a Markdown table, with the command and the machine under it."""
    lines = [
        "| bot | mean total | played like (N) | total - N (luck) | points lost a game "
        "| accuracy | lowest mean loss, 20 games in a row |",
        "|---|---|---|---|---|---|---|",
    ]
    for m in run["output"]["marks"]:
        window = m["lowest_window_loss"]
        lines.append(
            f"| `{m['bot']}` | {m['score']:.1f} ± {m['score_se']:.1f} "
            f"| {m['played_like']:.1f} ± {m['played_like_se']:.1f} "
            f"| {m['luck']:+.1f} ± {m['luck_se']:.1f} | {m['loss']:.2f} "
            f"| {m['accuracy']:.1f}% | {'-' if window is None else f'{window:.2f}'} |"
        )
    box = run["machine"]
    flag = run["flag_check"]
    lines += [
        "",
        f"The flag against `hard`: per-game loss {flag['mean']:.2f} (standard deviation "
        f"{flag['stdev']:.2f}, lowest {flag['lowest_game']:.2f}; {flag['games_below_bound']} of "
        f"{flag['games']} games below {flag['bound']:g}); {flag['draws']:,} stretches of "
        f"{flag['window']} of its games drawn at random: lowest mean "
        f"{flag['lowest_drawn_mean']:.2f}, {flag['flagged_draws']} flagged.",
        "",
        f"`{run['command']}` ({run['output']['games']} games per bot, optimum "
        f"{run['output']['optimum']:.2f}; {run['seconds']:.0f} s on {box['cpu']}, "
        f"{box['cores']} cores, Python {box['python']}).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    games = argv[0] if argv else "1000"
    seed = argv[1] if len(argv) > 1 else "1"
    args = ["skill", "--marks", "--games", games, "--seed", seed, "--json"]
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "yacht", *args], capture_output=True, text=True, check=True
    )
    run = {
        "command": "yacht " + " ".join(args),
        "seconds": time.perf_counter() - began,
        "machine": machine(),
        "output": json.loads(done.stdout),
        "flag_check": flag_check(int(games), int(seed)),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "skill_marks.json").write_text(json.dumps(run, indent=1) + "\n")
    (RESULTS / "skill_marks.md").write_text(table(run))
    print(table(run))


if __name__ == "__main__":
    main()
