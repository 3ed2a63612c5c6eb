"""The Textual card table for ``mattis play``.

The app renders only the human seat's observation (``Session.observation``);
the :class:`~mattis.tui.session.Session` holds the game's referee and asks the
bots.  Keys: ←/→ choose a card, Enter lays it (or the selected
sequence), Space selects cards for a sequence, ``c`` chance (sjanse), ``p``
pick up, ``l`` last trick, ``r`` rules, ``h`` hint, ``q`` / Ctrl-C save and quit.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Static

from ..core import (
    CHANCE,
    PHASE1,
    PHASE2,
    PICKUP,
    RANK,
    SUIT,
    Card,
    Move,
    MoveKind,
    Observation,
    card_symbol,
    play,
)
from ..core.text import as_object, fight_term
from .i18n import t
from .render import (
    end_lines,
    hand_order,
    last_trick_text,
    legal_cards,
    move_label,
    phase_text,
    player_rows,
    rules_lines,
    stock_text,
    trump_text,
    turn_text,
)
from .session import HUMAN, Session

CELL = 6
"""Screen columns per card in the hand (a card face is 5 wide)."""

RED_SUITS = (1, 2)

KNOWN_SHOWN = 6
"""Known cards of another hand shown in the players panel (the rest as ``+N``)."""

OUT_PACE = 0.15
"""Seconds between bot moves once the human has finished (nothing left to follow closely)."""


def card_style(card: Card, legal: bool = True) -> str:
    """A card face: white with red or black ink; dimmed when it may not be laid now."""
    if not legal:
        return "grey66 on grey35"
    return ("bold red3" if SUIT[card] in RED_SUITS else "bold grey7") + " on grey93"


def card_face(card: Card) -> tuple[str, str]:
    """The two lines of a card face, index top left and bottom right: ``10♠  `` / ``  10♠``."""
    sym = card_symbol(card)
    return f"{sym:<5}", f"{sym:>5}"


def cards_rows(cards: Iterable[Card]) -> tuple[Text, Text]:
    """Cards side by side as two lines of card faces."""
    top, bottom = Text(), Text()
    for i, c in enumerate(cards):
        if i:
            top.append(" ")
            bottom.append(" ")
        a, b = card_face(c)
        top.append(a, style=card_style(c))
        bottom.append(b, style=card_style(c))
    return top, bottom


class HandView(Widget):
    """The human's hand: sorted, legal cards bright, a cursor and a selection."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[Card] = []
        self.legal: set[Card] = set()
        self.cursor = 0
        self.selected: set[Card] = set()

    def show(self, cards: list[Card], legal: set[Card]) -> None:
        current = self.cards[self.cursor] if self.cards and self.cursor < len(self.cards) else None
        self.cards = cards
        self.legal = legal
        self.selected &= set(cards)
        if current in cards:
            self.cursor = cards.index(current)
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        self.refresh(layout=True)

    def per_row(self, width: int | None = None) -> int:
        w = (width if width is not None else self.content_size.width) or 80
        return max(1, w // CELL)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        rows = max(1, -(-len(self.cards) // self.per_row(width)))
        return rows * 3

    def render(self) -> Text:
        if not self.cards:
            return Text("—", style="italic")
        n = self.per_row()
        out = Text()
        for start in range(0, len(self.cards), n):
            row = self.cards[start:start + n]
            top, bottom, marks = Text(), Text(), Text()
            for i, c in enumerate(row, start=start):
                style = card_style(c, c in self.legal)
                if c in self.selected:
                    style = ("bold red3" if SUIT[c] in RED_SUITS else "bold grey7") + " on gold1"
                if i == self.cursor:
                    style += " reverse"
                a, b = card_face(c)
                top.append(a, style=style)
                top.append(" ")
                bottom.append(b, style=style)
                bottom.append(" ")
                mark = ("▲" if i == self.cursor else " ") + ("✓" if c in self.selected else " ")
                marks.append(f"{mark:^5} ", style="bold yellow")
            if start:
                out.append("\n")
            out.append_text(top)
            out.append("\n")
            out.append_text(bottom)
            out.append("\n")
            out.append_text(marks)
        return out

    def index_at(self, x: int, y: int) -> int | None:
        i = (y // 3) * self.per_row() + x // CELL
        return i if 0 <= x and 0 <= i < len(self.cards) else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        i = self.index_at(offset.x, offset.y)
        if i is None:
            return
        app = self.app
        assert isinstance(app, MattisApp)
        self.cursor = i
        if event.button == 3 or event.shift or event.ctrl or self.selected:
            app.action_mark()
        else:
            app.action_lay()
        self.refresh()


class InfoScreen(ModalScreen[None]):
    """A text shown over the table (rules, last trick).  Arrows and Page Up/Down scroll it;
    any other key or a click closes it."""

    DEFAULT_CSS = """
    InfoScreen { align: center middle; }
    InfoScreen > VerticalScroll { width: 96; height: auto; max-height: 90%; border: thick $accent;
                                  background: $surface; padding: 1 2; }
    """
    SCROLL: ClassVar[dict[str, float]] = {"up": -1, "down": 1, "pageup": -10, "pagedown": 10}

    def __init__(self, lines: list[str], close_hint: str) -> None:
        super().__init__()
        self.lines = lines
        self.close_hint = close_hint

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("\n".join(self.lines), id="info-text", markup=False)
            yield Static(self.close_hint, id="info-close")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in self.SCROLL:
            self.query_one(VerticalScroll).scroll_relative(y=self.SCROLL[event.key], animate=False)
            return
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


class EndScreen(ModalScreen[str]):
    """Finishing order, who is Mattis, the session tally; play again or quit."""

    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    EndScreen > Vertical { width: 64; height: auto; border: thick $warning; background: $surface;
                           padding: 1 2; }
    EndScreen Horizontal { height: auto; margin-top: 1; }
    EndScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter,y,j", "again", "again", show=False),
        Binding("q,escape", "leave", "quit", show=False),
    ]

    def __init__(self, lines: list[str], again: str, leave: str) -> None:
        super().__init__()
        self.lines = lines
        self.again = again
        self.leave = leave

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("\n".join(self.lines), id="end-text", markup=False)
            with Horizontal():
                yield Button(self.again, id="again", variant="success")
                yield Button(self.leave, id="leave", variant="error")

    def on_mount(self) -> None:
        for b in self.query(Button):
            b.can_focus = False

    def action_again(self) -> None:
        self.dismiss("again")

    def action_leave(self) -> None:
        self.dismiss("quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss("again" if event.button.id == "again" else "quit")


class MattisApp(App[Path | None]):
    """The card table.  ``app.run()`` returns the path of the saved record (or ``None``)."""

    TITLE = "mattis"
    CSS = """
    Screen { background: #0f3d22; color: #f0f0e8; }
    #top { height: 1; background: #072a16; color: #ffe08a; padding: 0 1; text-style: bold; }
    #middle { height: auto; }
    #players { width: 3fr; height: auto; border: round #5f9f6f; border-title-color: #ffe08a; padding: 0 1; }
    #table { width: 2fr; height: auto; min-height: 7; border: round #5f9f6f; border-title-color: #ffe08a;
             padding: 0 1; }
    #log { height: 9; border: round #5f9f6f; border-title-color: #ffe08a; padding: 0 1; color: #d8e8d8; }
    #turn { height: 1; padding: 0 1; text-style: bold; color: #ffe08a; }
    #hand-box { height: auto; border: round #e0c060; border-title-color: #ffe08a; }
    #message { height: auto; min-height: 1; padding: 0 1; color: #ffb0a0; text-style: bold; }
    #buttons { height: 3; }
    #buttons Button { min-width: 8; margin: 0 1 0 0; }
    #keys { height: auto; padding: 0 1; color: #a8c8a8; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "←", show=False),
        Binding("right", "cursor(1)", "→", show=False),
        Binding("home", "cursor_to(0)", show=False),
        Binding("end", "cursor_to(-1)", show=False),
        Binding("enter", "lay", "lay", show=False),
        Binding("space", "mark", "select", show=False),
        Binding("escape", "clear", "clear", show=False),
        Binding("c", "chance", "chance", show=False),
        Binding("p", "pickup", "pickup", show=False),
        Binding("l", "last", "last trick", show=False),
        Binding("r", "rules", "rules", show=False),
        Binding("h,question_mark", "hint", "hint", show=False),
        Binding("q", "save_quit", "quit", show=False),
        Binding("ctrl+c,ctrl+q", "save_quit", "quit", show=False, priority=True),
    ]

    def __init__(self, session: Session, delay: float = 0.8) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.lang = session.lang
        self._bot_pending = False
        self._end_shown = False
        self.message = ""
        self.saved: Path | None = None

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        lang = self.lang
        yield Static(id="top")
        with Horizontal(id="middle"):
            players = Static(id="players")
            players.border_title = t(lang, "label.players")
            yield players
            table = Static(id="table")
            table.border_title = t(lang, "label.table")
            yield table
        log = Static(id="log", markup=False)
        log.border_title = t(lang, "label.log")
        yield log
        yield Static(id="turn")
        with Vertical(id="hand-box") as box:
            box.border_title = t(lang, "label.hand")
            box.border_subtitle = t(lang, "hand.legend")
            yield HandView(id="hand")
        yield Static(id="message", markup=False)
        with Horizontal(id="buttons"):
            for action, key in (("lay", "btn.lay"), ("chance", "btn.chance"), ("pickup", "btn.pickup"),
                                ("last", "btn.last"), ("rules", "btn.rules"), ("hint", "btn.hint"),
                                ("save_quit", "btn.quit")):
                yield Button(t(lang, key), id=f"b-{action}")
        yield Static(t(lang, "keys"), id="keys")

    def on_mount(self) -> None:
        for b in self.query(Button):
            b.can_focus = False
        self.title = f"mattis — {self.session.rules.name}"
        self.refresh_view()
        self.schedule_bots()

    @property
    def hand(self) -> HandView:
        return self.query_one("#hand", HandView)

    # ------------------------------------------------------------ drawing
    def refresh_view(self) -> None:
        """Redraw everything from the human seat's observation."""
        s = self.session
        lang = self.lang
        obs = s.observation()
        names = s.names
        self.query_one("#top", Static).update(Text(
            f"{t(lang, 'rules.short', name=s.rules.name)} · {phase_text(obs, lang)} · "
            f"{t(lang, 'label.trump')}: {trump_text(obs, names, lang)} · {stock_text(obs, lang)}"))
        self.query_one("#players", Static).update(self._players_table(obs))
        self.query_one("#table", Static).update(self._table_text(obs))
        self.query_one("#log", Static).update("\n".join(s.log[-7:]))
        turn = turn_text(obs, names, lang)
        if obs.legal and obs.legal[-1] in (CHANCE, PICKUP):
            turn += "  " + t(lang, "turn.also", move=move_label(obs.legal[-1], lang))
        self.query_one("#turn", Static).update(Text(turn))
        self.hand.show(hand_order(obs), legal_cards(obs))
        self.query_one("#message", Static).update(self.message)

    def _players_table(self, obs: Observation) -> Table:
        lang = self.lang
        table = Table(box=None, pad_edge=False, expand=True, header_style="bold #ffe08a")
        table.add_column(t(lang, "col.player"))
        table.add_column(t(lang, "col.hand"), justify="right")
        table.add_column(t(lang, "col.pile"), justify="right")
        table.add_column(t(lang, "col.tricks"), justify="right")
        table.add_column(t(lang, "col.status"))
        rows = player_rows(obs, self.session.names, lang, known_limit=KNOWN_SHOWN)
        for seat, (name, hand, pile, tricks, status) in enumerate(rows):
            mark = "▶ " if obs.to_act == seat else "  "
            style = "bold #ffe08a" if obs.to_act == seat else ""
            table.add_row(Text(mark + name, style=style), hand, pile, tricks, status)
        return table

    def _table_text(self, obs: Observation) -> Text:
        lang = self.lang
        names = self.session.names
        entries: list[tuple[str, tuple[Card, ...]]] = []
        if obs.phase is PHASE1:
            entries = [(names[seat], (card,)) for seat, card in obs.table1]
        elif obs.phase is PHASE2:
            entries = [(f"{i}. {names[seat]}", entry) for i, (seat, entry) in enumerate(obs.table2, start=1)]
        if not entries:
            return Text(t(lang, "table.empty"), style="italic")
        heads, tops, bottoms = Text(), Text(), Text()
        for label, cards in entries:
            top, bottom = cards_rows(cards)
            width = max(len(label), top.cell_len) + 2
            heads.append(f"{label:<{width}}", style="bold")
            tops.append_text(top)
            tops.append(" " * (width - top.cell_len))
            bottoms.append_text(bottom)
            bottoms.append(" " * (width - bottom.cell_len))
        out = Text("\n").join([heads, tops, bottoms])
        out.no_wrap = True
        out.overflow = "crop"
        if obs.phase is PHASE1 and obs.fighters:
            word = "term." + fight_term(obs.rules)
            fighters = [as_object(names[s], lang) for s in obs.fighters]
            out.append("\n\n")
            out.append(t(lang, "table.fight", fight=t(lang, word),
                         names=", ".join(fighters[:-1]) + t(lang, "word.and") + fighters[-1]),
                       style="bold #ff8060")
        if obs.phase is PHASE2 and obs.trick_need:
            out.append("\n\n")
            out.append(t(lang, "table.need", have=len(obs.table2), need=obs.trick_need), style="italic")
        return out

    def say(self, message: str) -> None:
        self.message = message
        self.query_one("#message", Static).update(message)

    # ------------------------------------------------------------ bots
    def schedule_bots(self) -> None:
        """Let the bots move: all at once with no delay, else one per ``delay`` seconds."""
        s = self.session
        if s.bot_to_act:
            if self.delay <= 0:
                s.run_bots()
                self.refresh_view()
            elif not self._bot_pending:
                self._bot_pending = True
                self.set_timer(self.pace(), self._bot_tick)
                return
        if s.over:
            self.show_end()

    def pace(self) -> float:
        """Seconds between bot moves: the set delay, quicker once the human is out of the game."""
        if HUMAN in self.session.observation().in_game:
            return self.delay
        return min(self.delay, OUT_PACE)

    def _bot_tick(self) -> None:
        self._bot_pending = False
        if self.session.bot_step():
            self.refresh_view()
        self.schedule_bots()

    def show_end(self) -> None:
        if self._end_shown:
            return
        self._end_shown = True
        s = self.session
        self.saved = s.save()
        self.refresh_view()
        lines = end_lines(s.observation(), s.names, s.tally, self.lang)
        self.push_screen(EndScreen(lines, t(self.lang, "btn.again"), t(self.lang, "btn.quit")), self._after_end)

    def _after_end(self, choice: str | None) -> None:
        if choice == "again":
            self.session.next_game()
            self._end_shown = False
            self.message = ""
            self.hand.selected.clear()
            self.refresh_view()
            self.schedule_bots()
        else:
            self.exit(self.saved)

    # ------------------------------------------------------------ actions
    def submit(self, move: Move) -> None:
        """Send a move to the referee; show the reason if it is not allowed."""
        reason = self.session.try_move(move)
        if reason is not None:
            self.say(reason)
            return
        self.message = ""
        self.hand.selected.clear()
        self.saved = self.session.save()
        self.refresh_view()
        self.schedule_bots()

    def action_cursor(self, step: int) -> None:
        h = self.hand
        if h.cards:
            h.cursor = (h.cursor + step) % len(h.cards)
            h.refresh()

    def action_cursor_to(self, index: int) -> None:
        h = self.hand
        if h.cards:
            h.cursor = index % len(h.cards)
            h.refresh()

    def action_mark(self) -> None:
        h = self.hand
        if not h.cards:
            return
        c = h.cards[h.cursor]
        h.selected ^= {c}
        h.refresh()

    def action_clear(self) -> None:
        self.hand.selected.clear()
        self.hand.refresh()

    def action_lay(self) -> None:
        h = self.hand
        if h.selected:
            self.submit(play(*sorted(h.selected, key=lambda c: (SUIT[c], RANK[c]))))
        elif h.cards:
            self.submit(play(h.cards[h.cursor]))
        else:
            self.say(t(self.lang, "err.no_cards"))

    def action_chance(self) -> None:
        self.submit(CHANCE)

    def action_pickup(self) -> None:
        self.submit(PICKUP)

    def action_last(self) -> None:
        obs = self.session.observation()
        self.push_screen(InfoScreen([last_trick_text(obs, self.session.names, self.lang)],
                                    t(self.lang, "info.close")))

    def action_rules(self) -> None:
        self.push_screen(InfoScreen(rules_lines(self.session.rules, self.lang), t(self.lang, "info.close")))

    def action_hint(self) -> None:
        move = self.session.hint()
        if move is None:
            self.say(t(self.lang, "hint.none"))
            return
        h = self.hand
        if move.kind is MoveKind.PLAY:
            h.selected = set(move.cards) if len(move.cards) > 1 else set()
            if move.cards[0] in h.cards:
                h.cursor = h.cards.index(move.cards[0])
            h.refresh()
        text = t(self.lang, "hint", move=move_label(move, self.lang))
        if move.kind is MoveKind.PLAY:
            text += "  " + t(self.lang, "hint.keys")
        else:
            text += "  " + t(self.lang, "hint.key_chance" if move.kind is MoveKind.CHANCE else "hint.key_pickup")
        self.say(text)

    def action_save_quit(self) -> None:
        """Save the game record and leave."""
        self.saved = self.session.save()
        self.exit(self.saved)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        action = (event.button.id or "").removeprefix("b-")
        await self.run_action(action)


__all__ = ["HUMAN", "EndScreen", "HandView", "InfoScreen", "MattisApp"]
