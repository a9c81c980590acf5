"""The terminal game: how fast the app starts, applies and redraws actions, saves, and keeps
records.

Rows: app start to a drawn setup screen, and to the first drawn table (headless, 80x24); a
2-bot game played through the app with no bot pause (actions per second, each one applied,
saved, logged and redrawn; the medium and hard bots decide from the exact tables); one save
of the game in progress; storing a finished game, listing the 20 latest of 200 and the top 10
scores.

Run: ``python -m benchmarks.tui`` (or ``make bench``).
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from yacht.bots import make_bot
from yacht.dice import RandomDice
from yacht.game import Game
from yacht.tui.app import YachtApp
from yacht.tui.records import Records
from yacht.tui.saves import write_save
from yacht.tui.seats import Seat, TableConfig

SIZE = (80, 24)


def _bot_game(seed: int) -> Game:
    game = Game(["Ann", "Bob"], dice=RandomDice(seed))
    bot, rng = make_bot("greedy"), random.Random(seed)
    while not game.finished:
        game.apply(bot.act(game.view(), rng))
    return game


async def _app_rows(folder: Path) -> list[tuple[str, str]]:
    rows = []
    start = time.perf_counter()
    app = YachtApp(data_dir=folder / "a", lang="en", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        setup = time.perf_counter() - start
        await pilot.press("enter")
        await pilot.pause()
        table = time.perf_counter() - start
    rows.append(("app start -> setup screen drawn", f"{setup * 1000:.0f} ms"))
    rows.append(("app start -> first table drawn", f"{table * 1000:.0f} ms"))

    config = TableConfig((Seat("Medium", "medium"), Seat("Hard", "hard")), lang="en")
    app = YachtApp(config, dice=RandomDice(7), data_dir=folder / "b", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        start = time.perf_counter()
        await pilot.press("enter")
        while app.table is None or not app.table.game.finished:
            await pilot.pause(0.05)
        await app.workers.wait_for_complete()
        elapsed = time.perf_counter() - start
        actions = app.table.game.version
    rows.append(
        ("bots-only game through the app", f"{actions / elapsed:.0f} actions/s ({actions})")
    )
    return rows


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = asyncio.run(_app_rows(folder))

        game = Game(["Ann", "Bob"], dice=RandomDice(1))
        game.apply("roll")
        config = TableConfig((Seat("Ann"), Seat("Bob")))
        n, start = 200, time.perf_counter()
        for _ in range(n):
            write_save(folder / "s", config, game)
        rows.append(
            ("save the game in progress", f"{(time.perf_counter() - start) / n * 1000:.2f} ms")
        )

        records = Records(folder / "records.sqlite3")
        seats = [Seat("Ann"), Seat("Bob", "greedy")]
        games = [_bot_game(seed) for seed in range(200)]
        start = time.perf_counter()
        for g in games:
            records.add(g, seats)
        add = (time.perf_counter() - start) / len(games)
        start = time.perf_counter()
        records.games(20)
        listing = time.perf_counter() - start
        start = time.perf_counter()
        records.high_scores(10)
        best = time.perf_counter() - start
        rows.append(("store a finished game", f"{add * 1000:.2f} ms"))
        rows.append(("list 20 latest of 200 games", f"{listing * 1000:.1f} ms"))
        rows.append(("top 10 scores of 400", f"{best * 1000:.2f} ms"))

    print("Terminal game (python -m benchmarks.tui)")
    for label, figure in rows:
        print(f"  {label:<36} {figure}")


if __name__ == "__main__":
    main()
