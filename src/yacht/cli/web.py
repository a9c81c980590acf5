"""``yacht serve`` (the web game) and ``yacht verify GAME.json`` (provably fair dice check)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["cmd_serve", "cmd_verify", "register"]


def register(subs: Any) -> None:
    from yacht.cli import add_lang_option, cli_gettext

    _ = cli_gettext()
    what = _("run the web game (browser UI, REST and WebSocket API)")
    epilog = _(
        "Every option can also be set in the environment (the variable named in its help); "
        "the command line wins over the environment, the environment over the defaults. "
        "$YACHT_DATABASE_URL_FILE and $YACHT_REDIS_URL_FILE name files that contain the URLs, "
        "so no password is on the command line."
    )
    p = subs.add_parser("serve", help=what, description=what, epilog=epilog)
    p.add_argument(
        "--host",
        default=None,
        metavar=_("ADDRESS"),
        help=_("address to listen on (default: 127.0.0.1; $YACHT_HOST)"),
    )
    p.add_argument(
        "--port",
        type=int,
        default=None,
        metavar=_("PORT"),
        help=_("port (default: 8000; $YACHT_PORT)"),
    )
    p.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help=_(
            "SQLAlchemy URL, postgres:// and postgresql:// as libpq gives them also "
            "(default: $YACHT_DATABASE_URL or the file $YACHT_DATABASE_URL_FILE names, else "
            "an SQLite file in the user data directory or $YACHT_DATA_DIR)"
        ),
    )
    p.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help=_(
            "share tables with every other yacht serve using the same database and Redis "
            "(e.g. redis://127.0.0.1:6379/0); without it this process serves alone "
            "($YACHT_REDIS_URL or the file $YACHT_REDIS_URL_FILE names)"
        ),
    )
    p.add_argument(
        "--log-level",
        default=None,
        choices=["debug", "info", "warning", "error"],
        help=_("how much the server logs (default: info; $YACHT_LOG_LEVEL)"),
    )
    p.add_argument(
        "--log-format",
        default=None,
        choices=["text", "json"],
        help=_("json: one object a line (default: text; $YACHT_LOG_FORMAT)"),
    )
    add_lang_option(p)
    p.set_defaults(handler=cmd_serve)

    p = subs.add_parser(
        "verify",
        help=_("check a finished web game's dice against its revealed seed"),
        description=_(
            "Exit status: 0 fair (or a daily game that checks), 1 not fair, 2 the file cannot "
            "be checked."
        ),
    )
    p.add_argument(
        "game",
        metavar=_("GAME.json"),
        help=_("a game file (from the page or /api/games/ID)"),
    )
    p.add_argument("--json", action="store_true", help=_("print the verdict as JSON"))
    p.add_argument(
        "--commitment",
        metavar="HEX",
        help=_("the commitment you saw before you gave your seed (the file's must be the same)"),
    )
    p.add_argument(
        "--seed",
        metavar=_("SEED"),
        help=_("the seed you gave (it must be one of the game's seeds)"),
    )
    add_lang_option(p)
    p.set_defaults(handler=cmd_verify)


def cmd_serve(args: argparse.Namespace) -> int:
    from yacht.cli import CommandError, cli_gettext
    from yacht.cli.db import database_problem, settings_from
    from yacht.web.app import create_app
    from yacht.web.edge.limits import MAX_FRAME
    from yacht.web.edge.logs import json_line, uvicorn_log_config
    from yacht.web.edge.redact import redact, redacted_config
    from yacht.web.edge.serving import UnguardedError, serve, serve_options

    try:
        guards = serve_options()  # header/body timeouts, connections per client
    except UnguardedError as e:
        print(f"yacht serve: {e}", file=sys.stderr)
        return 2
    settings = settings_from(args)  # the options, else YACHT_* variables, else defaults
    database = settings.database_url()
    if settings.redis:
        check_redis(settings.redis)
    try:
        app = create_app(settings=settings.model_copy(update={"database": database}))
        # the read the start makes, made here: a damaged SQLite file whose pages cannot be read
        # is then this one line, not a failed start with tracebacks
        app.state.service.store.active_codes()
    except Exception as e:  # a database that cannot be used is one line, not a bug
        problem = database_problem(e, database)
        if problem is None:
            raise
        raise CommandError(problem) from None
    settle_code()
    shown = redact(database)
    url = f"http://{settings.host}:{settings.port}/"
    if settings.log_format == "json":  # a log line for machines: English, as every other
        note = f"yacht: serving {url} (database {shown})"
        note = json_line(note, database=shown, redis=bool(settings.redis))
    else:
        _ = cli_gettext()
        note = _("yacht: serving {url} (database {database})").format(url=url, database=shown)
    print(note, file=sys.stderr)
    logs = redacted_config(
        uvicorn_log_config(settings.log_level, json_lines=settings.log_format == "json")
    )
    return serve(  # bounded: SIGTERM -> exit within the grace (YACHT_SHUTDOWN_GRACE) and 5 s
        app,
        app.state.settings.shutdown_grace,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=logs,
        access_log=False,  # yacht.web.edge.access writes the access lines, with their fields
        ws_max_size=MAX_FRAME,
        **guards,
    )


def check_redis(url: str) -> None:
    """Refuse a ``--redis`` URL that cannot be used (exit status 2), and say at once when Redis
    cannot be reached there (the server starts anyway and keeps trying: Redis may come later).
    Both name the URL with its password hidden."""
    import asyncio

    from yacht.cli import CommandError, cli_gettext
    from yacht.web.bus.redis import RedisURLError, probe

    _ = cli_gettext()
    try:
        asyncio.run(probe(url))
    except RedisURLError as e:
        reasons = {
            "scheme": _("a Redis URL starts with redis://, rediss:// or unix://"),
            "option": _("unknown option {name}").format(name=e.detail),
            "file": _("no such file: {path}").format(path=e.detail),
        }
        reason = reasons.get(e.why, e.detail)
        raise CommandError(
            _("cannot use the Redis URL {url}: {reason}").format(url=e.url, reason=reason)
        ) from None
    except OSError as e:  # the message starts with the redacted URL
        note = _("yacht: Redis cannot be reached ({reason}); serving, and trying again")
        print(note.format(reason=e), file=sys.stderr)


def settle_code() -> None:
    """Load the strategy code hints and bots use now, and take everything loaded so far out
    of the garbage collector's passes (:func:`gc.freeze`): code and module tables live as
    long as the server, and with them tracked, every full pass of a busy server took longer
    (1,000 tables at 3 s think: p99 100-250 ms with them, 18-40 ms without, measured with
    ``python -m benchmarks.loadrun 1000 3``).

    The youngest generation is also collected after 20,000 new objects instead of 700, so
    its passes, and the older ones that follow every tenth of them, each stalling every table
    of the process, come some 30 times less often (200 tables at 1 s think, per process in
    25 s: 35 young, 3-4 middle and 1 full pass of 160 ms with the default; one young pass
    and none older with 20,000; see docs/web/stalls.md)."""
    import gc

    from yacht.web.service.bots import load_code

    load_code()
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 10)


def cmd_verify(args: argparse.Namespace) -> int:
    from yacht.cli import CommandError
    from yacht.cli.files import read_json
    from yacht.web.service.fairness import BadGameFileError, verify

    data = read_json(args.game)
    try:
        verdict = verify(data, commitment=args.commitment, seed=args.seed)
    except BadGameFileError as e:
        raise CommandError.about(e, args.game) from None
    if args.json:
        print(json.dumps(verdict.to_json()))
    else:
        from yacht.cli import ERROR_SHOWN
        from yacht.cli.text import shown

        # the problems quote the file: escaped and cut, as every error line
        print(shown(verdict_text(verdict), ERROR_SHOWN))
    return 0 if verdict.fair or verdict.outcome == "daily" else 1


def verdict_text(verdict: Any, lang: str | None = None) -> str:
    """The verdict of ``yacht verify`` in the language of the run, or ``lang``."""
    from yacht.cli import cli_language
    from yacht.cli.text import count
    from yacht.i18n import error_text, translator

    lang = lang or cli_language()
    _ = translator(lang).gettext
    if verdict.problems:
        problems = "; ".join(error_text(problem, lang) for problem in verdict.problems)
        return _("NOT fair: {problems}").format(problems=problems)
    rolls = count("{n} roll", "{n} rolls", verdict.rolls, lang)
    dice = count("{n} die", "{n} dice", verdict.dice, lang)
    if verdict.daily is not None:  # one public seed, the day's, and a seed committed to before
        return _(
            "the daily game of {day}: the seed matches the day's commitment {commitment}... and "
            "re-derives all {rolls} ({dice})"
        ).format(day=verdict.daily, commitment=verdict.commitment[:16], rolls=rolls, dice=dice)
    if not verdict.fair:  # every check holds, yet no player had a say in the dice
        return _(
            "dealt by the server alone (rule {rule}): no player's seed is in its dice key; the "
            "seed matches its commitment {commitment}... and re-derives all {rolls} ({dice})"
        ).format(rule=verdict.rule, commitment=verdict.commitment[:16], rolls=rolls, dice=dice)
    seeds = count("its key of {n} player seed", "its key of {n} player seeds", verdict.seeds, lang)
    return _(
        "fair by rule {rule}: the seed matches its commitment {commitment}..., {seeds}, and "
        "re-derives all {rolls} ({dice})"
    ).format(
        rule=verdict.rule, commitment=verdict.commitment[:16], seeds=seeds, rolls=rolls, dice=dice
    )
