"""The game in progress, saved after every action so ``yacht play --resume`` continues it.

One file, ``current-game.json`` in the data directory, written atomically (temporary file, then
rename), holding the table settings and ``Game.to_json()``; the dice source's description is
part of the game JSON, so a resumed game rolls exactly the dice it would have rolled.

>>> import tempfile
>>> from yacht.dice import ScriptedDice
>>> from yacht.game import Game
>>> from yacht.tui.seats import TableConfig
>>> folder = Path(tempfile.mkdtemp())
>>> game = Game(["You", "Medium bot"], dice=ScriptedDice([6, 6, 6, 5, 5]))
>>> _ = game.apply("roll")
>>> write_save(folder, TableConfig.default(), game)
>>> config, again = read_save(folder)
>>> again.to_json() == game.to_json() and again.dice == (6, 6, 6, 5, 5)
True
>>> clear_save(folder); read_save(folder) is None
True
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from yacht.game import Game
from yacht.tui.seats import TableConfig

__all__ = [
    "SAVE_FORMAT",
    "clear_save",
    "read_cursor",
    "read_save",
    "save_path",
    "write_save",
]

SAVE_FORMAT = "yacht-tui-save"
SAVE_VERSION = 1


def save_path(folder: Path) -> Path:
    return folder / "current-game.json"


def write_save(folder: Path, config: TableConfig, game: Game, *, cursor: int | None = None) -> None:
    """Save the game in progress (atomically: a crash never leaves half a file), with the
    sheet cursor's row when given."""
    folder.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "config": config.to_json(),
        "game": game.to_json(),
    }
    if cursor is not None:
        data["cursor"] = cursor
    path = save_path(folder)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def read_save(folder: Path) -> tuple[TableConfig, Game] | None:
    """The saved game and its settings, or None when there is none.

    A damaged save raises ValueError naming the file.
    """
    path = save_path(folder)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
            raise ValueError("not a saved yacht game")
        return TableConfig.from_json(data["config"]), Game.from_json(data["game"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"cannot resume from {path}: {e}") from None


def read_cursor(folder: Path) -> int | None:
    """The sheet cursor's row (0-11) of the saved game, or None when not saved."""
    try:
        cursor = json.loads(save_path(folder).read_text(encoding="utf-8")).get("cursor")
    except (OSError, ValueError, AttributeError):
        return None
    return cursor if isinstance(cursor, int) and 0 <= cursor < 12 else None


def clear_save(folder: Path) -> None:
    save_path(folder).unlink(missing_ok=True)
