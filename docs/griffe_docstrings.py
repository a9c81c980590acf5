"""Griffe extension for the API pages: our docstrings are written for ``help()`` and pytest.

Two habits of theirs read badly as Markdown, so this turns them into what they mean:

- doctest examples (``>>>`` lines and their output) would be nested block quotes, and output
  such as ``[...][:2]`` would be taken for a link; they become fenced ``pycon`` blocks;
- Sphinx roles (``:func:`solve```, ``:class:`~yacht.game.TurnView```) become inline code
  (``~`` keeps the last part of the name, as Sphinx does);
- a reST definition list (a term line, then its text indented by four spaces) would run into
  one paragraph; it becomes a Markdown one (``Term`` then ``:   text``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:mod|func|class|meth|data|attr|exc|obj|const):`(~?)([^`]+)`")
PROMPT = re.compile(r"^(\s*)>>>( |$)")
DEFINITION = re.compile(r"^    (?! |>>>|\.\.\.)\S")


def _role(match: re.Match[str]) -> str:
    short, target = match.group(1), match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


def markdown(text: str) -> str:
    """``text`` with doctest blocks fenced and Sphinx roles as inline code."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        prompt = PROMPT.match(lines[i])
        if not prompt:
            line = ROLE.sub(_role, lines[i])
            if i and _definition(lines[i - 2] if i > 1 else "", lines[i - 1], line):
                line = ":   " + line[4:]
            out.append(line)
            i += 1
            continue
        indent = prompt.group(1)
        if out and out[-1].strip():
            out.append("")
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


def _definition(before: str, term: str, line: str) -> bool:
    """``line`` starts the text of a definition whose term, a paragraph of one line, is the
    line before it."""
    return (
        not before.strip()
        and bool(term.strip())
        and not term[0].isspace()
        and not term.lstrip().startswith(("-", "*", ">>>", "...", "```"))
        and DEFINITION.match(line) is not None
    )


class DocstringsAsMarkdown(griffe.Extension):
    """Rewrite every docstring once the object tree is complete."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
