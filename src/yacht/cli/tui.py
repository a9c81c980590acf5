"""``yacht history`` and ``yacht replay``; also the full-screen side of ``yacht play``.

Their command line is in :mod:`yacht.cli.records` and their one-line errors in
:mod:`yacht.cli.errors` (the ``yacht`` catalog); what they print here comes from the terminal
game's catalog.

``history`` and ``replay --plain`` need no Textual; ``replay`` without ``--plain`` and ``play``
open the terminal game (the ``tui`` extra).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from yacht.cli import CommandError, cli_language
from yacht.cli.errors import (
    bot_delay_error,
    records_error,
    skipped_line,
    terminal_error,
    textual_error,
    unreadable_error,
)
from yacht.cli.text import shown
from yacht.i18n import language_code
from yacht.tui.records import GameRecord, Records, UnreadableRecordError, data_dir
from yacht.tui.replay import replay_text
from yacht.tui.rules_text import preset_label
from yacht.tui.text import gettext_for

__all__ = ["cmd_history", "cmd_replay", "daily_full_screen", "play_full_screen"]


def _lang(args: argparse.Namespace) -> str:
    """The language of --lang (locale spellings too: nb_NO.UTF-8), given before the command
    (``yacht --lang bg play``) or after it, else of the environment."""
    return language_code(args.lang) if args.lang else cli_language()


@contextmanager
def _record_book() -> Iterator[Records]:
    """The record book, or one line saying why it cannot be read (a damaged file, one a newer
    yacht wrote, a folder that cannot be written)."""
    path = data_dir() / "records.sqlite3"
    try:
        records = Records.open_default()
    except (sqlite3.Error, OSError, ValueError) as e:
        raise records_error(path, e) from None
    try:
        yield records
    except sqlite3.Error as e:
        raise records_error(path, e) from None


def _skipped(error: UnreadableRecordError, seen: set[object]) -> None:
    if error.game_id not in seen:
        seen.add(error.game_id)
        sys.stderr.write(skipped_line(error.game_id))


def _shown_record(record: GameRecord) -> GameRecord:
    """``record`` with its names safe to print: escaped and cut (a hostile or damaged record
    book cannot steer the terminal or print a name of megabytes)."""
    players = record.data.get("players")
    data = record.data
    if isinstance(players, list):
        data = {**data, "players": [shown(p) if isinstance(p, str) else p for p in players]}
    return dataclasses.replace(
        record,
        names=[shown(n) for n in record.names],
        winners=[shown(n) for n in record.winners],
        data=data,
    )


def cmd_history(args: argparse.Namespace) -> int:
    lang = _lang(args)
    _ = gettext_for(lang)
    seen: set[object] = set()
    with _record_book() as records:
        games = records.games(args.limit, unreadable=lambda e: _skipped(e, seen))
        best = records.high_scores(10, unreadable=lambda e: _skipped(e, seen))
    if args.json:
        out = {
            "games": [
                {
                    "id": g.id,
                    "finished_at": g.finished_at,
                    "preset": g.preset,
                    "players": [
                        {"name": n, "kind": k, "total": t}
                        for n, k, t in zip(g.names, g.kinds, g.totals, strict=True)
                    ],
                    "winners": g.winners,
                }
                for g in games
            ],
            "high_scores": [h.__dict__ for h in best],
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    if not games:
        print(_("No finished games yet. Play one with: yacht play"))
        return 0
    print(_("Recent games"))
    for g in games:
        players = ", ".join(f"{shown(n)} {t}" for n, t in zip(g.names, g.totals, strict=True))
        when = shown(g.finished_at.replace("T", " ")[:16])
        winners = _("winner: {names}").format(names=", ".join(shown(n) for n in g.winners))
        preset = shown(preset_label(g.preset, lang), 13)
        print(f"  #{g.id:<4} {when}  {preset:<13} {players}  ({winners})")
    print()
    print(_("High scores"))
    bot = _("bot")
    for rank, h in enumerate(best, start=1):
        who = shown(h.name) if h.kind == "human" else f"{shown(h.name)} ({bot})"
        when = shown(h.finished_at[:10])
        preset = shown(preset_label(h.preset, lang))
        print(f"  {rank:>2}. {h.total:>3}  {who}  #{h.game_id} {when} {preset}")
    print()
    print(_("Step through a game with: yacht replay ID"))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    lang = _lang(args)
    _ = gettext_for(lang)
    try:
        with _record_book() as records:
            record = records.get(args.id)
    except UnreadableRecordError as e:
        raise unreadable_error(args.id, e.reason) from None
    except ValueError:
        raise CommandError(
            _("no stored game with id {id} (see: yacht history)").format(id=args.id)
        ) from None
    try:
        record.game()  # a damaged record is one line, not a traceback
    except (ValueError, RecursionError) as e:
        raise unreadable_error(args.id, e if isinstance(e, ValueError) else None) from None
    record = _shown_record(record)
    review = None
    if not args.no_review:
        from yacht.review import review as review_game

        review = review_game(record.data)
    if args.plain:
        print(replay_text(record, review, lang))
        return 0
    _need_terminal()
    from yacht.tui.screens.replay import ReplayApp

    ReplayApp(record, review, lang).run()
    return 0


def _need_terminal() -> None:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise terminal_error()
    try:
        import textual  # noqa: F401
    except ImportError:
        raise textual_error() from None


def play_full_screen(args: argparse.Namespace) -> int:
    """``yacht play``: the Textual app, set up from the command line's options."""
    from yacht.dice import RandomDice
    from yacht.tui.saves import read_save, save_path
    from yacht.tui.seats import Seat, TableConfig

    lang = _lang(args)
    _ = gettext_for(lang)
    folder = data_dir()
    resume = bool(getattr(args, "resume", False))
    if resume and read_save(folder) is None:
        raise CommandError(_("there is no saved game to resume (start one with: yacht play)"))
    config = TableConfig.default(lang)
    names = [n.strip() for n in (args.players or "").split(",") if n.strip()]
    try:
        if names and args.players != "Player":
            config = config.with_seats([Seat(n) for n in names])
        unit, value = getattr(args, "coach", None) or (None, None)
        config = TableConfig.from_json(
            {
                **config.to_json(),
                "preset": args.rules,
                "undo": args.undo,
                "coach": value if unit == "points" else None,
                "coach_win": value if unit == "win" else None,
            }
        )
    except ValueError as e:
        raise CommandError.about(e) from None
    seed = args.seed
    dice = RandomDice(int(seed)) if seed is not None else None
    delay = float(getattr(args, "bot_delay", 0.6))
    if not 0 <= delay <= 10:
        raise bot_delay_error(delay)
    _need_terminal()
    from yacht.tui.app import YachtApp
    from yacht.tui.motion import animation_wanted

    asked = language_code(args.lang) if args.lang else None  # wins over a saved game's
    motion = animation_wanted(asked_off=bool(getattr(args, "no_animation", False)))
    YachtApp(
        config,
        dice=dice,
        data_dir=folder,
        bot_delay=delay,
        resume=resume,
        lang=asked,
        motion=motion,
    ).run()
    if save_path(folder).exists():
        print(_("Game saved. Continue it with: yacht play --resume"))
    return 0


def daily_full_screen(args: argparse.Namespace) -> int:
    """``yacht daily`` in a terminal: the terminal game's Daily screen, alone."""
    from yacht.rules import RulesError, rules_by_name

    lang = _lang(args)
    try:
        preset = rules_by_name(args.rules).name
    except RulesError as e:
        raise CommandError.about(e) from None
    _need_terminal()
    from yacht.tui.app import YachtApp
    from yacht.tui.seats import TableConfig

    config = TableConfig.default(lang)
    YachtApp(config, data_dir=data_dir(), lang=lang, daily_server=args.server, daily=preset).run()
    return 0
