"""A built duel table, read memory-mapped: the win probability of any heads-up position.

>>> from yacht.rules import rules_by_name
>>> open_table(rules_by_name("traditional"), "no-such-kind")
Traceback (most recent call last):
...
ValueError: unknown duel table 'no-such-kind'

"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Rules, rules_by_name
from yacht.strategy.duel import store
from yacht.strategy.duel.layout import LAYERS, POPCOUNT, RANK, Layout, layout
from yacht.strategy.tables import F64

__all__ = ["DuelTable", "layout_of", "open_table", "read_table"]


@dataclass(frozen=True, eq=False)
class DuelTable:
    """The finished layers ``lowest..23`` of one table (``kind``) of a preset.

    ``layers[n]``: layer n's values as 16-bit fixed point, memory-mapped (see
    :mod:`yacht.strategy.duel.store`); values are within :data:`~.store.ERROR_BOUND` of
    the exact win probability. ``seconds``: the build time of those layers.
    """

    rules: Rules
    kind: str
    folder: Path
    lowest: int
    seconds: float
    layers: dict[int, npt.NDArray[np.uint16]] = field(repr=False)
    lay: dict[int, Layout] = field(repr=False)

    @property
    def size(self) -> int:
        """How many win probabilities the table stores."""
        return sum(int(v.size) for v in self.layers.values())

    def covers(self, mover_used: int, other_used: int) -> bool:
        """Whether the table holds positions with these used-masks (minimax: the mover has
        used as many categories as the other player, or one fewer; the best response: the
        first of the pair is always me, whoever moves)."""
        a, b = int(POPCOUNT[mover_used]), int(POPCOUNT[other_used])
        if a + b == LAYERS:
            return True
        lay = self.lay.get(a + b)
        return lay is not None and (lay.mine, lay.theirs) == (a, b)

    def win_probability(self, mover_used: int, other_used: int, lead: int) -> float:
        """The mover's win probability at the start of its turn (a tie counts 1/2)."""
        if not self.covers(mover_used, other_used):
            a, b = int(POPCOUNT[mover_used]), int(POPCOUNT[other_used])
            raise ValueError(
                f"the {self.kind} table (layers {self.lowest}-{LAYERS - 1}) has no turn with "
                f"{a} and {b} categories used"
            )
        return float(self.values(np.array([mover_used]), np.array([other_used]), lead)[0])

    def values(self, movers: npt.ArrayLike, others: npt.ArrayLike, leads: npt.ArrayLike) -> F64:
        """Win probabilities of many positions of one layer (arrays broadcast together); a
        finished game (both sheets full) is decided by the lead."""
        m, o, d = np.broadcast_arrays(
            np.asarray(movers, dtype=np.int64),
            np.asarray(others, dtype=np.int64),
            np.asarray(leads, dtype=np.int64),
        )
        out: F64 = np.where(d > 0, 1.0, np.where(d < 0, 0.0, 0.5))
        if m.size == 0:
            return out
        n = int(POPCOUNT[m.flat[0]] + POPCOUNT[o.flat[0]])
        if not bool(np.all(POPCOUNT[m] + POPCOUNT[o] == n)):
            raise ValueError("positions of one layer only")
        if n == LAYERS:
            return out
        lay = self.lay.get(n)
        if lay is None or not bool(np.all(POPCOUNT[m] == lay.mine)):
            raise ValueError(f"layer {n} of the {self.kind} table has no such positions")
        low, high = lay.low[RANK[m]], lay.high[RANK[o]]
        inside = (d >= -low) & (d <= high)
        start = lay.offsets[RANK[m] * lay.others.size + RANK[o]]
        index = np.where(inside, start + d + low, 0)
        got = store.dequantize(self.layers[n][index])
        return np.where(inside, got, np.where(d > high, 1.0, 0.0))


_OPEN: dict[tuple[str, str, int], DuelTable] = {}


def layout_of(kind: str) -> Callable[[Rules, int], Layout]:
    """The rows of a table's layers by its name: "minimax", "response-first" or
    "response-second"."""
    if kind == "minimax":
        return layout
    from yacht.strategy.duel.response import response_layout

    seat = kind.removeprefix("response-")
    if seat not in ("first", "second") or not kind.startswith("response-"):
        raise ValueError(f"unknown duel table {kind!r}")
    return functools.partial(response_layout, seat=seat)


def open_table(rules: Rules | str, kind: str, lowest: int = 0) -> DuelTable | None:
    """The table of ``kind`` for a preset if its layers ``lowest`` and up are built (in
    ``$YACHT_CACHE_DIR`` or the user cache dir), else None."""
    preset = rules_by_name(rules)
    key = (preset.fingerprint(), kind, lowest)
    known = _OPEN.get(key)
    if known is not None and known.folder == store.table_dir(preset, kind):
        return known
    table = read_table(preset, kind, store.table_dir(preset, kind), lowest)
    if table is not None:
        _OPEN[key] = table
    return table


def read_table(rules: Rules, kind: str, folder: Path, lowest: int = 0) -> DuelTable | None:
    """The table in ``folder`` if layers ``lowest`` and up are finished there, else None."""
    rows = layout_of(kind)
    manifest = store.read_manifest(folder)
    if manifest.get("fingerprint") not in (None, rules.fingerprint()):
        return None
    done: dict[str, Any] = manifest["layers"]
    layers: dict[int, npt.NDArray[np.uint16]] = {}
    lays: dict[int, Layout] = {}
    for n in range(lowest, LAYERS):
        if str(n) not in done:
            return None
        lays[n] = rows(rules, n)
        got = store.open_layer(store.layer_path(folder, n, "u16"), lays[n].size, np.uint16)
        if got is None:
            return None
        layers[n] = got
    seconds = sum(float(done[str(n)]["seconds"]) for n in layers)
    return DuelTable(rules, kind, folder, lowest, seconds, layers, lays)
