"""The strategy tables for the browser: every preset's solved values and its rules as data,
static files that the web game's turn solver in JavaScript (``static/js/solver.js``) reads.

    python -m yacht.strategy.browser

writes :data:`TABLES` (``yacht/web/static/tables/``, served at ``static/tables/``):

``index.json``
    the sheet's categories in order and, for every preset, its name and fingerprint, one
    scorer per category as data (``{"kind": "Straight", "length": 5, "starts": [1],
    "points": 30}``: the scorer's class and fields, :func:`scorer_data`), the upper bonus
    (``{"threshold": 63, "points": 35}`` or null), the expected score of a new game and the
    name, shape, size and SHA-256 of its values file;
``values-<fingerprint>-v1.bin``
    the preset's turn-start values, the very numbers of the table that ships with the package
    (:mod:`yacht.strategy.shipping`, which :func:`yacht.strategy.solve` reads on an empty
    cache), as little-endian float64 in ``[mask, upper]`` order (``mask * uppers + upper``;
    ``uppers`` is the bonus threshold + 1, or 1 without a bonus).

Run it after ``python -m yacht.strategy.shipping`` (a preset or the solver changed): a test
fails while the files differ from what this writes.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from yacht.rules import CATEGORIES, Rules, rules_by_name
from yacht.scorers import Scorer
from yacht.strategy import cache
from yacht.strategy.shipping import shipped_keys
from yacht.strategy.tables import F64, FULL, score_table

__all__ = [
    "FORMAT",
    "SCORERS",
    "TABLES",
    "browser_files",
    "main",
    "rules_data",
    "scorer_data",
    "write",
]

TABLES = Path(__file__).parents[1] / "web" / "static" / "tables"
"""Where the browser's files live in the package (the web face serves them as static files)."""

FORMAT = 1
"""The version of the files' layout; ``solver.js`` refuses an index of another format."""

SCORERS = ("FaceSum", "FullHouse", "OfAKind", "Straight", "Choice", "YachtScorer")
"""The scorer kinds ``solver.js`` knows how to score (one function each, from the same fields)."""


def scorer_data(scorer: Scorer) -> dict[str, Any]:
    """A scorer as JSON data: its kind (the class name) and its fields.

    >>> from yacht.scorers import Straight
    >>> scorer_data(Straight(4, (1, 2, 3), 15))
    {'kind': 'Straight', 'length': 4, 'starts': [1, 2, 3], 'points': 15}
    """
    kind = type(scorer).__name__
    if kind not in SCORERS or not dataclasses.is_dataclass(scorer):
        raise ValueError(
            f"solver.js cannot score a {kind} ({scorer!r}): it knows {', '.join(SCORERS)} "
            "(teach it the new kind, then add it to yacht.strategy.browser.SCORERS)"
        )
    data: dict[str, Any] = {"kind": kind}
    for f in dataclasses.fields(scorer):
        value = getattr(scorer, f.name)
        data[f.name] = list(value) if isinstance(value, tuple) else value
    return data


def rules_data(rules: Rules) -> dict[str, Any]:
    """A preset as JSON data: name, fingerprint, a scorer per category (sheet order), bonus.

    >>> data = rules_data(rules_by_name("clubhouse"))
    >>> data["upper_bonus"], data["scorers"][0]
    ({'threshold': 63, 'points': 35}, {'kind': 'FaceSum', 'face': 1})
    """
    b = rules.upper_bonus
    return {
        "name": rules.name,
        "fingerprint": rules.fingerprint(),
        "scorers": [scorer_data(rules.scorers[c]) for c in CATEGORIES],
        "upper_bonus": None if b is None else {"threshold": b.threshold, "points": b.points},
    }


def _shipped_values(name: str, key: str) -> F64:
    """The values file that ships with the package (never a user's cache, whose numpy may have
    added in another order)."""
    path = cache.SHIPPED / f"{key}.npz"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run python -m yacht.strategy.shipping first")
    with np.load(path, allow_pickle=False) as data:
        values: F64 = np.asarray(data["array"], dtype=np.float64)
    shape = (FULL + 1, score_table(rules_by_name(name)).uppers)
    if values.shape != shape or not np.isfinite(values).all():
        raise ValueError(f"{path} does not hold {shape} finite values")
    return values


def browser_files() -> dict[str, bytes]:
    """Every file of :data:`TABLES` by name, made in memory (nothing is written)."""
    files: dict[str, bytes] = {}
    presets = []
    for name, key in shipped_keys().items():
        rules = rules_by_name(name)
        data = rules_data(rules)  # first: a scorer solver.js cannot score stops everything
        values = _shipped_values(name, key)
        raw = values.astype("<f8").tobytes(order="C")
        file = f"{key}.bin"
        files[file] = raw
        presets.append(
            data
            | {
                "expected": float(values[0, 0]),
                "values": {
                    "file": file,
                    "masks": values.shape[0],
                    "uppers": values.shape[1],
                    "bytes": len(raw),
                    "sha256": hashlib.sha256(raw).hexdigest(),
                },
            }
        )
    index = {"format": FORMAT, "categories": [c.value for c in CATEGORIES], "presets": presets}
    files["index.json"] = (json.dumps(index, indent=1) + "\n").encode()
    return files


def write(directory: Path = TABLES) -> dict[str, bytes]:
    """Write :func:`browser_files` into ``directory``, removing values files no preset uses.

    Every file is made before any is written, so a failure leaves the directory as it was.
    """
    files = browser_files()
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("*.bin"):
        if old.name not in files:
            old.unlink()
    for name, content in files.items():
        path = directory / name
        if not path.exists() or path.read_bytes() != content:
            path.write_bytes(content)
    return files


def main() -> None:
    files = write()
    index = json.loads(files["index.json"])
    print(f"{TABLES}:")
    for preset in index["presets"]:
        raw = files[preset["values"]["file"]]
        packed = len(gzip.compress(raw, compresslevel=6, mtime=0))  # a web server's usual level
        print(
            f"  {preset['name']:<14} {preset['values']['file']}: "
            f"{len(raw):,} bytes, {packed:,} gzip-compressed"
        )
    print(f"  index.json: {len(files['index.json']):,} bytes")


if __name__ == "__main__":
    main()
