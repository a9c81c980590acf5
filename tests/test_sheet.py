"""The score sheet's rows, the one source both the plain game and the terminal game render."""

from __future__ import annotations

from yacht import Game, ScriptedDice
from yacht.cli.plain import PlainGame
from yacht.rules import CATEGORIES, UPPER_CATEGORIES, Category
from yacht.sheet import Row, sheet_rows


def layout(game: Game) -> list[str]:
    return [r.kind if r.category is None else r.category.value for r in sheet_rows(game)]


def test_rows_in_sheet_order_with_the_bonus_after_the_upper_section() -> None:
    names = [c.value for c in CATEGORIES]
    assert layout(Game(["Ann"], "traditional")) == [*names, "total"]
    assert layout(Game(["Ann"], "clubhouse")) == [*names[:6], "bonus", *names[6:], "total"]


def test_only_the_player_on_turn_sees_what_the_dice_would_score_in_open_boxes() -> None:
    g = Game(["Ann", "Bob"], dice=ScriptedDice([6, 6, 6, 5, 5, 1, 1, 1, 1, 1]))
    assert all(cell == "" for r in sheet_rows(g)[:-1] for cell in r.cells)  # before a roll
    g.apply("roll")
    rows = {r.category: r.cells for r in sheet_rows(g)}
    assert rows[Category.FULL_HOUSE] == ("(28)", "")
    assert rows[Category.YACHT] == ("(0)", "")
    g.apply("score full_house")
    g.apply("roll")
    rows = {r.category: r.cells for r in sheet_rows(g)}
    assert rows[Category.FULL_HOUSE] == ("28", "(0)")
    assert rows[Category.YACHT] == ("", "(50)")
    assert sheet_rows(g)[-1] == Row("total", None, ("28", "0"))


def play_upper(faces: list[int]) -> Game:
    """One clubhouse player who scores ``faces[i]`` dice of face i + 1 in each upper box."""
    dice = []
    for face, count in zip(range(1, 7), faces, strict=True):
        other = 1 if face != 1 else 2
        dice += [face] * count + [other] * (5 - count)
    g = Game(["Ann"], "clubhouse", ScriptedDice(dice + [2, 3, 4, 5, 6] * 6))
    for category in UPPER_CATEGORIES:
        g.apply("roll")
        g.apply(f"score {category.value}")
    return g


def bonus(game: Game) -> str:
    return next(r.cells[0] for r in sheet_rows(game) if r.kind == "bonus")


def test_the_bonus_box_shows_progress_then_the_bonus_or_zero() -> None:
    g = Game(["Ann"], "clubhouse", ScriptedDice([4, 4, 4, 1, 2]))
    assert bonus(g) == "0/63"
    g.apply("roll")
    g.apply("score fours")
    assert bonus(g) == "12/63"
    earned = play_upper([3, 3, 3, 3, 3, 3])  # 63 exactly
    assert bonus(earned) == "35" and earned.totals == [98]
    missed = play_upper([3, 3, 3, 3, 3, 2])  # 57: every upper box filled, no bonus
    assert bonus(missed) == "0" and missed.totals == [57]


def test_the_plain_sheet_prints_the_rows() -> None:
    g = play_upper([3, 3, 3, 3, 3, 2])
    g.apply("roll")
    text = PlainGame(g).render_sheet()
    lines = [line for line in text.splitlines() if "|" in line][1:]  # the player header off
    for row, line in zip(sheet_rows(g), lines, strict=True):
        assert tuple(cell.strip() for cell in line.split("|")[1:]) == (row.cells[0],)
    assert "Sixes           |     12\nBonus           |      0\nFull House      |    (0)" in text
