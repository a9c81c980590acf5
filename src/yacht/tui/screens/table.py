"""The table: five dice, the sheet, the turn box, the hint panel and the log.

Input becomes an action, the table applies (and saves) it, the screen redraws. Bots play in a
worker with a short visible pause between their actions.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.events import Key
from textual.markup import escape
from textual.widgets import Button, Static
from textual.worker import get_current_worker

from yacht.actions import Action, GameError, Hold, Roll, Score, Undo
from yacht.game import Event, TurnView
from yacht.i18n import format_number, format_percent
from yacht.rules import CATEGORIES, Category
from yacht.tui.flow import Flow
from yacht.tui.keys import bindings
from yacht.tui.motion import RollAnimation, moment_text
from yacht.tui.rules_text import preset_label
from yacht.tui.screens.dialogs import ConfirmScreen, HelpScreen, HintScreen
from yacht.tui.screens.end import EndScreen
from yacht.tui.screens.size import SizeGuard
from yacht.tui.table import Table
from yacht.tui.text import gettext_for, ngettext_for
from yacht.tui.widgets.dice import DiceTray, DieSlot
from yacht.tui.widgets.panels import EventLog, HintPanel, KeyBar
from yacht.tui.widgets.sheet import Sheet, SheetRow

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from yacht.strategy import Hint
    from yacht.strategy.explain import Reason
    from yacht.strategy.win import WinHint

__all__ = ["TableScreen"]

HINT_WIDTH = 36  # below this much room beside the sheet, hints open over it
CHANCE_WIDTH = 4  # more room for a chance column: P(win) with opponents, or P(>= target)
BIG_WIDTH, BIG_HEIGHT = 110, 34  # from this size on the dice are large
GROW_WIDTH = 100  # from this width on the sheet grows
WIDE_WIDTH = 150  # from this width on the hint and the log stand side by side
MOMENT_SECONDS = 2.5  # how long a Yacht or a big score is cheered


class TableScreen(SizeGuard):
    AUTO_FOCUS = None  # nothing takes the focus: every key belongs to the table
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, action, text, show=False) for key, action, text in bindings()),
        Binding("escape", "close_hint", "Close the hint panel", show=False),
    ]

    def __init__(
        self, table: Table, *, flow: Flow, bot_delay: float = 0.6, motion: bool = False
    ) -> None:
        super().__init__()
        self.motion = motion
        self.table = table
        self.flow = flow
        self.lang = table.config.lang
        self.bot_delay = bot_delay
        self._ = gettext_for(table.config.lang)
        self.bot_playing = False
        self.preparing: str | None = None  # what is being prepared, while it is
        self.hint_visible = False
        self.hint_version = -1

    # --- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        _ = self._
        yield Static(id="topbar")
        with Horizontal(id="upper"):
            tray = DiceTray(id="dice")
            self.rolling = RollAnimation(tray, _("HELD"), enabled=self.motion)
            yield tray
            with Vertical(id="turn"):
                yield Static(id="turn-info")
                with Horizontal(classes="buttons"):
                    yield self._button(_("Roll"), "roll", "primary")
                    yield self._button(_("Hint"), "hint")
                    yield self._button(_("Undo"), "undo")
                with Horizontal(classes="buttons"):
                    yield self._button(_("Help"), "help")
                    yield self._button(_("Quit"), "quit")
        with Horizontal(id="lower"):
            yield Sheet(self.table.game, self.table.config.lang, id="sheet")
            with Vertical(id="side"):
                yield Static(id="moment")
                yield Static(id="message")
                with Vertical(id="side-body"):  # side by side on a wide terminal
                    panel = HintPanel(id="hint-panel")
                    panel.border_title = _("Hint: best options")
                    yield panel
                    yield EventLog(id="log", wrap=True, min_width=16, markup=False)
        c = self.table.config
        yield KeyBar(c.lang, undo=c.undo, hints=c.hints, id="keys")

    def _button(self, label: str, action: str, variant: str = "default") -> Button:
        button = Button(label, id=f"btn-{action}", compact=True, variant=variant)  # type: ignore[arg-type]
        button.can_focus = False
        button.action_name = action  # type: ignore[attr-defined]
        return button

    def on_mount(self) -> None:
        self.guard_mounted()
        self.query_one("#hint-panel").display = False
        self.query_one("#moment").display = False
        sheet = self.query_one(Sheet)
        sheet.reset_cursor()
        game, c = self.table.game, self.table.config
        if game.version:
            for line in self.table.history():
                self.log_line(line)
            self.log_line(self._("Game resumed: round {round}.").format(round=game.round))
            self.follow_log()
            cursor = self.table.cursor
            mine = not self.table.bot_to_play
            if cursor is not None and mine and CATEGORIES[cursor] not in game.sheet(game.current):
                sheet.cursor = cursor
                sheet.show()
        self.refresh_table()
        win = len(game.players) > 1 and (
            (c.hints and c.target is None) or any(s.kind == "winner" for s in c.seats)
        )
        self.prepare_tables(win)
        self.maybe_start_bots()

    @work(thread=True, group="prepare")
    def prepare_tables(self, win: bool) -> None:
        """Build (or load) the strategy tables while the first turn is played, the progress
        in the title bar: the solver's values (bots, hints, about a second), and with
        ``win`` the tables of P(win) hints and the winner bot (seconds for traditional,
        about 30 s for clubhouse; once per machine, then on disk)."""
        from yacht.strategy import solve
        from yacht.strategy.win import prepare

        steps = 2 if win else 1
        try:
            self.app.call_from_thread(self.show_preparing, 1, steps)
            solve(self.table.game.rules)
            if win:
                self.app.call_from_thread(self.show_preparing, 2, steps)
                prepare(self.table.game.rules, len(self.table.game.players))
        except Exception:  # the hint or bot that needs the table says what is wrong
            pass
        self.app.call_from_thread(self.show_preparing, 0, steps)

    def show_preparing(self, step: int, steps: int) -> None:
        """Step ``step`` of ``steps`` of the tables being prepared (0: ready)."""
        self.preparing = None
        if step:
            self.preparing = self._("Preparing the tables {step}/{steps}…").format(
                step=step, steps=steps
            )
        if not self.is_attached:
            return  # the table was left while its tables were prepared
        try:
            self.refresh_table()
        except NoMatches:  # being taken down: its widgets are already gone
            return

    # --- drawing -------------------------------------------------------------------------

    def fit(self) -> None:
        """Grow with the terminal: large dice from 110x34, the sheet takes up to half the
        width, and from 150 columns the hint and the log share the rest side by side."""
        width, height = self.app.size
        big = width >= BIG_WIDTH and height >= BIG_HEIGHT
        self.set_class(big, "-big")
        self.set_class(width >= WIDE_WIDTH, "-wide")
        self.query_one(DiceTray).set_class(big, "-big")
        sheet = self.query_one(Sheet)
        if width >= GROW_WIDTH:
            sheet.fit(width // 2 - 2)
        else:  # long names are cut so the hint opens beside the sheet, if a cut can do it
            sheet.fit(0, limit=width - self.hint_room() if self.table.config.hints else None)
        if self.is_mounted:
            self.refresh_table()
        self.follow_log()

    def follow_log(self) -> None:
        """Keep the newest line of the log in view once the layout settles."""
        log = self.query_one(EventLog)
        self.call_after_refresh(log.scroll_end, animate=False)

    def refresh_table(self) -> None:
        _ = self._
        t, g = self.table, self.table.game
        preset = t.config.preset
        label = _("Preset")
        top = (
            f" [b]YACHT[/b]   {escape(label)}: {escape(preset_label(preset, t.config.lang))}   "
            + escape(_("Round {round} of {rounds}").format(round=g.round, rounds=12))
        )
        if t.config.target is not None:
            top += "   " + escape(_("Target: {target}").format(target=t.config.target))
        if self.preparing:
            top += f"   [dim]{escape(self.preparing)}[/dim]"
        self.put("#topbar", top)
        tray = self.query_one(DiceTray)
        if self.rolling.running:
            pass  # the tumbling dice show the real ones when they stop
        elif g.dice is None:  # a new turn: the last dice stay, dimmed, until the next roll
            last = next((e.dice for e in reversed(g.events) if isinstance(e.action, Roll)), None)
            tray.show(last, frozenset(), _("HELD"), old=last is not None)
        else:
            tray.show(g.dice, g.held, _("HELD"))
        if not t.bot_to_play:
            status = _("your turn")
        else:
            status = _("playing…") if self.bot_playing else _("waits for R")
        left = "●" * g.rolls_left + "○" * g.rolls_used
        ngettext = ngettext_for(self.lang)
        rolls = escape(
            ngettext("{n} roll left", "{n} rolls left", g.rolls_left).format(n=g.rolls_left)
        )
        turn = f"[b]▶ {escape(g.current_name)}[/b] · {escape(status)}\n{rolls}  {left}"
        self.put("#turn-info", turn)
        for button in self.query(Button):
            action = getattr(button, "action_name", "")
            if action == "roll":  # a bot waiting for R is started by it
                button.disabled = not t.bot_to_play and (g.finished or g.rolls_left == 0)
            if action == "undo":
                button.display = t.config.undo
            if action == "hint":
                button.display = t.config.hints
        sheet = self.query_one(Sheet)
        sheet.show_cursor = not t.bot_to_play  # the cursor is for people
        sheet.show()
        if self.hint_visible:
            self.update_hint()

    def put(self, selector: str, markup: str, *, layout: bool = False) -> None:
        """Update a text only when it changed (a redraw of the table is not free)."""
        widget = self.query_one(selector, Static)
        if getattr(widget, "markup_now", None) != markup:
            widget.markup_now = markup  # type: ignore[attr-defined]
            widget.update(markup, layout=layout)

    def say(self, text: str) -> None:
        """A notice for the player (a refusal, a prompt), above the log, and above the hint
        when it is open over the table."""
        self.put("#message", escape(text), layout=True)
        if isinstance(self.app.screen, HintScreen):
            self.app.screen.say(escape(text))

    def log_line(self, text: str) -> None:
        self.query_one(EventLog).write(text)

    # --- player input --------------------------------------------------------------------

    def busy(self) -> bool:
        """True (and says so) while a bot is on turn: people wait for it."""
        if self.table.bot_to_play:
            name = self.table.game.current_name
            if self.bot_playing:
                self.say(self._("Wait: {name} is playing.").format(name=name))
            else:
                self.say(self._("Press R to let {name} play.").format(name=name))
            return True
        return False

    def do(self, action: Action) -> bool:
        """Apply a player's action; say why not when it is refused."""
        reason = self.table.refusal(action)
        if reason is not None:
            self.say(reason)
            return False
        try:
            event = self.table.apply(action)
        except GameError as e:
            self.say(self.table.explain(e))
            return False
        self.say("")
        if not isinstance(action, Hold):  # the dice show a person's holds; the log keeps the rest
            self.log_line(self.table.describe(event))
        self.show_motion(event)
        self.after(event.points is not None or isinstance(action, Undo))
        return True

    def show_motion(self, event: Event) -> None:
        """A roll tumbles the rolled dice; a Yacht or a big score gets its moment."""
        g = self.table.game
        if isinstance(event.action, Roll) and event.dice is not None:
            self.rolling.start(event.dice, g.held, self.refresh_table)
        cheer = moment_text(event, g.players, self.table.config.lang)
        if cheer is not None:
            self.put("#moment", f" ★ {escape(cheer)} ★ ", layout=True)
            self.query_one("#moment").display = True
            self.query_one(DiceTray).add_class("-moment")
            self.set_timer(MOMENT_SECONDS, self.end_moment)

    def end_moment(self) -> None:
        self.query_one("#moment").display = False
        self.query_one(DiceTray).remove_class("-moment")

    def on_key(self, event: Key) -> None:
        """Any key skips the roll animation (and does only that)."""
        if self.rolling.running:
            event.stop()
            event.prevent_default()
            self.rolling.stop()

    def after(self, turn_changed: bool) -> None:
        if turn_changed:
            self.query_one(Sheet).reset_cursor()
        self.refresh_table()
        if self.table.game.finished:
            self.finish()
        else:
            self.maybe_start_bots(after_human=turn_changed)

    def action_hold(self, position: int) -> None:
        if not self.busy():
            self.do(self.table.toggle(position))

    def action_roll(self) -> None:
        if self.table.bot_to_play and not self.bot_playing:
            self.start_bots()
            return
        if not self.busy():
            self.coached(Roll(), lambda: self.do(Roll()))

    def coached(self, action: Roll | Score, then: Callable[[], object]) -> None:
        """With the live coach on, a roll or a score that loses more expected points than
        the table's threshold asks first, naming the best move: Yes makes it anyway, No takes
        it back (nothing is played). Otherwise ``then()`` at once."""
        warning = self.coach_warning(action)
        if warning is None:
            then()
            return

        def answered(go_on: bool | None) -> None:
            if go_on:
                then()
            else:
                self.say(self._("Taken back: the move was not made."))

        self.app.push_screen(ConfirmScreen(warning, self.table.config.lang), answered)

    def coach_warning(self, action: Roll | Score) -> str | None:
        """The live coach's question before ``action``, or None when it loses no more than
        the threshold: expected points, as the hint alone at the table ranks them, or with
        opponents percentage points of the chance of winning, by the coach's hint
        (:func:`yacht.review.coach_hint`)."""
        from yacht.review import coach_hint
        from yacht.strategy import hint_for_view
        from yacht.tui.reviews import option_text

        t = self.table
        g = t.game
        on = t.config.coach is not None or t.config.coach_win is not None
        if not on or t.bot_to_play or g.finished or g.dice is None:
            return None
        view = g.view()
        if isinstance(action, Roll):
            keep = tuple(sorted(g.dice[p - 1] for p in g.held))
            if view.rolls_left == 0 or len(keep) == 5:
                return None
            wanted: tuple[object, ...] = ("keep", keep)
        else:
            wanted = ("score", action.category)
        h = coach_hint(view) if t.config.coach_win is not None else hint_for_view(view)
        taken = next(
            o
            for o in h.options
            if (o.action, o.keep if o.action == "keep" else o.category) == wanted
        )
        lang = t.config.lang
        best = option_text(h.best, lang)
        chances = getattr(h.best, "win_probability", None), getattr(taken, "win_probability", None)
        if t.config.coach_win is not None and chances[0] is not None and chances[1] is not None:
            if (chances[0] - chances[1]) * 100 <= t.config.coach_win:
                return None
            return self._(
                "Live coach: this move lowers your chance of winning from {chance} to {taken}. "
                "The best move is {best}. Make this move anyway?"
            ).format(
                chance=format_percent(chances[0], lang, digits=1),
                taken=format_percent(chances[1], lang, digits=1),
                best=best,
            )
        loss = h.best.expected - taken.expected
        if t.config.coach is None or loss <= t.config.coach:
            return None
        return self._(
            "Live coach: this move gives up {loss} of your expected total. "
            "The best move is {best}. Make this move anyway?"
        ).format(loss=format_number(loss, lang), best=best)

    def action_cursor(self, delta: int) -> None:
        sheet = self.query_one(Sheet)
        sheet.move(delta)
        self.table.cursor = sheet.cursor

    def action_score_selected(self) -> None:
        self.choose(self.query_one(Sheet).selected)

    def action_score(self, name: str) -> None:
        category = Category.parse(name)
        self.query_one(Sheet).select(category)
        self.choose(category)

    def choose(self, category: Category) -> None:
        """Score a category; a costly move asks first with the live coach on, then a zero
        asks too."""
        if self.busy():
            return
        action = Score(category)
        reason = self.table.refusal(action)
        if reason is not None:
            self.say(reason)
            return
        self.coached(action, lambda: self.write(action))

    def write(self, action: Score) -> None:
        """Score, asking first before a zero."""
        category = action.category
        if self.table.game.potential(category) == 0:
            question = self._("Score 0 in {category}? The box is then used up.").format(
                category=self.table.label(category)
            )

            def answered(yes: bool | None) -> None:
                if yes:
                    self.do(action)
                else:
                    self.say(self._("Not scored: choose another category."))

            self.app.push_screen(ConfirmScreen(question, self.table.config.lang), answered)
            return
        self.do(action)

    def action_undo(self) -> None:
        if self.bot_playing:
            self.busy()
            return
        self.do(Undo())

    def action_hint(self) -> None:
        """Show or hide the hints: beside the sheet, or over it when the sheet is wide."""
        if not self.table.config.hints:
            self.say(self._("Hints are off for this game (an option on the setup screen)."))
            return
        self.hint_visible = not self.hint_visible
        self.hint_version = -1
        sheet = self.query_one(Sheet)
        if self.hint_visible and self.size.width - sheet.outer_size.width < self.hint_room():

            def closed(_: None) -> None:
                self.hint_visible = False

            self.app.push_screen(HintScreen(self.table.config.lang, self.update_hint, self), closed)
            return
        self.query_one("#hint-panel").display = self.hint_visible
        if self.hint_visible:
            self.update_hint()
        self.follow_log()

    def hint_room(self) -> int:
        """The columns the hint panel needs beside the sheet."""
        chance = self.table.config.target is not None or len(self.table.seats) > 1
        return HINT_WIDTH + (CHANCE_WIDTH if chance else 0)

    def hint_panel(self) -> HintPanel:
        screen = self.app.screen
        if isinstance(screen, HintScreen):
            return screen.query_one(HintPanel)
        return self.query_one(HintPanel)

    def action_close_hint(self) -> None:
        if self.hint_visible:
            self.action_hint()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.table.config.lang, self.table.game.rules))

    def action_quit(self) -> None:
        self.save_game()
        self.app.exit()

    def save_game(self) -> None:
        """Save the game in progress with the sheet's cursor (a finished game is recorded)."""
        if not self.table.game.finished:
            self.table.cursor = self.query_one(Sheet).cursor
            self.table.save()

    @on(DieSlot.Toggled)
    def die_clicked(self, message: DieSlot.Toggled) -> None:
        self.action_hold(message.position)

    @on(SheetRow.Chosen)
    def row_clicked(self, message: SheetRow.Chosen) -> None:
        self.query_one(Sheet).select(message.category)
        self.choose(message.category)

    @on(Button.Pressed)
    async def button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        await self.run_action(getattr(event.button, "action_name", ""))

    # --- hints ---------------------------------------------------------------------------

    def update_hint(self) -> None:
        panel = self.hint_panel()
        g = self.table.game
        if self.table.bot_to_play or g.finished:
            panel.show_text(self._("Hints are for people; the bot is on turn."))
            return
        if g.dice is None:
            panel.show_text(self._("Roll first; the hint then weighs every keep and category."))
            return
        if self.hint_version == g.version:
            return
        self.hint_version = g.version
        panel.show_text(self._("Thinking…"))
        self.compute_hint(g.version, g.view())

    @work(thread=True, exclusive=True, group="hint")
    def compute_hint(self, version: int, view: TurnView) -> None:
        """The exact hint, off the event loop (a target table can take seconds to build):
        the coach's, which the end-of-game review rates by too (:func:`yacht.review.coach_hint`)."""
        from yacht.review import coach_hint
        from yacht.strategy import Hint as PointsHint
        from yacht.strategy.explain import reasons_for

        why: list[tuple[Reason, ...]] = []
        hint: Hint | WinHint | str
        try:
            exact = coach_hint(view, self.table.config.target)
            hint = exact
            if view.dice is not None:  # the coach in words: the top options' reasons
                why = reasons_for(
                    view.rules,
                    view.used,
                    view.dice,
                    view.rolls_left,
                    exact.options[: HintPanel.EXPLAINED],
                    upper=view.upper_total,
                    versus=isinstance(exact, PointsHint) and exact.target is None,
                )
        except Exception as e:  # a failing hint must not end the game
            hint = self._("The hint is not available: {error}").format(error=e)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_hint, version, hint, why)

    def _show_hint(
        self, version: int, hint: Hint | WinHint | str, why: Sequence[tuple[Reason, ...]] = ()
    ) -> None:
        from yacht.strategy.win import WinHint

        if version != self.table.game.version or not self.hint_visible:
            return
        if isinstance(hint, str):
            self.hint_panel().show_text(hint)
        elif isinstance(hint, WinHint):
            self.hint_panel().show_win_hint(self.table, hint, why)
        else:
            self.hint_panel().show_hint(self.table, hint, why)

    # --- bots and the end ----------------------------------------------------------------

    def maybe_start_bots(self, *, after_human: bool = False) -> None:
        t = self.table
        if not t.bot_to_play or self.bot_playing:
            return
        last = t.game.events[-1] if t.game.events else None
        if after_human and t.config.undo and last is not None and last.player not in t.bots:
            name = t.game.current_name
            self.say(
                self._("Press R to let {name} play (U takes your score back).").format(name=name)
            )
            return
        self.start_bots()

    def start_bots(self) -> None:
        self.bot_playing = True
        self.say("")
        self.refresh_table()
        self.play_bots()

    @work(exclusive=True, group="bots")
    async def play_bots(self) -> None:
        t = self.table
        try:
            while t.bot_to_play:
                await asyncio.sleep(self.bot_delay)
                action = await asyncio.to_thread(t.bot_action)
                event = t.apply(action)
                self.log_line(t.describe(event))
                self.show_motion(event)
                if event.points is not None:
                    self.query_one(Sheet).reset_cursor()
                self.refresh_table()
        finally:
            self.bot_playing = False
        self.refresh_table()
        if t.game.finished:
            self.finish()

    def finish(self) -> None:
        if isinstance(self.app.screen, HintScreen):  # the hint over the sheet goes with it
            self.hint_visible = False
            self.app.pop_screen()
        self.app.switch_screen(EndScreen(self.table, flow=self.flow))
