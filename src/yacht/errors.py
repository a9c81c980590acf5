"""The errors yacht raises, as one family: each carries a stable ``code`` and its arguments.

An error's ``str()`` is English, for Python users and logs; a face shows it in the user's
language with :func:`yacht.i18n.error_text`, which looks the English template up in the
``yacht`` catalog (the template is the msgid) and renders the arguments the same way: a
category by its name in that language, a nested error or :class:`Message` in turn.

Each error class declares its templates by code (its ``messages``), so the codes and texts are
in one place per module, and a test can reach every one of them:

>>> class SheetError(YachtError, ValueError, messages={"full": N_("the sheet of {name} is full")}):
...     pass
>>> error = SheetError("full", name="Ann")
>>> str(error), error.code, error.params
('the sheet of Ann is full', 'full', {'name': 'Ann'})
>>> isinstance(error, ValueError)  # existing ``except ValueError`` still catches it
True
>>> SheetError("a sentence of its own").code  # an unknown code is a plain English message
'SheetError'

This module is the bottom of the package: it imports nothing of yacht.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar

__all__ = ["N_", "Message", "Term", "YachtError", "error_classes"]


def N_(message: str) -> str:
    """Mark a string for catalog extraction; it is translated where it is shown."""
    return message


class Term:
    """A word a face translates with a context (``pgettext``), such as a command's name.

    >>> str(Term("command", "roll"))
    'roll'
    """

    __slots__ = ("context", "word")

    def __init__(self, context: str, word: str) -> None:
        self.context, self.word = context, word

    def __str__(self) -> str:
        return self.word

    def __repr__(self) -> str:
        return f"Term({self.context!r}, {self.word!r})"


def _english(value: object) -> object:
    """An argument as the English text shows it: an enum by its value (``fives``)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Message | YachtError | Term):
        return str(value)
    if isinstance(value, list | tuple) and any(isinstance(v, Enum) for v in value):
        return ", ".join(str(_english(v)) for v in value)
    return value


def fill(template: str, params: Mapping[str, object], render: Callable[[object], object]) -> str:
    """``template`` (a ``str.format`` pattern) with its placeholders filled by
    ``render(argument)``."""
    return template.format(**{key: render(value) for key, value in params.items()})


class Message:
    """A text in English with its arguments, shown in the user's language by a face.

    >>> str(Message(N_("round {round} of {rounds}"), round=3, rounds=12))
    'round 3 of 12'
    """

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params: dict[str, object] = params

    def __str__(self) -> str:
        return fill(self.template, self.params, _english)

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.params!r})"


class YachtError(Exception):
    """Base of every error yacht raises about what it was given.

    ``YachtError(code, **params)``: ``code`` names a template in ``messages`` of the class or
    one of its bases; the text is the template filled with ``params``. A code found nowhere is
    taken as a finished English message (its code is then the class's name), so
    ``GameError("...")`` keeps working.
    """

    messages: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def __init_subclass__(cls, messages: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.messages = MappingProxyType(dict(messages or {}))

    def __init__(self, code: str, /, **params: Any) -> None:
        template = self.template_for(code)
        if template is None and " " not in code and type(self).codes():
            raise LookupError(f"{type(self).__name__} has no error code {code!r}")
        if template is None:  # a finished message: its braces are text
            template = code.replace("{", "{{").replace("}", "}}")
            code, params = type(self).__name__, {}
        self.code: str = code
        self.template: str = template
        self.params: dict[str, Any] = params
        super().__init__(fill(template, params, _english))

    @classmethod
    def template_for(cls, code: str) -> str | None:
        for klass in cls.__mro__:
            found = vars(klass).get("messages", {}).get(code)
            if found is not None:
                return str(found)
        return None

    @classmethod
    def codes(cls) -> dict[str, str]:
        """Every code this class can raise, with its English template (its bases' too)."""
        found: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            found.update(vars(klass).get("messages", {}))
        return found

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.code, self.template, self.params))


def _rebuild(cls: type[YachtError], code: str, template: str, params: dict[str, Any]) -> YachtError:
    error = cls.__new__(cls)
    error.code, error.template, error.params = code, template, params
    Exception.__init__(error, fill(template, params, _english))
    return error


def error_classes() -> list[type[YachtError]]:
    """Every subclass of YachtError defined so far (import a module to add its own).

    >>> YachtError in error_classes()
    True
    """
    found: list[type[YachtError]] = [YachtError]
    for klass in found:
        found.extend(k for k in klass.__subclasses__() if k not in found)
    return found
