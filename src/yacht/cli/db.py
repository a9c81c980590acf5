"""``yacht db upgrade|downgrade|current``: the web game's database schema (Alembic migrations),
and what every command on that database shares: its settings (the options, else the
environment, else the defaults, as ``yacht serve``) and one clear line for a database that
cannot be used (exit status 2, its password hidden)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from yacht.cli import CommandError, add_lang_option, cli_gettext

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from yacht.web.settings import Settings

__all__ = [
    "add_database_option",
    "database_problem",
    "open_engine",
    "register",
    "settings_from",
    "settings_problem",
]


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("upgrade, downgrade or show the web game's database schema")
    p = subs.add_parser("db", help=what, description=what)
    add_lang_option(p)
    steps = p.add_subparsers(dest="step", required=True, metavar=_("COMMAND"))
    what = _("bring the database to the newest migration (or to REVISION)")
    q = steps.add_parser("upgrade", help=what, description=what)
    q.add_argument("revision", nargs="?", default="head", metavar=_("REVISION"))
    _common(q, _upgrade)
    what = _(
        "return the database to REVISION (default: one step down), e.g. before going back "
        "to an older yacht"
    )
    q = steps.add_parser("downgrade", help=what, description=what)
    q.add_argument("revision", nargs="?", default="-1", metavar=_("REVISION"))
    _common(q, _downgrade)
    what = _("show the database's migration and the newest this yacht knows")
    q = steps.add_parser("current", help=what, description=what)
    _common(q, _current)


def _common(p: argparse.ArgumentParser, handler: Any) -> None:
    add_database_option(p)
    add_lang_option(p)
    p.set_defaults(handler=handler)


def add_database_option(p: argparse.ArgumentParser) -> None:
    """``--database URL``, which wins over ``$YACHT_DATABASE_URL``."""
    _ = cli_gettext()
    p.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help=_(
            "SQLAlchemy URL (default: $YACHT_DATABASE_URL or the file $YACHT_DATABASE_URL_FILE "
            "names, else an SQLite file in the user data directory or $YACHT_DATA_DIR)"
        ),
    )


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings of a command: each option given on its command line, else its
    ``YACHT_...`` environment variable, else its default. A value that cannot be used is a
    :class:`~yacht.cli.CommandError` naming the option, never the value (it may be secret)."""
    from pydantic import ValidationError

    from yacht.web.edge.redact import remember, url_secrets
    from yacht.web.settings import Settings, SettingsError

    given = {
        name: getattr(args, name)
        for name in Settings.model_fields
        if getattr(args, name, None) is not None
    }
    try:
        settings = Settings(**given)
    except (ValidationError, SettingsError) as e:
        raise CommandError(settings_problem(e)) from None
    for url in (settings.database, settings.redis):
        remember(*url_secrets(url))
    return settings


def settings_problem(e: Exception) -> str:
    """One line for settings that cannot be read, without the values themselves."""
    from pydantic import ValidationError

    from yacht.web.edge.redact import redact

    _ = cli_gettext()
    if isinstance(e, ValidationError):
        problems = []
        for error in e.errors(include_input=False):
            name = str(error["loc"][0]).upper() if error["loc"] else "?"
            setting = name if name.startswith("YACHT_") else f"YACHT_{name}"
            problems.append(_("{setting}: {problem}").format(setting=setting, problem=error["msg"]))
        return _("cannot use the settings: {problems}").format(problems="; ".join(problems))
    return _("cannot use the settings: {problems}").format(problems=redact(str(e)))


def database_problem(e: BaseException, url: str) -> str | None:
    """The one line that says why the database at ``url`` cannot be used (None: ``e`` is not
    such a problem but a bug). The URL is shown with its password hidden."""
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    from yacht.web.edge.redact import redact
    from yacht.web.storage.store import UnknownRevisionError

    _ = cli_gettext()
    shown = redact(url)
    if isinstance(e, UnknownRevisionError):
        return _(
            "the database {url} is at migration {found}, which this yacht does not know (its "
            "newest is {head}): a newer yacht upgraded it. Run that yacht, or downgrade "
            "the database with its {command} first"
        ).format(url=shown, found=e.found, head=e.head, command=f"yacht db downgrade {e.head}")
    if isinstance(e, NoSuchModuleError | ArgumentError | ImportError):
        reason = redact(" ".join(str(e).split()))
        if isinstance(e, NoSuchModuleError):
            reason = _("unknown kind of database {name}").format(name=str(e).rpartition(":")[2])
        elif isinstance(e, ArgumentError):
            reason = _("not a database URL")
        return _("cannot use the database URL {url}: {reason}").format(url=shown, reason=reason)
    if isinstance(e, DBAPIError):
        text = str(e.orig if e.orig is not None else e)
        reason = redact(" ".join(text.split()))
        return _("the database {url} cannot be used: {reason}").format(url=shown, reason=reason)
    return None


def open_engine(settings: Settings, *, migrated: bool = True) -> Engine:
    """An engine on the configured database; ``migrated``: refuse one that is not at the
    newest migration (the operator's commands never change the schema on their own)."""
    from sqlalchemy import create_engine

    from yacht.web.storage.store import UnknownRevisionError, current_revision, head_revision

    _ = cli_gettext()
    url = settings.database_url()
    try:
        engine = create_engine(url)
        if migrated:
            found, head = current_revision(engine), head_revision()
            if found != head:
                known = found is None or found in _known_revisions()
                if not known:
                    raise UnknownRevisionError(str(found), head)
                raise CommandError(
                    _(
                        "the database {url} is at migration {found}, this yacht needs {head}: "
                        "run {command} first"
                    ).format(
                        url=_shown(url),
                        found=found or _("none"),
                        head=head,
                        command="yacht db upgrade",
                    )
                )
    except CommandError:
        raise
    except Exception as e:
        problem = database_problem(e, url)
        if problem is None:
            raise
        raise CommandError(problem) from None
    return engine


def _shown(url: str) -> str:
    from yacht.web.edge.redact import redact

    return redact(url)


def _known_revisions() -> set[str]:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from yacht.web.storage.store import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return {s.revision for s in ScriptDirectory.from_config(config).walk_revisions()}


def _run(args: argparse.Namespace, step: Any) -> None:
    settings = settings_from(args)
    engine = open_engine(settings, migrated=False)
    try:
        step(engine)
    except CommandError:
        raise
    except Exception as e:
        problem = database_problem(e, settings.database_url())
        if problem is None:
            from alembic.util.exc import CommandError as AlembicError

            if not isinstance(e, AlembicError):
                raise
            problem = " ".join(str(e).split())
        raise CommandError(problem) from None
    finally:
        engine.dispose()


def _upgrade(args: argparse.Namespace) -> int:
    from yacht.web.storage.store import migrate

    _run(args, lambda engine: migrate(engine, args.revision))
    return _current(args)


def _downgrade(args: argparse.Namespace) -> int:
    from yacht.web.storage.store import downgrade

    _run(args, lambda engine: downgrade(engine, args.revision))
    return _current(args)


def _current(args: argparse.Namespace) -> int:
    from yacht.web.storage.store import current_revision, head_revision

    _ = cli_gettext()
    found: list[str | None] = []
    _run(args, lambda engine: found.append(current_revision(engine)))
    head = head_revision()
    print(
        _("database at migration {found} (the newest this yacht knows: {head})").format(
            found=found[0] or _("none"), head=head
        )
    )
    return 0
