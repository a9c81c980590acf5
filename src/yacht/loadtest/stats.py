"""Figures of a load run: counts, latency percentiles (nearest rank), errors.

>>> percentile([0.010, 0.020, 0.030, 0.040], 50)
0.02
>>> percentile([0.010, 0.020, 0.030, 0.040], 99)
0.04
>>> percentile([], 50) is None
True
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from yacht.loadtest import scrape

__all__ = ["Report", "Stats", "percentile"]


def percentile(samples: list[float], p: float) -> float | None:
    """The nearest-rank ``p``-th percentile of ``samples`` (None when there are none)."""
    if not samples:
        return None
    ordered = sorted(samples)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Stats:
    """What the players record while the clock runs."""

    own: list[float] = field(default_factory=list)  # action sent -> its broadcast, same socket
    others: list[float] = field(default_factory=list)  # action sent -> broadcast at other seats
    actions: int = 0  # actions whose broadcast came back in the window
    games: int = 0  # games finished in the window
    errors: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)  # the first few error texts

    def error(self, kind: str, text: str) -> None:
        self.errors[kind] += 1
        if len(self.examples) < 5:
            self.examples.append(f"{kind}: {text}"[:300])


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


@dataclass(frozen=True)
class Report:
    urls: list[str]
    tables: int
    seats: int
    think: float
    duration: float  # the measured window, seconds
    setup: float  # seconds to open the tables and connect every seat
    stats: Stats
    servers: dict[str, Any] = field(default_factory=dict)  # url -> what its /metrics showed

    def latency(self, samples: list[float]) -> dict[str, float | None]:
        return {
            "p50": _ms(percentile(samples, 50)),
            "p95": _ms(percentile(samples, 95)),
            "p99": _ms(percentile(samples, 99)),
            "max": _ms(max(samples) if samples else None),
        }

    @property
    def error_count(self) -> int:
        return sum(self.stats.errors.values())

    def to_json(self) -> dict[str, Any]:
        s = self.stats
        return {
            "urls": self.urls,
            "tables": self.tables,
            "seats": self.seats,
            "think_seconds": self.think,
            "duration_seconds": round(self.duration, 2),
            "setup_seconds": round(self.setup, 2),
            "actions": s.actions,
            "actions_per_second": round(s.actions / self.duration, 1) if self.duration else 0.0,
            "games_finished": s.games,
            "latency_ms": self.latency(s.own),
            "latency_other_seats_ms": self.latency(s.others),
            "errors": self.error_count,
            "errors_by_kind": dict(s.errors),
            "error_examples": s.examples,
            "servers": self.servers,
        }

    def text(self) -> str:
        data = self.to_json()

        def line(name: str, lat: dict[str, float | None]) -> str:
            parts = "  ".join(f"{k} {'-' if v is None else f'{v:.1f}'}" for k, v in lat.items())
            return f"{name}: {parts}"

        lines = [
            f"loadtest: {self.tables} tables x {self.seats} seats on {', '.join(self.urls)}, "
            f"think {self.think:g} s, {data['duration_seconds']} s measured "
            f"(setup {data['setup_seconds']} s)",
            f"actions: {data['actions']} ({data['actions_per_second']}/s), "
            f"games finished: {data['games_finished']}",
            line("latency ms, action -> its broadcast", data["latency_ms"]),
            line("latency ms, action -> other seats", data["latency_other_seats_ms"]),
            f"errors: {data['errors']}" + (f" {data['errors_by_kind']}" if data["errors"] else ""),
        ]
        lines += [f"  {e}" for e in self.stats.examples]
        lines += [scrape.line(url, figures) for url, figures in self.servers.items()]
        return "\n".join(lines)
