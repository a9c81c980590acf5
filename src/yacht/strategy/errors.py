"""The errors the strategy raises about what it was asked: a position that cannot be, or an
argument out of range (``--opponents``' sheets, an upper subtotal, a target)."""

from __future__ import annotations

from yacht.errors import N_, YachtError

__all__ = ["StrategyError"]


class StrategyError(
    YachtError,
    ValueError,
    messages={
        "percentile": N_("percentile must be in (0, 100], got {q!r}"),
        "endgame_not_covered": N_(
            "the endgame table (depth {depth}) has no turn with {mover} and {other} categories open"
        ),
        "endgame_depth": N_("endgame depth must be a whole number from 1 to 6, got {depth!r}"),
        "endgame_depth_zero": N_("endgame depth must be a whole number from 0 to 6, got {depth!r}"),
        "against": N_("against must be one of {known}, got {against!r}"),
        "bot_target": N_("target must be a whole number of points >= 0, got {target!r}"),
        "rolls_left": N_("rolls left must be 0, 1 or 2, got {rolls!r}"),
        "all_used": N_("all categories are used: there is nothing left to score"),
        "no_dice": N_("no dice on the table yet: the turn starts with a roll"),
        "no_turn": N_("every category is filled: there is no turn to play"),
        "match_seats": N_("a match needs 1 to 6 seats, got {n}"),
        "match_bots": N_("the match simulator plays {known}; not {unknown}"),
        "games": N_("games must be a whole number >= 1, got {games!r}"),
        "games_at_least_one": N_("games must be at least 1, got {games!r}"),
        "games_at_least_one_plain": N_("games must be at least 1, got {games}"),
        "plan": N_("unknown plan {plan!r} (use one of {plans})"),
        "temperature": N_("temperature must be >= 0, got {temperature!r}"),
        "target": N_("target must be a whole number of points, got {target!r}"),
        "used": N_("used categories must be categories or an int mask, got {used!r}"),
        "used_mask": N_("used-category mask {used!r} is outside 0..{most}"),
        "upper_type": N_("upper subtotal must be a whole number, got {upper!r}"),
        "upper_impossible": N_("upper subtotal {upper} is impossible with {used} used"),
        "upper_impossible_none": N_(
            "upper subtotal {upper} is impossible with no upper category used"
        ),
        "arrays": N_("masks and uppers must be 1-d arrays of the same length"),
        "states": N_("states must have a category open and an upper within 0..cap"),
        "needed": N_("points needed must be a whole number, got {needed!r}"),
        "needed_limit": N_("this target table answers up to {limit} points needed"),
        "needed_base": N_("this target table covers the sheets that follow mask {base}"),
        "target_points": N_("target must be a whole number of points >= 0, got {value!r}"),
        "banked_points": N_("banked points must be a whole number of points >= 0, got {value!r}"),
        "too_many_players": N_("a game has at most 6 players, got {n}"),
        "sheets_json": N_("opponents' sheets are not valid JSON (line {line}, column {column})"),
        "sheets_list": N_("opponents' sheets: need a JSON list of objects such as {example}"),
        "sheets_pair": N_("opponents' sheets: {pair!r} is not category=points"),
        "sheets_twice": N_("opponents' sheets: {name} is given twice"),
        "sheets_count": N_("need 1 to 5 opponents' sheets, got {n}"),
        "opponent_points": N_("opponent {i}: {category}={value!r} is not a number"),
        "opponent_cannot": N_("opponent {i}: {category} cannot score {points} under {rules}"),
        "opponent_twice": N_("opponent {i}: {category} is given twice"),
        "explain_top": N_("top must be a whole number of options >= 1, got {top!r}"),
        "explain_option": N_("{option} is not an option of this position"),
    },
):
    """A question the strategy cannot answer as asked."""
