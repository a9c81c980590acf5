"""The duel tables on disk: one directory per table and preset, one file per layer.

Each finished layer is a raw file of unsigned 16-bit fixed point numbers (``layer-NN.u16``,
a win probability ``p`` stored as ``round(p * 65535)``), read back memory-mapped so several
processes share one copy. A layer is computed in single precision from the single precision
values of the layer after it (``layer-NN.f32``, kept only for the layer the build continues
from), so storing loses at most :data:`ROUNDING` per value and the rounding never compounds.
``manifest.json`` lists the finished layers; a layer missing from it is built again.

>>> import numpy as np
>>> q = quantize(np.array([0.0, 0.5, 1 / 3, 1.0], dtype=np.float32))
>>> q.tolist(), [round(float(v), 6) for v in dequantize(q)]
([0, 32768, 21845, 65535], [0.0, 0.500008, 0.333333, 1.0])
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Rules
from yacht.strategy import cache

__all__ = [
    "ERROR_BOUND",
    "FORMAT",
    "LAYER_ERROR",
    "ROUNDING",
    "SCALE",
    "dequantize",
    "error_bound",
    "quantize",
    "read_manifest",
    "table_dir",
    "write_manifest",
]

FORMAT = 1
SCALE = 65535
ROUNDING = 0.5 / SCALE
"""The most a stored value differs from the value computed (half a step of 1/65535)."""

LAYER_ERROR = 2.5e-7
"""The most single precision arithmetic adds to a value's error in one layer (a turn's
averages over 6 faces, 5 times, twice; measured up to 1.2e-7 on the endgame layers)."""

ERROR_BOUND = ROUNDING + 24 * LAYER_ERROR
"""The most a stored value of any layer differs from the exact win probability (about
1.4e-5): the rounding to 16 bits plus single precision errors, which a turn's averages and
maxima carry from layer to layer without growing them. See :func:`error_bound`."""


def error_bound(n: int) -> float:
    """The bound for layer ``n`` (0..23): built from ``24 - n`` layers of arithmetic."""
    return ROUNDING + (24 - n) * LAYER_ERROR


U16 = npt.NDArray[np.uint16]
F32 = npt.NDArray[np.float32]


def quantize(values: npt.NDArray[Any]) -> U16:
    """Win probabilities as 16-bit fixed point (nearest step; clipped to [0, 1])."""
    scaled = np.clip(np.asarray(values, dtype=np.float64), 0.0, 1.0) * SCALE
    return np.rint(scaled).astype(np.uint16)


def dequantize(stored: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    """16-bit fixed point back to win probabilities."""
    return np.asarray(stored, dtype=np.float64) * (1.0 / SCALE)


def table_dir(rules: Rules, kind: str) -> Path:
    """Where a preset's table of ``kind`` ("minimax" or "response") lives."""
    return cache.cache_dir() / f"duel-{kind}-{rules.fingerprint()}-v{FORMAT}"


def layer_path(folder: Path, n: int, suffix: str) -> Path:
    return folder / f"layer-{n:02d}.{suffix}"


def read_manifest(folder: Path) -> dict[str, Any]:
    """The finished layers (``{"layers": {"23": {"seconds": s, "values": v}, ...}}``); an
    unreadable or missing manifest is an empty one."""
    try:
        data = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return {"format": FORMAT, "layers": {}}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {"format": FORMAT, "layers": {}}
    data.setdefault("layers", {})
    return data


def write_manifest(folder: Path, data: dict[str, Any]) -> None:
    """Replace the manifest atomically (a reader sees the old one or the new one)."""
    _atomic_write(folder / "manifest.json", json.dumps(data, indent=1, sort_keys=True).encode())


def write_array(path: Path, array: npt.NDArray[Any], *, chunk: int = 1 << 24) -> None:
    """Write a raw array atomically, in chunks (the source may be a memory map)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            for lo in range(0, array.size, chunk):
                np.ascontiguousarray(array[lo : lo + chunk]).tofile(f)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_quantized(path: Path, values: npt.NDArray[Any], *, chunk: int = 1 << 24) -> None:
    """Write single precision values as a 16-bit layer file, atomically."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            for lo in range(0, values.size, chunk):
                quantize(values[lo : lo + chunk]).tofile(f)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def open_layer(path: Path, size: int, dtype: npt.DTypeLike) -> npt.NDArray[Any] | None:
    """A layer file memory-mapped read-only, or None if it is missing or the wrong size."""
    try:
        if path.stat().st_size != size * np.dtype(dtype).itemsize:
            return None
    except OSError:
        return None
    if size == 0:
        return np.zeros(0, dtype=dtype)
    return np.memmap(path, dtype=dtype, mode="r", shape=(size,))
