"""The daily game: one solo game a day per preset on the same dice for everyone (duplicate
form), checkable by anyone once the day is over.

**The day's dice.** The day is the UTC day. Its secret seed is HMAC-SHA256 of the server's
daily secret (drawn once and kept in the database, so every server process and every restart
derive the same seeds) over the preset and the day; its commitment is the seed's SHA-256,
published for today and tomorrow before either starts (:meth:`DailyService.days`). The dice
follow fair dice rule 3 (:class:`~yacht.dice.PlacedDice`) with seat 0 and the day's key, made
by :func:`~yacht.web.service.fairness.dice_key` from the commitment and one public seed,
``daily:PRESET:DAY`` (:func:`~yacht.web.service.fairness.daily_seed`): a slot's value depends
only on the turn, the roll and the slot, so two players who hold differently draw the same
value in each rerolled slot, and a player who plays as another did sees the same dice. The
seed is revealed only once the day has ended; then ``yacht verify`` checks a game against it
and calls it a daily.

**One attempt a day.** An account has one attempt per day and preset (a second start gives the
same game back, in progress or finished); a guest one per browser token, unofficial and never
in the ranking. A daily game is never rated.

**The ranking** is by the skill figure, the mean expected points lost per decision (the
review's exact loss; knowing the dice in advance does not lower it, playing well does), with
the total and the optimal player's total on the same dice beside it. The figures are worked
out in the worker process and written with the game's last move.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from yacht.actions import Action, GameError, InvalidActionError
from yacht.dice import ROLLS, PlacedDice
from yacht.game import Game
from yacht.rules import CATEGORIES, Rules, RulesError, rules_by_name
from yacht.web.protocol.errors import TableError, engine_error
from yacht.web.service import fairness
from yacht.web.service.accounts import Account, Player
from yacht.web.service.workers import workers
from yacht.web.storage import daily as rows
from yacht.web.storage.accounts import AccountStore
from yacht.web.storage.daily import Played
from yacht.web.storage.store import Store

__all__ = [
    "DailyService",
    "Day",
    "best_streak",
    "day_of",
    "day_seed",
    "figures",
    "optimal_total",
    "streak",
]

GUEST_NAME = "Guest"
OPTIMAL_DAYS = 30
"""How many days back a ranking shows the optimal player's total (each is a game the optimal
bot plays in the worker process, kept in memory per preset and day)."""


def day_of(moment: float) -> str:
    """The UTC day of a Unix time, as ISO text.

    >>> day_of(0.0), day_of(86399.9), day_of(86400.0)
    ('1970-01-01', '1970-01-01', '1970-01-02')
    """
    return datetime.fromtimestamp(moment, UTC).date().isoformat()


def _shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def day_start(day: str) -> datetime:
    """When a day begins (UTC midnight); the day ends when the next one begins."""
    return datetime.combine(date.fromisoformat(day), datetime.min.time(), UTC)


def day_seed(secret: str, preset: str, day: str) -> str:
    """The secret seed of a preset's day: HMAC-SHA256 of the server's secret, hex.

    >>> day_seed("s", "traditional", "2026-12-02") == day_seed("s", "traditional", "2026-12-02")
    True
    >>> day_seed("s", "traditional", "2026-12-02") != day_seed("s", "traditional", "2026-12-03")
    True
    """
    label = f"yacht-daily\n{preset}\n{day}".encode()
    return hmac.new(secret.encode(), label, hashlib.sha256).hexdigest()


def streak(days: list[str], today: str) -> int:
    """Consecutive UTC days played up to today, or up to yesterday while today is not played
    yet (``days``: the days played, newest first).

    >>> streak(["2026-12-02", "2026-12-01", "2026-11-29"], "2026-12-02")
    2
    >>> streak(["2026-12-01", "2026-11-30"], "2026-12-02"), streak(["2026-11-30"], "2026-12-02")
    (2, 0)
    """
    expected = today if days and days[0] == today else _shift(today, -1)
    count = 0
    for day in days:
        if day != expected:
            break
        count, expected = count + 1, _shift(expected, -1)
    return count


def best_streak(days: list[str]) -> int:
    """The most consecutive UTC days in ``days`` (newest first, each once).

    >>> best_streak(["2026-12-05", "2026-12-03", "2026-12-02", "2026-12-01"]), best_streak([])
    (3, 0)
    """
    best = run = 0
    for i, day in enumerate(days):
        run = run + 1 if i and _shift(day, 1) == days[i - 1] else 1
        best = max(best, run)
    return best


def _streaks(days: list[str], today: str) -> dict[str, int]:
    return {"current": streak(days, today), "best": best_streak(days), "days": len(days)}


@functools.cache
def best_scores(rules: Rules) -> dict[str, int]:
    """Each category's most points from one roll (what a share line measures a score by)."""
    return {c.value: max(rules.score(r, c) for r in ROLLS) for c in CATEGORIES}


def figures(game: Game) -> tuple[float, int]:
    """The points the player lost by the review's exact measure, and the decisions (worked
    out in the worker process: a review reads the preset's strategy table)."""
    from yacht.review import review

    result = review(game)
    player = result.players[0]
    decisions = sum(1 for d in result.decisions if d.player == 0)
    return float(player.points_loss), decisions


def optimal_total(preset: str, seed: str, key: str) -> int:
    """What the optimal player scores on a day's dice (seat 0, the day's key)."""
    from yacht.bots import play_game

    game = play_game(
        "optimal", preset, dice=PlacedDice(seed, key), rng=random.Random(0), names=["optimal"]
    )
    return int(game.totals[0])


@dataclass(frozen=True)
class Day:
    """A preset's day: its commitment, and its seed once the day is over."""

    day: str
    preset: str
    commitment: str
    key: str
    seed: str | None  # None until the day has ended

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "preset": self.preset,
            "commitment": self.commitment,
            "key": self.key,
            "seed": self.seed,
            "starts": day_start(self.day).isoformat(),
            "ends": day_start(_shift(self.day, 1)).isoformat(),
        }


class DailyService:
    """Days, attempts, moves and rankings of the daily game; see the module docstring.
    ``clock`` (Unix time) is what the tests move to change the day."""

    def __init__(self, store: Store, draw: Callable[[], str]) -> None:
        self.db = AccountStore(store.engine, store.guarded)
        self.clock: Callable[[], float] = time.time
        self._draw = draw
        self._secret: str | None = None
        self._optimal: dict[tuple[str, str], int] = {}
        # Where the strategy work runs: the worker process (tests run it in a thread).
        self.work: Callable[..., Awaitable[Any]] = workers().run

    # --- days ----------------------------------------------------------------------------

    def today(self) -> str:
        return day_of(self.clock())

    async def _secret_value(self) -> str:
        if self._secret is None:
            self._secret = await self.db.run(rows.secret, self._draw(), datetime.now(UTC))
        return self._secret

    async def day(self, preset: str, day: str) -> Day:
        """A preset's day; its seed only when the day has ended."""
        seed = day_seed(await self._secret_value(), preset, day)
        commitment = PlacedDice(seed).commitment
        key = fairness.dice_key(commitment, [_contribution(preset, day)], fairness.RULE)
        over = day < self.today()
        return Day(day, preset, commitment, key, seed if over else None)

    async def _seed(self, preset: str, day: str) -> tuple[str, str]:
        """The day's secret seed (revealed or not) and its dice key."""
        found = await self.day(preset, day)
        return day_seed(await self._secret_value(), preset, day), found.key

    async def days(self, preset: str) -> dict[str, Any]:
        """Yesterday's day (its seed revealed), today's and tomorrow's (commitments only)."""
        rules = _rules(preset)
        today = self.today()
        shown = {}
        for name, shift in (("yesterday", -1), ("today", 0), ("tomorrow", 1)):
            shown[name] = (await self.day(rules.name, _shift(today, shift))).to_json()
        now = datetime.fromtimestamp(self.clock(), UTC).isoformat()
        return {"preset": rules.name, "now": now} | shown

    async def optimal(self, preset: str, day: str) -> int:
        """The optimal player's total on the day's dice (worked out once per process)."""
        known = self._optimal.get((preset, day))
        if known is None:
            seed, key = await self._seed(preset, day)
            known = int(await self.work(optimal_total, preset, seed, key))
            oldest = _shift(self.today(), -OPTIMAL_DAYS)
            self._optimal = {k: v for k, v in self._optimal.items() if k[1] >= oldest}
            self._optimal[(preset, day)] = known
        return known

    # --- attempts ------------------------------------------------------------------------

    async def start(self, preset: str, player: Player, guest: str | None) -> tuple[Played, bool]:
        """The player's attempt at today's game: started now (True) or the one they have."""
        rules = _rules(preset)
        account, token = _who(player, guest)
        today = self.today()
        seed, key = await self._seed(rules.name, today)
        name = player.name if isinstance(player, Account) else GUEST_NAME
        state = Game([name], rules, PlacedDice(seed, key)).to_json()
        at = datetime.fromtimestamp(self.clock(), UTC)
        return await self.db.run(rows.start, today, rules.name, account, token, name, state, at)

    async def mine(
        self, preset: str, player: Player, guest: str | None, days_ago: int = 0
    ) -> Played | None:
        """The player's attempt at today's game (or that of ``days_ago`` days before), if they
        started one."""
        rules = _rules(preset)
        day = _shift(self.today(), -days_ago)
        if isinstance(player, Account):
            return await self.db.run(rows.row_of, day, rules.name, player.id, None)
        if guest is None:
            return None
        return await self.db.run(rows.row_of, day, rules.name, None, _hash(guest))

    async def owned(self, game_id: int, player: Player, guest: str | None) -> Played:
        """The attempt ``game_id`` if it is the player's (else ``not_found``: whose attempt
        an id is stays private)."""
        found = await self.db.run(rows.row_by_id, game_id)
        if found is None or not _owns(found, player, guest):
            raise TableError("not_found", f"no daily game {game_id} of yours")
        return found

    async def act(
        self, game_id: int, player: Player, guest: str | None, said: str, version: int
    ) -> Played:
        """A move in the player's attempt, decided on the stored game at ``version``; the move
        that ends it stores the total, the review's figures and the skill figure with it."""
        found = await self.owned(game_id, player, guest)
        if found.day != self.today():
            raise TableError("game_over", "that day's game is over; play today's")
        if found.version != version:
            raise TableError(
                "stale_version", f"the game is at version {found.version}, not {version}"
            )
        try:
            action = Action.parse(said)
        except InvalidActionError as e:
            raise TableError("invalid", str(e), e) from None
        game = Game.from_json(found.state)
        try:
            game.apply(action, player=0)
        except InvalidActionError as e:
            raise TableError("illegal", str(e), e) from None
        except GameError as e:
            raise engine_error(e) from None
        result: dict[str, Any] = {}
        if game.finished:
            loss, decisions = await self.work(figures, game)
            result = {
                "status": "finished",
                "total": game.totals[0],
                "loss": loss,
                "decisions": decisions,
                "skill": loss / decisions if decisions else 0.0,
                "finished_at": datetime.fromtimestamp(self.clock(), UTC),
            }
        if not await self.db.run(rows.save_move, game_id, version, game.to_json(), result):
            raise TableError("stale_version", "another move came first; look again")
        return await self.owned(game_id, player, guest)

    async def file(self, game_id: int) -> dict[str, Any]:
        """A finished attempt's game file with the day's seed, once the day is over (anyone
        may have it then: it is a day's game, the same dice for everyone)."""
        found = await self.db.run(rows.row_by_id, game_id)
        if found is None or found.status != "finished":
            raise TableError("not_found", f"no finished daily game {game_id}")
        day = await self.day(found.preset, found.day)
        if day.seed is None:
            raise TableError(
                "not_started", "the day's seed is revealed when the day ends (UTC midnight)"
            )
        start = day_start(found.day).isoformat()
        fair = {
            "rule": fairness.RULE,
            "commitment": day.commitment,
            "contributions": [_contribution(found.preset, found.day) | {"at": start}],
            "key": day.key,
            "daily": {"day": found.day, "preset": found.preset},
        }
        data = dict(found.state)
        return data | {"fair": fair, "daily": {"day": found.day, "official": _official(found)}}

    async def ranking(self, preset: str, day: str | None, viewer: Played | None) -> dict[str, Any]:
        """A day's ranking (today's by default); the optimal player's total is shown to a
        player who finished the day's game, and to everyone once the day is over."""
        rules = _rules(preset)
        today = self.today()
        day = day or today
        try:
            date.fromisoformat(day)
        except ValueError:
            raise TableError("invalid", f"{day!r} is not a day (YYYY-MM-DD)") from None
        if day > today:
            raise TableError("not_started", f"the day {day} has not begun")
        played = await self.db.run(rows.ranking, day, rules.name)
        finished = viewer is not None and viewer.status == "finished" and viewer.day == day
        recent = day >= _shift(today, -OPTIMAL_DAYS)  # older days: not worked out again
        shown = recent and (day < today or finished)
        optimal = await self.optimal(rules.name, day) if shown else None
        return {
            "preset": rules.name,
            "day": day,
            "optimal": optimal,
            "players": [
                {
                    "rank": i,
                    "name": p.name,
                    "skill": round(p.skill or 0.0, 3),
                    "total": p.total,
                    "you": viewer is not None and p.id == viewer.id,
                }
                for i, p in enumerate(played, start=1)
            ],
        }

    async def streak(self, player: Player) -> int | None:
        """An account's streak of days played (None for a guest)."""
        if not isinstance(player, Account):
            return None
        return streak(await self.db.run(rows.streak_days, player.id), self.today())

    async def streaks(self, account: Account) -> dict[str, Any]:
        """An account's daily streaks: the current one (as :func:`streak` counts it) and the
        best, and the days played, over every preset (``current``, ``best``, ``days``) and
        per preset (``presets``, the most played first)."""
        played = await self.db.run(rows.played_days, account.id)
        today = self.today()
        every = sorted({day for day, _ in played}, reverse=True)
        by_preset: dict[str, list[str]] = {}
        for day, preset in played:
            by_preset.setdefault(preset, []).append(day)
        presets = [
            {"preset": preset} | _streaks(days, today)
            for preset, days in sorted(by_preset.items(), key=lambda p: (-len(p[1]), p[0]))
        ]
        return {"today": today} | _streaks(every, today) | {"presets": presets}

    def view(self, played: Played) -> dict[str, Any]:
        """What the player sees of their attempt (never the seed): the figures a face shows,
        and ``game``, the game file without its dice source (the dice rolled so far, which
        :meth:`yacht.game.Game.from_json` rebuilds the game from; no future die is in it)."""
        game = Game.from_json(played.state)
        rules = game.rules
        sheet = game.sheet(0)
        best = best_scores(rules)
        potentials = (
            {c.value: game.potential(c) for c in CATEGORIES if c not in sheet}
            if game.dice is not None
            else {}
        )
        return {
            "id": played.id,
            "day": played.day,
            "preset": played.preset,
            "name": played.name,
            "official": _official(played),
            "status": played.status,
            "version": played.version,
            "round": min(game.round, len(CATEGORIES)),
            "dice": list(game.dice) if game.dice is not None else None,
            "held": sorted(game.held),
            "rolls_left": game.rolls_left,
            "sheet": {c.value: sheet[c] for c in CATEGORIES if c in sheet},
            "best": dict(best),
            "potentials": potentials,
            "total": game.totals[0],
            "skill": None if played.skill is None else round(played.skill, 3),
            "decisions": played.decisions,
            "loss": None if played.loss is None else round(played.loss, 2),
            # the moves so far without the dice source: a face rebuilds the game from it
            "game": game.to_json(include_dice_source=False),
        }


def _contribution(preset: str, day: str) -> dict[str, Any]:
    return {"seat": 0, "seed": fairness.daily_seed(preset, day)}


def _rules(preset: str) -> Rules:
    try:
        return rules_by_name(preset)
    except RulesError as e:
        raise TableError("invalid", str(e), e) from None


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _who(player: Player, guest: str | None) -> tuple[int | None, str | None]:
    if isinstance(player, Account):
        return player.id, None
    if guest is None:
        raise TableError("invalid", "a guest's daily game needs the browser's guest token")
    return None, _hash(guest)


def _owns(found: Played, player: Player, guest: str | None) -> bool:
    if isinstance(player, Account):
        return found.account_id == player.id
    return found.account_id is None and guest is not None and found.guest == _hash(guest)


def _official(found: Played) -> bool:
    return found.account_id is not None
