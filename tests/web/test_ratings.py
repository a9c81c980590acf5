"""Ratings of rated games (yacht.web.service.ratings): Plackett-Luce by final rank, ties,
2 to 6 players, provisional players moving more, the displayed scale, and bad input refused."""

from __future__ import annotations

import pytest

from yacht.web.service.ratings import (
    PROVISIONAL_GAMES,
    Rating,
    RatingError,
    Seat,
    ranks_from_totals,
    rate_game,
)


def test_the_winner_goes_up_and_the_loser_down() -> None:
    ann, bob = rate_game([Seat("ann", Rating(), 1), Seat("bob", Rating(), 2)])
    assert ann.after.mu > ann.before.mu and bob.after.mu < bob.before.mu
    assert ann.shown_change > 0 > bob.shown_change
    assert ann.after.games == bob.after.games == 1
    # the seats' order does not matter, the ranks do
    bob2, ann2 = rate_game([Seat("bob", Rating(), 2), Seat("ann", Rating(), 1)])
    assert (ann2.after, bob2.after) == (ann.after, bob.after)


def test_ranks_order_the_updates_in_a_six_player_game() -> None:
    totals = [150, 210, 180, 180, 120, 240]
    ranks = ranks_from_totals(totals)
    assert ranks == [5, 2, 3, 3, 6, 1]
    seats = [Seat(f"p{i}", Rating(), r) for i, r in enumerate(ranks)]
    changes = rate_game(seats)
    by_rank = sorted(zip(ranks, (c.after.mu for c in changes), strict=True))
    mus = [mu for _, mu in by_rank]
    assert mus[0] > mus[1] > mus[2] == mus[3] > mus[4] > mus[5]  # the tie is equal
    assert changes[5].after.mu > 25 > changes[4].after.mu
    assert all(c.after.games == 1 for c in changes)


def test_a_tie_gives_equal_updates() -> None:
    a, b = rate_game([Seat("a", Rating(), 1), Seat("b", Rating(), 1)])
    assert a.after == b.after
    a, b, c = rate_game([Seat("a", Rating(), 1), Seat("b", Rating(), 1), Seat("c", Rating(), 3)])
    assert a.after == b.after and a.after.mu > c.after.mu
    # the seat just after a tie ends below the tied ones (openskill 6.2's own tie handling
    # gave it the same mu: ranks 1, 1, 3, 4)
    a, b, c, d = rate_game(
        [Seat(p, Rating(), r) for p, r in zip("abcd", [1, 1, 3, 4], strict=True)]
    )
    assert a.after == b.after and a.after.mu > 25 > c.after.mu > d.after.mu
    everyone = rate_game([Seat(i, Rating(), 1) for i in range(6)])
    assert {c.after for c in everyone} == {everyone[0].after}
    assert everyone[0].after.mu == pytest.approx(25.0)


def test_a_provisional_player_moves_more() -> None:
    settled = Rating(25.0, 3.0, 40)
    new, old = Rating(), settled
    assert new.provisional and not old.provisional
    opponent = Rating(25.0, 3.0, 40)
    moved_new = rate_game([Seat("new", new, 1), Seat("o", opponent, 2)])[0]
    moved_old = rate_game([Seat("old", old, 1), Seat("o", opponent, 2)])[0]
    assert moved_new.after.mu - 25 > 2 * (moved_old.after.mu - 25) > 0
    assert Rating(games=PROVISIONAL_GAMES - 1).provisional
    assert not Rating(games=PROVISIONAL_GAMES).provisional


def test_rating_is_deterministic_and_shown_on_a_1500_scale() -> None:
    seats = [Seat(1, Rating(27.0, 5.0, 12), 2), Seat(2, Rating(), 1), Seat(3, Rating(), 3)]
    assert rate_game(seats) == rate_game(seats)
    assert Rating().shown == 1500 and Rating().ordinal == 0.0
    assert Rating(27.0, 5.0).shown == 1620
    assert Rating().to_json() == {
        "mu": 25.0,
        "sigma": 25 / 3,
        "games": 0,
        "shown": 1500,
        "provisional": True,
    }


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ([Seat("a", Rating(), 1)], "2 to 6 players, got 1"),
        ([Seat(i, Rating(), 1) for i in range(7)], "2 to 6 players, got 7"),
        ([Seat("a", Rating(), 1), Seat("a", Rating(), 2)], "a player is in two seats: 'a'"),
        ([Seat("a", Rating(), 1), Seat("b", Rating(), 3)], "not competition ranks"),
        ([Seat("a", Rating(), 0), Seat("b", Rating(), 1)], "not competition ranks"),
        ([Seat("a", Rating(), 2), Seat("b", Rating(), 2)], "not competition ranks"),
        ([Seat("a", Rating(), 1), Seat("b", Rating(), True)], "not a whole number"),
        ([Seat("a", Rating(), 1), Seat("b", Rating(), 1.5)], "not a whole number"),  # type: ignore[arg-type]
        ([Seat("a", Rating(), 1), Seat("b", (25, 8), 2)], "is not a Rating"),  # type: ignore[arg-type]
    ],
)
def test_bad_seats_are_refused_with_a_clear_error(seats: list[Seat], message: str) -> None:
    with pytest.raises(RatingError, match=message.replace("(", r"\(")):
        rate_game(seats)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mu": float("nan")}, "mu must be a finite number"),
        ({"sigma": 0.0}, "sigma must be above 0"),
        ({"sigma": float("inf")}, "sigma must be a finite number"),
        ({"games": -1}, "games must be a whole number"),
    ],
)
def test_a_bad_rating_is_refused(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(RatingError, match=message):
        Rating(**kwargs)  # type: ignore[arg-type]
