"""Snapshots (SVG) of the setup, table and end screens in English and Finnish: 80x24, and
the table at 120x40 and 200x50 too.

Regenerate after a deliberate change of the look with ``pytest tests/tui --snapshot-update``
and look at the SVGs in ``tests/tui/__snapshots__`` before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from yacht.tui.app import YachtApp
from yacht.tui.seats import TableConfig

from .conftest import faces
from .helpers import plain_game, saved_app, settle

Compare = Callable[..., bool]
LANGS = ["en", "fi"]


async def _settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


@pytest.mark.parametrize("lang", LANGS)
def test_setup_screen(snap_compare: Compare, tmp_path: Path, lang: str) -> None:
    app = YachtApp(data_dir=tmp_path, lang=lang)
    assert snap_compare(app, terminal_size=(80, 24))


@pytest.mark.parametrize(
    "size", [(80, 24), (120, 40), (200, 50)], ids=lambda s: "x".join(map(str, s))
)
@pytest.mark.parametrize("lang", LANGS)
def test_table_screen_mid_turn_with_hint(
    snap_compare: Compare, tmp_path: Path, lang: str, size: tuple[int, int]
) -> None:
    """Round 5: two dice held after the second roll, the hint panel open; from 110x34 the
    dice are large and the sheet and panels take the room."""
    config = TableConfig.default(lang)
    game = plain_game(config, faces(), scorings=8)
    for action in ("roll", "hold 1 2", "roll"):
        game.apply(action)
    app = saved_app(tmp_path, config, game)

    async def open_hint(pilot: Pilot[None]) -> None:
        await pilot.press("h")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=open_hint)


@pytest.mark.parametrize("lang", LANGS)
def test_end_screen_with_review(snap_compare: Compare, tmp_path: Path, lang: str) -> None:
    """The bot's forced last scoring (no rolls left, one box open) ends the game: ranking, the
    person's review, the record."""
    config = TableConfig.default(lang)
    game = plain_game(config, faces(), scorings=24)
    assert game.rolls_left == 0 and len(game.sheet(1)) == 11
    app = saved_app(tmp_path, config, game)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settled)
