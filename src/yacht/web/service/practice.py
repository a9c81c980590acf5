"""Practice on the web (docs/strategy/training.md): positions from finished games where the
decision lost the most, the exact answer, and a practice rating for a signed-in player.

Where a position comes from, in order: the signed-in player's own finished games (the newest
:data:`OWN_GAMES`, their costliest decisions first), then everyone's finished games at public
tables (the newest :data:`PUBLIC_GAMES`), then the ``easy`` bot's solo games (seed 0 on), so
there is always one. A signed-in player's solved positions are left out; a guest's page sends
the keys of those it solved.

A position is served with a :class:`~yacht.web.protocol.practice.PracticeRef` (the game, seat,
round and rolls left), and an answer names that ref, never dice: the server finds the position
again in the stored game and judges it with the exact strategy. A private table's game is a
source only for a player who sat at it. The first answer of a signed-in player to a position
rates both (:func:`yacht.training.rating.rate`); a later one is judged and rates nothing, so
answering again cannot farm a rating.

The judging is CPU work on the strategy tables, so it runs in a worker thread; each finished
game's mistakes are computed once per process (:data:`CACHED_GAMES` games kept).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from cachetools import LRUCache

from yacht.bots import play_game
from yacht.game import Game
from yacht.rules import CATEGORIES, Category
from yacht.strategy import Option
from yacht.training import Mistake, Position, TrainingError, judge, mistakes, position_at
from yacht.training.rating import Rated, rate
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import HintReason
from yacht.web.protocol.practice import (
    PracticeAnswer,
    PracticeOption,
    PracticePosition,
    PracticeRating,
    PracticeRef,
    PracticeVerdict,
)
from yacht.web.service.accounts import Account, Player
from yacht.web.storage.accounts import AccountStore
from yacht.web.storage.practice import (
    game_states,
    own_games,
    plays_in,
    public_games,
    rating_of,
    record_answer,
    solved_keys,
)

__all__ = ["BOT_SEEDS", "CACHED_GAMES", "OWN_GAMES", "PUBLIC_GAMES", "PracticeService"]

OWN_GAMES = 20
"""A signed-in player's newest finished games that positions are taken from first."""

PUBLIC_GAMES = 30
"""Everyone's newest finished games (public tables) taken from next."""

BOT_SEEDS = 1000
"""The easy bot's games looked through last (seeds 0 to 999)."""

CACHED_GAMES = 512
"""Finished games whose mistakes a process keeps (a finished game never changes)."""

SHOWN = 5
"""Options a verdict lists (and the answer's own, if it is not among them)."""

_Mistakes = list[Mistake]
_CACHE: LRUCache[tuple[str, int], _Mistakes] = LRUCache(maxsize=CACHED_GAMES)


def _rating(rated: Rated | None) -> PracticeRating | None:
    if rated is None:
        return None
    return PracticeRating(
        shown=rated.shown,
        provisional=rated.provisional,
        attempts=rated.attempts,
        solved=rated.solved,
    )


def _game_mistakes(game_id: int, state: dict[str, Any]) -> _Mistakes:
    key = ("game", game_id)
    found = _CACHE.get(key)
    if found is None:
        found = mistakes(Game.from_json(state))
        _CACHE[key] = found
    return found


def _bot_mistakes(seed: int) -> _Mistakes:
    key = ("bot", seed)
    found = _CACHE.get(key)
    if found is None:
        found = mistakes(play_game(["easy"], seed=seed))
        _CACHE[key] = found
    return found


def _first(
    found: Iterable[tuple[Mistake, PracticeRef]], skip: set[str], rules: str | None
) -> tuple[Mistake, PracticeRef] | None:
    for mistake, ref in sorted(found, key=lambda x: -x[0].loss):
        position = mistake.position
        if position.key() not in skip and (rules is None or position.rules == rules):
            return mistake, ref
    return None


def _ref(
    source: str, mistake: Mistake, game: int | None = None, seed: int | None = None
) -> PracticeRef:
    return PracticeRef(
        source="game" if source == "game" else "bot",
        game=game,
        seed=seed,
        player=mistake.player,
        turn=mistake.turn,
        rolls_left=mistake.position.rolls_left,
    )


def _from_games(
    games: list[tuple[int, int | None]],
    states: dict[int, tuple[dict[str, Any], bool]],
    skip: set[str],
    rules: str | None,
) -> tuple[Mistake, PracticeRef] | None:
    """The costliest unsolved decision of ``games`` (game id and the seat whose decisions
    count, None: every seat), or None."""
    found = [
        (m, _ref("game", m, game=gid))
        for gid, seat in games
        if gid in states
        for m in _game_mistakes(gid, states[gid][0])
        if seat is None or m.player == seat
    ]
    return _first(found, skip, rules)


def _from_bot(skip: set[str], rules: str | None) -> tuple[Mistake, PracticeRef] | None:
    """The costliest unsolved decision of the easy bot's games (traditional), seed 0 on."""
    if rules not in (None, "traditional"):
        return None
    for seed in range(BOT_SEEDS):
        found = _first(((m, _ref("bot", m, seed=seed)) for m in _bot_mistakes(seed)), skip, None)
        if found is not None:
            return found
    return None


def _option(o: Option, best: Option) -> PracticeOption:
    return PracticeOption(
        action="keep" if o.action == "keep" else "score",
        keep=list(o.keep) if o.keep is not None else None,
        category=o.category.value if o.category is not None else None,
        points=o.points,
        expected=round(o.expected, 6),
        loss=round(max(0.0, best.expected - o.expected), 6),
    )


class PracticeService:
    """Serves and judges practice positions (see the module's text)."""

    def __init__(self, store: AccountStore, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    async def next(
        self, player: Player, skip: Iterable[str], rules: str | None
    ) -> PracticePosition:
        """The costliest decision the player has not solved (404 ``not_found``: none left)."""
        if rules is not None and rules not in _presets():
            raise TableError("invalid", f"no preset {rules!r}")
        left_out = set(skip)
        own: list[tuple[int, int]] = []
        rating: PracticeRating | None = None
        if isinstance(player, Account):
            own = await self.store.run(own_games, player.id, OWN_GAMES)
            left_out |= await self.store.run(solved_keys, player.id)
            rating = _rating(await self.store.run(rating_of, player.id)) or _rating(Rated())
        found = None
        if own:  # the player's own games first; everyone's are read only when those run out
            states = await self.store.run(game_states, [g for g, _ in own])
            found = await asyncio.to_thread(_from_games, list(own), states, left_out, rules)
        mine = found is not None
        if found is None:
            public = await self.store.run(public_games, PUBLIC_GAMES)
            states = await self.store.run(game_states, public)
            games: list[tuple[int, int | None]] = [(g, None) for g in public]
            found = await asyncio.to_thread(_from_games, games, states, left_out, rules)
        if found is None:
            found = await asyncio.to_thread(_from_bot, left_out, rules)
        if found is None:
            raise TableError("not_found", "no position left to practise: all solved")
        mistake, ref = found
        p = mistake.position
        return PracticePosition(
            ref=ref,
            key=p.key(),
            rules=p.rules,
            sheet={c.value: p.sheet[c] for c in CATEGORIES if c in p.sheet},
            dice=list(p.dice),
            rolls_left=p.rolls_left,
            scores={c.value: p.rules_obj.score(p.dice, c) for c in p.open_categories},
            name=mistake.name,
            own=mine,
            rating=rating,
        )

    async def _position(self, player: Player, ref: PracticeRef) -> Position:
        if ref.source == "bot":
            if ref.seed is None or ref.game is not None or ref.player != 0:
                raise TableError("invalid", "a bot's position names its seed and seat 0 only")
            game = await asyncio.to_thread(play_game, ["easy"], seed=ref.seed)
        else:
            if ref.game is None or ref.seed is not None:
                raise TableError("invalid", "a game's position names the game and no seed")
            states = await self.store.run(game_states, [ref.game])
            if ref.game not in states:
                raise TableError("not_found", f"no finished game {ref.game}")
            state, private = states[ref.game]
            if private:  # a private table's dice are for the players who sat at it
                seat = None
                if isinstance(player, Account):
                    seat = await self.store.run(plays_in, player.id, ref.game)
                if seat is None:
                    raise TableError("not_found", f"no finished game {ref.game}")
            game = Game.from_json(state)
        if ref.player >= len(game.players):
            raise TableError("not_found", "no such seat in that game")
        position = position_at(game, ref.player, ref.turn, ref.rolls_left)
        if position is None:
            raise TableError("not_found", "that game has no such decision")
        return position

    async def answer(self, player: Player, body: PracticeAnswer) -> PracticeVerdict:
        """Judge an answer to a served position; rate it if it is the signed-in player's
        first to that position."""
        if (body.keep is None) == (body.category is None):
            raise TableError("invalid", "an answer keeps dice or scores a category")
        position = await self._position(player, body.ref)
        try:
            if body.keep is not None:
                verdict = await asyncio.to_thread(judge, position, keep=body.keep)
            else:
                category = Category(body.category) if body.category in _CATEGORY_IDS else None
                if category is None:
                    raise TrainingError("answer", answer=f"score {body.category}")
                verdict = await asyncio.to_thread(judge, position, category=category)
        except TrainingError as e:
            raise TableError("illegal", str(e), e) from None
        before = after = None
        rated = False
        if isinstance(player, Account):
            now = datetime.fromtimestamp(self.clock(), UTC)
            done = await self.store.run(
                record_answer,
                player.id,
                position.key(),
                solved=verdict.solved,
                loss=verdict.loss,
                now=now,
                rate=_rate_rows,
            )
            before = _rating(done.before) or _rating(Rated())
            after = _rating(done.after)
            rated = done.first
        shown = list(verdict.options[:SHOWN])
        if verdict.taken not in shown:
            shown.append(verdict.taken)
        best_why, taken_why = await asyncio.to_thread(verdict.reasons)
        why = [HintReason.model_validate(r.to_json()) for r in (*best_why, *taken_why)]
        return PracticeVerdict(
            key=position.key(),
            solved=verdict.solved,
            loss=round(verdict.loss, 6),
            taken=_option(verdict.taken, verdict.best),
            best=_option(verdict.best, verdict.best),
            options=[_option(o, verdict.best) for o in shown],
            why=why,
            rated=rated,
            before=before,
            after=after,
        )


_CATEGORY_IDS = frozenset(c.value for c in CATEGORIES)


def _presets() -> list[str]:
    from yacht.rules import preset_names

    return list(preset_names())


def _rate_rows(player: Rated | None, position: Rated | None, solved: bool) -> tuple[Rated, Rated]:
    """Both ratings after an answer; a player or position not rated yet starts new."""
    return rate(player or Rated(), position or Rated(), solved)
