"""The setup screen: players (name, human or bot level), preset, language, hints, target
score and the undo house rule. Enter on it starts "you against the medium bot"."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.widgets import Button, Checkbox, Input, Select, Static

from yacht.game import MAX_PLAYERS
from yacht.i18n import LANGUAGES, format_number
from yacht.rules import preset_names
from yacht.tui.flow import Flow
from yacht.tui.keys import with_capitals, with_twins
from yacht.tui.rules_text import preset_about, preset_label
from yacht.tui.screens.dialogs import ChoiceScreen
from yacht.tui.screens.size import SizeGuard
from yacht.tui.seats import (
    BOT_KINDS,
    COACH_LEAST,
    COACH_MOST,
    COACH_WIN_MOST,
    HUMAN,
    Seat,
    TableConfig,
    default_name,
    kind_label,
)
from yacht.tui.text import gettext_for

__all__ = ["SetupScreen"]

KINDS = (HUMAN, *BOT_KINDS)


class Tick(Checkbox):
    """A checkbox that shows a tick when on and nothing when off: not colour alone."""

    def __init__(self, label: str, value: bool, *, id: str) -> None:
        super().__init__(label, value, compact=True, id=id)
        self.BUTTON_INNER = "✓" if value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "✓" if self.value else " "
        super().watch_value()


class PlayerRow(Horizontal):
    """One seat: its number, a name field, a kind list and a remove button."""

    def __init__(self, seat: Seat, lang: str) -> None:
        super().__init__(classes="player-row")
        self.seat = seat
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Static("", classes="seat-number")
        yield Input(self.seat.name, max_length=20, compact=True, classes="name")
        options = [(kind_label(k, self.lang), k) for k in KINDS]
        yield Select(options, value=self.seat.kind, allow_blank=False, compact=True, classes="kind")
        _ = gettext_for(self.lang)
        yield Button("✕", compact=True, classes="remove", tooltip=_("Remove this player"))

    @property
    def seat_now(self) -> Seat:
        kind = self.query_one(".kind", Select).value
        return Seat(self.query_one(".name", Input).value.strip(), str(kind))


def coach_points(text: str) -> float | None:
    """The live coach's threshold typed on the setup screen (``1,5`` or ``1.5``; ``2%`` in
    the chance of winning), as a number, or None."""
    try:
        number = text.strip().rstrip("%").strip().replace(",", ".")
        return float(number) if number else None
    except ValueError:
        return None


def coach_fields(text: str) -> dict[str, float | None]:
    """``coach`` (points) and ``coach_win`` (percentage points, typed with ``%``) of the
    setup screen's threshold.

    >>> coach_fields("1,5"), coach_fields("2 %"), coach_fields("")
    ({'coach': 1.5, 'coach_win': None}, {'coach': None, 'coach_win': 2.0}, {'coach': None, 'coach_win': None})
    """  # noqa: E501
    value = coach_points(text)
    win = text.strip().endswith("%")
    return {"coach": None if win else value, "coach_win": value if win else None}


class SetupScreen(SizeGuard):
    """Choose the table, then Start (Enter), Resume (when a game is saved) or Quit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            ",".join(("escape", *with_capitals(with_twins(("q",))))), "app.quit", "Quit", show=False
        ),
        Binding("ctrl+s", "start", "Start", show=False),
    ]

    def __init__(
        self,
        config: TableConfig,
        *,
        flow: Flow,
        saved: str | None = None,
        best: str | None = None,
    ) -> None:
        super().__init__()
        self.config = config
        self.flow = flow
        self.saved = saved  # a line describing the saved game, when there is one
        self.best = best  # the high scores, once there are any
        self.lang = config.lang
        self._ = gettext_for(config.lang)

    def compose(self) -> ComposeResult:
        _ = self._
        c = self.config
        with Vertical(id="setup"):
            title = _("New game")
            yield Static(f"[b]YACHT[/b] · {escape(title)}", id="setup-title")
            yield Static(escape(_("Players (1 to 6): name, and human or a bot level")))
            with Vertical(id="players"):
                for seat in c.seats:
                    yield PlayerRow(seat, self.lang)
            yield Button(_("+ Add player"), id="add", compact=True)
            with Horizontal(classes="options"):
                yield Static(escape(_("Preset")), classes="option-label")
                presets = [(preset_label(name, self.lang), name) for name in preset_names()]
                yield Select(presets, value=c.preset, allow_blank=False, compact=True, id="preset")
                yield Static(escape(_("Language")), classes="option-label")
                langs = [(label, code) for code, label in LANGUAGES.items()]
                yield Select(langs, value=c.lang, allow_blank=False, compact=True, id="lang")
            yield Static(escape(preset_about(c.preset, self.lang)), id="preset-about")
            with Horizontal(classes="options"):
                yield Tick(_("Hints"), c.hints, id="hints")
                yield Tick(_("Undo (house rule)"), c.undo, id="undo")
                yield Static(escape(_("Target score")), classes="option-label")
                target = "" if c.target is None else str(c.target)
                yield Input(
                    target,
                    placeholder=_("none"),
                    restrict=r"[0-9]*",
                    max_length=3,
                    compact=True,
                    id="target",
                )
            with Horizontal(classes="options"):
                yield Static(escape(_("Live coach")), classes="option-label")
                coach = "" if c.coach is None else format_number(c.coach, self.lang)
                if c.coach_win is not None:
                    coach = format_number(c.coach_win, self.lang) + "%"
                yield Input(
                    coach,
                    placeholder=_("off"),
                    restrict=r"[0-9.,%]*",
                    max_length=5,
                    compact=True,
                    id="coach",
                )
                yield Static(
                    escape(_("points a move may lose before it warns (0.1 to 5)")),
                    classes="dim",
                )
            with Horizontal(id="setup-buttons"):
                yield Button(_("Start"), id="start", variant="primary", compact=True)
                if self.saved:
                    yield Button(_("Resume"), id="resume", variant="success", compact=True)
                yield Button(_("Practice"), id="practice", compact=True)
                yield Button(_("Daily game"), id="daily", compact=True)
                yield Button(_("Quit"), id="quit", compact=True)
            yield Static(escape(self.saved or ""), id="saved-line")
            yield Static("", id="setup-error")
            yield Static(escape(self.best or ""), id="best-line")
            hint = _("Enter: start · Tab: next field · Q, Esc: quit")
            yield Static(escape(hint), id="setup-keys")

    def on_mount(self) -> None:
        self.guard_mounted()
        self.renumber()
        self.query_one("#start", Button).focus()

    def renumber(self) -> None:
        rows = list(self.query(PlayerRow))
        for n, row in enumerate(rows, start=1):
            row.query_one(".seat-number", Static).update(f"{n}.")
            row.query_one(".remove", Button).disabled = len(rows) == 1
        self.query_one("#add", Button).disabled = len(rows) >= MAX_PLAYERS

    # --- reading the form ----------------------------------------------------------------

    def seats(self) -> list[Seat]:
        return [row.seat_now for row in self.query(PlayerRow)]

    def form(self) -> dict[str, Any]:
        target = self.query_one("#target", Input).value.strip()
        return {
            "seats": [s.to_json() for s in self.seats()],
            "preset": str(self.query_one("#preset", Select).value),
            "lang": str(self.query_one("#lang", Select).value),
            "hints": self.query_one("#hints", Checkbox).value,
            "undo": self.query_one("#undo", Checkbox).value,
            "target": int(target) if target.isdigit() else None,
            **coach_fields(self.query_one("#coach", Input).value),
        }

    def problem(self) -> str | None:
        """What keeps the form from starting a game, in the player's language."""
        _ = self._
        names = [s.name for s in self.seats()]
        if not all(names):
            return _("Every player needs a name.")
        if len(set(names)) != len(names):
            return _("Player names must differ.")
        target = self.query_one("#target", Input).value.strip()
        if target and not (target.isdigit() and 1 <= int(target) <= 400):
            return _("The target score is a whole number from 1 to 400, or empty.")
        coach = self.query_one("#coach", Input).value.strip()
        points = coach_points(coach)
        most = COACH_WIN_MOST if coach.endswith("%") else COACH_MOST
        if coach and (points is None or not COACH_LEAST <= points <= most):
            return _(
                "The live coach's threshold is 0.1 to 5 points, or with opponents a chance of "
                "winning from 0.1% to 10%, or empty."
            )
        if coach.endswith("%") and len(names) < 2:
            return _("A threshold in the chance of winning needs opponents: type points.")
        return None

    # --- events --------------------------------------------------------------------------

    def action_start(self) -> None:
        if self.too_small:
            return
        problem = self.problem()
        if problem is not None:
            self.query_one("#setup-error", Static).update(escape(problem))
            return
        flow = self.flow
        config = TableConfig.from_json(self.form())
        if not self.saved:
            flow.start_game(config)
            return
        _ = self._
        resume, new = _("Resume the saved game"), _("New game: the saved game is deleted")
        question = self.saved + "\n" + _("Starting a new game deletes it.")
        choices = [(resume[0].upper(), resume, "resume"), (new[0].upper(), new, "new")]
        also = ("R", "N")  # Resume, New: the English letters work in every language

        def answered(choice: str | None) -> None:
            if choice == "resume":
                flow.resume(self.lang)
            elif choice == "new":
                flow.start_game(config)

        self.app.push_screen(ChoiceScreen(question, choices, self.lang, also=also), answered)

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#start")
    def start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#resume")
    def resume_pressed(self) -> None:
        self.flow.resume(self.lang)

    @on(Button.Pressed, "#practice")
    def practice_pressed(self) -> None:
        self.flow.practice(str(self.query_one("#lang", Select).value))

    @on(Button.Pressed, "#daily")
    def daily_pressed(self) -> None:
        lang = str(self.query_one("#lang", Select).value)
        self.flow.daily(lang, str(self.query_one("#preset", Select).value))

    @on(Button.Pressed, "#quit")
    def quit_pressed(self) -> None:
        self.app.exit()

    @on(Button.Pressed, "#add")
    async def add_pressed(self) -> None:
        rows = list(self.query(PlayerRow))
        if len(rows) >= MAX_PLAYERS:
            return
        humans = sum(1 for s in self.seats() if not s.is_bot)
        seat = Seat(default_name(HUMAN, self.lang, humans + 1), HUMAN)
        names = {s.name for s in self.seats()}
        n = len(rows) + 1
        while seat.name in names:
            n += 1
            seat = Seat(default_name(HUMAN, self.lang, n), HUMAN)
        row = PlayerRow(seat, self.lang)
        await self.query_one("#players").mount(row)
        self.renumber()
        row.query_one(".name", Input).focus()

    @on(Button.Pressed, ".remove")
    async def remove_pressed(self, event: Button.Pressed) -> None:
        row = next(a for a in event.button.ancestors if isinstance(a, PlayerRow))
        if len(self.query(PlayerRow)) > 1:
            await row.remove()
            self.renumber()

    @on(Select.Changed, ".kind")
    def kind_changed(self, event: Select.Changed) -> None:
        """A seat that still has a default name follows its kind (You <-> Medium bot)."""
        row = next(a for a in event.select.ancestors if isinstance(a, PlayerRow))
        name_input = row.query_one(".name", Input)
        defaults = {default_name(k, self.lang) for k in KINDS}
        defaults |= {default_name(HUMAN, self.lang, n) for n in range(2, MAX_PLAYERS + 1)}
        if name_input.value.strip() in defaults and event.value != Select.BLANK:
            kind = str(event.value)
            others = {s.name for s in self.seats()} - {name_input.value.strip()}
            name = default_name(kind, self.lang)
            if name not in others:
                name_input.value = name

    @on(Select.Changed, "#preset")
    def preset_changed(self, event: Select.Changed) -> None:
        if event.value != Select.BLANK:
            about = preset_about(str(event.value), self.lang)
            self.query_one("#preset-about", Static).update(escape(about))

    @on(Select.Changed, "#lang")
    def language_changed(self, event: Select.Changed) -> None:
        """Redraw the screen in the chosen language, keeping every choice made so far."""
        lang = str(event.value)
        if lang == self.lang:
            return
        form = self.form()
        old = self.lang
        for seat in form["seats"]:  # default names are translated too
            for kind in KINDS:
                if seat["name"] == default_name(kind, old):
                    seat["name"] = default_name(kind, lang)
        form["lang"] = lang
        seats = tuple(Seat(s["name"] or "?", s["kind"]) for s in form["seats"])
        config = TableConfig(
            seats if len({s.name for s in seats}) == len(seats) else self.config.seats,
            preset=form["preset"],
            lang=lang,
            hints=form["hints"],
            target=form["target"] if form["target"] and form["target"] <= 400 else None,
            undo=form["undo"],
            coach=form["coach"]
            if form["coach"] and COACH_LEAST <= form["coach"] <= COACH_MOST
            else None,
            coach_win=form["coach_win"]
            if form["coach_win"]
            and COACH_LEAST <= form["coach_win"] <= COACH_WIN_MOST
            and len(seats) > 1
            else None,
        )
        self.flow.show_setup(config)
