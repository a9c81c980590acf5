"""The daily game in the terminal game (docs/web/daily.md): today's game of a preset, played on
a server (the day's seed is secret there until the day ends) as this computer's guest, through
the client :mod:`yacht.tui.daily` shares with ``yacht daily --plain``, so either resumes the
attempt the other started.

The dice and the sheet are the table's widgets, the keys the table's: 1-5 (or a click) hold a
die, R or Space roll, a category's letter, a click on its row, or the cursor and Enter score
it (a zero asks first). Holds are sent with the roll. Every request runs in a worker thread;
a server that cannot be reached is one message, and Esc goes back. At the end: the total,
the points lost per decision, the optimal player's total on the same dice, the share text and
the day's ranking.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.events import Key
from textual.markup import escape
from textual.widgets import Button, Static

from yacht.game import Game
from yacht.i18n import category_label, format_number
from yacht.rules import CATEGORIES, Category, rules_by_name
from yacht.tui.daily import DailyClient, Refused, Unreachable, guest_token, played_game, share_text
from yacht.tui.keys import CATEGORY_KEYS, with_capitals, with_twins
from yacht.tui.rules_text import preset_label
from yacht.tui.screens.dialogs import ConfirmScreen
from yacht.tui.screens.size import SizeGuard
from yacht.tui.seats import HUMAN, default_name
from yacht.tui.text import gettext_for, ngettext_for
from yacht.tui.widgets.dice import DiceTray, DieSlot
from yacht.tui.widgets.sheet import Sheet, SheetRow

__all__ = ["DailyScreen"]

RANKED = 10
"""The day's best players the result lists."""


def _bindings() -> list[BindingType]:
    out: list[BindingType] = [
        Binding(",".join((*with_capitals(with_twins(("r",))), "space")), "roll", "Roll"),
        Binding(",".join(("escape", *with_capitals(with_twins(("q",))))), "back", "Back"),
        Binding("up", "cursor(-1)", "Up"),
        Binding("down", "cursor(1)", "Down"),
        Binding("enter", "score_selected", "Score"),
    ]
    for category in CATEGORIES:
        keys = ",".join(with_capitals((CATEGORY_KEYS[category],)))
        out.append(Binding(keys, f"score('{category.value}')", "Score", show=False))
    return out


def _printable(name: str, width: int = 16) -> str:
    name = "".join(c for c in name if c.isprintable())
    return name if len(name) <= width else name[: width - 1] + "…"


class DailyScreen(SizeGuard):
    """Today's daily game of ``preset`` on the server at ``url``; ``alone``: the app's only
    screen (``yacht daily``), so leaving it quits."""

    AUTO_FOCUS = None
    BINDINGS: ClassVar[list[BindingType]] = _bindings()

    def __init__(
        self, url: str, preset: str, lang: str, data_dir: Path, *, alone: bool = False
    ) -> None:
        super().__init__()
        self.url = url
        self.preset = rules_by_name(preset).name
        self.lang = lang
        self.data_dir = data_dir
        self.alone = alone
        self._ = gettext_for(lang)
        self.player = default_name(HUMAN, lang)
        self.view: dict[str, Any] | None = None
        self.ranking: dict[str, Any] | None = None
        self.held: frozenset[int] = frozenset()
        self.busy = True  # until the first answer
        self.keys = self._("1-5: hold · R: roll · a-m or Enter: score · Esc: back")

    # --- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        _ = self._
        yield Static(id="topbar")
        with Horizontal(id="upper"):
            yield DiceTray(id="dice")
            with VerticalScroll(id="turn"):
                yield Static(escape(_("Connecting to {url}…").format(url=self.url)), id="turn-info")
                with Horizontal(classes="buttons"):
                    yield self._button(_("Roll"), "roll", "primary")
                    yield self._button(_("Back"), "back")
        with Horizontal(id="lower"):
            yield Sheet(Game([self.player], self.preset), self.lang, id="sheet")
            with VerticalScroll(id="side"):
                yield Static(id="message")
                about = _(
                    "The same dice for everyone today, one attempt. Holds are sent with the roll."
                )
                yield Static(escape(about), id="daily-about", classes="dim")
                yield Static(id="daily-result")
        yield Static(escape(self.keys), id="keys")

    def _button(self, label: str, action: str, variant: str = "default") -> Button:
        button = Button(label, id=f"daily-{action}", compact=True, variant=variant)  # type: ignore[arg-type]
        button.can_focus = False
        return button

    def on_mount(self) -> None:
        self.guard_mounted()
        self.draw_top()
        self.query_one("#sheet", Sheet).display = False
        self.load()

    # --- talking to the server (worker threads) ------------------------------------------

    def _client(self) -> DailyClient:
        return DailyClient(self.url, guest_token(self.data_dir), self.lang)

    @work(thread=True, exclusive=True, group="daily")
    def load(self) -> None:
        """Today's attempt: started now, or the one started before (resumed, or its result)."""
        self._ask([])

    @work(thread=True, exclusive=True, group="daily")
    def send(self, moves: list[str]) -> None:
        """Moves, one request each, on the version the last answer showed."""
        self._ask(moves)

    def _ask(self, moves: list[str]) -> None:
        """Start (no ``moves``) or make the moves, then the ranking once the game is over;
        the answer, or why there is none, goes to the screen."""
        view, problem, board = self.view, None, None
        try:
            client = self._client()
            if view is None or not moves:
                view = client.start(self.preset)
            for move in moves:
                try:
                    view = client.act(view, move)
                except Refused as e:
                    problem = str(e)
                    if e.status == 409:  # moved on elsewhere (the line mode): look again
                        view = client.start(self.preset)
                    break
            if view["status"] == "finished":
                board = client.ranking(self.preset)
        except Unreachable as e:
            self.app.call_from_thread(self.unreachable, e.reason)
            return
        except (Refused, OSError) as e:  # refused, or the guest token cannot be written
            problem = str(e)
        self.app.call_from_thread(self.answered, view, board, problem)

    def unreachable(self, reason: str) -> None:
        _ = self._
        self.busy = False
        lines = [
            _("Cannot reach the server at {url} ({reason}).").format(url=self.url, reason=reason),
            _("Start one on this computer with yacht serve, or name another with:"),
            "yacht daily --server URL",
        ]
        self.query_one("#turn-info", Static).update(escape(_("No daily game: no server.")))
        for hidden in ("#dice", "#daily-roll", "#daily-about"):
            self.query_one(hidden).display = False
        self.say("\n".join(lines))

    def answered(
        self, view: dict[str, Any] | None, board: dict[str, Any] | None, problem: str | None
    ) -> None:
        self.busy = False
        fresh = view is not None and (
            self.view is None or view["round"] != self.view["round"] or view["dice"] is None
        )
        if view is not None:
            self.view = view
            self.held = frozenset(view["held"])
        if board is not None:
            self.ranking = board
        self.say(problem or "")
        self.draw(reset_cursor=fresh)

    # --- drawing -------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(escape(text))

    def draw_top(self) -> None:
        _ = self._
        title = (
            _("Daily game of {day}").format(day=self.view["day"])
            if self.view is not None
            else _("Daily game")
        )
        parts = [
            "[b]YACHT[/b]",
            escape(title),
            escape(preset_label(self.preset, self.lang)),
            escape(_("a guest's result: unofficial")),
        ]
        self.query_one("#topbar", Static).update(" · ".join(parts))

    def draw(self, *, reset_cursor: bool = False) -> None:
        view = self.view
        if view is None:
            return
        _ = self._
        self.draw_top()
        game = played_game(view, self.player)
        sheet = self.query_one("#sheet", Sheet)
        sheet.display = True
        sheet.game = game
        if reset_cursor and not game.finished:
            sheet.reset_cursor()
        sheet.show()
        finished = view["status"] == "finished"
        self.query_one("#upper").display = not finished
        self.query_one("#daily-about").display = not finished
        dice = view["dice"]
        self.query_one(DiceTray).show(dice, self.held, _("HELD"))
        ngettext = ngettext_for(self.lang)
        left = view["rolls_left"]
        rolls = ngettext("{n} roll left", "{n} rolls left", left).format(n=left)
        info = [
            _("Round {round} of {rounds}").format(round=view["round"], rounds=len(CATEGORIES)),
            rolls,
            _("Total: {total}").format(total=view["total"]),
        ]
        self.query_one("#turn-info", Static).update(escape("\n".join(info)))
        self.query_one("#daily-roll", Button).disabled = left == 0 or finished
        self.query_one("#daily-result", Static).update(self.result_text() if finished else "")
        keys = _("↑ ↓: scroll · Esc: back") if finished else self.keys
        self.query_one("#keys", Static).update(escape(keys))

    def result_text(self) -> str:
        """The end: total, loss per decision, the optimal total, the share text, the day."""
        view = self.view
        assert view is not None
        _ = self._
        loss = format_number(float(view["skill"] or 0), self.lang, 2)
        lines = [
            "[b]" + escape(_("Total: {total}").format(total=view["total"])) + "[/b]",
            escape(_("Points lost per decision: {loss}").format(loss=loss)),
        ]
        board = self.ranking or {}
        if board.get("optimal") is not None:
            lines.append(
                escape(
                    _("The optimal player scored {total} on the same dice.").format(
                        total=board["optimal"]
                    )
                )
            )
        lines += ["", "[b]" + escape(_("Share (no dice in it):")) + "[/b]"]
        lines.append(escape(share_text(view, self.lang)))
        lines += ["", "[b]" + escape(_("Today's ranking, by points lost per decision")) + "[/b]"]
        players = board.get("players") or []
        for p in players[:RANKED]:
            skill = format_number(float(p["skill"]), self.lang, 2)
            name = _printable(str(p["name"]))
            lines.append(escape(f"{int(p['rank']):>3}. {name:<16} {skill:>6} {int(p['total']):>4}"))
        if not players:
            lines.append(escape(_("Nobody signed in has finished today's game yet.")))
        lines.append(escape(_("Sign in on the web page to be ranked; come back tomorrow.")))
        return "\n".join(lines)

    # --- input ---------------------------------------------------------------------------

    def playable(self) -> bool:
        """Whether a move may be made now (else says why, when there is something to say)."""
        if self.busy or self.too_small or self.view is None:
            return False
        if self.view["status"] == "finished":
            self.say(self._("Today's game is over: come back tomorrow."))
            return False
        return True

    def on_key(self, event: Key) -> None:
        if event.character in {"1", "2", "3", "4", "5"}:
            event.stop()
            self.toggle(int(event.character))

    @on(DieSlot.Toggled)
    def die_clicked(self, event: DieSlot.Toggled) -> None:
        self.toggle(event.position)

    def toggle(self, position: int) -> None:
        if not self.playable():
            return
        assert self.view is not None
        if self.view["dice"] is None or self.view["rolls_left"] == 0:
            self.say(
                self._("Roll first: there is nothing to hold yet.")
                if self.view["dice"] is None
                else ""
            )
            return
        self.held = self.held ^ {position}
        self.say("")
        self.query_one(DiceTray).show(self.view["dice"], self.held, self._("HELD"))

    def action_roll(self) -> None:
        if not self.playable():
            return
        assert self.view is not None
        if self.view["rolls_left"] == 0:
            self.say(self._("No rolls left: score a category."))
            return
        moves = []
        if self.view["dice"] is not None and sorted(self.held) != list(self.view["held"]):
            moves.append(" ".join(["hold", *map(str, sorted(self.held))]))
        moves.append("roll")
        self.busy = True
        self.send(moves)

    @on(Button.Pressed, "#daily-roll")
    def roll_pressed(self) -> None:
        self.action_roll()

    def action_cursor(self, delta: int) -> None:
        if self.view is not None and self.view["status"] == "finished":
            side = self.query_one("#side", VerticalScroll)
            side.scroll_relative(y=delta * 3, animate=False)
            return
        self.query_one("#sheet", Sheet).move(delta)

    def action_score_selected(self) -> None:
        self.action_score(self.query_one("#sheet", Sheet).selected.value)

    @on(SheetRow.Chosen)
    def row_chosen(self, event: SheetRow.Chosen) -> None:
        self.action_score(event.category.value)

    def action_score(self, name: str) -> None:
        if not self.playable():
            return
        assert self.view is not None
        category = Category(name)
        label = category_label(category, self.lang)
        if self.view["dice"] is None:
            self.say(self._("Roll first: there is nothing to score yet."))
            return
        points = self.view["potentials"].get(name)
        if points is None:
            self.say(self._("{category} is already filled.").format(category=label))
            return
        self.query_one("#sheet", Sheet).select(category)
        if points:
            self.busy = True
            self.send([f"score {name}"])
            return
        question = self._("Score 0 in {category}? The box is then used up.").format(category=label)

        def answered(yes: bool | None) -> None:
            if yes and self.playable():
                self.busy = True
                self.send([f"score {name}"])
            elif not yes:
                self.say(self._("Not scored: choose another category."))

        self.app.push_screen(ConfirmScreen(question, self.lang), answered)

    @on(Button.Pressed, "#daily-back")
    def back_pressed(self) -> None:
        self.action_back()

    def action_back(self) -> None:
        if self.alone:
            self.app.exit()
        else:
            self.app.pop_screen()
