"""A native localiser's review of the Finnish, Bulgarian and Norwegian catalogs, kept as checks:
per (domain, language, msgid, context), words the translation must contain and words it must not.
Each row is a reading the review found wrong (the forbidden part) and the wording that replaced it
(the required part), so a later edit cannot bring the old reading back unnoticed."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import yacht

LOCALE = Path(yacht.__file__).parent / "locale"
Y, T, W = "yacht", "yacht_tui", "yacht_web"

# (domain, lang, msgid, context, must contain, must not contain); substrings, case-sensitive.
CHECKS: list[tuple[str, str, str, str | None, tuple[str, ...], tuple[str, ...]]] = [
    # Finnish: "voittaa 160 pisteellä" is a winning margin, not a total.
    (W, "fi", "{name} wins with {n} point!", None, ("pisteen tuloksella",), ("pisteellä",)),
    # "mahdollisuus päättää ensimmäisenä" reads "a chance to decide first".
    (Y, "fi", "chance of finishing first given up, as the hint ranks with opponents", None,
     ("voittotodennäköisyys",), ("päättää",)),
    # "mahdollisuuden mukaan" is the idiom "if possible".
    (Y, "fi", "rank by the chance of a final total of at least T points", None,
     ("sen mukaan, kuinka todennäköisesti",), ("mahdollisuuden mukaan",)),
    (Y, "fi", "rank by the chance of finishing first against these sheets", None,
     ("sen mukaan, kuinka todennäköisesti",), ("mahdollisuuden mukaan", "päättää")),
    (Y, "fi", "must be from {low} to {high}, got {value}", None,
     ("on oltava {low}–{high}",), ("kokonaismäärä",)),  # noqa: RUF001
    (Y, "fi", "--plot: {file!r} must end in .png or .svg", None,
     ("päätteen on oltava",), ("pääte on oltava",)),
    # Unquoted "heitä" reads as the pronoun "them": commands are quoted.
    (Y, "fi", "type {roll} (or {help}).", None, ("”{roll}”", "”{help}”"), ()),
    (Y, "fi", "{name}, turn {turn}, roll {roll} [{dice}]: {taken}; best {best}; {loss}", None,
     ("paras: {best}",), ()),
    (T, "fi", "{taken}: best was {best}, {loss}", None, ("paras: {best}",), ("olisi ollut",)),
    (T, "fi", "Mouse: click a die to hold it, a sheet row to score it, a button to act.", None,
     ("käyttääksesi",), ("toimiaksesi",)),
    (T, "fi", "The target score is a whole number from 1 to 400, or empty.", None,
     (), ("Tavoitepisteet ovat",)),
    (T, "fi", "Rated as the hint ranks: by the chance to reach {target}.", None,
     ("sen mukaan",), ("{target} mukaan",)),
    (W, "fi", "Client seed", None, ("Pelaajien",), ("Asiakkaan",)),
    (W, "fi", "Bot level for {name}'s seat", None, ("pelaajan {name} paikalle",), ()),
    (T, "fi", "Clubhouse", None, ("Klubisäännöt",), ("Kerhotalo",)),
    (W, "fi", "Clubhouse", None, ("Klubisäännöt",), ("Kerhotalo",)),
    (Y, "fi", "NOT fair: {problems}", None, ("Ei reilu",), ("EI",)),
    (W, "fi", "NOT fair", None, ("Ei reilu",), ("EI",)),
    (Y, "fi", "medium", "bot", ("keskitasoinen",), ()),
    (W, "fi", "medium", None, ("keskitasoinen",), ()),
    (T, "fi", "Bot: medium", None, ("keskitasoinen",), ()),
    # Bulgarian: "край на играта" is the end of a game, not its endgame.
    (Y, "bg", "exact endgame", None, ("ендшпил",), ("край на играта",)),
    (Y, "bg", "{rules} endgame, at most {depth} each: {positions} x {leads} = {size} ({megabytes} "
     "MB), built in {seconds} s", None, ("ендшпил",), ("край на играта",)),
    (T, "bg", "P(win) is exact: the endgame is solved.", None, ("ендшпилът",), ("краят",)),
    (W, "bg", "The chances are exact: the endgame is solved.", None, ("ендшпилът",), ("краят",)),
    # "random" as a bot level is masculine like the other levels; who starts is "at random".
    (W, "bg", "random", "bot", ("случаен",), ()),
    (W, "bg", "random", "start", ("случайно",), ()),
    (W, "bg", "Leave: a bot plays for me", None, ("Напускам", "ще играе"), ("Напуснете",)),
    (Y, "bg", "rank by the chance of a final total of at least T points", None,
     ("от поне T",), ()),
    (Y, "bg", "the best chance of a final total of at least T points instead", None,
     ("от поне T",), ()),
    (Y, "bg", "type {roll} (or {help}).", None, ("„{roll}“", "„{help}“"), ()),
    (Y, "bg", "{name}, turn {turn}, roll {roll} [{dice}]: {taken}; best {best}; {loss}", None,
     ("най-добро: {best}",), ()),
    (Y, "bg", "keep {dice}", None, ("задържане на",), ("задръжте",)),
    (Y, "bg", "roll all five", None, ("хвърляне на",), ("хвърлете",)),
    (Y, "bg", "{category} is already filled ({points})", None, ("Категорията {category}",), ()),
    (T, "bg", "{category} is already filled.", None, ("Категорията {category}",), ()),
    (T, "bg", "Score 0 in {category}? The box is then used up.", None, ("ще бъде",), ()),
    (Y, "bg", "plot written to {file}", None, ("в {file}",), ("във {file}",)),
    (Y, "bg", "the points on your sheet so far", None, ("вашата",), ("Вашата",)),
    (Y, "bg", "--opponents: give --banked B, the points on your sheet", None,
     ("вашата",), ("Вашата",)),
    (Y, "bg", "yacht: internal error: this is a bug in yacht {version}, not in your command. "
     "Please report it on the yacht issue tracker with the traceback above and the command you "
     "ran.", None, (), ("бъг", "тракер", "трасировк")),
    (Y, "bg", "play a game (--plain: line mode, works over a pipe)", None, (), ("конвейер",)),
    (Y, "bg", "print the verdict as JSON", None, (), ("присъд",)),
    (W, "bg", "You are watching.", None, (), ("Вие гледате",)),
    (T, "bg", "Close this help, a question or the hint panel", None, ("Затворете",), ()),
    (T, "bg", "Answer a question: yes (Enter also says yes) or no", None, ("Отговорете",), ()),
    (Y, "bg", "Traditional, but Four of a Kind scores the sum of all five dice.", None,
     ("Традиционни",), ("Традиционен",)),
    (W, "bg", "Four of a Kind counts all dice", None, (), ("„",)),
    (T, "bg", "Traditional, all dice in Four of a Kind", None, (), ("„",)),
    # Norwegian: the verb "før" alone also reads "before".
    (Y, "nb", "score {category} ({points})", None, ("før opp",), ()),
    (T, "nb", "score {category} ({points})", None, ("før opp",), ()),
    (W, "nb", "Score {points} in {category}", None, ("Før opp",), ()),
    (Y, "nb", "no rolls left: score a category", None, ("før opp",), ()),
    (Y, "nb", "fill an open category with the dice", None, ("før opp",), ()),
    (Y, "nb", "take back your last score before the next player rolls (--undo)", None,
     (), ("før neste",)),
    (T, "nb", "Score the category under the cursor (or click a row)", None,
     ("Før opp", "klikk på en rad"), ()),
    (Y, "nb", "{name}, turn {turn}, roll {roll} [{dice}]: {taken}; best {best}; {loss}", None,
     ("beste: {best}",), ("best {best}",)),
    (T, "nb", "{taken}: best was {best}, {loss}", None, ("beste: {best}",), ("det beste var",)),
    (Y, "nb", "also play every other seat order (each bot moves one seat on), N games each", None,
     ("alle andre",), ("hver annen",)),
    (Y, "nb", "options", None, ("alternativer",), ()),
    (Y, "nb", "unexpected option string: %s", None, ("alternativ",), ("valg",)),
    (T, "nb", "Hint: best options", None, ("alternativer",), ("valg",)),
    (Y, "nb", "score five dice in a category", None, (), ("i en rad",)),
    (Y, "nb", "expected points given up", None, ("tapte forventede",), ()),
    (Y, "nb", "chance of finishing first given up, as the hint ranks with opponents", None,
     (), ("rangerer med motspillere",)),
    (Y, "nb", "play every game through the engine (slow)", None, (), ("spill hvert spill",)),
    (Y, "nb", "mean seconds a bot thinks before each action (0.5-1.5 times this; default: 1)",
     None, (), ("snittsekunder",)),
    (Y, "nb", "print the verdict as JSON", None, (), ("dommen",)),
    (T, "nb", "Rules: {preset}", None, ("Regelsett",), ()),
    (T, "nb", "Clubhouse", None, (), ("Klubbhus",)),
    (W, "nb", "Clubhouse", None, (), ("Klubbhus",)),
    (Y, "nb", "the points of Ones to Sixes so far (a preset with an upper bonus)", None,
     ("enere til seksere",), ("Enere til Seksere",)),
    # All three: a player's card on the web is the score sheet.
    (W, "fi", "{name}'s card", None, ("pistelomake",), ("kortti",)),
    (W, "bg", "{name}'s card", None, ("Таблицата",), ("Картата",)),
    (W, "nb", "{name}'s card", None, ("Poengarket",), ("Kortet",)),
]  # fmt: skip


@cache
def load(domain: str, lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=lang)


def texts(domain: str, lang: str, msgid: str, context: str | None) -> list[str]:
    """The translation of one entry (each form of a plural one); fails when there is none."""
    message = load(domain, lang).get(msgid, context=context)
    assert message is not None, f"{domain} {lang}: no entry {msgid!r} (context {context!r})"
    forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
    found = [form for form in forms if form]
    assert found, f"{domain} {lang}: {msgid!r} is not translated"
    return found


@pytest.mark.parametrize(
    ("domain", "lang", "msgid", "context", "required", "forbidden"),
    CHECKS,
    ids=[f"{c[0]}-{c[1]}-{c[2][:40]}" for c in CHECKS],
)
def test_the_reviewed_wording_stays(
    domain: str,
    lang: str,
    msgid: str,
    context: str | None,
    required: tuple[str, ...],
    forbidden: tuple[str, ...],
) -> None:
    for text in texts(domain, lang, msgid, context):
        for word in required:
            assert word in text, f"{domain} {lang} {msgid!r}: {text!r} lacks {word!r}"
        for word in forbidden:
            assert word not in text, f"{domain} {lang} {msgid!r}: {text!r} has {word!r}"


def test_the_web_separates_the_two_roles_of_random() -> None:
    """A bot level and the who-starts choice are separate entries, so each can agree in form."""
    for lang in ("fi", "bg", "nb"):
        catalog = load(W, lang)
        assert catalog.get("random") is None, f"{lang}: 'random' without a context is ambiguous"
        assert catalog.get("random", context="bot") is not None
        assert catalog.get("random", context="start") is not None


QUOTES = {"fi": ("”", "”"), "bg": ("„", "“"), "nb": ("«", "»")}
# A command or input the player is told to type, in an English msgid: "yacht play" after a colon,
# "type {help}", "({example} holds two dice)".
_SHOWN_COMMAND = re.compile(r": yacht \w+|\btype \{\w+\}|\(\{example\}")
_COMMAND_IN_TRANSLATION = re.compile(
    r"yacht \w+(?: --\w+| \{id\}| ID| \S+\.json)?|\{(?:roll|help|example)\}"
)


@pytest.mark.parametrize("lang", sorted(QUOTES))
def test_commands_a_page_shows_are_in_the_languages_quotes(lang: str) -> None:
    opening, closing = QUOTES[lang]
    checked, found = 0, []
    for domain in (Y, T, W):
        for message in load(domain, lang):
            if not isinstance(message.id, str) or not _SHOWN_COMMAND.search(message.id):
                continue
            text = message.string
            assert isinstance(text, str) and text, f"{domain} {lang}: {message.id!r} untranslated"
            for m in _COMMAND_IN_TRANSLATION.finditer(text):
                checked += 1
                quoted = text[: m.start()].endswith(opening) and text[m.end() :].startswith(closing)
                if not quoted:
                    found.append(f"{domain} {lang} {message.id!r} -> {text!r}: {m.group(0)!r}")
    assert checked >= 10, f"{lang}: only {checked} commands found; is the pattern still right?"
    assert not found, f"not in {opening}…{closing}:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("lang", "name"), [("fi", "PELI.json"), ("bg", "ИГРА.json"), ("nb", "SPILL.json")]
)
def test_the_web_names_the_game_file_as_the_command_line_does(lang: str, name: str) -> None:
    assert texts(Y, lang, "GAME.json", None) == [name]
    assert name in texts(W, lang, "Or run: yacht verify GAME.json", None)[0]
