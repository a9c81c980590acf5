"""The README and the documentation site: short front door, links that lead somewhere, examples
that run as shown, and a site that builds strictly."""

from __future__ import annotations

import ast
import doctest
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
YACHT = Path(sys.executable).with_name("yacht")

# [text](target) and ![alt](target), not inside inline code; a target may carry a "title"
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")


def markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def relative_links(path: Path) -> list[str]:
    """Every link of ``path`` that points into the repository (no scheme, not only an anchor)."""
    text = INLINE_CODE.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    targets = [m.group(1) for m in LINK.finditer(text)]
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


def broken_links(path: Path) -> list[str]:
    broken = []
    for target in relative_links(path):
        file = target.split("#", 1)[0]
        if not (path.parent / file).exists():
            broken.append(target)
    return broken


def test_readme_is_a_front_door_of_at_most_250_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; move detail into docs/"


def test_readme_links_into_the_docs_and_shows_both_faces() -> None:
    links = relative_links(README)
    assert "docs/images/terminal.svg" in links and "docs/images/web.png" in links
    assert sum(link.startswith("docs/") and link.endswith(".md") for link in links) >= 10


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_at_a_file_that_exists(path: Path) -> None:
    assert broken_links(path) == []


SOURCE_PATH = re.compile(r"`([\w.-]+(?:/[\w.-]+)+\.py)`")
"""A Python file named by path in inline code: ``src/yacht/web/edge/limits.py``, or
``web/storage/pg.py`` (under ``src/yacht``)."""


def missing_sources(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [
        name
        for name in SOURCE_PATH.findall(text)
        if not any((base / name).exists() for base in (ROOT, ROOT / "src" / "yacht", path.parent))
    ]


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_source_file_a_page_names_exists(path: Path) -> None:
    """A module moved or removed leaves no page pointing at where it was."""
    assert missing_sources(path) == []


DOTTED = re.compile(r"`(yacht(?:\.\w+)+)(?:\(\))?`")
FILE_NAME = re.compile(r"\.(?:tcss|pot?|mo|sqlite3|json|toml|py)$")  # yacht.pot is a file


def top_level_names(path: Path) -> set[str]:
    """What a module defines or imports at its top level, and the names of its ``__all__``
    (a lazy ``__getattr__`` serves those)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                strings = (c.value for c in ast.walk(node) if isinstance(c, ast.Constant))
                names.update(v for v in strings if isinstance(v, str))
    return names


def missing_names(path: Path, src: Path = ROOT / "src") -> list[str]:
    """The ``yacht.x.y`` names in ``path``'s inline code that name no module, nor anything a
    module defines (``yacht.bots.play_games`` when it lives in ``yacht.bots.play``)."""
    missing = []
    for name in DOTTED.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        if FILE_NAME.search(name):
            continue
        parts = name.split(".")
        for i in range(len(parts), 0, -1):
            folder = src.joinpath(*parts[:i])
            module = folder / "__init__.py" if folder.is_dir() else folder.with_suffix(".py")
            if module.exists():
                break
        if i < len(parts) and parts[i] not in top_level_names(module):
            missing.append(name)
    return missing


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_name_a_page_gives_in_yacht_exists(path: Path) -> None:
    assert missing_names(path) == []


def test_the_name_check_finds_a_name_in_the_wrong_module(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "`yacht.bots.play.play_games`, `yacht.bots.play_games`, `yacht.game.Game`, `yacht.env`,"
        " `yacht.env.evaluate` (lazy), `yacht.tcss`, `yacht.web.bus.resp.Publisher`\n"
    )
    assert missing_names(page) == ["yacht.bots.play_games", "yacht.web.bus.resp.Publisher"]


def test_the_source_check_finds_a_module_that_moved(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("`src/yacht/game.py`, `web/storage/pg.py`, `web/pg.py` and `game.py`\n")
    assert missing_sources(page) == ["web/pg.py"]


def test_the_link_check_finds_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# there\n")
    page.write_text(
        "[ok](there.md#a) [gone](missing.md) ![img](images/none.png) [web](https://x.org)\n"
        "`[code](not-a-link.md)` [anchor](#here)\n"
    )
    assert broken_links(page) == ["missing.md", "images/none.png"]


def test_images_are_small() -> None:
    images = sorted((DOCS / "images").iterdir())
    assert {p.name for p in images} >= {"terminal.svg", "web.png"}
    for image in images:
        assert image.stat().st_size < 300_000, f"{image.name}: keep screenshots under 300 KB"


def test_the_readme_library_example_runs_as_shown() -> None:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```pycon\n(.*?)```", text, re.S)
    assert block is not None
    test = doctest.DocTestParser().get_doctest(block.group(1), {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5


def fences(text: str) -> list[tuple[str, list[str]]]:
    """Every fenced block of a Markdown text: its language and its lines."""
    blocks: list[tuple[str, list[str]]] = []
    lang: str | None = None
    body: list[str] = []
    for line in text.splitlines():
        if line.startswith("```"):
            if lang is None:
                lang, body = line[3:].strip(), []
            else:
                blocks.append((lang, body))
                lang = None
        elif lang is not None:
            body.append(line)
    return blocks


TRANSCRIPTS = [README, DOCS / "tutorial.md"]
"""Pages whose ``console`` blocks are each one quick command and its output, run as shown."""


def console_blocks() -> list[tuple[list[str], list[str]]]:
    """The ``console`` blocks of :data:`TRANSCRIPTS`: the command's arguments, the lines typed
    at ``Ann>`` prompts, and every other line as the expected output."""
    found = []
    for path in TRANSCRIPTS:
        for lang, lines in fences(path.read_text(encoding="utf-8")):
            if lang == "console":
                assert lines[0].startswith("$ yacht "), f"{path.name}: {lines[0]}"
                found.append((lines[0][2:].split()[1:], lines[1:]))
    return found


@pytest.mark.parametrize("args,shown", console_blocks(), ids=lambda v: " ".join(v)[:30])
def test_the_command_examples_print_what_they_show(args: list[str], shown: list[str]) -> None:
    typed = [line.split("> ", 1)[1] for line in shown if re.match(r"^\w+> ", line)]
    run = subprocess.run(
        [str(YACHT), *args],
        input="".join(f"{line}\n" for line in typed) + "quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout.splitlines()
    expected = [line for line in shown if not re.match(r"^\w+> ", line)]
    # each shown line appears, in order (the sheets between them are left out of the README)
    at = 0
    for line in expected:
        assert line in out[at:], f"{line!r} not printed by yacht {' '.join(args)}"
        at = out.index(line, at) + 1


def shown_commands() -> dict[str, set[str]]:
    """The ``yacht`` commands shown in shell blocks of the README and the docs, each with the
    options used with it anywhere. A command is one word, or two for a group (``duel solve``)."""
    used: dict[str, set[str]] = {}
    for path in markdown_files():
        for lang, body in fences(path.read_text(encoding="utf-8")):
            if lang not in ("sh", "console", ""):
                continue
            for line in "\n".join(body).replace("\\\n", " ").splitlines():
                line = re.sub(r"^\$ ", "", line.strip())
                if line.startswith("yacht "):
                    words = line.split(" #")[0].split()
                    options = {w.split("=")[0] for w in words[1:] if w.startswith("--")}
                    group = len(words) > 2 and re.fullmatch(r"[a-z]+", words[2])
                    command = " ".join(words[1:3] if group else words[1:2])
                    used.setdefault(command, set()).update(options)
    return used


def test_every_command_shown_in_the_docs_exists_with_its_options() -> None:
    used = shown_commands()
    assert {"play", "hint", "serve", "simulate", "solve"} <= used.keys()
    top = subprocess.run([str(YACHT), "--help"], capture_output=True, text=True, check=True)
    for command, options in sorted(used.items()):
        if command.startswith("--"):
            assert command in top.stdout
            continue
        help_ = subprocess.run(
            [str(YACHT), *command.split(), "--help"], capture_output=True, text=True, check=False
        )
        assert help_.returncode == 0, f"yacht {command}: {help_.stderr}"
        for option in sorted(options):
            assert re.search(rf"{re.escape(option)}\b", help_.stdout), f"yacht {command} {option}"


def load_extension() -> ModuleType:
    pytest.importorskip("griffe", reason="griffe missing: pip install 'yacht[docs]'")
    path = DOCS / "griffe_docstrings.py"
    spec = importlib.util.spec_from_file_location("griffe_docstrings", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docstrings_become_markdown_for_the_api_pages() -> None:
    markdown = load_extension().markdown
    text = "Points.\n>>> score([6, 6], 'x')[:2]\n[6, 6]\n\nSee :func:`~yacht.rules.score`."
    assert markdown(text) == (
        "Points.\n\n```pycon\n>>> score([6, 6], 'x')[:2]\n[6, 6]\n```\n\nSee `score`."
    )
    assert markdown("Uses :mod:`yacht.dice` and ``code``.") == "Uses `yacht.dice` and ``code``."
    indented = "Example:\n\n    >>> 1\n    1\n"
    assert markdown(indented) == "Example:\n\n    ```pycon\n    >>> 1\n    1\n    ```\n"
    terms = "Intro.\n\nValues (:func:`solve`)\n    one\n    two\n\nText\nmore\n    code\n"
    assert markdown(terms) == (
        "Intro.\n\nValues (`solve`)\n:   one\n    two\n\nText\nmore\n    code\n"
    )


def package_map() -> ModuleType:
    """``docs/package_map.py``, the MkDocs hook that writes the module lists of the site."""
    if "package_map" not in sys.modules:
        spec = importlib.util.spec_from_file_location("package_map", DOCS / "package_map.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["package_map"] = module  # its dataclass looks itself up there
        spec.loader.exec_module(module)
    return sys.modules["package_map"]


def public_modules(src: Path, package: str = "yacht") -> set[str]:
    """Every public module and package under ``src/<package>``, found from the files alone: a
    name starting with ``_`` is private (and so is everything under it), and tests are not API."""
    found = set()
    for path in src.joinpath(*package.split(".")).rglob("*.py"):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if any(p.startswith("_") or p == "tests" for p in parts) or "__pycache__" in parts:
            continue
        found.add(".".join(parts))
    return found


def test_the_map_of_the_web_code_names_every_module() -> None:
    page = (DOCS / "development.md").read_text(encoding="utf-8")
    marker = "\n<!-- modules-map yacht.web -->\n"
    assert marker in page
    shown = package_map().expand(page)
    assert marker not in shown
    modules = public_modules(ROOT / "src", "yacht.web") - {"yacht.web"}
    assert len(modules) >= 30
    lines = shown.splitlines()
    for name in sorted(modules):
        last = name.rsplit(".", 1)[-1]
        path = ROOT / "src" / name.replace(".", "/")
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        link = f"[`{last}{'/' if path.name == '__init__.py' else '.py'}`][{name}]"
        line = next((line for line in lines if link in line), None)
        assert line is not None, f"{name} is not on the map"
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        opening = re.split(r"[:\w]*`", doc)[0][:20]  # its own words, before any markup
        assert opening in line.split("]: ", 1)[-1], f"{name}: its summary is not on the map"
    # the layers top down: the endpoints, then what decides, then the data they all speak
    rooms = [
        shown.index(f"[`{room}/`][yacht.web.{room}]") for room in ("api", "service", "protocol")
    ]
    assert rooms == sorted(rooms)


def test_the_map_is_read_from_whatever_modules_there_are(tmp_path: Path) -> None:
    web = tmp_path / "yacht" / "web"
    for folder in (web / "api", web / "zoo", web / "_private"):
        folder.mkdir(parents=True)
    (tmp_path / "yacht" / "__init__.py").write_text("")
    (web / "__init__.py").write_text('"""The web game."""\n')
    (web / "app.py").write_text('"""Wiring: builds\nthe :class:`~yacht.web.app.App`.\n\nMore."""\n')
    (web / "api" / "__init__.py").write_text('"""Endpoints."""\n')
    (web / "api" / "new.py").write_text("X = 1\n")
    (web / "zoo" / "__init__.py").write_text("")
    (web / "_private" / "__init__.py").write_text("")
    (web / "_hidden.py").write_text("")
    hook = package_map()
    shown = hook.expand("Map:\n\n<!-- modules-map yacht.web -->\n", tmp_path)
    assert shown.splitlines()[2:] == [
        "- [`app.py`][yacht.web.app]: Wiring: builds the `App`.",
        "- [`api/`][yacht.web.api]: Endpoints.",
        "    - [`new.py`][yacht.web.api.new]",
        "- [`zoo/`][yacht.web.zoo]",
    ]
    blocks = hook.expand("<!-- modules-reference yacht.web.api -->", tmp_path)
    assert (
        blocks == "::: yacht.web.api\n    options:\n      members: false\n\n::: yacht.web.api.new"
    )
    with pytest.raises(ValueError, match=r"yacht\.gone is not a package"):
        hook.expand("<!-- modules-reference yacht.gone -->", tmp_path)


def test_the_web_api_page_lists_every_websocket_message() -> None:
    """docs/web/api.md names each ``type`` of both message unions, and a REST endpoint for each
    in-game message."""
    pytest.importorskip("pydantic", reason="the web extra: pip install 'yacht[web]'")
    from typing import get_args

    from yacht.web.protocol import messages

    def types(union: object) -> set[str]:
        return {cls.model_fields["type"].default for cls in get_args(get_args(union)[0])}

    page = (DOCS / "web" / "api.md").read_text(encoding="utf-8")
    section = page.split("## Messages and endpoints", 1)[1].split("\n## ", 1)[0]
    sent, received = section.split("the server sends", 1)
    client, server = types(messages.ClientMessage), types(messages.ServerMessage)
    assert {"hello", "action", "take_back", "seed"} <= client and "state" in server
    assert sorted(t for t in client if f"`{t}`" not in sent) == []
    assert sorted(t for t in server if f"`{t}`" not in received) == []
    in_game = client - {"hello", "action", "ping"}
    assert sorted(t for t in in_game if f"`/{t.replace('_', '-')}`" not in section) == []


def test_the_map_takes_its_order_from_the_layers_contract(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        "[[tool.importlinter.contracts]]\n"
        'type = "layers"\ncontainers = ["yacht.web"]\n'
        'layers = ["api", "service : hints", "(bus) | edge"]\n'
    )
    assert package_map().layers("yacht.web", pyproject) == (
        "api",
        "service",
        "hints",
        "bus",
        "edge",
    )
    assert package_map().layers("yacht.tui", pyproject) == ()


def reference_entries() -> set[str]:
    """What the API pages document: their ``::: name`` lines, once the hook has written the
    generated lists in."""
    hook = package_map()
    entries = set()
    for page in (DOCS / "reference").rglob("*.md"):
        text = hook.expand(page.read_text(encoding="utf-8"))
        entries.update(re.findall(r"^::: *([\w.]+)", text, re.M))
    return entries


def test_every_public_module_has_an_api_page() -> None:
    modules = public_modules(ROOT / "src")
    assert {"yacht", "yacht.game", "yacht.web.app", "yacht.tui.app"} <= modules
    entries = reference_entries()
    missing = sorted(modules - entries)
    assert not missing, f"no ::: line in docs/reference for {', '.join(missing)}"
    # an entry names a module, or something defined in one; a module removed since breaks the
    # strict build, so it is caught here first
    stale = [e for e in entries if e not in modules and e.rpartition(".")[0] not in modules]
    assert not stale, f"gone, but docs/reference has a ::: line for {', '.join(sorted(stale))}"


def test_the_module_check_sees_private_and_test_modules_as_private(tmp_path: Path) -> None:
    for name in (
        "yacht/__init__.py",
        "yacht/__main__.py",
        "yacht/a.py",
        "yacht/_b.py",
        "yacht/p/__init__.py",
        "yacht/p/c.py",
        "yacht/_q/d.py",
        "yacht/tests/t.py",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert public_modules(tmp_path) == {"yacht", "yacht.a", "yacht.p", "yacht.p.c"}


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """``make docs``: a broken link, a missing page or an unknown reference fails the build."""
    mkdocs = Path(sys.executable).with_name("mkdocs")
    if not mkdocs.exists() and shutil.which("mkdocs") is None:
        pytest.skip("mkdocs missing: pip install 'yacht[docs]'")
    site = tmp_path / "site"
    run = subprocess.run(
        [str(mkdocs), "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": str(mkdocs.parent), "HOME": str(tmp_path)},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "images/terminal.svg" in index and "images/web.png" in index
    reference = (site / "reference" / "core" / "index.html").read_text(encoding="utf-8")
    assert 'id="yacht.game.Game"' in reference and 'id="yacht.rules.score"' in reference
    assert "language-pycon" in reference or "highlight" in reference
    development = (site / "development" / "index.html").read_text(encoding="utf-8")
    assert 'href="../reference/web/api/#yacht.web.api.sockets"' in development  # the map links
    changelog = (site / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "Unreleased" in changelog
