"""``yacht practice`` and ``yacht proficiency``: positions to solve, answered on the command
line and judged by the exact strategy (:mod:`yacht.training`).

An answer is what a player would do with the dice: the faces to keep (``6 6 6``, or
``keep 6 6 6``; ``-`` keeps none and rolls all five) or a category to score (``yacht``,
``score full_house``, or its name in the run's language). ``q`` stops.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from yacht.cli import CommandError, add_lang_option, cli_gettext, cli_language
from yacht.cli.bounds import whole
from yacht.cli.core import json_option, preset_shown
from yacht.cli.text import NAME_SHOWN, number, option_text, rolls_left, shown
from yacht.i18n import category_label, find_category, translator
from yacht.rules import CATEGORIES, Category

__all__ = ["GAMES", "MAX_COUNT", "parse_answer", "register"]

MAX_COUNT = 100
"""The most positions one ``yacht practice`` serves."""

GAMES = 50
"""Finished games of ``yacht history`` that positions are taken from (the newest)."""

TEST_BOTS = ("random", "greedy", "easy", "medium", "hard", "optimal")
"""The bots that take the proficiency test (the others play to win a whole game)."""

OPTIONS_SHOWN = 5
"""Options listed after an answer (the player's own is added when it is not among them)."""


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("practise on the positions where games lost the most, with the exact answers")
    p = subs.add_parser("practice", help=what, description=what)
    p.add_argument(
        "files",
        nargs="*",
        metavar=_("GAME.json"),
        help=_("games saved as JSON (default: your finished games in the terminal game)"),
    )
    p.add_argument(
        "--count",
        type=whole(1, MAX_COUNT),
        default=5,
        metavar="N",
        help=_("how many positions (default: 5)"),
    )
    add_lang_option(p)
    p.set_defaults(handler=cmd_practice)

    what = _("the proficiency test: fixed positions, errors by kind and loss per choice")
    p = subs.add_parser("proficiency", help=what, description=what)
    p.add_argument(
        "--answers",
        metavar=_("FILE"),
        default=None,
        help=_("grade the answers in a JSON list of strings instead of asking"),
    )
    p.add_argument(
        "--bot",
        metavar=_("NAME"),
        default=None,
        help=_("let a bot take the test: {names}").format(names=", ".join(TEST_BOTS)),
    )
    json_option(p)
    add_lang_option(p)
    p.set_defaults(handler=cmd_proficiency)


def parse_answer(text: str, lang: str = "en") -> tuple[tuple[int, ...] | None, Category | None]:
    """An answer as the player typed it: ``(keep, None)`` or ``(None, category)``; ValueError
    when it is neither.

    >>> parse_answer("6 6 6"), parse_answer("keep 2 3 4 5"), parse_answer("-")
    (((6, 6, 6), None), ((2, 3, 4, 5), None), ((), None))
    >>> parse_answer("score full_house"), parse_answer("pidä 6 6", "fi")
    ((None, Category.FULL_HOUSE), ((6, 6), None))
    >>> parse_answer("Neljä samaa", "fi")
    (None, Category.FOUR_OF_A_KIND)
    """
    t = translator(lang).gettext
    words = text.split()
    keep_words = {"keep", t("keep {dice}").split()[0].lower()}
    score_words = {"score", t("score {category} ({points})").split()[0].lower()}
    if words and words[0].lower() in keep_words:
        words = words[1:] or ["-"]
    elif words and words[0].lower() in score_words:
        words = words[1:]
        if not words:
            raise ValueError(text)
    if words == ["-"]:
        return (), None
    if words and all(w in {"1", "2", "3", "4", "5", "6"} for w in words):
        return tuple(sorted(int(w) for w in words)), None
    if len(words) == 1 and words[0].isdigit() and set(words[0]) <= set("123456"):
        return tuple(sorted(int(c) for c in words[0])), None
    category = find_category(" ".join(words), lang) if words else None
    if category is None:
        raise ValueError(text)
    return None, category


def _read(stream: TextIO) -> str | None:
    line = stream.readline()
    return None if not line else line.strip()


def _position_text(position: Any) -> str:
    _ = cli_gettext()
    lang = cli_language()
    filled = ", ".join(
        _("{category} {points}").format(category=category_label(c, lang), points=position.sheet[c])
        for c in CATEGORIES
        if c in position.sheet
    )
    lines = [
        _("{rules}, round {round}: dice {dice}, {rolls}").format(
            rules=preset_shown(position.rules),
            round=position.filled + 1,
            dice=" ".join(map(str, position.dice)),
            rolls=rolls_left(position.rolls_left),
        ),
        _("filled: {categories}").format(categories=filled or "-"),
    ]
    return "\n".join(lines)


def _ask(position: Any, stream: TextIO) -> Any | None:
    """The player's answer to a position, asked until it is one of its options; None when
    they stop (``q`` or the end of the input)."""
    from yacht.training import judge

    _ = cli_gettext()
    while True:
        sys.stdout.write(_("What is best here? (dice to keep, a category, or q) ") + "> ")
        sys.stdout.flush()
        line = _read(stream)
        if line is None or line.lower() in {"q", "quit"}:
            return None
        try:
            keep, category = parse_answer(line, cli_language())
            if keep is not None and position.rolls_left == 0:
                print(_("No roll is left: name a category to score."))
                continue
            if keep is not None:
                return judge(position, keep=keep)
            return judge(position, category=category)
        except ValueError:  # not an answer, or not an option of this position
            print(_("{answer!r} is not an option here; try again").format(answer=line))


def _option(o: Any) -> str:
    return option_text(o.action, o.keep, o.category, o.points)


def _verdict_text(verdict: Any) -> list[str]:
    _ = cli_gettext()
    if verdict.solved:
        head = _("Best: {option}. Your answer is the best.").format(option=_option(verdict.best))
    else:
        head = _("Best: {option}. Yours, {answer}, gives up {points} points.").format(
            option=_option(verdict.best),
            answer=_option(verdict.taken),
            points=number(verdict.loss, digits=2),
        )
    shown = list(verdict.options[:OPTIONS_SHOWN])
    if verdict.taken not in shown:
        shown.append(verdict.taken)
    texts = [_option(o) for o in shown]
    width = max(len(t) for t in [_("option"), *texts])
    expected, loss = _("expected"), _("loss")
    lines = [head, f"  {_('option'):<{width}}  {expected:>9}  {loss:>7}"]
    for o, text in zip(shown, texts, strict=True):
        mark = ">" if o is verdict.taken else "*" if o is verdict.best else " "
        lost = verdict.best.expected - o.expected
        lines.append(
            f"{mark} {text:<{width}}  {number(o.expected, digits=3):>9}  "
            f"{number(max(0.0, lost), digits=2):>7}"
        )
    from yacht.coach import reason_text

    best, taken = verdict.reasons()
    lines.append(_("Why:"))
    lines.extend(f"    {reason_text(r.code, r.args, cli_language())}" for r in (*best, *taken))
    return lines


def _records_games() -> Iterator[tuple[Any, set[int], str]]:
    """The terminal game's finished games, newest first: (game, human seats, where)."""
    from yacht.tui.records import Records, data_dir

    _ = cli_gettext()
    path = data_dir() / "records.sqlite3"
    if not path.exists():
        return
    records = Records(path)
    for record in records.games(limit=GAMES):
        yield record.game(), record.people, _("game {id} in yacht history").format(id=record.id)


def _practice_positions(files: Sequence[str], solved: set[str]) -> Iterator[Any]:
    """Positions to serve, biggest loss first: the given games' decisions (every seat); else
    the people's decisions in the terminal game's records, then everyone else's there; then,
    so a new player has something, the ``easy`` bot's games. Solved positions are left out."""
    from yacht.cli.files import read_json
    from yacht.game import Game
    from yacht.training import practice_positions

    _ = cli_gettext()
    games: list[tuple[Any, Any, str]] = []
    if files:
        for path in files:
            data = read_json(path)
            try:
                game = Game.from_json(data)
            except ValueError as e:
                raise CommandError.about(e, path) from None
            games.append((game, range(len(game.players)), Path(path).name))
        yield from practice_positions(games, solved, bot_games=0)
        return
    bot = _("a game of the easy bot (seed {seed})")
    yield from practice_positions(_records_games(), solved, bot_source=bot)


def _book() -> Any:
    from yacht.training.rating import PracticeBook
    from yacht.tui.records import data_dir

    try:
        import openskill  # noqa: F401  (the rating's model, imported when an answer is rated)
    except ImportError:
        _ = cli_gettext()
        raise CommandError(
            _("the practice rating needs the openskill package: pip install 'yacht[tui]'")
        ) from None
    try:
        return PracticeBook.open(data_dir() / "practice.json")
    except ValueError as e:
        raise CommandError.about(e) from None


def _rating(rated: Any) -> str:
    return f"{rated.shown}{'?' if rated.provisional else ''}"


def cmd_practice(args: argparse.Namespace) -> int:
    _ = cli_gettext()
    book = _book()
    served = solved = 0
    print(_("Practice rating: {rating}").format(rating=_rating(book.player)))
    for mistake in _practice_positions(args.files, book.solved_keys()):
        if served == args.count:
            break
        print()
        print(
            _("Position {n} of {count}: {player} in {source}").format(
                n=served + 1,
                count=args.count,
                player=shown(mistake.name, NAME_SHOWN),
                source=shown(mistake.position.source, NAME_SHOWN * 2),
            )
        )
        print(_position_text(mistake.position))
        verdict = _ask(mistake.position, sys.stdin)
        if verdict is None:
            break
        served += 1
        solved += verdict.solved
        change = book.record(mistake.position.key(), solved=verdict.solved, loss=verdict.loss)
        for line in _verdict_text(verdict):
            print(line)
        print(
            _("Practice rating: {before} -> {after}").format(
                before=_rating(change.before), after=_rating(change.after)
            )
        )
    print()
    if served == 0:
        print(_("No position was answered."))
    else:
        print(
            _("{solved} of {served} solved; practice rating {rating}").format(
                solved=solved, served=served, rating=_rating(book.player)
            )
        )
    return 0


def _answers_from(path: str, test: Any) -> list[Any]:
    from yacht.cli.files import read_json
    from yacht.training import judge

    _ = cli_gettext()
    data = read_json(path)
    if not isinstance(data, list) or not all(isinstance(a, str) for a in data):
        raise CommandError("file", path=path, reason=_("not a JSON list of answers"))
    if len(data) != len(test.positions):
        raise CommandError(
            "file",
            path=path,
            reason=_("{given} answers for {count} positions").format(
                given=len(data), count=len(test.positions)
            ),
        )
    out = []
    for item, text in zip(test.positions, data, strict=True):
        try:
            keep, category = parse_answer(text, cli_language())
            out.append(
                judge(item.position, keep=keep)
                if keep is not None
                else judge(item.position, category=category)
            )
        except ValueError:
            raise CommandError(
                "file",
                path=path,
                reason=_("answer {n}, {answer!r}, is not an option of its position").format(
                    n=item.number, answer=text
                ),
            ) from None
    return out


def _bot_verdicts(test: Any, bot: str) -> list[Any]:
    from yacht.training.proficiency import bot_answers

    _ = cli_gettext()
    if bot not in TEST_BOTS:
        raise CommandError(
            _("unknown bot for the test: {name!r} (one of: {names})").format(
                name=bot, names=", ".join(TEST_BOTS)
            )
        )
    return bot_answers(test, bot)


def _class_names() -> dict[str, str]:
    _ = cli_gettext()
    return {
        "straight": _("straights"),
        "yacht": _("Yacht chases"),
        "upper": _("upper section"),
        "lower": _("lower section"),
        "zero": _("zeroing"),
        "early": _("early (0-3 filled)"),
        "middle": _("middle (4-7 filled)"),
        "late": _("late (8-11 filled)"),
    }


def cmd_proficiency(args: argparse.Namespace) -> int:
    from yacht.training.proficiency import grade, load_set

    _ = cli_gettext()
    test = load_set()
    if args.answers is not None and args.bot is not None:
        raise CommandError(_("give --answers or --bot, not both"))
    if args.bot is not None:
        verdicts = _bot_verdicts(test, args.bot)
    elif args.answers is not None:
        verdicts = _answers_from(args.answers, test)
    else:
        if args.json:
            raise CommandError(
                _("--json needs --answers FILE or --bot NAME (the test asks one by one)")
            )
        verdicts = []
        print(
            _("Proficiency test, version {version}: {count} positions.").format(
                version=test.version, count=len(test.positions)
            )
        )
        for item in test.positions:
            print()
            print(_("Position {n} of {count}").format(n=item.number, count=len(test.positions)))
            print(_position_text(item.position))
            verdict = _ask(item.position, sys.stdin)
            if verdict is None:
                print(_("The test was stopped: no result."))
                return 1
            verdicts.append(verdict)
    report = grade(test, verdicts)
    if args.json:
        print(json.dumps(report.to_json()))
        return 0
    _report(report)
    return 0


def _report(report: Any) -> None:
    _ = cli_gettext()
    names = _class_names()
    print()
    t = translator(cli_language())
    print(
        t.ngettext(
            "Proficiency test {version}: {errors} error in {count}; mean loss per choice {loss}",
            "Proficiency test {version}: {errors} errors in {count}; mean loss per choice {loss}",
            report.errors,
        ).format(
            version=report.version,
            errors=report.errors,
            count=len(report.verdicts),
            loss=number(report.mean_loss, digits=3),
        )
    )
    rows: list[tuple[str, Any]] = [(names[k], v) for k, v in report.themes.items()]
    rows += [(names[k], v) for k, v in report.phases.items()]
    width = max(len(n) for n, _v in rows)
    errors, mean = _("errors"), _("mean loss")
    print(f"  {'':<{width}}  {errors:>{max(5, len(errors))}}  {mean:>9}")
    for name, result in rows:
        print(
            f"  {name:<{width}}  {f'{result.errors}/{result.positions}':>{max(5, len(errors))}}  "
            f"{number(result.mean_loss, digits=3):>9}"
        )
    for item_verdict, n in zip(report.verdicts, range(1, len(report.verdicts) + 1), strict=True):
        if not item_verdict.solved:
            print(
                _("{n}. best {best}; yours {answer}: {points} points").format(
                    n=n,
                    best=_option(item_verdict.best),
                    answer=_option(item_verdict.taken),
                    points=number(item_verdict.loss, digits=2),
                )
            )
