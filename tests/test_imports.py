"""No circle of imports anywhere in ``yacht``: every module imports the ones it needs one way.

``lint-imports`` checks the siblings of every package for circles (the ``acyclic_siblings``
contract in pyproject.toml), but it cannot see a circle through a package's own
``__init__``: one that re-exports a module which imports the package back. This looks at the
modules themselves with grimp, import-linter's graph, which counts imports inside functions
and under ``TYPE_CHECKING`` too: a circle hidden in a function is still a circle.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest


def circles(package: str) -> list[list[str]]:
    """Every circle of imports among the package's modules, each once, shortest first, as the
    modules along it with the first repeated at the end: ``[a, b, a]``."""
    graph = grimp.build_graph(package, cache_dir=None)
    found: dict[frozenset[str], list[str]] = {}
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                circle = [importer, *back]
                found.setdefault(frozenset(circle), circle)
    return sorted(found.values(), key=lambda c: (len(c), c))


def described(package: str, circle: list[str]) -> str:
    """One circle with the line of each import along it."""
    graph = grimp.build_graph(package, cache_dir=None)
    steps = []
    for importer, imported in itertools.pairwise(circle):
        details = graph.get_import_details(importer=importer, imported=imported)
        where = f"line {details[0]['line_number']}" if details else "?"
        steps.append(f"    {importer} -> {imported} ({where})")
    return " -> ".join(circle) + ":\n" + "\n".join(steps)


def test_no_module_of_yacht_imports_itself_round_a_circle() -> None:
    found = circles("yacht")
    assert not found, (
        "import circles (break each with a lower module, a callback or a protocol):\n"
        + "\n".join(described("yacht", c) for c in found)
    )


@pytest.fixture
def made_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty package ``circles_made`` on the import path, for a test to fill."""
    root = tmp_path / "circles_made"
    root.mkdir()
    (root / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield root
    for name in [m for m in sys.modules if m.split(".")[0] == "circles_made"]:
        del sys.modules[name]


def test_the_check_finds_a_circle_hidden_in_a_function_and_one_through_a_package(
    made_package: Path,
) -> None:
    (made_package / "game.py").write_text(
        "def to_json():\n    from circles_made.saved import write\n    return write()\n"
    )
    (made_package / "saved.py").write_text("from circles_made.game import to_json\n")
    (made_package / "straight.py").write_text("import circles_made.saved\n")
    sub = made_package / "screens"
    sub.mkdir()
    (sub / "__init__.py").write_text("from circles_made.screens.setup import Setup\n")
    (sub / "setup.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from circles_made.screens import Setup as Again\n"
        "class Setup: ...\n"
    )
    found = circles("circles_made")
    assert found == [
        ["circles_made.game", "circles_made.saved", "circles_made.game"],
        ["circles_made.screens", "circles_made.screens.setup", "circles_made.screens"],
    ]
    text = described("circles_made", found[0])
    assert "circles_made.game -> circles_made.saved (line 2)" in text
