"""The tables that come with the package: every preset's solved values.

    python -m yacht.strategy.shipping

rebuilds them into :data:`yacht.strategy.cache.SHIPPED` (run it when a preset or the solver
changes: a test says when the shipped files no longer match the presets).
"""

from __future__ import annotations

import time
from pathlib import Path

from yacht.rules import preset_names, rules_by_name
from yacht.strategy import cache
from yacht.strategy.solver import _FORMAT, build_values
from yacht.strategy.tables import score_table

__all__ = ["main", "shipped_keys"]


def shipped_keys() -> dict[str, str]:
    """The cache key of each preset's solved values, by preset name."""
    return {
        name: f"values-{rules_by_name(name).fingerprint()}-v{_FORMAT}" for name in preset_names()
    }


def main() -> list[Path]:
    for old in cache.SHIPPED.glob("*.npz"):
        old.unlink()
    written = []
    for name, key in shipped_keys().items():
        start = time.perf_counter()
        values = build_values(score_table(rules_by_name(name)))
        seconds = time.perf_counter() - start
        path = cache.ship(key, values, seconds)
        print(f"{name}: {path.name}, {path.stat().st_size / 1e6:.2f} MB, built in {seconds:.1f} s")
        written.append(path)
    return written


if __name__ == "__main__":
    main()
