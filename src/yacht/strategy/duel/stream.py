"""The streaming build: layer by layer from the last turn back to the first, resumable.

A layer needs only the layer after it (table (a)) or the one two after it (table (b), whose
layers are one player's turns). It is computed in single precision into a working file
(``layer-NN.f32.part``), split by movers across ``jobs`` processes that share the layers as
memory maps, then stored as 16-bit fixed point (:mod:`yacht.strategy.duel.store`) and
recorded in the manifest. The single precision file of a layer is kept until the layer that
needs it is finished, so a build that is stopped (killed, interrupted, out of power) starts
again from the last finished layer and writes the same files.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from yacht.rules import Rules, rules_by_name
from yacht.strategy.duel import store
from yacht.strategy.duel.layout import LAYERS, Layout

__all__ = ["Kind", "Progress", "build_layers"]


class Fill(Protocol):
    def __call__(
        self, rules: Rules, n: int, first: int, last: int, after: Any, out: Any
    ) -> None: ...


@dataclass(frozen=True)
class Kind:
    """A table that streams: its name (the directory), the layers it holds, how far ahead a
    layer looks (``step``), each layer's rows and the function that fills them."""

    name: str
    step: int
    layout: Callable[[Rules, int], Layout]
    fill: Fill
    layers: tuple[int, ...] = tuple(range(LAYERS))


@dataclass(frozen=True)
class Progress:
    """Where a build is: layer ``layer`` has ``done`` of its ``size`` values; ``values`` and
    ``seconds`` count every value computed by this run and its time so far."""

    layer: int
    done: int
    size: int
    values: int
    seconds: float
    finished: bool = False


def _chunks(lay: Layout, jobs: int) -> Iterator[tuple[int, int]]:
    """Runs of movers of about equal work, a few per process and never over ~4M values."""
    movers = int(lay.movers.size)
    per_mover = max(1, lay.size // max(1, movers))
    size = max(1, min(movers // (8 * jobs) or 1, (4 << 20) // per_mover))
    for first in range(0, movers, size):
        yield first, min(movers, first + size)


_OPEN: dict[str, Any] = {}


def _task(args: tuple[Kind, Rules, int, int, int, str, str | None, int]) -> int:
    """Fill movers ``first..last-1`` of layer ``n`` (in a worker process, or inline)."""
    kind, rules, n, first, last, out_path, after_path, after_size = args
    lay = kind.layout(rules, n)
    after = None
    if after_path is not None:
        key = f"{after_path}:{after_size}"
        after = _OPEN.get(key)
        if after is None:
            _OPEN.clear()
            after = _OPEN[key] = store.open_layer(Path(after_path), after_size, np.float32)
        if after is None:
            raise RuntimeError(f"layer file {after_path} is missing or truncated")
    lo, hi = lay.mover_span(first)[0], lay.mover_span(last - 1)[1]
    out = np.memmap(out_path, dtype=np.float32, mode="r+", offset=4 * lo, shape=(hi - lo,))
    kind.fill(rules, n, first, last, after, out)
    out.flush()
    del out
    return hi - lo


def build_layers(
    rules: Rules | str,
    kind: Kind,
    *,
    jobs: int = 1,
    lowest: int = 0,
    progress: Callable[[Progress], None] | None = None,
    folder: Path | None = None,
) -> Path:
    """Build (or finish building) the layers of ``kind`` from the last down to ``lowest``;
    the directory holding them. ``progress`` is called after every run of movers."""
    preset = rules_by_name(rules)
    if preset.upper_bonus is not None:
        raise ValueError(
            f"preset {preset.name} has an upper bonus: the two-player table covers presets "
            "without one (traditional, all-dice-four, knizia)"
        )
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number >= 1, got {jobs!r}")
    if not 0 <= lowest < LAYERS:
        raise ValueError(f"lowest layer must be 0 to {LAYERS - 1}, got {lowest!r}")
    folder = folder or store.table_dir(preset, kind.name)
    folder.mkdir(parents=True, exist_ok=True)
    manifest = store.read_manifest(folder)
    manifest.update(rules=preset.name, fingerprint=preset.fingerprint(), kind=kind.name)
    start = time.perf_counter()
    computed = 0
    pool = None
    try:
        for n in sorted((m for m in kind.layers if m >= lowest), reverse=True):
            lay = kind.layout(preset, n)
            if _finished(folder, manifest, n, lay):
                continue
            if pool is None and jobs > 1:
                os.environ["OPENBLAS_NUM_THREADS"] = "1"  # the workers' numpy: one thread each
                pool = multiprocessing.get_context("spawn").Pool(jobs)
            began = time.perf_counter()
            nxt = n + kind.step
            after_path, after_size = None, 0
            if nxt < LAYERS:
                after_size = kind.layout(preset, nxt).size
                after_file = store.layer_path(folder, nxt, "f32")
                if store.open_layer(after_file, after_size, np.float32) is None:
                    raise RuntimeError(
                        f"cannot build layer {n}: {after_file} is missing; remove {folder} "
                        "to build the table again"
                    )
                after_path = str(after_file)
            part = store.layer_path(folder, n, "f32.part")
            with open(part, "wb") as f:
                f.truncate(4 * lay.size)
            tasks = [
                (kind, preset, n, a, b, str(part), after_path, after_size)
                for a, b in _chunks(lay, jobs)
            ]
            done = 0
            results = map(_task, tasks) if pool is None else pool.imap_unordered(_task, tasks)
            for got in results:
                done += got
                computed += got
                if progress is not None:
                    progress(Progress(n, done, lay.size, computed, time.perf_counter() - start))
            final = store.layer_path(folder, n, "f32")
            os.replace(part, final)
            values = np.memmap(final, dtype=np.float32, mode="r") if lay.size else np.zeros(0)
            store.write_quantized(store.layer_path(folder, n, "u16"), values)
            del values
            manifest["layers"][str(n)] = {
                "seconds": round(time.perf_counter() - began, 3),
                "values": lay.size,
                "pairs": lay.pairs,
                "jobs": jobs,
            }
            store.write_manifest(folder, manifest)
            if nxt < LAYERS:
                store.layer_path(folder, nxt, "f32").unlink(missing_ok=True)
            if progress is not None:
                seconds = time.perf_counter() - start
                progress(Progress(n, lay.size, lay.size, computed, seconds, finished=True))
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return folder


def _finished(folder: Path, manifest: dict[str, Any], n: int, lay: Layout) -> bool:
    if str(n) not in manifest["layers"]:
        return False
    path = store.layer_path(folder, n, "u16")
    return store.open_layer(path, lay.size, np.uint16) is not None
