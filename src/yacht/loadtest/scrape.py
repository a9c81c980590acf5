"""What the servers say about themselves over a load run: their ``/metrics`` scraped before and
after the measured window, and the difference summarised.

A figure read from a histogram is the upper bound of the bucket it falls in (``max`` is the
bound of the highest bucket that counted anything), in milliseconds.

>>> before = {("yacht_gc_pause_seconds_count", (("generation", "2"),)): 1.0}
>>> after = {("yacht_gc_pause_seconds_count", (("generation", "2"),)): 4.0}
>>> Samples(after).minus(Samples(before)).value("yacht_gc_pause_seconds_count", generation="2")
3.0
>>> quantile([(0.001, 90.0), (0.01, 99.0), (0.1, 100.0), (math.inf, 100.0)], 0.99)
0.01
>>> quantile([(0.001, 0.0), (math.inf, 0.0)], 0.5) is None
True

A server whose metrics could not be read (an older one, or one that refuses the scrape) is
reported as such, and the run goes on:

>>> line("http://127.0.0.1:8001", compare("GET /metrics answered 404", Samples({})))
'http://127.0.0.1:8001: no metrics (GET /metrics answered 404)'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import httpx

__all__ = ["Samples", "compare", "line", "quantile", "scrape", "summary"]

Key = tuple[str, tuple[tuple[str, str], ...]]
STAGES = ("receive", "decide", "database", "publish", "send")


@dataclass(frozen=True)
class Samples:
    """One scrape: (sample name, sorted labels) -> value."""

    values: dict[Key, float]

    @classmethod
    def parse(cls, text: str) -> Samples:
        from prometheus_client.parser import text_string_to_metric_families

        return cls(
            {
                (s.name, tuple(sorted(s.labels.items()))): float(s.value)
                for family in text_string_to_metric_families(text)
                for s in family.samples
            }
        )

    def minus(self, earlier: Samples) -> Samples:
        return Samples({k: v - earlier.values.get(k, 0.0) for k, v in self.values.items()})

    def value(self, name: str, **labels: str) -> float:
        return self.values.get((name, tuple(sorted(labels.items()))), 0.0)

    def buckets(self, name: str, **labels: str) -> list[tuple[float, float]]:
        """(upper bound, cumulative count) of a histogram, lowest bound first."""
        found = []
        for (sample, pairs), count in self.values.items():
            if sample != name + "_bucket":
                continue
            rest = dict(pairs)
            bound = rest.pop("le")
            if rest == labels:
                found.append((float(bound), count))
        return sorted(found)


def quantile(buckets: list[tuple[float, float]], q: float) -> float | None:
    """The upper bound of the bucket holding the ``q`` quantile (None: nothing counted)."""
    total = buckets[-1][1] if buckets else 0.0
    if total <= 0:
        return None
    for bound, cumulative in buckets:
        if cumulative >= q * total:
            return bound
    return None  # pragma: no cover - the +Inf bucket holds everything


def _ms(seconds: float | None) -> float | None:
    if seconds is None or math.isinf(seconds):
        return None  # beyond the highest finite bucket
    return round(seconds * 1000, 3)


def _histogram(delta: Samples, name: str, *qs: float, **labels: str) -> dict[str, Any]:
    buckets = delta.buckets(name, **labels)
    figures: dict[str, Any] = {"count": int(delta.value(name + "_count", **labels))}
    for q in qs:
        figures[f"p{round(q * 100)}"] = _ms(quantile(buckets, q))
    figures["max"] = _ms(quantile(buckets, 1.0))
    return figures


def summary(before: Samples, after: Samples) -> dict[str, Any]:
    """Loop lag, GC pauses per generation, stage p50/p99 and pool waits over the window."""
    delta = after.minus(before)
    gc = {}
    for generation in "012":
        gc[generation] = {
            **_histogram(delta, "yacht_gc_pause_seconds", generation=generation),
            "total_ms": _ms(delta.value("yacht_gc_pause_seconds_sum", generation=generation)),
        }
    return {
        "loop_lag_ms": _histogram(delta, "yacht_event_loop_lag_seconds", 0.99),
        "gc_pauses": gc,
        "stages_ms": {
            stage: _histogram(delta, "yacht_action_stage_seconds", 0.5, 0.99, stage=stage)
            for stage in STAGES
        },
        "pool_wait_ms": _histogram(delta, "yacht_db_pool_wait_seconds", 0.99),
        "table_reads": {
            why: int(delta.value("yacht_table_reads_total", why=why))
            for why in ("uncached", "stale")
        },
        "peer_notes": {
            outcome: int(delta.value("yacht_peer_notes_total", outcome=outcome))
            for outcome in ("applied", "gap", "refused")
        },
    }


async def scrape(client: httpx.AsyncClient) -> Samples | str:
    """The server's metrics now, or why they could not be read."""
    try:
        r = await client.get("/metrics")
    except httpx.HTTPError as e:
        return f"{type(e).__name__}: {e}"
    if r.status_code != 200:
        return f"GET /metrics answered {r.status_code}"
    try:
        return Samples.parse(r.text)
    except ValueError as e:
        return f"unreadable metrics: {e}"


def compare(before: Samples | str, after: Samples | str) -> dict[str, Any]:
    """:func:`summary`, or what went wrong with either scrape."""
    if isinstance(before, str):
        return {"error": before}
    if isinstance(after, str):
        return {"error": after}
    return summary(before, after)


def line(url: str, figures: dict[str, Any]) -> str:
    """The text report's lines for one server."""
    if "error" in figures:
        return f"{url}: no metrics ({figures['error']})"
    lag, gc = figures["loop_lag_ms"], figures["gc_pauses"]
    stages = figures["stages_ms"]
    passes = ", ".join(
        f"gen{g} {gc[g]['count']}"
        + (f" ({gc[g]['total_ms']} ms, max <= {gc[g]['max']})" if gc[g]["count"] else "")
        for g in "012"
    )
    slow = ", ".join(f"{s} {stages[s]['p99']}" for s in STAGES)
    reads, notes = figures.get("table_reads", {}), figures.get("peer_notes", {})
    return (
        f"{url}: loop lag p99 <= {lag['p99']} ms, max <= {lag['max']} ms; GC passes {passes}\n"
        f"  stage p99 <= ms: {slow}; pool wait p99 <= {figures['pool_wait_ms']['p99']} ms\n"
        f"  table reads {sum(reads.values())} ({', '.join(f'{k} {v}' for k, v in reads.items())});"
        f" peer notes {', '.join(f'{k} {v}' for k, v in notes.items())}"
    )
