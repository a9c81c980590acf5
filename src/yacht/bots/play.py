"""Bots at the table: play a turn, a game, or many games through the engine."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import numpy as np

from yacht.actions import GameOverError, Score
from yacht.bots.base import Bot
from yacht.bots.registry import BOT_LEVELS, make_bot
from yacht.bots.solver import TargetBot
from yacht.dice import DiceSource, RandomDice
from yacht.game import Event, Game
from yacht.rules import CATEGORIES, Rules, rules_by_name
from yacht.strategy.errors import StrategyError
from yacht.strategy.simulate import Simulation, simulate

__all__ = [
    "MAX_TURN_ACTIONS",
    "VECTORISED_BOTS",
    "play_game",
    "play_games",
    "play_turn",
    "simulate_bot",
]

MAX_TURN_ACTIONS = 8
"""A turn takes at most 6 actions (3 rolls, 2 holds, 1 score); a bot that needs more is broken."""

BotSpec = Bot | str


def play_turn(game: Game, bot: Bot, rng: random.Random) -> list[Event]:
    """Let ``bot`` play the current player's turn up to its scoring; return the turn's events.

    >>> from yacht.bots import make_bot
    >>> game = Game(["Ann"], dice=RandomDice(seed=1))
    >>> events = play_turn(game, make_bot("greedy"), random.Random(1))
    >>> str(events[0].action), isinstance(events[-1].action, Score), game.round
    ('roll', True, 2)
    """
    if game.finished:
        raise GameOverError("bot_game_over", bot=bot.name)
    player = game.current
    events: list[Event] = []
    for _ in range(MAX_TURN_ACTIONS):
        event = game.apply(bot.act(game.view(), rng), player=player)
        events.append(event)
        if isinstance(event.action, Score):
            return events
    raise RuntimeError(f"{bot.name} bot did not finish a turn in {MAX_TURN_ACTIONS} actions")


def play_game(
    bots: BotSpec | Sequence[BotSpec],
    rules: Rules | str = "traditional",
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    dice: DiceSource | None = None,
    names: Sequence[str] | None = None,
    start: str = "seat",
) -> Game:
    """A whole game with one bot per seat (a single bot plays a solo game).

    ``seed`` seeds both the dice (:class:`RandomDice`) and the bots' generator, so the same
    seed replays the same game; ``rng`` and ``dice`` override either.

    >>> game = play_game(["greedy", "random"], seed=5)
    >>> game.finished, game.players
    (True, ('greedy', 'random'))
    >>> play_game("greedy", seed=5).totals == play_game("greedy", seed=5).totals
    True
    """
    specs = [bots] if isinstance(bots, (str, Bot)) else list(bots)
    seats = [make_bot(b) if isinstance(b, str) else b for b in specs]
    if names is None:
        names = _seat_names([b.name for b in seats])
    game = Game(names, rules, dice if dice is not None else RandomDice(seed), start=start)
    if rng is None:
        rng = random.Random(f"bots:{seed}") if seed is not None else random.Random()
    while not game.finished:
        play_turn(game, seats[game.current], rng)
    return game


def play_games(
    bot: BotSpec,
    games: int,
    rules: Rules | str = "traditional",
    *,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Simulation:
    """Solo games of ``bot`` through the engine, one action at a time (the slow, exact path).

    Game i uses dice seed (seed, i), so a run is reproducible by ``seed``.
    """
    if games <= 0:
        raise StrategyError("games_at_least_one_plain", games=games)
    player = make_bot(bot) if isinstance(bot, str) else bot
    preset = rules_by_name(rules)
    base = seed if seed is not None else random.SystemRandom().randrange(2**63)
    rng = random.Random(f"bots:{base}")
    points = np.zeros((games, len(CATEGORIES)), dtype=np.int16)
    totals = np.zeros(games, dtype=np.int32)
    began = time.perf_counter()
    for i in range(games):
        dice = RandomDice(random.Random(f"dice:{base}:{i}").randrange(2**63))
        game = play_game(player, preset, rng=rng, dice=dice)
        sheet = game.sheet(0)
        points[i] = [sheet[c] for c in CATEGORIES]
        totals[i] = game.totals[0]
        if progress is not None and (i + 1) % 100 == 0:
            progress(i + 1, games)
    if progress is not None:
        progress(games, games)
    return Simulation(
        player.name, preset.name, totals, points, time.perf_counter() - began, "engine"
    )


VECTORISED_BOTS: tuple[str, ...] = ("optimal", *BOT_LEVELS, "target:T")
"""Bots the vectorised simulator plays (policy tables); the others play through the engine."""


def simulate_bot(
    name: str,
    games: int,
    rules: Rules | str = "traditional",
    *,
    seed: int | None = None,
    engine: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Simulation:
    """Solo games of the bot called ``name``: vectorised when it can be, else the engine.

    ``engine=True`` plays every game through the engine even when the bot is vectorised.
    """
    bot = make_bot(name)
    if games <= 0:
        raise StrategyError("games_at_least_one_plain", games=games)
    target = bot.target if isinstance(bot, TargetBot) else None
    if engine or (bot.name not in VECTORISED_BOTS and target is None):
        return play_games(bot, games, rules, seed=seed, progress=progress)
    return simulate(
        games,
        rules,
        seed=seed,
        temperature=BOT_LEVELS.get(bot.name, 0.0),
        target=target,
        bot=bot.name,
        progress=progress,
    )


def _seat_names(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n} {seen[n]}")
    return out
