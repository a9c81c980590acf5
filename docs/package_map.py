"""MkDocs hook: the pages that list modules are written from the source at build time.

A list of modules kept by hand goes stale the week a module moves; these are read from
``src/`` on every build (with :mod:`pkgutil` and :mod:`ast`: nothing is imported, so the
FastAPI side need not even be installed). A page asks for one with a marker line:

``<!-- modules-map yacht.web -->``
    a nested list of the package's sub-packages and modules, each with the summary of its
    docstring and a link to its API page, top down in the order of its layers (:func:`layers`:
    the import-linter contract in ``pyproject.toml`` that checks them);
``<!-- modules-reference yacht.web.api -->``
    a mkdocstrings ``::: name`` block for the package and for every public module under it.

So a module added to a package is on the map and in the reference at the next build, and one
that is removed cannot break it.
"""

from __future__ import annotations

import ast
import pkgutil
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

LAYERS: dict[str, tuple[str, ...]] = {
    # used when pyproject.toml has no import-linter layers contract for the package
    "yacht.web": ("app", "api", "service", "storage", "bus", "edge", "protocol", "settings"),
}

MARKER = re.compile(r"^<!-- modules-(map|reference) ([\w.]+) -->$", re.M)
ROLE = re.compile(r":(?:mod|func|class|meth|data|attr|exc|obj|const):`(~?)([^`]+)`")


@dataclass
class Module:
    """A module or package of the source tree, as read from its file."""

    name: str
    path: Path
    package: bool
    summary: str
    children: list[Module] = field(default_factory=list)

    def walk(self) -> list[Module]:
        """This module and every module under it, in map order."""
        return [self, *(m for child in self.children for m in child.walk())]


def summary(path: Path) -> str:
    """The first paragraph of a file's docstring, on one line, as Markdown ('' if none)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    if not doc:
        return ""
    first = " ".join(line.strip() for line in doc.split("\n\n", 1)[0].splitlines())
    first = ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", first)
    return first.replace("``", "`")


def layers(package: str, pyproject: Path = ROOT / "pyproject.toml") -> tuple[str, ...]:
    """The names of ``package``'s modules and sub-packages top down, as its import-linter
    layers contract has them (siblings of a layer in the contract's order), else :data:`LAYERS`."""
    config = tomllib.loads(pyproject.read_text(encoding="utf-8")) if pyproject.exists() else {}
    contracts = config.get("tool", {}).get("importlinter", {}).get("contracts", [])
    for contract in contracts:
        if contract.get("type") == "layers" and contract.get("containers") == [package]:
            names = (n for layer in contract["layers"] for n in re.split(r"[|:]", layer))
            return tuple(n.strip().strip("()") for n in names)  # "(x)": an optional layer
    return LAYERS.get(package, ())


def read(name: str, src: Path = SRC) -> Module:
    """The package ``name`` (dotted) under ``src``, with every public module under it."""
    folder = src.joinpath(*name.split("."))
    if not (folder / "__init__.py").exists():
        raise ValueError(f"{name} is not a package under {src}")
    return _package(name, folder)


def _package(name: str, folder: Path) -> Module:
    package = Module(name, folder / "__init__.py", True, summary(folder / "__init__.py"))
    found = [m for m in pkgutil.iter_modules([str(folder)]) if not m.name.startswith("_")]
    order = layers(name)

    def key(m: pkgutil.ModuleInfo) -> tuple[int, bool, str]:
        # the layers top down; then what no layer names, modules before sub-packages
        return (order.index(m.name) if m.name in order else len(order), m.ispkg, m.name)

    for info in sorted(found, key=key):
        dotted = f"{name}.{info.name}"
        if info.ispkg:
            package.children.append(_package(dotted, folder / info.name))
        else:
            path = folder / f"{info.name}.py"
            package.children.append(Module(dotted, path, False, summary(path)))
    return package


def render_map(root: Module) -> str:
    """The Markdown list of :func:`read`'s modules: file names linked to their API entries."""
    lines: list[str] = []

    def add(module: Module, depth: int) -> None:
        last = module.name.rsplit(".", 1)[-1]
        label = f"{last}/" if module.package else f"{last}.py"
        text = f"[`{label}`][{module.name}]" + (f": {module.summary}" if module.summary else "")
        lines.append("    " * depth + "- " + text)
        for child in module.children:
            add(child, depth + 1)

    for child in root.children:
        add(child, 0)
    return "\n".join(lines)


def render_reference(root: Module) -> str:
    """mkdocstrings blocks for :func:`read`'s modules; a package shows only its own docstring
    (its members are documented in the modules that define them)."""
    blocks = []
    for module in root.walk():
        options = "\n    options:\n      members: false" if module.package else ""
        blocks.append(f"::: {module.name}{options}")
    return "\n\n".join(blocks)


def expand(markdown: str, src: Path = SRC) -> str:
    """``markdown`` with each marker line replaced by what it asks for."""

    def replace(match: re.Match[str]) -> str:
        root = read(match[2], src)
        return render_map(root) if match[1] == "map" else render_reference(root)

    return MARKER.sub(replace, markdown)


def on_page_markdown(markdown: str, **_: object) -> str:
    return expand(markdown)
