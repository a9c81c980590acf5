"""Target play: the best chance of a final total of at least T (being built)."""

from __future__ import annotations

from yacht.rules import Rules

__all__ = ["option_probabilities"]


def option_probabilities(
    rules: Rules,
    mask: int,
    upper: int,
    roll: tuple[int, ...],
    rolls_left: int,
    target: int,
    banked: int,
) -> list[float]:
    """Each hint option's best P(final total >= target); not built yet."""
    raise NotImplementedError("target play is not built yet")
