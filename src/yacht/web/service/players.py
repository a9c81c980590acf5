"""Profiles and leaderboards: what a player's page and a preset's table of the best show.

**What counts.** A profile's figures (games, wins, average and best total, Yachts, accuracy,
points lost per decision, the skill figure) count every finished game the account played,
private tables' too: they are the player's own numbers and name no table. The list of the
player's games (:meth:`PlayerService.games`) shows the games of public tables only, since a
private table's games are for those invited. A deleted account has no profile (404), and
no line on a leaderboard.

**The skill figure** is "played like an N-point player" (:mod:`yacht.skill`): for each
reviewed game N = the preset's optimum minus the expected points lost; the profile shows the
mean over the last :data:`yacht.skill.WINDOW` reviewed games with its standard error, with
the bots' own N as marks on the scale (:data:`BOT_MARKS`).

**Names** are found as accounts find them (:func:`~yacht.web.service.accounts.account_key`,
the confusable skeleton of the case-folded name): ``/@/ANN`` is Ann's profile, and a look-alike
of a name finds the account of that look, which is never two.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from yacht.rules import RulesError, rules_by_name
from yacht.skill import WINDOW, optimum, running
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.names import check_name
from yacht.web.protocol.players import (
    BoardLine,
    BotMarkView,
    Leaderboard,
    OfflineGameView,
    PlayerGames,
    PlayerGameView,
    PresetProfile,
    Profile,
    RatingPointView,
    RatingView,
    SkillGameView,
    SkillView,
)
from yacht.web.service.accounts import account_key
from yacht.web.service.ratings import SCALE, Rating
from yacht.web.storage.accounts import AccountStore
from yacht.web.storage.models import RatingRow
from yacht.web.storage.players import (
    Cursor,
    ReviewedGame,
    leaderboard,
    live_account,
    player_games,
    profile,
)
from yacht.web.storage.store import Store

__all__ = [
    "ACTIVE_DAYS",
    "BOT_MARKS",
    "CURSOR",
    "PAGE",
    "PlayerService",
    "cursor_text",
    "parse_cursor",
]

ACTIVE_DAYS = 30
"""A leaderboard lists the players whose rating changed in the last this many days."""

PAGE = 20
"""Games per page of a player's list (the most a request may ask for is 100)."""

BOT_MARKS: dict[str, tuple[tuple[str, float], ...]] = {
    "traditional": (("easy", 125.0), ("medium", 146.6), ("hard", 159.1), ("optimal", 166.96)),
}
"""The bots' N ("played like") per preset, weakest first: measured over 1,000 solo games each
by ``python -m benchmarks.skill_marks 1000 1`` (benchmarks/results/skill_marks.json, shown in
docs/strategy/skill.md). A preset not measured has no marks."""

CURSOR = r"^[0-9]{1,18}-[0-9]{1,10}$"
"""A page cursor: the last game's finish time in microseconds since 1970 (UTC), a dash, its
id."""


def cursor_text(when: datetime, game_id: int) -> str:
    """The cursor of a page that ends with the game ``game_id`` finished at ``when``.

    >>> cursor_text(datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC), 42)
    '1767323045000006-42'
    >>> parse_cursor('1767323045000006-42').finished_at == datetime(2026, 1, 2, 3, 4, 5, 6, UTC)
    True
    """
    delta = when.astimezone(UTC) - datetime(1970, 1, 1, tzinfo=UTC)
    micros = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
    return f"{micros}-{game_id}"


def parse_cursor(text: str) -> Cursor:
    """The :class:`Cursor` a :func:`cursor_text` wrote; ``TableError`` ``invalid`` for
    anything else."""
    if not re.fullmatch(CURSOR, text):
        raise TableError("invalid", f"not a page cursor: {text[:40]!r}")
    micros, game = (int(part) for part in text.split("-"))
    try:
        when = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=micros)
    except OverflowError:
        raise TableError("invalid", f"not a page cursor: {text!r}") from None
    if not 1 <= game < 2**31:
        raise TableError("invalid", f"not a page cursor: {text!r}")
    return Cursor(when, game)


_BEST: dict[str, float] = {}
"""The presets' optima as solved (:func:`_optimum`), so a profile does not leave the loop."""


@functools.cache
def _optimum(preset: str) -> float:
    return optimum(preset)


def _iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat()


def _rating(row: RatingRow) -> RatingView:
    r = Rating(row.mu, row.sigma, row.games)
    return RatingView(
        shown=r.shown, provisional=r.provisional, games=r.games, mu=r.mu, sigma=r.sigma
    )


def _preset(name: str) -> str:
    try:
        return rules_by_name(name).name
    except RulesError as e:
        raise TableError("invalid", str(e), e) from None


class PlayerService:
    """The profile and leaderboard reads (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = AccountStore(store.engine, store.guarded)
        self.clock: Callable[[], float] = time.time

    @staticmethod
    def _key(name: str) -> str:
        try:
            return account_key(check_name(name))
        except ValueError:
            raise TableError("not_found", f"no player {name[:40]!r}") from None

    async def exists(self, name: str) -> bool:
        """Whether a live account has a name that looks like ``name``."""
        try:
            key = account_key(check_name(name))
        except ValueError:
            return False
        found: bool = await self.store.run(live_account, key)
        return found

    async def leaderboard(self, preset: str) -> Leaderboard:
        """The best :data:`~yacht.web.storage.players.BOARD_SIZE` ratings of ``preset`` among
        players rated in the last :data:`ACTIVE_DAYS` days; 422 ``invalid`` for a preset
        that does not exist."""
        name = _preset(preset)
        since = datetime.fromtimestamp(self.clock(), UTC) - timedelta(days=ACTIVE_DAYS)
        rows = await self.store.run(leaderboard, name, since)
        lines = []
        for i, r in enumerate(rows):
            shown = Rating(r.mu, r.sigma, r.games)
            view = RatingView(
                shown=shown.shown,
                provisional=shown.provisional,
                games=r.games,
                mu=r.mu,
                sigma=r.sigma,
            )
            lines.append(BoardLine(rank=i + 1, name=r.name, rating=view))
        return Leaderboard(preset=name, active_days=ACTIVE_DAYS, players=lines)

    async def profile(self, name: str) -> Profile:
        """The profile of the live account named like ``name`` (404 ``not_found``: none)."""
        found = await self.store.run(profile, self._key(name))
        if found is None:
            raise TableError("not_found", f"no player {name[:40]!r}")
        presets = []
        for s in sorted(found.stats, key=lambda s: (-s.games, s.preset)):
            rating = found.ratings.get(s.preset)
            presets.append(
                PresetProfile(
                    preset=s.preset,
                    games=s.games,
                    wins=s.wins,
                    average=round(s.total_sum / s.games, 2) if s.games else 0.0,
                    best=s.best,
                    yachts=s.yachts,
                    reviewed=s.reviewed,
                    accuracy=round(100 * s.accurate / s.decisions, 1) if s.decisions else None,
                    loss_per_decision=round(s.loss_sum / s.decisions, 3) if s.decisions else None,
                    rating=None if rating is None else _rating(rating),
                    history=[
                        RatingPointView(
                            game=p.game_id,
                            rank=p.rank,
                            shown=round(SCALE * p.mu),  # as Rating.shown, unchecked
                            games=p.games,
                            at=_iso(p.at),
                        )
                        for p in found.history.get(s.preset, [])
                    ],
                    skill=await self._skill(s.preset, found.reviewed.get(s.preset, [])),
                )
            )
        offline = [
            OfflineGameView(
                record=g.record,
                preset=g.preset,
                players=g.players,
                seat=g.seat,
                total=g.total,
                rank=g.rank,
                yachts=g.yachts,
                finished_at=_iso(g.finished_at),
            )
            for g in found.offline
        ]
        return Profile(
            name=found.name,
            created=_iso(found.created_at),
            presets=presets,
            offline_games=found.offline_count,
            offline=offline,
        )

    async def _skill(self, preset: str, games: list[ReviewedGame]) -> SkillView | None:
        if not games:
            return None
        best = _BEST.get(preset)
        if best is None:  # the preset's optimum is solved once, off the event loop
            best = _BEST[preset] = await asyncio.to_thread(_optimum, preset)
        figures = [best - g.loss for g in games]
        now = running(figures, WINDOW)
        assert now is not None  # at least one game
        return SkillView(
            played_like=round(now.mean, 2),
            standard_error=None if now.standard_error is None else round(now.standard_error, 2),
            games=now.games,
            window=now.window,
            optimum=round(best, 2),
            marks=[BotMarkView(bot=b, played_like=n) for b, n in BOT_MARKS.get(preset, ())],
            series=[
                SkillGameView(game=g.game_id, played_like=round(f, 2), at=_iso(g.finished_at))
                for g, f in zip(games, figures, strict=True)
            ],
        )

    async def games(self, name: str, before: str | None, limit: int = PAGE) -> PlayerGames:
        """A page of the player's finished games at public tables, newest first, finished
        before the cursor ``before`` (422 ``invalid``: not a cursor; 404: no such player)."""
        cursor = None if before is None else parse_cursor(before)
        rows = await self.store.run(player_games, self._key(name), cursor, limit)
        if rows is None:
            raise TableError("not_found", f"no player {name[:40]!r}")
        last = rows[-1] if len(rows) == limit else None
        return PlayerGames(
            games=[
                PlayerGameView(
                    id=r.game_id,
                    table=r.table_code,
                    number=r.number,
                    seat=r.seat,
                    preset=r.preset,
                    rated=r.rated,
                    players=r.players,
                    total=r.total,
                    rank=r.rank,
                    yachts=r.yachts,
                    loss=r.loss,
                    finished_at=_iso(r.finished_at),
                )
                for r in rows
            ],
            next=None if last is None else cursor_text(last.finished_at, last.game_id),
        )
