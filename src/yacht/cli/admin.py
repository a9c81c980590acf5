"""``yacht admin``: the operator's tool, on the database ``yacht serve`` is configured with (the
same ``--database`` option and ``YACHT_DATABASE_URL`` variables).

``tables list`` and ``tables close CODE``; ``names ban NAME``, ``names unban NAME`` and
``names list`` (a banned name cannot be taken at any table, whatever its case); ``games delete
--player NAME --yes`` (a player's finished games, deleted on their request); ``reset-password
NAME`` (an account's password is gone and its sessions end: the new recovery code printed is
the player's way back in, see docs/web/accounts.md); ``flagged`` (accounts whose rated games
lose implausibly little, for the operator to look at: never banned automatically).
"""

from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING, Any

from yacht.cli import CommandError, add_lang_option, cli_gettext
from yacht.cli.bounds import whole
from yacht.cli.db import add_database_option, database_problem, open_engine, settings_from

if TYPE_CHECKING:
    from sqlalchemy import Engine

__all__ = ["register"]

CODE = re.compile(r"[A-Za-z0-9]{1,12}")


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _(
        "the operator's tool: list and close tables, ban names, delete a player's games, "
        "reset an account's password, list flagged accounts"
    )
    p = subs.add_parser("admin", help=what, description=what)
    add_lang_option(p)
    kinds = p.add_subparsers(dest="kind", required=True, metavar=_("COMMAND"))

    what = _("tables: list them, or close one")
    tables = kinds.add_parser("tables", help=what, description=what)
    add_lang_option(tables)
    steps = tables.add_subparsers(dest="step", required=True, metavar=_("COMMAND"))
    what = _("list the tables, the most recently moved first")
    q = steps.add_parser("list", help=what, description=what)
    q.add_argument(
        "--limit",
        type=whole(1, 100_000),
        default=200,
        metavar="N",
        help=_("at most N tables (default: 200)"),
    )
    _common(q, _tables_list)
    what = _("close a table: it is deleted with its games, and its players find it gone")
    q = steps.add_parser("close", help=what, description=what)
    q.add_argument("code", metavar=_("CODE"), help=_("the table's code"))
    _common(q, _tables_close)

    what = _("names no one may take at a table")
    names = kinds.add_parser("names", help=what, description=what)
    add_lang_option(names)
    steps = names.add_subparsers(dest="step", required=True, metavar=_("COMMAND"))
    what = _("ban a name (in any case: banning Ann also bans ANN)")
    q = steps.add_parser("ban", help=what, description=what)
    q.add_argument("name", metavar=_("NAME"))
    _common(q, _ban)
    what = _("lift the ban on a name")
    q = steps.add_parser("unban", help=what, description=what)
    q.add_argument("name", metavar=_("NAME"))
    _common(q, _unban)
    what = _("list the banned names")
    q = steps.add_parser("list", help=what, description=what)
    _common(q, _banned)

    what = _("a player's finished games")
    games = kinds.add_parser("games", help=what, description=what)
    add_lang_option(games)
    steps = games.add_subparsers(dest="step", required=True, metavar=_("COMMAND"))
    what = _(
        "delete the finished games of a player (on their request); without --yes, only count them"
    )
    q = steps.add_parser("delete", help=what, description=what)
    q.add_argument(
        "--player", required=True, metavar=_("NAME"), help=_("the name the player sat under")
    )
    q.add_argument("--yes", action="store_true", help=_("delete them (else only count them)"))
    _common(q, _games_delete)

    what = _(
        "reset an account's password: sign it out everywhere and print a new recovery code "
        "for its player"
    )
    q = kinds.add_parser("reset-password", help=what, description=what)
    q.add_argument("name", metavar=_("NAME"), help=_("the account's name"))
    _common(q, _reset_password)

    what = _(
        "list the accounts whose last rated games lose implausibly few points (a hint may be "
        "open on another device): a flag to look at, never a ban"
    )
    q = kinds.add_parser("flagged", help=what, description=what)
    _common(q, _flagged)


def _common(p: argparse.ArgumentParser, handler: Any) -> None:
    add_database_option(p)
    add_lang_option(p)
    p.set_defaults(handler=_guarded(handler))


def _guarded(handler: Any) -> Any:
    """``handler`` with a database that fails under it (a damaged SQLite file whose pages
    cannot be read, a server gone) as one line, not a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            status: int = handler(args)
        except CommandError:
            raise
        except Exception as e:
            problem = database_problem(e, settings_from(args).database_url())
            if problem is None:
                raise
            raise CommandError(problem) from None
        return status

    return run


def _engine(args: argparse.Namespace) -> Engine:
    return open_engine(settings_from(args))


def _shown(text: str) -> str:
    """A name, typed or from the database, safe to print: cut at the longest name, and quoted
    with its control characters escaped when it has any."""
    from yacht.cli.text import NAME_SHOWN, shown

    if text.isprintable():
        return shown(text)
    return ascii(text[:NAME_SHOWN]) + ("…" if len(text) > NAME_SHOWN else "")


def _name(value: str) -> str:
    from yacht.web.protocol.names import check_name

    _ = cli_gettext()
    try:
        return check_name(value)
    except ValueError as e:
        raise CommandError(
            _("{name} is not a name a player could take: {reason}").format(
                name=_shown(value), reason=e
            )
        ) from None


def _tables_list(args: argparse.Namespace) -> int:
    from yacht.web.storage.admin import table_lines

    _ = cli_gettext()
    engine = _engine(args)
    try:
        lines = table_lines(engine, args.limit)
    finally:
        engine.dispose()
    if not lines:
        print(_("no tables"))
        return 0
    statuses = {"waiting": _("waiting"), "playing": _("playing"), "finished": _("finished")}
    rows = [(_("code"), _("status"), _("last move"), _("players"))]
    for line in lines:
        when = line.last_move.strftime("%Y-%m-%d %H:%M") if line.last_move else "-"
        players = ", ".join(_shown(n) if n else "-" for n in line.players)
        rows.append((line.code, statuses.get(line.status, line.status), when, players))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)), row[3])
    return 0


def _tables_close(args: argparse.Namespace) -> int:
    from yacht.web.storage.admin import delete_tables

    _ = cli_gettext()
    if not CODE.fullmatch(args.code):
        raise CommandError(_("not a table code: {code}").format(code=_shown(args.code)))
    code = args.code.upper()
    engine = _engine(args)
    try:
        closed = delete_tables(engine, [code])
    finally:
        engine.dispose()
    if not closed:
        raise CommandError(_("no table with code {code}").format(code=code))
    print(_("table {code} closed").format(code=code))
    return 0


def _ban(args: argparse.Namespace) -> int:
    from yacht.web.protocol.names import name_key
    from yacht.web.storage.admin import ban

    _ = cli_gettext()
    name = _name(args.name)
    engine = _engine(args)
    try:
        new = ban(engine, name_key(name), name)
    finally:
        engine.dispose()
    text = _("banned: {name}") if new else _("already banned: {name}")
    print(text.format(name=_shown(name)))
    return 0


def _unban(args: argparse.Namespace) -> int:
    from yacht.web.protocol.names import name_key
    from yacht.web.storage.admin import unban

    _ = cli_gettext()
    name = _name(args.name)
    engine = _engine(args)
    try:
        lifted = unban(engine, name_key(name))
    finally:
        engine.dispose()
    if not lifted:
        raise CommandError(_("{name} is not banned").format(name=_shown(name)))
    print(_("ban lifted: {name}").format(name=_shown(name)))
    return 0


def _banned(args: argparse.Namespace) -> int:
    from yacht.web.storage.admin import banned

    _ = cli_gettext()
    engine = _engine(args)
    try:
        names = banned(engine)
    finally:
        engine.dispose()
    if not names:
        print(_("no banned names"))
    for name, when in names:
        print(f"{when:%Y-%m-%d %H:%M}  {_shown(name)}")
    return 0


def _games_delete(args: argparse.Namespace) -> int:
    from yacht.cli.text import count
    from yacht.web.storage.admin import finished_games_of

    _ = cli_gettext()
    name = _name(args.player)
    engine = _engine(args)
    try:
        found = finished_games_of(engine, name, delete_them=args.yes)
    finally:
        engine.dispose()
    games = count("{n} finished game", "{n} finished games", found)
    if args.yes:
        print(_("deleted {games} of {name}").format(games=games, name=_shown(name)))
    else:
        print(
            _("{games} of {name}; add --yes to delete them").format(games=games, name=_shown(name))
        )
    return 0


def _reset_password(args: argparse.Namespace) -> int:
    from yacht.web.service.accounts import operator_reset

    _ = cli_gettext()
    name = _name(args.name)
    engine = _engine(args)
    try:
        found = operator_reset(engine, name)
    finally:
        engine.dispose()
    if found is None:
        raise CommandError(_("no account named {name}").format(name=_shown(name)))
    account, code = found
    print(
        _(
            "the password of {name} is reset and every session ended; their new recovery "
            "code (give it to them, once): {code}"
        ).format(name=_shown(account), code=code)
    )
    return 0


def _flagged(args: argparse.Namespace) -> int:
    from yacht.skill import FLAG_GAMES, FLAG_LOSS, implausible
    from yacht.web.storage.admin import rated_losses

    _ = cli_gettext()
    engine = _engine(args)
    try:
        found = rated_losses(engine, FLAG_GAMES)
    finally:
        engine.dispose()
    flagged = [(n, p, losses) for n, p, losses in found if implausible(losses)]
    if not flagged:
        print(
            _(
                "no account flagged: none lost under {bound} points a game on average over "
                "its last {games} rated games"
            ).format(bound=FLAG_LOSS, games=FLAG_GAMES)
        )
    for name, preset, losses in flagged:
        mean = sum(losses[-FLAG_GAMES:]) / FLAG_GAMES
        print(
            _(
                "{name}  {preset}: {loss} points lost a game over the last {games} rated games"
            ).format(name=_shown(name), preset=preset, loss=f"{mean:.2f}", games=FLAG_GAMES)
        )
    return 0
