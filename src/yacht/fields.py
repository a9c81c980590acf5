"""Checked reads of JSON fields, shared by every reader of saved data (games, dice sources).

JSON has no integer type apart from numbers, and Python's ``bool`` is an ``int``: a field that
must be an integer accepts ``3`` but neither ``3.0``, ``"3"`` nor ``true``.

>>> field({"seed": 7}, "seed", int)
7
>>> field({"seed": True}, "seed", int)
Traceback (most recent call last):
...
yacht.fields.FieldError: 'seed' must be an integer, got True
>>> field({}, "drawn", int, 0)
0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yacht.errors import N_, Message, YachtError

__all__ = ["REQUIRED", "FieldError", "field", "is_int", "is_kind", "kind_message", "kind_name"]

REQUIRED: Any = object()
"""The default of :func:`field` for a key that must be present."""

_KIND_NAMES: dict[type, str] = {
    int: N_("an integer"),
    str: N_("a string"),
    list: N_("a list"),
    bool: N_("true or false"),
    Mapping: N_("an object"),
}


class FieldError(
    YachtError,
    ValueError,
    messages={
        "not_an_object": N_("expected an object, got {data!r}"),
        "missing": N_("missing {key!r}"),
        "wrong_kind": N_("{key!r} must be {kind}, got {value!r}"),
    },
):
    """A field of saved data is missing or of the wrong kind."""


def is_int(value: object) -> bool:
    """An integer and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_kind(value: object, kind: type) -> bool:
    """``value`` is a ``kind``, where ``int`` excludes bools."""
    return is_int(value) if kind is int else isinstance(value, kind)


def kind_name(kind: type) -> str:
    """How an error message names a kind: ``an integer``, ``a list``..."""
    return _KIND_NAMES.get(kind, kind.__name__)


def kind_message(kind: type) -> Message:
    """:func:`kind_name` as a message a face shows in its language."""
    return Message(kind_name(kind))


def field(data: Mapping[str, Any], key: str, kind: type, default: Any = REQUIRED) -> Any:
    """``data[key]`` checked to be a ``kind``; ``default`` when missing, unless required."""
    if not isinstance(data, Mapping):
        raise FieldError("not_an_object", data=data)
    if key not in data:
        if default is REQUIRED:
            raise FieldError("missing", key=key)
        return default
    value = data[key]
    if not is_kind(value, kind):
        raise FieldError("wrong_kind", key=key, kind=kind_message(kind), value=value)
    return value
