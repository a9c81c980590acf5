"""``yacht play --plain``: whole games through a pipe, bad input, EOF, languages, arguments."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys

import pytest

from yacht import Game, GameError, RandomDice, ScriptedDice
from yacht.actions import Score
from yacht.cli.plain import PlainGame
from yacht.i18n import category_label
from yacht.rules import CATEGORIES, Category


def yacht(*args: str, stdin: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "YACHT_LANG": lang}
    return subprocess.run(
        [sys.executable, "-m", "yacht", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def two_player_script() -> list[str]:
    """Both players fill the categories in sheet order, with holds, rerolls and mistakes."""
    lines = ["garbage", "hold 9"]
    for turn in range(24):
        category = CATEGORIES[turn // 2].value
        lines += ["roll", "hold 1 2", "roll"]
        if turn == 5:
            lines += ["roll", "roll"]  # a fourth roll: refused
        if turn >= 2:
            lines.append(f"score {CATEGORIES[0].value}")  # filled already: refused
        lines.append(f"score {category}")
    return lines


def expected_game(seed: int, lines: list[str]) -> Game:
    """The same commands straight into the engine; the refused ones change nothing."""
    g = Game(["Ann", "Bob"], dice=RandomDice(seed))
    for line in lines:
        with contextlib.suppress(GameError):
            g.apply(line)
    return g


def final_sheet(out: str) -> dict[str, list[int]]:
    """The rows of the last score sheet printed: label -> points per player."""
    lines = out.splitlines()
    start = max(i for i, line in enumerate(lines) if line.strip().endswith("Ann |    Bob"))
    rows = {}
    for line in lines[start + 2 :]:
        if "|" in line:
            label, *cells = (part.strip() for part in line.split("|"))
            rows[label] = [int(c) for c in cells]
    return rows


def test_a_two_player_game_through_a_pipe_to_the_end() -> None:
    lines = two_player_script()
    done = yacht("play", "--plain", "--players", "Ann,Bob", "--seed", "7", stdin="\n".join(lines))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    expected = expected_game(7, lines)
    assert expected.finished
    rows = final_sheet(done.stdout)
    for c in CATEGORIES:
        assert rows[category_label(c)] == [expected.sheet(p)[c] for p in (0, 1)]
    assert rows["Total"] == expected.totals
    best = max(expected.totals)
    winners = ", ".join(expected.players[i] for i in expected.winners())
    word = "Winner" if len(expected.winners()) == 1 else "Winners"
    assert done.stdout.rstrip().splitlines()[-1] == f"Game over. {word}: {winners} with {best}."
    out = done.stdout
    assert '! "garbage": unknown command; type help to see the commands' in out
    assert '! "hold 9": dice positions are 1 to 5, each at most once' in out
    assert '! "roll": no rolls left: score a category' in out
    assert '! "score ones": Ones is already filled (' in out
    assert "Traceback" not in out + done.stderr


def play(lines: list[str], game: Game | None = None, lang: str = "en") -> tuple[int, str]:
    g = game or Game(["Ann", "Bob"], dice=RandomDice(3))
    out = io.StringIO()
    status = PlainGame(g, lang).run(io.StringIO("".join(f"{x}\n" for x in lines)), out)
    return status, out.getvalue()


def test_bad_input_gets_a_clear_message_and_the_prompt_again() -> None:
    status, out = play(["roll", "hold 9", "hold 1 1", "score bonus", "jump", "undo", "quit"])
    assert status == 0
    lines = out.splitlines()
    for bad, message in [
        ("hold 9", "dice positions are 1 to 5, each at most once (hold 1 3 holds two dice)"),
        ("hold 1 1", "dice positions are 1 to 5, each at most once (hold 1 3 holds two dice)"),
        ("score bonus", "unknown category; the categories are: ones, twos, threes"),
        ("jump", "unknown command; type help to see the commands"),
        ("undo", "undo is off in this game (start it with --undo)"),
    ]:
        at = lines.index(f"Ann> {bad}")
        assert lines[at + 1].startswith(f'! "{bad}": {message}')
        assert lines[at + 2].startswith("Round 1 of 12, Ann: ")  # the turn again ...
        assert lines[at + 3].startswith("Ann> ")  # ... and the prompt
    assert lines[-1] == "Game abandoned."


def test_end_of_input_mid_game_is_a_clear_message_not_a_traceback() -> None:
    done = yacht("play", "--plain", "--players", "Ann,Bob", "--seed", "1", stdin="roll\nhold 1")
    assert done.returncode == 1
    assert done.stdout.rstrip().endswith("Input ended before the game did; game abandoned.")
    assert done.stderr == "" and "Traceback" not in done.stdout


def test_help_sheet_and_blank_lines() -> None:
    status, out = play(["", "help", "sheet", "quit"])
    assert status == 0
    assert "Commands:" in out and "  hold 1 3      " in out
    assert "Categories: ones, twos, threes, fours, fives, sixes, full_house," in out
    assert out.count("Total") == 2  # the sheet at the start, and again on request


def test_the_sheet_shows_what_the_dice_would_score_after_a_roll() -> None:
    g = Game(["Ann"], dice=ScriptedDice([6, 6, 6, 5, 5]))
    _, out = play(["roll", "quit"], g)
    assert "Full House      |   (28)" in out
    assert "Sixes           |   (18)" in out
    assert "Round 1 of 12, Ann:  6   6   6   5   5   (roll 1 of 3; [ ] = held)" in out


def test_undo_in_plain_mode_and_a_shared_win() -> None:
    dice = ScriptedDice([2, 2, 2, 2, 2] * 24)
    g = Game(["Ann", "Bob"], dice=dice, undo=True)
    lines = ["roll", "score yacht", "undo", "score choice"]
    lines += ["roll", "score choice"]
    for c in CATEGORIES:
        if c is not Category.CHOICE:
            lines += ["roll", f"score {c.value}", "roll", f"score {c.value}"]
    status, out = play(lines, g)
    assert status == 0
    assert "Ann takes back the last score." in out
    assert out.rstrip().splitlines()[-1] == f"Game over. Winners: Ann, Bob with {g.totals[0]}."


def test_a_game_in_finnish_with_a_category_by_its_finnish_name() -> None:
    g = Game(["Aino"], dice=ScriptedDice([4, 4, 4, 4, 1, 4, 4, 4, 4, 4]))
    lines = ["roll", "score Neljä samaa", "hyppää", "heitä", "merkitse neljä samaa"]
    status, out = play(lines, g, "fi")
    assert "Aino merkitsee 16 pistettä kategoriaan Neljä samaa." in out
    assert '! "hyppää": tuntematon komento; kirjoita ”ohje” nähdäksesi komennot' in out
    assert '! "merkitse neljä samaa": Neljä samaa on jo täytetty (16)' in out
    assert "Kierros 2/12, Aino:  4   4   4   4   4 " in out  # "heitä" rolled
    assert status == 1  # the input ended before the game did


def test_a_bulgarian_and_a_norwegian_game_start() -> None:
    done = yacht("play", "--plain", "--seed", "2", "--lang", "bg", stdin="roll\nscore ones\n")
    assert "Единици" in done.stdout and "Играч записва" in done.stdout
    done = yacht("play", "--plain", "--seed", "2", "--players", "Kari", stdin="q\n", lang="nb")
    assert "Enere" in done.stdout and "Spillet er avbrutt." in done.stdout
    assert done.returncode == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "a,b,c,d,e,f,g"], "--players needs 1 to 6 names separated by commas"),
        (["--players", "Ann,,Bob"], "--players needs 1 to 6 names"),
        (["--players", ""], "--players needs 1 to 6 names"),
        (["--seed", "abc"], "argument --seed: 'abc' is not a whole number"),
        (["--start", "coin"], "unknown start rule 'coin' (one of: seat, roll-off, random)"),
        (["--rules", "yahtzee"], "unknown rules preset 'yahtzee'"),
        (["--lang", "de"], "unknown language 'de'"),
    ],
)
def test_bad_play_arguments_are_one_line(args: list[str], message: str) -> None:
    done = yacht("play", "--plain", *args, stdin="")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"yacht: error: {message}") and done.stderr.count("\n") == 1


def test_roll_off_start_is_announced() -> None:
    done = yacht(
        "play", "--plain", "--players", "Ann,Bob", "--start", "roll-off", "--seed", "4", stdin="q\n"
    )
    g = Game(["Ann", "Bob"], dice=RandomDice(4), start="roll-off")
    assert done.stdout.startswith(f"{g.current_name} starts.\n")


class Typed(io.StringIO):
    """Lines typed at a terminal: the plain game asks before a zero."""

    def isatty(self) -> bool:
        return True


def typed(lines: list[str], game: Game, lang: str = "en") -> tuple[int, str]:
    out = io.StringIO()
    status = PlainGame(game, lang).run(Typed("".join(f"{x}\n" for x in lines)), out)
    return status, out.getvalue()


@pytest.mark.parametrize(
    ("lang", "no", "yes"),
    [("en", "n", "y"), ("fi", "e", "kyllä"), ("bg", "н", "Д"), ("nb", "", "j")],
)
def test_a_zero_typed_at_a_terminal_is_asked_first(lang: str, no: str, yes: str) -> None:
    """A mistyped line must not use up a box: "no" (or just Enter) keeps it open."""
    g = Game(["Ann"], dice=ScriptedDice([2, 3, 4, 6, 6] * 3))
    status, out = typed(["roll", "score yacht", no, "score yacht", yes, "quit"], g, lang)
    assert status == 0
    yacht = category_label(Category.YACHT, lang)
    assert out.count(f" {yacht}? ") == 2 and out.count("(") >= 2
    refused = {"en": "Not scored: choose another category.", "fi": "Ei merkitty"}
    assert refused.get(lang, "") in out
    assert g.sheet(0) == {Category.YACHT: 0}  # scored once, on the yes


def test_a_zero_over_a_pipe_is_scored_as_the_script_says() -> None:
    g = Game(["Ann"], dice=ScriptedDice([2, 3, 4, 6, 6] * 3))
    _, out = play(["roll", "score yacht", "quit"], g)
    assert "Ann scores 0 points in Yacht." in out and "?" not in out.split("score yacht")[1]
    assert g.sheet(0) == {Category.YACHT: 0}


def test_a_zero_at_a_real_terminal_is_asked_first() -> None:
    """``yacht play --plain`` in a terminal (a pseudo-terminal here): the question, and an
    answer of no keeps the box open."""
    import pty

    seed = next(s for s in range(100) if _first_roll_has_no_yacht(s))
    master, slave = pty.openpty()
    env = {**os.environ, "YACHT_LANG": "en"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "yacht", "play", "--plain", "--seed", str(seed)],
        stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    os.write(master, b"roll\nscore yacht\nn\nquit\n")
    chunks = []
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed with the program
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert proc.wait(timeout=60) == 0
    os.close(master)
    out = b"".join(chunks).decode()
    assert "Score 0 in Yacht? The box is then used up (y/n): " in out
    assert "Not scored: choose another category." in out
    assert "scores 0 points" not in out and "Game abandoned." in out


def _first_roll_has_no_yacht(seed: int) -> bool:
    g = Game(["Player"], dice=RandomDice(seed))
    g.apply("roll")
    return g.potential(Category.YACHT) == 0


FH, FK, LS = Category.FULL_HOUSE, Category.FOUR_OF_A_KIND, Category.LITTLE_STRAIGHT
SPACED: dict[str, list[tuple[str, Category]]] = {
    "en": [("Full House", FH), ("full house", FH), ("fullhouse", FH), ("FULLHOUSE", FH),
           ("Four of a Kind", FK), ("fourofakind", FK), ("little straight", LS)],
    "fi": [("Neljä samaa", FK), ("neljäsamaa", FK), ("Pieni suora", LS), ("pienisuora", LS),
           ("Full House", FH), ("fullhouse", FH)],
    "bg": [("Четири еднакви", FK), ("четириеднакви", FK), ("Малка поредица", LS),
           ("малкапоредица", LS), ("Full House", FH), ("fullhouse", FH)],
    "nb": [("Fire like", FK), ("firelike", FK), ("Liten straight", LS), ("litenstraight", LS),
           ("Hus", FH), ("Full House", FH), ("fullhouse", FH)],
}  # fmt: skip


@pytest.mark.parametrize("lang", list(SPACED))
def test_category_names_are_read_with_and_without_spaces(lang: str) -> None:
    """``score Full House``, ``score fullhouse``, ``merkitse neljäsamaa``: as typed."""
    game = Game(["Ann"], dice=ScriptedDice([3, 3, 3, 5, 5] * 20))
    lines = ["roll", *(f"score {name}" for name, _ in SPACED[lang])]
    plain = PlainGame(game, lang)
    for name, category in SPACED[lang]:
        assert plain.read(f"score {name}") == Score(category), name
    _, out = play(lines[:2], game, lang)  # the first name, typed into a game
    assert "!" not in out and list(game.sheet(0)) == [SPACED[lang][0][1]]


def test_the_language_given_before_the_command_is_the_games() -> None:
    """``yacht --lang fi play --plain``, as ``yacht --help`` shows it."""
    done = yacht("--lang", "fi", "play", "--plain", stdin="q\n")
    assert done.returncode == 0 and "Peli keskeytettiin." in done.stdout
