"""Measured: how long the first strategy table takes on an empty cache, and what each kind of
table costs to build and to keep (the figures behind shipping the solved values in the
package and building the rest before the web server says it is ready).

    python -m benchmarks.tables [--win] [PRESET ...]

For each preset (all by default), in a fresh interpreter on an empty ``$YACHT_CACHE_DIR``:
``first_table_s``, the seconds to the solved values once the package is imported (what the
terminal game's first turn and every bot need; read from the package's shipped copy);
``build_s``, the seconds to build them afresh; and with ``--win`` the seconds to build the
tables the web prepares before it says ready (:func:`yacht.web.service.bots.build_tables`:
P(win) and endgame), then to read them all back from the disk cache as a restarted server
does; with the size of every file the cache holds (MB as written, MB compressed as the
package would ship it). Prints one JSON line with the machine (and its load average: the
machine may be shared). ``--save`` also writes it to ``benchmarks/results/tables.json``
(the figures ``python -m benchmarks.hintflood --report`` puts in the docs).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.machine import machine

FIRST = """
import json, sys, time
from yacht.strategy import solve
start = time.perf_counter()
solution = solve(sys.argv[1])
first = time.perf_counter() - start
start = time.perf_counter()
solve(sys.argv[1], use_cache=False)
print(json.dumps({"first_table_s": first, "build_s": time.perf_counter() - start}))
"""

WIN = """
import json, sys, time
from yacht.web.service.bots import build_tables
print(json.dumps({"seconds": build_tables((sys.argv[1],))}))
"""


def child(code: str, preset: str, cache: str) -> dict[str, Any]:
    env = {**os.environ, "YACHT_CACHE_DIR": cache}
    done = subprocess.run(
        [sys.executable, "-c", code, preset], env=env, capture_output=True, text=True, check=True
    )
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def sizes(folder: Path) -> dict[str, list[float]]:
    out = {}
    for path in sorted(folder.glob("*.npz")):
        with np.load(path) as data:
            packed = io.BytesIO()
            np.savez_compressed(packed, array=data["array"], seconds=data["seconds"])
        mb = path.stat().st_size / 1e6
        out[path.stem] = [round(mb, 2), round(len(packed.getvalue()) / 1e6, 2)]
    return out


def main() -> None:
    from yacht.rules import preset_names

    win = "--win" in sys.argv
    presets = [a for a in sys.argv[1:] if not a.startswith("--")] or preset_names()
    before = machine()
    result: dict[str, Any] = {}
    for preset in presets:
        with tempfile.TemporaryDirectory() as cache:
            row = {k: round(v, 3) for k, v in child(FIRST, preset, cache).items()}
            if win:
                row["web_tables_build_s"] = round(child(WIN, preset, cache)["seconds"], 2)
                row["web_tables_read_s"] = round(child(WIN, preset, cache)["seconds"], 2)
                row["files_mb_and_compressed"] = sizes(Path(cache))
        result[preset] = row
        print(preset, json.dumps(row), file=sys.stderr, flush=True)
    out = json.dumps({"tables": result, "machine": {**before, "after": machine()["load_average"]}})
    print(out)
    if "--save" in sys.argv:
        saved = Path(__file__).resolve().parent / "results" / "tables.json"
        saved.write_text(out + "\n")


if __name__ == "__main__":
    main()
