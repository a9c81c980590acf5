"""The engine: turns, phases, the seed pages' worked turns, every kind of illegal action,
undo, who starts, winners."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from yacht import (
    Action,
    CategoryFilledError,
    Game,
    GameError,
    GameOverError,
    Hold,
    InvalidActionError,
    NoRollsLeftError,
    NotRolledError,
    NotYourTurnError,
    Phase,
    RandomDice,
    Roll,
    Score,
    ScriptedDice,
    Undo,
    UndoNotAllowedError,
)
from yacht.dice import ROLLS, DiceExhaustedError
from yacht.rules import CATEGORIES, Category, rules_by_name


def state(g: Game) -> dict[str, Any]:
    """Everything a player can see, plus the JSON; equal states mean nothing changed."""
    return {
        "json": g.to_json(),
        "phase": g.phase,
        "current": g.current,
        "round": g.round,
        "dice": g.dice,
        "held": g.held,
        "rolls": (g.rolls_used, g.rolls_left),
        "sheets": [dict(s) for s in g.sheets],
        "totals": g.totals,
        "legal": g.legal_actions(),
        "version": g.version,
    }


def play_out(g: Game) -> None:
    """Finish a game: roll once and fill the first open category, turn after turn."""
    while not g.finished:
        g.apply("roll")
        g.apply(Score(next(c for c in CATEGORIES if c not in g.sheet(g.current))))


def test_a_turn_rolls_holds_and_scores() -> None:
    g = Game(["Ann", "Bob"], dice=ScriptedDice([6, 6, 2, 3, 6, 6, 1, 4, 5, 2, 3, 4, 5, 6, 6, 6, 6]))
    assert (g.phase, g.current, g.round, g.dice, g.rolls_left) == (Phase.ROLL, 0, 1, None, 3)
    assert g.legal_actions() == [Roll()]
    event = g.apply("roll")
    assert (event.player, event.dice, g.phase, g.rolls_used) == (
        0,
        (6, 6, 2, 3, 6),
        Phase.DECIDE,
        1,
    )
    assert len(g.legal_actions()) == 1 + 32 + 12
    g.apply("hold 1 2 5")
    assert g.held == frozenset({1, 2, 5})
    assert g.apply("roll").dice == (6, 6, 6, 1, 6)  # only dice 3 and 4 were rolled
    assert g.potential(Category.FOUR_OF_A_KIND) == 24
    g.apply("hold")  # release them all: all five are rolled again
    assert g.apply("roll").dice == (4, 5, 2, 3, 4)
    assert g.rolls_left == 0
    assert all(isinstance(a, Score) for a in g.legal_actions())
    event = g.apply("score little_straight")
    assert event.points == 0 and event.dice == (4, 5, 2, 3, 4)
    assert (g.current, g.phase, g.dice, g.held, g.rolls_used) == (
        1,
        Phase.ROLL,
        None,
        frozenset(),
        0,
    )
    assert g.sheet(0) == {Category.LITTLE_STRAIGHT: 0}
    view = g.view()
    assert (view.player, view.dice, view.rolls_left, view.banked) == (1, None, 3, 0)
    assert view.sheets[0] == {Category.LITTLE_STRAIGHT: 0} and view.open_categories == list(
        CATEGORIES
    )
    g.apply("roll")
    g.apply("score sixes")
    assert view.sheet == {} and view.used == frozenset()  # a snapshot: later play leaves it be
    assert g.view().sheets[1] == {Category.SIXES: g.sheet(1)[Category.SIXES]}
    assert [str(e.action) for e in g.events][:6] == [
        "roll",
        "hold 1 2 5",
        "roll",
        "hold",
        "roll",
        "score little_straight",
    ]


def test_seed_003_worked_turn_under_all_dice_four() -> None:
    # Ana rolls 1-2-2-4-6, keeps the 2s, rolls 4-4-6 (2-2-4-4-6), has already scored a Full
    # House so keeps the 4s, rolls 1-4-4 (1-4-4-4-4) and scores Four of a Kind: 17.
    dice = ScriptedDice([3, 3, 3, 6, 6, 1, 2, 2, 4, 6, 4, 4, 6, 1, 4, 4])
    g = Game(["Ana"], "all-dice-four", dice)
    g.apply("roll")
    assert g.apply("score full_house").points == 21
    assert g.apply("roll").dice == (1, 2, 2, 4, 6)
    g.apply("hold 2 3")
    assert sorted(g.apply("roll").dice or ()) == [2, 2, 4, 4, 6]
    g.apply(Hold(tuple(i for i, d in enumerate(g.dice or (), 1) if d == 4)))
    assert sorted(g.apply("roll").dice or ()) == [1, 4, 4, 4, 4]
    assert g.apply("score four_of_a_kind").points == 17
    assert rules_by_name("traditional").score(g.events[-1].dice or (), "four_of_a_kind") == 16


@pytest.mark.parametrize(("last_die", "yacht"), [(6, 50), (2, 0)])
def test_seed_004_worked_turn(last_die: int, yacht: int) -> None:
    # 6, 6, 6, 3, 3 is a house worth 24 (Sixes 18); with the house used, keep the 6s, reroll
    # two: 4 and 6 make four 6s, 24 in Four of a Kind or Sixes; one die left to roll.
    g = Game(["Kari"], dice=ScriptedDice([6, 6, 6, 3, 3, 4, 6, last_die]))
    g.apply("roll")
    assert (g.potential(Category.FULL_HOUSE), g.potential(Category.SIXES)) == (24, 18)
    g.apply("hold 1 2 3")
    assert g.apply("roll").dice == (6, 6, 6, 4, 6)
    assert g.potential(Category.FOUR_OF_A_KIND) == g.potential(Category.SIXES) == 24
    g.apply("hold 1 2 3 5")
    g.apply("roll")
    assert g.rolls_left == 0
    assert g.potential(Category.YACHT) == yacht
    assert g.potential(Category.SIXES) == (30 if yacht else 24)


def test_seed_004_perfect_sheet_played_through_the_engine_is_297() -> None:
    rules = rules_by_name("traditional")
    best = {c: max(ROLLS, key=lambda r: rules.score(r, c)) for c in CATEGORIES}
    g = Game(["Perfect"], dice=ScriptedDice(f for c in CATEGORIES for f in best[c]))
    for c in CATEGORIES:
        g.apply("roll")
        g.apply(Score(c))
    assert g.finished and g.totals == [297] and g.winners() == [0]


def test_games_end_after_twelve_rounds_and_ties_share_the_win() -> None:
    # Seed 004: "Ender to spillere likt, deler de seieren". Same dice for both players.
    g = Game(["Ann", "Bob", "Cy"], dice=ScriptedDice(([2] * 10 + [1] * 5) * 12))
    assert g.winners() == []
    play_out(g)
    assert g.finished and g.phase is Phase.FINISHED and g.round == 12
    assert g.winners() == [0, 1] and g.totals[0] == g.totals[1] > g.totals[2]
    assert g.legal_actions() == []
    assert sum(isinstance(e.action, Score) for e in g.events) == 36


# --- every illegal action raises its own error, quotes input and state, changes nothing -----


def fresh() -> Game:
    return Game(["Ann", "Bob"], dice=RandomDice(seed=5), undo=False)


def rolled(times: int) -> Callable[[], Game]:
    def make() -> Game:
        g = fresh()
        for _ in range(times):
            g.apply("roll")
        return g

    return make


def scored_ones_then(times: int) -> Callable[[], Game]:
    def make() -> Game:
        g = fresh()
        for _ in range(2):  # Ann and Bob both fill Ones
            g.apply("roll")
            g.apply("score ones")
        for _ in range(times):
            g.apply("roll")
        return g

    return make


def finished() -> Game:
    g = fresh()
    play_out(g)
    return g


ILLEGAL: list[tuple[Callable[[], Game], Any, int | None, type[GameError], list[str]]] = [
    (rolled(3), "roll", None, NoRollsLeftError, ["'roll'", "no rolls left", "roll 3 of 3"]),
    (rolled(3), "hold 1", None, NoRollsLeftError, ["'hold 1'", "no rolls left"]),
    (fresh, "score ones", None, NotRolledError, ["'score ones'", "before the first roll"]),
    (fresh, "hold 1 2", None, NotRolledError, ["'hold 1 2'", "roll first"]),
    (scored_ones_then(1), "score ones", None, CategoryFilledError,
     ["'score ones'", "ones is already filled with"]),
    (rolled(1), "hold 6", None, InvalidActionError,
     ["'hold 6'", "dice positions are 1 to 5", "roll 1 of 3"]),
    (rolled(1), "hold 0 1", None, InvalidActionError, ["'hold 0 1'", "Ann's turn"]),
    (rolled(1), "jump", None, InvalidActionError,
     ["'jump'", "Ann's turn, round 1, roll 1 of 3, dice"]),
    (rolled(1), "score bonus", None, InvalidActionError, ["'score bonus'", "unknown category"]),
    (rolled(1), 42, None, InvalidActionError, ["42", "expected an action or its text"]),
    (rolled(1), None, None, InvalidActionError, ["None", "Ann's turn"]),
    (rolled(1), ("roll",), None, InvalidActionError, ["('roll',)"]),
    (finished, "roll", None, GameOverError, ["'roll'", "the game is over: won by"]),
    (finished, "score yacht", None, GameOverError, ["'score yacht'", "game is over"]),
    (finished, "undo", None, GameOverError, ["'undo'", "game is over"]),
    (finished, "jump", None, InvalidActionError, ["'jump'", "game is over"]),
    (fresh, "roll", 1, NotYourTurnError, ["'roll'", "for player 1", "Ann's turn"]),
    (rolled(1), "score choice", 1, NotYourTurnError, ["'score choice'", "player 1"]),
    (fresh, "undo", None, UndoNotAllowedError, ["'undo'", "the undo house rule is off"]),
    (scored_ones_then(0), "undo", None, UndoNotAllowedError, ["house rule is off"]),
]  # fmt: skip


@pytest.mark.parametrize(("make", "action", "player", "error", "words"), ILLEGAL)
def test_illegal_actions_raise_their_error_quote_input_and_state_and_change_nothing(
    make: Callable[[], Game],
    action: Any,
    player: int | None,
    error: type[GameError],
    words: list[str],
) -> None:
    g = make()
    before = state(g)
    with pytest.raises(error) as raised:
        g.apply(action, player=player)
    assert type(raised.value) is error and isinstance(raised.value, ValueError)
    for word in words:
        assert word in str(raised.value)
    assert state(g) == before
    if error is not InvalidActionError:  # the action made: push refuses it in the same words
        with pytest.raises(error) as pushed:
            g.push(Action.parse(action), player=player)
        assert (pushed.value.code, str(pushed.value)) == (raised.value.code, str(raised.value))
        assert state(g) == before
    # An illegal action is never listed as legal.
    if (
        isinstance(action, str)
        and error is not InvalidActionError
        and error is not NotYourTurnError
    ):
        assert all(str(a) != action for a in g.legal_actions())


@pytest.mark.parametrize("thing", ["roll", 42, None, Action()])
def test_push_takes_only_an_action_made_and_changes_nothing(thing: Any) -> None:
    g = fresh()
    before = state(g)
    with pytest.raises(InvalidActionError) as raised:
        g.push(thing)
    assert raised.value.code == "not_an_action" and "expected an action" in str(raised.value)
    assert state(g) == before


def test_push_plays_the_same_game_as_apply_of_the_text() -> None:
    texts, pushed = (
        Game(["Ann", "Bob"], dice=RandomDice(7)),
        Game(["Ann", "Bob"], dice=RandomDice(7)),
    )
    while not texts.finished:
        turn: list[Action | None] = [Roll(), Hold((1, 3)), Roll(), None]
        for planned in turn:  # None: the turn's scoring, the last open category
            act = planned or next(
                a for a in reversed(texts.legal_actions()) if isinstance(a, Score)
            )
            assert texts.apply(str(act)) == pushed.push(act, player=pushed.current)
    assert pushed.to_json() == texts.to_json() and pushed.totals == texts.totals


def test_an_accepted_push_makes_no_refusal_words_and_a_refused_one_quotes_them() -> None:
    """The words that quote an action in a refusal are made for a refusal only: a game keeps
    its accepted actions without them (a server holds every game in play)."""
    g = Game(["Ann"], dice=RandomDice(3))
    for act in (Roll(), Hold((2,)), Roll(), Score(Category.CHOICE)):
        g.push(act)
    assert all("words" not in vars(e.action) for e in g.events)
    late = Hold((1,))
    with pytest.raises(NotRolledError) as refused:
        g.push(late)
    assert str(refused.value).startswith("cannot 'hold 1': roll first")


def test_a_failing_dice_source_changes_nothing() -> None:
    g = Game(["Ann"], dice=ScriptedDice([1, 2, 3, 4, 5, 6]))
    g.apply("roll")
    g.apply("hold 1 2 3")
    before = state(g)
    with pytest.raises(DiceExhaustedError):
        g.apply("roll")
    assert state(g) == before


# --- undo (house rule) ----------------------------------------------------------------------


def test_undo_restores_dice_held_set_and_rolls_exactly() -> None:
    g = Game(["Ann", "Bob"], dice=RandomDice(seed=11), undo=True)
    g.apply("roll")
    g.apply("hold 2 4")
    g.apply("roll")
    g.apply("hold 1 2 4")
    before = state(g)
    g.apply("score choice")
    assert g.current == 1 and Undo() in g.legal_actions()
    event = g.apply("undo")
    assert event.player == 0 and event.action == Undo()
    after = state(g)
    assert after.pop("json")["events"][-1] == {"player": 0, "action": "undo"}
    before.pop("json")
    assert after.pop("version") == before.pop("version") + 2
    assert after == before
    assert (g.dice, g.held, g.rolls_used) == (before["dice"], frozenset({1, 2, 4}), 2)
    # Taking back again is not allowed: the scoring is already undone.
    with pytest.raises(UndoNotAllowedError, match="already taken back"):
        g.apply("undo")
    # The turn goes on: another category this time.
    g.apply("roll")
    g.apply("score yacht")
    assert Category.CHOICE not in g.sheet(0) and Category.YACHT in g.sheet(0)


def test_undo_is_refused_once_the_next_player_has_rolled() -> None:
    g = Game(["Ann", "Bob"], dice=RandomDice(seed=3), undo=True)
    with pytest.raises(UndoNotAllowedError, match="nothing has been scored yet"):
        g.apply("undo")
    g.apply("roll")
    g.apply("score sixes")
    g.apply("roll")  # Bob rolled
    before = state(g)
    with pytest.raises(UndoNotAllowedError, match="Bob has rolled since the last scoring"):
        g.apply("undo")
    assert state(g) == before
    assert Undo() not in g.legal_actions()


def test_only_the_player_who_scored_can_undo_and_across_a_round() -> None:
    g = Game(["Ann", "Bob"], dice=RandomDice(seed=8), undo=True)
    for _ in range(2):
        g.apply("roll")
        g.apply("score twos")
    assert (g.round, g.current) == (2, 0)
    with pytest.raises(NotYourTurnError, match="only Bob can take back their twos"):
        g.apply("undo", player=0)
    g.apply("undo", player=1)
    assert (g.round, g.current, g.phase) == (1, 1, Phase.DECIDE)
    assert Category.TWOS not in g.sheet(1)


def test_undo_after_an_undo_and_a_rescoring_rebuilds_the_turn_as_it_stood() -> None:
    g = Game(["Solo"], dice=RandomDice(seed=21), undo=True)
    g.apply("roll")
    g.apply("hold 1")
    g.apply("roll")
    g.apply("score ones")
    g.apply("undo")
    g.apply("hold 2 3")
    expected = (g.dice, g.held, g.rolls_used)
    g.apply("score twos")
    g.apply("undo")
    assert (g.dice, g.held, g.rolls_used) == expected
    assert Game.from_json(g.to_json()).to_json() == g.to_json()


def test_undo_of_the_last_scoring_in_a_one_player_game() -> None:
    g = Game(["Solo"], dice=RandomDice(seed=2), undo=True)
    g.apply("roll")
    g.apply("score choice")
    assert g.legal_actions()[0] == Undo()  # the next player (Solo again) has not rolled
    g.apply("undo")
    assert g.sheet(0) == {} and g.rolls_used == 1


# --- who starts -----------------------------------------------------------------------------


def test_seat_order_starts_with_the_first_seat_and_goes_round() -> None:
    g = Game(["A", "B", "C"], dice=RandomDice(seed=1))
    assert (g.first, g.start_rolls) == (0, [])
    order = []
    while g.round == 1:
        order.append(g.current)
        g.apply("roll")
        g.apply(Score(CATEGORIES[0]))
    assert order == [0, 1, 2]


def test_roll_off_highest_die_starts_ties_reroll_among_the_tied_only() -> None:
    # Seed 004: "den som slår høyest på én terning". A, B, C roll 4, 6, 6: B and C tie and
    # roll again (2 dice only): 2, 5, so C starts, then play goes round: C, A, B.
    dice = ScriptedDice([4, 6, 6, 2, 5] + [1, 1, 1, 1, 1] * 3)
    g = Game(["A", "B", "C"], dice=dice, start="roll-off")
    assert g.start_rolls == [[4, 6, 6], [2, 5]]
    assert (g.first, g.current_name) == (2, "C")
    order = []
    for _ in range(3):
        order.append(g.current_name)
        g.apply("roll")
        g.apply("score ones")
    assert order == ["C", "A", "B"]
    assert g.events[0].dice == (1, 1, 1, 1, 1)  # the start dice are not the first roll
    no_tie = Game(["A", "B"], dice=ScriptedDice([3, 5]), start="roll-off")
    assert (no_tie.first, no_tie.start_rolls) == (1, [[3, 5]])


@pytest.mark.parametrize("players", range(1, 7))
def test_random_start_is_uniform_over_seats(players: int) -> None:
    # One die names a seat (1..n); a face above n is rolled again. So each seat is named by
    # exactly one face of every roll, and every seat starts with the same chance, 1/n.
    named = {}
    for face in range(1, 7):
        g = Game([f"P{i}" for i in range(players)], dice=ScriptedDice([face, 1]), start="random")
        named[face] = g.first
        assert g.start_rolls == ([[face]] if face <= players else [[face], [1]])
    seats = [named[f] for f in range(1, players + 1)]
    assert sorted(seats) == list(range(players))
    assert all(named[f] == 0 for f in range(players + 1, 7))  # rerolled, then the 1 names 0


def test_bad_game_setups_are_value_errors() -> None:
    for players in ([], ["a"] * 7, ["Ann", " "], ["Ann", 3]):
        with pytest.raises(ValueError, match="1 to 6 named players"):
            Game(players)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown start rule 'dice'"):
        Game(["Ann"], start="dice")
    with pytest.raises(ValueError, match="unknown rules preset"):
        Game(["Ann"], rules="yahtzee")
    assert Game("Ann").players == ("Ann",)
    assert Game([" Ann "]).players == ("Ann",)


def test_a_category_filled_with_zero_is_filled() -> None:
    g = Game(["Ann"], dice=ScriptedDice([1, 2, 3, 4, 6] * 2))
    g.apply("roll")
    assert g.apply("score yacht").points == 0
    g.apply("roll")
    before = state(g)
    with pytest.raises(CategoryFilledError, match="yacht is already filled with 0"):
        g.apply("score yacht")
    assert state(g) == before
    assert Score(Category.YACHT) not in g.legal_actions()
