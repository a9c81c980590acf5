"""Two-player Yacht, solved: the exact value of every heads-up position.

Table (a), :data:`MINIMAX`: the mover maximises its probability of winning (a tie counts
1/2), the other player minimises it. Built layer by layer (:mod:`.stream`) into the cache
directory, stored as 16-bit fixed point and read memory-mapped (:mod:`.store`).
"""

from __future__ import annotations

from yacht.rules import Rules
from yacht.strategy.duel.layout import layout
from yacht.strategy.duel.minimax import fill_movers
from yacht.strategy.duel.stream import Kind, Progress, build_layers

__all__ = ["MINIMAX", "Kind", "Progress", "build_layers", "table_size"]

MINIMAX = Kind("minimax", 1, layout, fill_movers)


def table_size(rules: Rules, kind: Kind, lowest: int = 0) -> int:
    """How many win probabilities the layers ``lowest`` and up of ``kind`` hold."""
    return sum(kind.layout(rules, n).size for n in kind.layers if n >= lowest)
