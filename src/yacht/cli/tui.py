"""``yacht history`` and ``yacht replay``; also the full-screen side of ``yacht play``.

Their command line is in :mod:`yacht.cli.records` and their one-line errors in
:mod:`yacht.cli.errors` (the ``yacht`` catalog); what they print here comes from the terminal
game's catalog.

``history`` and ``replay --plain`` need no Textual; ``replay`` without ``--plain`` and ``play``
open the terminal game (the ``tui`` extra).
"""

from __future__ import annotations

import argparse
import json
import sys

from yacht.cli import CommandError
from yacht.cli.errors import (
    bot_delay_error,
    limit_error,
    terminal_error,
    textual_error,
    unreadable_error,
)
from yacht.i18n import detect_language, language_code
from yacht.tui.records import Records, data_dir
from yacht.tui.replay import replay_text
from yacht.tui.rules_text import preset_label
from yacht.tui.text import gettext_for

__all__ = ["cmd_history", "cmd_replay", "play_full_screen"]


def _lang(args: argparse.Namespace) -> str:
    """The language of --lang (locale spellings too: nb_NO.UTF-8), else of the environment."""
    return language_code(args.lang) if args.lang else detect_language()


def cmd_history(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise limit_error(args.limit)
    lang = _lang(args)
    _ = gettext_for(lang)
    records = Records.open_default()
    games = records.games(args.limit)
    best = records.high_scores(10)
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
        players = ", ".join(f"{n} {t}" for n, t in zip(g.names, g.totals, strict=True))
        when = g.finished_at.replace("T", " ")[:16]
        winners = _("winner: {names}").format(names=", ".join(g.winners))
        preset = preset_label(g.preset, lang)
        print(f"  #{g.id:<4} {when}  {preset:<13} {players}  ({winners})")
    print()
    print(_("High scores"))
    bot = _("bot")
    for rank, h in enumerate(best, start=1):
        who = h.name if h.kind == "human" else f"{h.name} ({bot})"
        when = h.finished_at[:10]
        print(
            f"  {rank:>2}. {h.total:>3}  {who}  #{h.game_id} {when} {preset_label(h.preset, lang)}"
        )
    print()
    print(_("Step through a game with: yacht replay ID"))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    lang = _lang(args)
    _ = gettext_for(lang)
    try:
        record = Records.open_default().get(args.id)
    except ValueError:
        raise CommandError(
            _("no stored game with id {id} (see: yacht history)").format(id=args.id)
        ) from None
    except RecursionError:
        raise unreadable_error(args.id) from None
    try:
        record.game()  # a damaged record is one line, not a traceback
    except ValueError as e:
        raise unreadable_error(args.id, e) from None
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
        config = TableConfig.from_json(
            {**config.to_json(), "preset": args.rules, "undo": args.undo}
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
