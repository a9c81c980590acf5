"""The glossary (src/yacht/locale/glossary.toml) over all nine catalogs: wherever an English msgid
uses a game term, its translation uses the glossary's word; no translation uses a forbidden synonym;
every translation keeps its msgid's placeholders; the .mo files are compiled from the .po files;
and docs/translating.md shows the glossary as it is."""

from __future__ import annotations

import gettext
import io
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import yacht
from yacht.i18n import LANGUAGES

LOCALE = Path(yacht.__file__).parent / "locale"
GLOSSARY = LOCALE / "glossary.toml"
DOC = Path(__file__).parents[1] / "docs" / "translating.md"
LANGS = tuple(lang for lang in LANGUAGES if lang != "en")
DOMAINS = ("yacht", "yacht_tui", "yacht_web")
CATALOGS = [(domain, lang) for domain in DOMAINS for lang in LANGS]
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[a-z]|%[a-z]")  # {name}; argparse's %(prog)s, %s


@dataclass(frozen=True)
class Term:
    name: str
    note: str
    english: re.Pattern[str]
    skip: tuple[re.Pattern[str], ...]
    words: dict[str, str]
    accept: dict[str, tuple[re.Pattern[str], ...]]
    forbid: dict[str, tuple[re.Pattern[str], ...]]
    domains: tuple[str, ...]  # where the English word has this sense
    why: dict[str, str]

    def used_in(self, msgid: str) -> bool:
        """Whether an English msgid uses the term (placeholders and other senses removed)."""
        for pattern in self.skip:
            msgid = pattern.sub(" ", msgid)
        return bool(self.english.search(PLACEHOLDER.sub(" ", msgid)))

    def accepted(self, lang: str, text: str) -> bool:
        text = PLACEHOLDER.sub(" ", text).lower()
        return any(p.search(text) for p in self.accept[lang])

    def forbidden(self, lang: str, text: str) -> list[str]:
        text = PLACEHOLDER.sub(" ", text).lower()
        return [m.group(0) for p in self.forbid[lang] if (m := p.search(text))]


def _patterns(items: list[str]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in items)


@cache
def glossary() -> dict[str, Term]:
    with GLOSSARY.open("rb") as f:
        data = tomllib.load(f)
    everywhere = data.get("en_skip", [])
    return {
        name: Term(
            name=name,
            note=spec["note"],
            english=re.compile(spec["en"], re.IGNORECASE),
            skip=_patterns(everywhere + spec.get("en_skip", [])),
            words={lang: spec[lang]["word"] for lang in LANGS if lang in spec},
            accept={lang: _patterns(spec[lang]["accept"]) for lang in LANGS if lang in spec},
            forbid={lang: _patterns(spec[lang]["forbid"]) for lang in LANGS if lang in spec},
            why={lang: spec[lang]["why"] for lang in LANGS if lang in spec},
            domains=tuple(spec.get("domains", DOMAINS)),
        )
        for name, spec in data["terms"].items()
    }


@cache
def informal() -> dict[str, tuple[re.Pattern[str], ...]]:
    """Per language, the forms of address it never uses (Bulgarian: the informal singular)."""
    with GLOSSARY.open("rb") as f:
        address = tomllib.load(f).get("address", {})
    return {lang: _patterns(spec["forbid"]) for lang, spec in address.items()}


@cache
def load(domain: str, lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=lang)


def pairs(catalog: Catalog) -> Iterator[tuple[str, str, str]]:
    """(msgid as shown, the English form, one translated form) for every translated entry;
    a plural entry gives each msgstr form with the singular (form 0) or the plural msgid."""
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            if isinstance(message.string, str) and message.string:
                yield message.id, message.id, message.string
            continue
        singular, plural = message.id[0], message.id[1]
        for i, form in enumerate(message.string or ()):
            if form:
                yield singular, singular if i == 0 else plural, form


def problems(domain: str, lang: str, msgid: str, english: str, text: str) -> list[str]:
    """What the glossary finds wrong with one translation (empty when it is right)."""
    found = []
    where = f"{domain} {lang} {msgid!r} -> {text!r}"
    for term in glossary().values():
        if lang not in term.words:
            continue  # test_every_term_has_a_word... reports it
        if domain in term.domains and term.used_in(english) and not term.accepted(lang, text):
            found.append(f"{where}: the English uses '{term.name}', expected {term.words[lang]!r}")
        for synonym in term.forbidden(lang, text):
            found.append(
                f"{where}: {synonym!r} is a synonym for '{term.name}', use {term.words[lang]!r}"
            )
    for pattern in informal().get(lang, ()):
        if m := pattern.search(text.lower()):
            found.append(
                f"{where}: {m.group(0).strip()!r} is the informal address; use the polite plural"
            )
    return found


def test_every_term_has_a_word_its_own_check_accepts_in_each_language() -> None:
    terms = glossary()
    for name in ("category", "roll", "hold", "score", "sheet", "bot", "hint", "review", "seed",
                 "table", "seat", "rematch", "replay", "roll_off", "undo", "total", "turn",
                 "round", "point", "die", "player", "game"):  # fmt: skip
        assert name in terms, f"the glossary has no term {name!r}"
    for term in terms.values():
        for lang in LANGS:
            assert lang in term.words, f"add [terms.{term.name}.{lang}] to {GLOSSARY.name}"
            word = term.words[lang]
            assert term.accepted(lang, word), f"{term.name} {lang}: {word!r} fails its own accept"
            assert not term.forbidden(lang, word), f"{term.name} {lang}: {word!r} is forbidden"


def test_the_check_finds_a_synonym_a_missing_word_and_accepts_the_right_one() -> None:
    assert problems("yacht_web", "nb", "bot", "bot", "bot") == []
    robot = problems("yacht_web", "nb", "bot", "bot", "robot")
    assert any("'robot' is a synonym for 'bot', use 'bot'" in p for p in robot), robot
    seed = problems("yacht_web", "bg", "Revealed seed", "Revealed seed", "Разкрито семе")
    assert any("expected 'начално число'" in p for p in seed), seed
    assert any("'семе' is a synonym" in p for p in seed), seed
    # Other senses of an English word are not the term: "yacht replay" is a command name.
    assert not glossary()["replay"].used_in("Stored: yacht replay {id}")
    assert glossary()["replay"].used_in("Replay of game {id}")
    # Inflected forms count: Finnish "heittoja", Bulgarian "хвърлянията".
    assert problems("yacht", "fi", "roll first", "roll first", "heittoja ensin") == []
    assert problems("yacht", "bg", "roll first", "roll first", "първо хвърлянията") == []
    # Bulgarian speaks to the player in the polite plural only.
    assert problems("yacht_web", "bg", "Roll", "Roll", "Хвърлете") == []
    informal_roll = problems("yacht_web", "bg", "Roll", "Roll", "Хвърли")
    assert any("informal address" in p for p in informal_roll), informal_roll
    assert problems("yacht_web", "bg", "{name} rolled {dice}", "{name} rolled {dice}",
                    "{name} хвърли {dice}") == []  # fmt: skip


@pytest.mark.parametrize(("domain", "lang"), CATALOGS)
def test_translations_use_the_glossary_words(domain: str, lang: str) -> None:
    found = [
        problem
        for msgid, english, text in pairs(load(domain, lang))
        for problem in problems(domain, lang, msgid, english, text)
    ]
    assert not found, f"{len(found)} glossary problems:\n" + "\n".join(found)


@pytest.mark.parametrize(("domain", "lang"), CATALOGS)
def test_translations_keep_the_placeholders_of_their_msgid(domain: str, lang: str) -> None:
    found = []
    for msgid, english, text in pairs(load(domain, lang)):
        got, want = sorted(PLACEHOLDER.findall(text)), sorted(PLACEHOLDER.findall(english))
        if got != want:
            found.append(f"{domain} {lang} {msgid!r} -> {text!r}: placeholders {got}, not {want}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("domain", "lang"), CATALOGS)
def test_the_mo_file_is_compiled_from_the_po_file(domain: str, lang: str) -> None:
    fresh = io.BytesIO()
    write_mo(fresh, load(domain, lang))
    fresh.seek(0)
    compiled = gettext.GNUTranslations(fresh)._catalog  # type: ignore[attr-defined]
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as f:
        committed = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    compiled.pop("", None)  # the header: babel stamps a fresh POT-Creation-Date on reading
    committed.pop("", None)
    stale = sorted(
        str(k) for k in compiled.keys() | committed.keys() if compiled.get(k) != committed.get(k)
    )
    assert not stale, (
        f"{domain} {lang}: the .mo differs from the .po in {len(stale)} messages, e.g. {stale[:3]};"
        f" run .venv/bin/pybabel compile -d src/yacht/locale -D {domain}"
    )


SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"

# Words the seed pages (or, for pöytäkirja, the usual Finnish Yatzy sheet) use for a term that an
# older glossary forbade: (language, term, the word as a page writes it).
SEED_WORDS = [
    ("fi", "sheet", "pöytäkirja"),
    ("fi", "total", "kokonaispistemäärän"),
    ("fi", "total", "pistemäärä"),
    ("fi", "score", "pisteytetään"),
    ("fi", "score", "pisteytyksen valinta"),
    ("nb", "hold", "legger du til side dem du vil beholde"),
    ("nb", "hold", "legg til side"),
    ("nb", "hold", "behold terning 1 og 3"),
    ("nb", "total", "totalen"),
]


@cache
def seed_pages(lang: str) -> str:
    """The text of the language's seed pages (lower-cased), passages about other games removed."""
    if not SEEDS.is_dir():
        pytest.fail(
            f"the seed rules pages are not at {SEEDS} (../shared/seeds beside the repository);"
            " the glossary is checked against them"
        )
    with GLOSSARY.open("rb") as f:
        spec = tomllib.load(f)["seeds"][lang]
    texts = []
    for number in spec["pages"]:
        found = sorted(SEEDS.glob(f"{number}_*.txt"))
        assert found, f"no seed page {number}_*.txt in {SEEDS}"
        texts.append(found[0].read_text(encoding="utf-8"))
    text = "\n".join(texts).lower()
    for pattern in spec["skip"]:
        text = re.sub(pattern, " ", text)
    return text


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_forbids_no_word_of_the_seed_pages(lang: str) -> None:
    text = seed_pages(lang)
    found = [
        f"{term.name}: the seed pages say {text[max(0, m.start() - 30) : m.end() + 20]!r},"
        f" which {pattern.pattern!r} forbids"
        for term in glossary().values()
        for pattern in term.forbid[lang]
        if (m := pattern.search(text))
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("lang", "name", "word"), SEED_WORDS)
def test_the_seed_pages_words_are_allowed(lang: str, name: str, word: str) -> None:
    term = glossary()[name]
    assert term.accepted(lang, word), f"{name} {lang}: {word!r} is not among the accepted words"
    assert not term.forbidden(lang, word), f"{name} {lang}: {word!r} is forbidden"


START, END = "<!-- glossary:start -->", "<!-- glossary:end -->"


def _cell(text: str) -> str:
    """Text for a table cell (a pipe in a code span needs no escape, and gets none)."""
    return text.replace("|", "\\|")


def glossary_markdown() -> str:
    """The glossary as docs/translating.md shows it: a table per language."""
    terms = glossary()
    lines = []
    for lang in LANGS:
        lines += [
            "",
            f"### {LANGUAGES[lang]} ({lang})",
            "",
            "| term | the game's meaning | word | never | why |",
            "|---|---|---|---|---|",
        ]
        for term in terms.values():
            never = ", ".join(f"`{p.pattern}`" for p in term.forbid[lang]) or "-"
            name, word = term.name.replace("_", " "), _cell(term.words[lang])
            lines.append(
                f"| {name} | {_cell(term.note)} | **{word}** | {never} | {_cell(term.why[lang])} |"
            )
    return (
        "\n" + "\n".join(lines) + "\n\n"
    )  # blank lines around the tables, apart from the comments


def test_the_translators_guide_shows_the_glossary_as_it_is() -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert START in doc and END in doc, f"{DOC} has no {START} ... {END} section"
    shown = doc.split(START, 1)[1].split(END, 1)[0]
    assert shown == glossary_markdown(), (
        f"{DOC.name} shows an old glossary: run `python tests/test_glossary.py` to rewrite it"
    )


if __name__ == "__main__":  # python tests/test_glossary.py: rewrite the glossary in the guide
    doc = DOC.read_text(encoding="utf-8")
    head, rest = doc.split(START, 1)
    DOC.write_text(
        head + START + glossary_markdown() + END + rest.split(END, 1)[1], encoding="utf-8"
    )
    print(f"{DOC}: glossary of {len(glossary())} terms in {', '.join(LANGS)}")
