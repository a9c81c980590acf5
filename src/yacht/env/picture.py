"""The ``rgb_array`` rendering: a small picture of the dice and the sheet, drawn with numpy.

The picture is ``uint8[height, width, 3]`` (:data:`HEIGHT` x :data:`WIDTH`), on a green table:

* the five dice in a row, white with black pips (a pip is a :data:`PIP` x :data:`PIP` square,
  so a die shows ``face * PIP**2`` black pixels), then one yellow dot per roll left;
* the sheet, one row per category in sheet order (ones .. yacht): a filled category shows its
  points as digits and a blue bar (points / the category's best); an open one is grey, with a
  pale bar of what the dice on the table would score in it;
* the total in digits at the bottom.

No fonts and no plotting library: digits come from a 3x5 bitmap.

>>> from yacht.dice import ScriptedDice
>>> game = Game(["A"], dice=ScriptedDice([6, 6, 6, 5, 5]))
>>> _ = game.apply("roll")
>>> image = picture(game)
>>> image.shape, image.dtype.name
((220, 208, 3), 'uint8')
>>> [int(dark_pixels(image, die)) // PIP**2 for die in range(5)]
[6, 6, 6, 5, 5]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from yacht.env.spaces import _bounds
from yacht.game import Game
from yacht.rules import CATEGORIES

__all__ = ["HEIGHT", "PIP", "WIDTH", "dark_pixels", "picture"]

Image = npt.NDArray[np.uint8]

DIE, GAP, PIP = 32, 8, 6
ROW = 12  # sheet row height
DICE_TOP, SHEET_TOP = GAP, GAP + DIE + GAP + 8
WIDTH = GAP + 5 * (DIE + GAP)
HEIGHT = SHEET_TOP + ROW * (len(CATEGORIES) + 1) + GAP

TABLE = (22, 96, 52)
WHITE, BLACK, YELLOW = (250, 250, 245), (10, 10, 10), (240, 200, 40)
OPEN, FILLED, BAR, PALE = (120, 130, 125), (235, 235, 230), (40, 80, 200), (170, 190, 235)

# Pip centres on a 3x3 grid (row, column), per face.
_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (0, 2), (2, 0), (2, 2)],
    5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
    6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)],
}
_DIGITS = [
    "111101101101111",
    "010110010010111",
    "111001111100111",
    "111001111001111",
    "101101111001001",
    "111100111001111",
    "111100111101111",
    "111001001001001",
    "111101111101111",
    "111101111001111",
]


def _box(image: Image, top: int, left: int, h: int, w: int, color: tuple[int, int, int]) -> None:
    image[top : top + h, left : left + w] = color


def _die(image: Image, left: int, face: int) -> None:
    _box(image, DICE_TOP, left, DIE, DIE, WHITE)
    step = (DIE - 2 * 4 - PIP) // 2
    for r, c in _PIPS[face]:
        _box(image, DICE_TOP + 4 + r * step, left + 4 + c * step, PIP, PIP, BLACK)


def _number(image: Image, top: int, right: int, value: int, color: tuple[int, int, int]) -> None:
    """``value`` in 3x5 digits scaled twice, its right edge at ``right``."""
    text = str(value)
    left = right - len(text) * 8 + 2
    for k, ch in enumerate(text):
        bits = _DIGITS[int(ch)] if ch.isdigit() else "0" * 15
        for i, bit in enumerate(bits):
            if bit == "1":
                _box(image, top + 2 * (i // 3), left + 8 * k + 2 * (i % 3), 2, 2, color)


def dark_pixels(image: Image, die: int) -> int:
    """How many black pixels the ``die``-th die (0-based) shows: ``face * PIP**2``."""
    left = GAP + die * (DIE + GAP)
    region = image[DICE_TOP : DICE_TOP + DIE, left : left + DIE]
    return int(np.all(region == BLACK, axis=-1).sum())


def picture(game: Game, player: int = 0) -> Image:
    """The dice on the table and ``player``'s sheet; see the module docstring."""
    image = np.empty((HEIGHT, WIDTH, 3), dtype=np.uint8)
    image[:] = TABLE
    dice = None if game.finished else game.dice
    if dice is not None:
        for k, face in enumerate(dice):
            _die(image, GAP + k * (DIE + GAP), face)
        for k in range(game.rolls_left):
            _box(image, DICE_TOP + DIE + 4, GAP + k * 10, 6, 6, YELLOW)
    best, _ = _bounds(game.rules)
    sheet = game.sheet(player)
    digits_right = GAP + 3 * 8
    bar_left, bar_width = digits_right + 6, WIDTH - digits_right - 6 - GAP
    for c in CATEGORIES:
        top = SHEET_TOP + c.index * ROW
        filled = c in sheet
        _box(image, top, GAP, ROW - 2, WIDTH - 2 * GAP, FILLED if filled else OPEN)
        if filled:
            points, color = sheet[c], BAR
            _number(image, top, digits_right, points, BLACK)
        else:
            points = game.rules.score(dice, c) if dice is not None else 0
            color = PALE
        if points:
            length = max(1, round(bar_width * points / best[c.index]))
            _box(image, top + 2, bar_left, ROW - 6, length, color)
    total_top = SHEET_TOP + len(CATEGORIES) * ROW + 1
    _number(image, total_top, WIDTH - GAP, game.rules.total(sheet), WHITE)
    return image
