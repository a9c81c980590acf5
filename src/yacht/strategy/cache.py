"""The on-disk cache of solved tables.

Files live in ``$YACHT_CACHE_DIR`` if set, else in platformdirs' user cache dir for "yacht",
named by a key that holds the preset's fingerprint (its scoring behaviour, not its name).
A missing, unreadable or corrupt file is a cache miss: the table is rebuilt and rewritten.
Writes are atomic (a temporary file renamed into place) and failures to write are ignored.

The solved values of every preset also come with the package (:data:`SHIPPED`, 1.4 MB
compressed; ``python -m yacht.strategy.shipping`` writes them): a key missing from the cache is
read from there, so a first game's table is ready at once on an empty cache (the clubhouse
rules' took 7-35 s to build). The larger tables (P(win), endgame, target: 3-5 MB each, built
in seconds) are built on first use and cached.
"""

from __future__ import annotations

import functools
import os
import tempfile
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = [
    "ENV_VAR",
    "SHIPPED",
    "Stored",
    "cache_dir",
    "exists",
    "load",
    "one_at_a_time",
    "ship",
    "store",
]

P = ParamSpec("P")
T = TypeVar("T")

ENV_VAR = "YACHT_CACHE_DIR"
SHIPPED = Path(__file__).with_name("shipped")
"""Tables that come with the package, read when the cache has no file under their key."""


def cache_dir() -> Path:
    """Where tables are cached: ``$YACHT_CACHE_DIR``, or the user cache dir for "yacht"."""
    chosen = os.environ.get(ENV_VAR)
    if chosen:
        return Path(chosen)
    import platformdirs

    return Path(platformdirs.user_cache_dir("yacht"))


@dataclass(frozen=True)
class Stored:
    """A cached table and the seconds it took to build."""

    array: npt.NDArray[Any]
    seconds: float


def _path(key: str) -> Path:
    return cache_dir() / f"{key}.npz"


def exists(key: str) -> bool:
    """Whether a file is cached (or shipped) under ``key`` (it may still turn out unreadable)."""
    return _path(key).exists() or (SHIPPED / f"{key}.npz").exists()


def load(key: str, shape: tuple[int, ...], dtype: npt.DTypeLike = np.float64) -> Stored | None:
    """The cached table under ``key`` (else the shipped one) as ``dtype`` if it exists, reads
    cleanly, has ``shape`` and holds only finite numbers; else None."""
    found = _read(_path(key), shape, dtype)
    if found is None and (SHIPPED / f"{key}.npz").exists():
        found = _read(SHIPPED / f"{key}.npz", shape, dtype)
    return found


def _read(path: Path, shape: tuple[int, ...], dtype: npt.DTypeLike) -> Stored | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            array = np.asarray(data["array"], dtype=dtype)
            seconds = float(data["seconds"])
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None
    if array.shape != shape or not np.isfinite(seconds) or not np.isfinite(array).all():
        return None
    return Stored(array, seconds)


def store(key: str, array: npt.NDArray[Any], seconds: float) -> None:
    """Write a table under ``key``, atomically; a cache that cannot be written is skipped."""
    target = _path(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{key}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, array=array, seconds=np.float64(seconds))
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return


def ship(key: str, array: npt.NDArray[Any], seconds: float) -> Path:
    """Write a table into :data:`SHIPPED` (compressed), for the package to carry."""
    SHIPPED.mkdir(exist_ok=True)
    target = SHIPPED / f"{key}.npz"
    with open(target, "wb") as f:
        np.savez_compressed(f, array=array, seconds=np.float64(seconds))
    return target


def one_at_a_time(build: Callable[P, T]) -> Callable[P, T]:
    """Let one thread at a time into a table's getter, so threads asking for a table that is
    not built yet (a bot and a hint of the terminal game, the web server's workers) wait for
    one build instead of each building it."""
    lock = threading.RLock()

    @functools.wraps(build)
    def serialized(*args: P.args, **kwargs: P.kwargs) -> T:
        with lock:
            return build(*args, **kwargs)

    return serialized
