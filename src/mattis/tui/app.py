"""The Textual card table for ``mattis play``.

The app renders only the human seat's observation (``Session.observation``);
the :class:`~mattis.tui.session.Session` holds the game's referee and asks the
bots.  Keys: ←/→ (↑/↓ a row) choose a card, Enter lays it (or the marked
sequence), Space marks cards for a sequence, ``c`` sjanse, ``p`` pick up,
``u`` take back, ``h`` hint (and why), ``l`` history, ``r`` rules, ``?`` how to play,
``i`` statistics, ``s`` settings, ``q`` / Ctrl-C save and quit.  Every window closes
once however fast the keys come (:mod:`mattis.tui.screens`).

The layout adapts to the terminal: from 80x24 up the top line, the table, whose
turn it is, the hand and the key help are always on screen (compact one-line cards
below :data:`ROOMY_HEIGHT` rows, a hand that scrolls); below :data:`MIN_SIZE` one
line asks for a bigger window.
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
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.geometry import Region, Size
from textual.screen import Screen
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
    Chance,
    Move,
    MoveKind,
    Observation,
    card_symbol,
    play,
)
from ..core.text import as_object, fight_term, how_to_play, in_sentence, rules_in_words
from .history import trick_lines, tricks
from .i18n import t
from .render import (
    cards_label,
    end_lines,
    goes_to_text,
    hand_order,
    known_count_text,
    last_trick_in_phase1,
    legal_cards,
    move_label,
    no_cards_text,
    phase_text,
    player_rows,
    rules_lines,
    stock_text,
    trump_text,
    turn_text,
)
from .screens import EndScreen, HistoryScreen, InfoScreen, SettingsScreen, fill_pages
from .session import HUMAN, Session
from .settings import USUAL_DELAY, Settings, load_settings, settings_path
from .stats import stats_lines

CELL = 6
"""Screen columns per card in the roomy hand (a card face is 5 wide)."""

COMPACT_CELL = 5
"""Screen columns per card in the compact hand: the cursor mark, ``10♣``, the marked tick."""

MIN_SIZE = (80, 24)
"""The smallest terminal the table fits (columns, rows); below it one line asks for more."""

ROOMY_HEIGHT = 34
"""From this many rows up the cards are drawn as faces, the buttons shown."""

RED_SUITS = (1, 2)

KNOWN_SHOWN = 6
"""Known cards of another hand shown in the players panel (the rest as ``+N``; the
history window shows them all)."""

OUT_PACE = 0.15
"""Seconds between bot moves once the human has finished (nothing left to follow closely)."""

TRICK_LINGER = 2.0
"""A completed trick stays on the table this many bot delays before the next card."""

LOG_KEPT = 200
"""Log lines in the main window's log (the history window has all of them)."""


def card_style(card: Card, legal: bool = True) -> str:
    """A card face: white with red or black ink; dimmed when it may not be laid now."""
    if not legal:
        return "grey66 on grey35"
    return ("bold red3" if SUIT[card] in RED_SUITS else "bold grey7") + " on grey93"


def card_face(card: Card) -> tuple[str, str]:
    """The two lines of a card face, index top left and bottom right: ``10♠  `` / ``  10♠``."""
    sym = card_symbol(card)
    return f"{sym:<5}", f"{sym:>5}"


def cards_rows(cards: Iterable[Card], compact: bool = False) -> list[Text]:
    """Cards side by side: two lines of card faces, or one line of compact cards."""
    lines = [Text()] if compact else [Text(), Text()]
    for i, c in enumerate(cards):
        if i:
            for line in lines:
                line.append(" ")
        if compact:
            lines[0].append(f"{card_symbol(c):>3}", style=card_style(c))
        else:
            a, b = card_face(c)
            lines[0].append(a, style=card_style(c))
            lines[1].append(b, style=card_style(c))
    return lines


class HandView(Widget):
    """The human's hand: sorted, legal cards bright, a cursor and marked cards.

    Roomy: each card a two-line face with a mark line below (``▲`` the cursor, ``✓``
    marked).  Compact: one line per row of cards, the cursor reversed and underlined,
    marked cards on gold."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 1; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[Card] = []
        self.legal: set[Card] = set()
        self.cursor = 0
        self.selected: set[Card] = set()
        self.compact = False

    @property
    def cell(self) -> int:
        return COMPACT_CELL if self.compact else CELL

    @property
    def row_height(self) -> int:
        return 1 if self.compact else 3

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
        return max(1, w // self.cell)

    def rows(self, width: int | None = None) -> int:
        return max(1, -(-len(self.cards) // self.per_row(width)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.rows(width) * self.row_height

    def cursor_region(self) -> Region:
        """Where the cursor's row lies in this widget (to scroll it into view)."""
        row = self.cursor // self.per_row() if self.cards else 0
        return Region(0, row * self.row_height, self.size.width, self.row_height)

    def _style(self, c: Card, i: int) -> str:
        style = card_style(c, c in self.legal)
        if c in self.selected:
            style = ("bold red3" if SUIT[c] in RED_SUITS else "bold grey7") + " on gold1"
        if i == self.cursor:
            style += " reverse underline" if self.compact else " reverse"
        return style

    def render(self) -> Text:
        if not self.cards:
            return Text("—", style="italic")
        n = self.per_row()
        rows: list[Text] = []
        for start in range(0, len(self.cards), n):
            row = self.cards[start:start + n]
            if self.compact:
                line = Text()
                for i, c in enumerate(row, start=start):
                    line.append("▸" if i == self.cursor else " ", style="bold yellow")
                    line.append(f"{card_symbol(c):>3}", style=self._style(c, i))
                    line.append("✓" if c in self.selected else " ", style="bold yellow")
                rows.append(line)
                continue
            top, bottom, marks = Text(), Text(), Text()
            for i, c in enumerate(row, start=start):
                style = self._style(c, i)
                a, b = card_face(c)
                top.append(a, style=style)
                top.append(" ")
                bottom.append(b, style=style)
                bottom.append(" ")
                mark = ("▲" if i == self.cursor else " ") + ("✓" if c in self.selected else " ")
                marks.append(f"{mark:^5} ", style="bold yellow")
            rows.extend((top, bottom, marks))
        return Text("\n").join(rows)

    def index_at(self, x: int, y: int) -> int | None:
        i = (y // self.row_height) * self.per_row() + x // self.cell
        return i if 0 <= x < self.per_row() * self.cell and 0 <= i < len(self.cards) else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        i = self.index_at(offset.x, offset.y)
        if i is None:
            return
        app = self.app
        assert isinstance(app, MattisApp)
        if not app.table_on_top:
            return
        self.cursor = i
        if event.button == 3 or event.shift or event.ctrl or self.selected:
            app.action_mark()
        else:
            app.action_lay()
        self.refresh()


BUTTONS = (("lay", "btn.lay"), ("chance", "btn.chance"), ("pickup", "btn.pickup"), ("last", "tui.btn.history"),
           ("rules", "btn.rules"), ("hint", "btn.hint"), ("save_quit", "btn.quit"))
"""The buttons under the hand (roomy layout): action, catalogue key of the label."""

TABLE_ACTIONS = frozenset({
    "cursor", "cursor_to", "row", "lay", "mark", "clear", "chance", "pickup", "last", "rules", "hint",
    "take_back", "how_to_play", "stats", "settings",
})
"""Actions of the table itself: they do nothing while a window lies over it or the
terminal is too small to show it."""


class MattisApp(App[Path | None]):
    """The card table.  ``app.run()`` returns the path of the saved record (or ``None``)."""

    TITLE = "mattis"
    CSS = """
    Screen { background: #0f3d22; color: #f0f0e8; }
    #small { display: none; height: 1; padding: 0 1; color: #ffe08a; text-style: bold; }
    #top { height: auto; max-height: 2; background: #072a16; color: #ffe08a; padding: 0 1; text-style: bold; }
    #house { height: auto; max-height: 2; background: #072a16; color: #d8c890; padding: 0 1; }
    #middle { height: auto; }
    #players { width: 3fr; height: auto; border: round #5f9f6f; border-title-color: #ffe08a; padding: 0 1; }
    #table { width: 2fr; height: auto; min-height: 7; border: round #5f9f6f; border-title-color: #ffe08a;
             padding: 0 1; }
    #log { height: 1fr; min-height: 3; border: round #5f9f6f; border-title-color: #ffe08a; padding: 0 1;
           color: #d8e8d8; scrollbar-size-vertical: 1; }
    #turn { height: 1; padding: 0 1; text-style: bold; color: #ffe08a; }
    #hand-box { height: auto; max-height: 11; border: round #e0c060; border-title-color: #ffe08a;
                scrollbar-size-vertical: 1; }
    #message { height: auto; max-height: 2; min-height: 1; padding: 0 1; color: #ffb0a0; text-style: bold; }
    #buttons { height: 3; }
    #buttons Button { min-width: 8; margin: 0 1 0 0; }
    #keys { height: auto; padding: 0 1; color: #a8c8a8; }
    .-compact #table { min-height: 4; max-height: 10; }
    .-compact #middle, .-compact #players { max-height: 10; }
    .-compact #house { max-height: 1; }
    .-compact #log { min-height: 0; }
    .-compact #hand-box { max-height: 5; }
    .-compact #buttons { display: none; }
    .-compact #message { max-height: 2; }
    .-tiny #small { display: block; }
    .-tiny #top, .-tiny #house, .-tiny #middle, .-tiny #log, .-tiny #turn, .-tiny #hand-box,
    .-tiny #message, .-tiny #buttons, .-tiny #keys { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "←", show=False),
        Binding("right", "cursor(1)", "→", show=False),
        Binding("up", "row(-1)", show=False),
        Binding("down", "row(1)", show=False),
        Binding("home", "cursor_to(0)", show=False),
        Binding("end", "cursor_to(-1)", show=False),
        Binding("enter", "lay", "lay", show=False),
        Binding("space", "mark", "select", show=False),
        Binding("escape", "clear", "clear", show=False),
        Binding("c", "chance", "chance", show=False),
        Binding("p", "pickup", "pickup", show=False),
        Binding("l", "last", "history", show=False),
        Binding("r", "rules", "rules", show=False),
        Binding("h", "hint", "hint", show=False),
        Binding("u,backspace", "take_back", "take back", show=False),
        Binding("question_mark,f1", "how_to_play", "how to play", show=False),
        Binding("i", "stats", "statistics", show=False),
        Binding("s", "settings", "settings", show=False),
        Binding("q", "save_quit", "quit", show=False),
        Binding("ctrl+c,ctrl+q", "save_quit", "quit", show=False, priority=True),
    ]

    def __init__(self, session: Session, delay: float = USUAL_DELAY, settings_file: Path | None = None) -> None:
        super().__init__()
        self.session = session
        self.settings_file = settings_file
        """Where the settings screen saves (``None``: :func:`~mattis.tui.settings.settings_path`)."""
        self.delay = delay
        self.lang = session.lang
        self._bot_pending = False
        self._end_shown = False
        self._end_lines: list[str] = []
        self._seen_trick: object = session.observation().last_trick
        self._linger = False
        self.message = ""
        self.saved: Path | None = None

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        lang = self.lang
        yield Static(t(lang, "tui.too_small", w=MIN_SIZE[0], h=MIN_SIZE[1]), id="small", markup=False)
        yield Static(id="top", markup=False)
        yield Static(id="house", markup=False)
        with Horizontal(id="middle"):
            players = Static(id="players")
            players.border_title = t(lang, "label.players")
            yield players
            table = Static(id="table")
            table.border_title = t(lang, "label.table")
            yield table
        log = VerticalScroll(Static(id="log-text", markup=False), id="log")
        log.border_title = t(lang, "label.log")
        log.can_focus = False
        yield log
        yield Static(id="turn", markup=False)
        with VerticalScroll(id="hand-box") as box:
            box.can_focus = False
            box.border_title = t(lang, "label.hand")
            box.border_subtitle = t(lang, "hand.legend")
            yield HandView(id="hand")
        yield Static(id="message", markup=False)
        with Horizontal(id="buttons"):
            for action, key in BUTTONS:
                yield Button(t(lang, key), id=f"b-{action}")
        yield Static(id="keys", markup=False)

    def on_mount(self) -> None:
        for b in self.query(Button):
            b.can_focus = False
        self.title = f"mattis — {self.session.rules.name}"
        self.fit(self.size)
        self.refresh_view()
        self.schedule_bots()

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size)
        if self.is_mounted_table():
            # the panels' text depends on the layout (card faces, known cards, wrapping)
            self.call_after_refresh(self.refresh_view)

    def is_mounted_table(self) -> bool:
        try:
            return self.hand.is_attached
        except NoMatches:
            return False

    def fit(self, size: Size) -> None:
        """Choose the layout for a terminal of ``size``."""
        tiny = size.width < MIN_SIZE[0] or size.height < MIN_SIZE[1]
        compact = size.height < ROOMY_HEIGHT or size.width < 100
        self.set_class(tiny, "-tiny")
        self.set_class(compact and not tiny, "-compact")
        try:
            hand = self.hand
        except NoMatches:  # a resize before the table is built
            return
        if self.is_mounted(hand) and hand.compact != compact:
            hand.compact = compact
            box = self.default_screen.query_one("#hand-box", VerticalScroll)
            box.border_subtitle = t(self.lang, "tui.hand.legend_compact" if compact else "hand.legend")
            self.hand.refresh(layout=True)
            self.hand.call_after_refresh(self.show_cursor)

    def is_mounted(self, widget: Widget) -> bool:
        return widget.is_attached

    @property
    def hand(self) -> HandView:
        return self.default_screen.query_one("#hand", HandView)

    @property
    def default_screen(self) -> Screen[object]:
        return self.screen_stack[0]

    @property
    def table_on_top(self) -> bool:
        """Whether the table is what the player sees (no window over it, a big enough terminal)."""
        return len(self.screen_stack) == 1 and not self.has_class("-tiny")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The table's keys do nothing while a window lies over it (that window has the keys)."""
        if action in TABLE_ACTIONS and not self.table_on_top:
            return False
        return True

    # ------------------------------------------------------------ drawing
    def widget(self, name: str) -> Static:
        return self.default_screen.query_one(f"#{name}", Static)

    def refresh_view(self) -> None:
        """Redraw everything from the human seat's observation."""
        s = self.session
        lang = self.lang
        obs = s.observation()
        names = s.names
        if obs.last_trick != self._seen_trick:
            self._seen_trick = obs.last_trick
            self._linger = obs.last_trick is not None
        self.widget("top").update(Text(
            f"{t(lang, 'rules.short', name=s.rules.name)} · {phase_text(obs, lang)} · "
            f"{t(lang, 'label.trump')}: {trump_text(obs, names, lang)} · {stock_text(obs, lang)}"))
        house = rules_in_words(s.rules, lang, changed_only=True)
        house_widget = self.widget("house")
        house_widget.display = bool(house)
        if house:
            house_widget.update(t(lang, "tui.house", rules="; ".join(f"{k}: {v}" for k, v in house)))
        self.widget("players").update(self._players_table(obs))
        self.widget("table").update(self._table_text(obs))
        self.widget("log-text").update("\n".join(s.log[-LOG_KEPT:]))
        log = self.default_screen.query_one("#log", VerticalScroll)
        log.call_after_refresh(log.scroll_end, animate=False)
        turn = turn_text(obs, names, lang)
        if obs.legal and len(obs.legal) > 1 and obs.legal[-1] in (CHANCE, PICKUP):
            turn += "  " + t(lang, "turn.also", move=move_label(obs.legal[-1], lang))
        self.widget("turn").update(Text(turn))
        self.hand.show(hand_order(obs), legal_cards(obs))
        self.hand.call_after_refresh(self.show_cursor)
        self.widget("message").update(self.message)
        self.widget("keys").update(self._keys_text(obs))
        # sjanse belongs to phase 1, picking up to phase 2: each button only in its phase
        self.default_screen.query_one("#b-chance", Button).display = obs.phase is PHASE1 and self._sjanse_offered(obs)
        self.default_screen.query_one("#b-pickup", Button).display = obs.phase is PHASE2

    @staticmethod
    def _sjanse_offered(obs: Observation) -> bool:
        """Whether to offer sjanse (its key and button): the rules allow it, or it is one of
        the moves now (a forced sjanse with an empty hand under ``chance=off``)."""
        return obs.rules.chance is not Chance.OFF or CHANCE in obs.legal

    def _keys_text(self, obs: Observation) -> str:
        """The key help for this moment: only the keys that can do something in this phase."""
        lang = self.lang
        parts = [t(lang, "tui.keys.choose"), t(lang, "tui.keys.lay")]
        if obs.rules.sequences > 1 and obs.phase is PHASE2:
            parts.append(t(lang, "tui.keys.mark"))
        if obs.phase is PHASE1 and self._sjanse_offered(obs):
            parts.append(t(lang, "tui.keys.chance"))
        elif obs.phase is PHASE2:
            parts.append(t(lang, "tui.keys.pickup"))
        if self.session.can_take_back:
            parts.append(t(lang, "tui.keys.take_back"))
        parts += [t(lang, "tui.keys.hint"), t(lang, "tui.keys.history"), t(lang, "tui.keys.rules"),
                  t(lang, "tui.keys.howto"), t(lang, "tui.keys.stats"), t(lang, "tui.keys.settings"),
                  t(lang, "tui.keys.quit")]
        return " · ".join(parts)

    def show_cursor(self) -> None:
        """Scroll the hand so that the cursor's row is on screen."""
        if not self.hand.is_attached:
            return
        box = self.default_screen.query_one("#hand-box", VerticalScroll)
        box.scroll_to_region(self.hand.cursor_region(), animate=False, immediate=True)

    def _players_table(self, obs: Observation) -> Table:
        lang = self.lang
        table = Table(box=None, pad_edge=False, expand=True, header_style="bold #ffe08a")
        table.add_column(t(lang, "col.player"), no_wrap=True)
        table.add_column(t(lang, "col.hand"), justify="right", no_wrap=True)
        table.add_column(t(lang, "col.pile"), justify="right", no_wrap=True)
        table.add_column(t(lang, "col.tricks"), justify="right")
        table.add_column(t(lang, "col.status"), overflow="fold")
        # compact: a row per player (more than three players: only how many cards are
        # known; the history window shows them all)
        count_only = self.has_class("-compact") and obs.players > 3
        known = 3 if self.has_class("-compact") else KNOWN_SHOWN
        shown = obs.replace(known=tuple(() for _ in obs.known)) if count_only else obs
        rows = player_rows(shown, self.session.names, lang, known_limit=known)
        for seat, (name, hand, pile, tricks_won, status) in enumerate(rows):
            if count_only and seat != obs.seat and obs.known[seat]:
                status = f"{status} {known_count_text(len(obs.known[seat]), lang)}".strip()
            mark = "▶ " if obs.to_act == seat else "  "
            style = "bold #ffe08a" if obs.to_act == seat else ""
            table.add_row(Text(mark + name, style=style), hand, pile, tricks_won, status)
        return table

    def _table_text(self, obs: Observation) -> Text:
        lang = self.lang
        names = self.session.names
        compact = self.has_class("-compact")
        entries: list[tuple[str, tuple[Card, ...]]] = []
        if obs.phase is PHASE1:
            entries = [(names[seat], (card,)) for seat, card in obs.table1]
        elif obs.phase is PHASE2:
            entries = [(f"{i}. {names[seat]}", entry) for i, (seat, entry) in enumerate(obs.table2, start=1)]
        lingering = not entries and self._linger and obs.last_trick is not None
        if lingering and obs.last_trick is not None:
            # The trick just completed stays on the table, with who took it, until the next card.
            seat, cards = obs.last_trick
            key = "tui.table.took1" if last_trick_in_phase1(obs) else "tui.table.took2"
            name = names[seat] if key == "tui.table.took1" else in_sentence(names[seat], lang)  # "Avstikk, du la ..."
            out = Text(t(lang, key, name=name) + "\n", style="italic")
            for line in cards_rows(cards, compact=True):
                out.append_text(line)
            return out
        if not entries:
            return Text(t(lang, "table.empty"), style="italic")
        blocks: list[tuple[str, list[Text]]] = []
        for label, cards in entries:
            blocks.append((label, cards_rows(cards, compact=compact)))
        width = max(1, (self.widget("table").content_size.width or 30))
        out = Text()
        line_heads, line_rows, used = Text(), [Text() for _ in blocks[0][1]], 0
        for label, rows in blocks:
            w = max(len(label), rows[0].cell_len) + 2
            if used and used + w > width:
                out.append_text(Text("\n").join([line_heads, *line_rows]))
                out.append("\n")
                line_heads, line_rows, used = Text(), [Text() for _ in rows], 0
            line_heads.append(f"{label:<{w}}", style="bold")
            for target, row in zip(line_rows, rows, strict=True):
                target.append_text(row)
                target.append(" " * (w - row.cell_len))
            used += w
        out.append_text(Text("\n").join([line_heads, *line_rows]))
        out.no_wrap = True
        out.overflow = "crop"
        sep = "\n" if compact else "\n\n"
        goes = goes_to_text(obs, names, lang)
        if goes:
            out.append(sep)
            out.append(goes, style="italic")
        if obs.phase is PHASE1 and obs.fighters:
            word = "term." + fight_term(obs.rules)
            fighters = [as_object(names[s], lang) for s in obs.fighters]
            out.append(sep)
            out.append(t(lang, "table.fight", fight=t(lang, word),
                         names=", ".join(fighters[:-1]) + t(lang, "word.and") + fighters[-1]),
                       style="bold #ff8060")
        if obs.phase is PHASE2 and obs.trick_need:
            out.append(sep)
            out.append(t(lang, "table.need", have=len(obs.table2), need=obs.trick_need), style="italic")
        return out

    def say(self, message: str) -> None:
        self.message = message
        self.widget("message").update(message)

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
        """Seconds before the next bot move: the set delay, longer while a completed
        trick lies on the table, quicker once the human is out of the game."""
        if not self.session.observation().is_in(HUMAN):
            return min(self.delay, OUT_PACE)
        obs = self.session.observation()
        empty = not obs.table1 and not obs.table2
        return self.delay * TRICK_LINGER if empty and self._linger else self.delay

    def _bot_tick(self) -> None:
        self._bot_pending = False
        if self.session.bot_step():
            self._linger = False
            if self._wait_said is not None and self.message == self._wait_said:
                self.message = ""  # the wait is over: no "Vent, Bjørn er i tur." under "Din tur"
            self._wait_said = None
            self.refresh_view()
        self.schedule_bots()

    def show_end(self) -> None:
        if self._end_shown:
            return
        self._end_shown = True
        s = self.session
        saved = self._save()
        self.refresh_view()
        self._end_lines = end_lines(s.observation(), s.names, s.tally, self.lang, take_backs=s.take_backs)
        if not saved and s.save_error is not None:
            self._end_lines.append(s.save_error)
        self._push_end()

    def _push_end(self) -> None:
        self.push_screen(EndScreen(self._end_lines, t(self.lang, "btn.again"), t(self.lang, "btn.quit"),
                                   t(self.lang, "analyse.key")), self._after_end)

    def _after_end(self, choice: str | None) -> None:
        if choice == "analyse":
            from .analysis import AnalysisScreen

            s = self.session
            self.push_screen(AnalysisScreen(s.referee.record(), HUMAN, list(s.names), self.lang),
                             lambda _: self._push_end())
            return
        if choice == "again":
            self.session.next_game()
            self._end_shown = False
            self._seen_trick = self.session.observation().last_trick
            self._linger = False
            self.message = ""
            self.hand.selected.clear()
            self.call_later(self._new_game_shown)
        else:
            self.action_save_quit()

    def _new_game_shown(self) -> None:
        self.refresh_view()
        self.schedule_bots()

    # ------------------------------------------------------------ actions
    def submit(self, move: Move) -> None:
        """Send a move to the referee; show the reason if it is not allowed."""
        reason = self.session.try_move(move)
        if reason is not None:
            self.say(reason)
            # "Vent, Bjørn er i tur." holds only until Bjørn has moved
            self._wait_said = reason if not self.session.human_to_act else None
            return
        self.message = ""
        self._linger = False
        self.hand.selected.clear()
        self._save()
        self.refresh_view()
        self.schedule_bots()

    def _save(self) -> bool:
        """Save the game; when that fails (a full or read-only disk) the message line
        says so in one line, the game goes on in memory and the next save tries again."""
        error = self.session.try_save(full=False)
        if error is not None:
            self.message = error
            self.widget("message").update(error)
            return False
        self.saved = self.session.path
        return True

    def action_cursor(self, step: int) -> None:
        h = self.hand
        if h.cards:
            h.cursor = (h.cursor + step) % len(h.cards)
            h.refresh()
            self.show_cursor()

    def action_row(self, step: int) -> None:
        """Up/down: the card a row above or below (a hand of several rows)."""
        h = self.hand
        if h.cards:
            h.cursor = max(0, min(h.cursor + step * h.per_row(), len(h.cards) - 1))
            h.refresh()
            self.show_cursor()

    def action_cursor_to(self, index: int) -> None:
        h = self.hand
        if h.cards:
            h.cursor = index % len(h.cards)
            h.refresh()
            self.show_cursor()

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
            self.say(no_cards_text(self.session.observation(), self.lang))

    def action_chance(self) -> None:
        self.submit(CHANCE)

    def action_pickup(self) -> None:
        self.submit(PICKUP)

    def action_last(self) -> None:
        """The history: every trick so far (the last completed one shown first) and the whole log,
        with the cards known to be in the other hands."""
        s = self.session
        lang = self.lang
        obs = s.observation()
        done = tricks(s.referee.record())
        pages = [trick_lines(tr, i, len(done), s.names, lang) for i, tr in enumerate(done, start=1)]
        known = [t(lang, "tui.history.known", name=s.names[seat], cards=cards_label(obs.known[seat]))
                 for seat in range(obs.players) if seat != obs.seat and obs.known[seat]]
        # it opens on the last completed trick (the one being played lies on the table)
        taken = [i for i, tr in enumerate(done) if tr.taker is not None]
        self.push_screen(HistoryScreen(known, pages, s.log, t(lang, "tui.history.close"),
                                       t(lang, "last.none"), t(lang, "tui.history.log"),
                                       start=taken[-1] if taken else None))

    def action_rules(self) -> None:
        s = self.session
        lines = rules_lines(s.rules, self.lang, s.observation(), s.names)
        self.push_screen(InfoScreen(lines, t(self.lang, "info.close")))

    def action_hint(self) -> None:
        """The expert bot's suggestion and why, with the card it names put under the
        cursor (and a sequence marked), so that Enter plays what the text says; the
        session works a position's hint out once, so every press says the same."""
        move = self.session.hint()
        text = self.session.hint_text(self.lang)
        if move is None or text is None:
            self.say(t(self.lang, "hint.none"))
            return
        h = self.hand
        if move.kind is MoveKind.PLAY:
            h.selected = set(move.cards) if len(move.cards) > 1 else set()
            if move.cards[0] in h.cards:
                h.cursor = h.cards.index(move.cards[0])
            h.refresh()
            self.show_cursor()
            text += "  " + t(self.lang, "hint.keys" if len(move.cards) > 1 else "tui.hint.enter")
        else:
            text += "  " + t(self.lang, "hint.key_chance" if move.kind is MoveKind.CHANCE else "hint.key_pickup")
        self.say(text)

    def action_take_back(self) -> None:
        """Take back the human's last move (and the bots' replies) against bots."""
        if not self.session.take_back():
            self.say(self.session.why_no_take_back(self.lang))
            return
        self.message = ""
        self._linger = False
        self._seen_trick = self.session.observation().last_trick
        self.hand.selected.clear()
        self._save()
        self.refresh_view()
        self.schedule_bots()

    def action_how_to_play(self) -> None:
        """How to play these rules, a page per topic."""
        lang = self.lang
        title = t(lang, "tui.howto.title", name=self.session.rules.name.capitalize())
        # As many topics a page as the window holds whole (at 80x24: 96 wide at most, less
        # its border, padding, the page line and the keys line).
        width, height = min(96, self.size.width) - 4, self.size.height - 6
        pages = fill_pages(title, how_to_play(self.session.rules, lang), width, height)
        self.push_screen(InfoScreen([], t(lang, "tui.info.close_pages"), pages=pages,
                                    page_label=t(lang, "tui.info.pages")))

    def action_stats(self) -> None:
        """Games played and lost, across sittings (stored locally)."""
        lang = self.lang
        lines = [t(lang, "stats.title"), "", *stats_lines(lang, self.session.stats_path)]
        self.push_screen(InfoScreen(lines, t(lang, "info.close")))

    def action_settings(self) -> None:
        """The settings screen; what it saves applies at once where it can
        (:meth:`apply_settings`)."""
        path = self.settings_file or settings_path()
        current = load_settings(path) if path.exists() else self.session_settings()
        self._settings_shown = current
        self.push_screen(SettingsScreen(current, self.lang, self.settings_file), self._after_settings)

    _settings_shown: Settings | None = None
    """The settings the settings screen opened with (what a save is compared with)."""

    def session_settings(self) -> Settings:
        """The settings of the game being played (what the settings screen starts from
        when there is no settings file yet)."""
        s = self.session
        bots = [s.levels[seat] for seat in range(s.players) if seat != HUMAN]
        you = t(self.lang, "word.you")
        return Settings(lang=self.lang, rules=s.rules.name,
                        overrides={k: str(v).lower() if isinstance(v, bool) else str(v)
                                   for k, v in s.rules.overrides().items()},
                        players=s.players, bots=bots[0] if len(set(bots)) == 1 else ",".join(bots),
                        delay=None, name="" if s.names[HUMAN] == you else s.names[HUMAN])

    def _after_settings(self, saved: Settings | None) -> None:
        if saved is not None:
            self.say(self.apply_settings(saved, self._settings_shown or self.session_settings()))

    def apply_settings(self, saved: Settings, before: Settings) -> str:
        """Apply what changed from ``before`` to ``saved`` to the game in progress and
        say so: the language, your name and the pace at once, the bots' level from their
        next decision; other rules or players from the next game (a game is played out
        by the rules it was dealt by).  Returns the line that says which."""
        s = self.session
        if saved.lang != before.lang and saved.lang != self.lang:
            s.change_language(saved.lang)
            self.lang = saved.lang
            self.relabel()
        if saved.name != before.name:
            s.rename(saved.name)
        if saved.delay != before.delay:
            self.delay = USUAL_DELAY if saved.delay is None else saved.delay
        levels = saved.bot_levels()
        if saved.bots != before.bots and saved.players == s.players:
            s.change_levels(levels)
        waits = False
        if (saved.rules, saved.players, saved.overrides) != (before.rules, before.players, before.overrides):
            rules = saved.make_rules()
            if rules != s.rules or saved.players != s.players:
                s.change_table(rules, saved.players, levels)
                waits = True
        self.refresh_view()
        return t(self.lang, "tui.settings.applied_next" if waits else "tui.settings.applied")

    def relabel(self) -> None:
        """The table's fixed words in the language now chosen."""
        lang = self.lang
        self.widget("small").update(t(lang, "tui.too_small", w=MIN_SIZE[0], h=MIN_SIZE[1]))
        screen = self.default_screen
        for name, key in (("players", "label.players"), ("table", "label.table")):
            screen.query_one(f"#{name}").border_title = t(lang, key)
        screen.query_one("#log").border_title = t(lang, "label.log")
        box = screen.query_one("#hand-box")
        box.border_title = t(lang, "label.hand")
        box.border_subtitle = t(lang, "tui.hand.legend_compact" if self.hand.compact else "hand.legend")
        for action, key in BUTTONS:
            screen.query_one(f"#b-{action}", Button).label = t(lang, key)

    def action_save_quit(self) -> None:
        """Save the game record and leave.  When the save fails (a full or read-only
        disk) the game stays on screen with one line saying so; the next quit tries
        again and then leaves, saved or not (``mattis play`` says which)."""
        if self._exiting:
            return
        error = self.session.try_save("save.failed_quit", full=False)
        if error is not None and not self._quit_refused:
            self._quit_refused = True
            self.say(error)
            return
        self._exiting = True
        self.saved = self.session.path if error is None else None
        self.exit(self.saved)

    _exiting = False
    _quit_refused = False
    _wait_said: str | None = None
    """The "wait, it is X's turn" message on the message line, cleared when X has moved."""

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        action = (event.button.id or "").removeprefix("b-")
        if action in TABLE_ACTIONS and not self.table_on_top:
            return
        await self.run_action(action)


__all__ = ["HUMAN", "MIN_SIZE", "EndScreen", "HandView", "HistoryScreen", "InfoScreen", "MattisApp",
           "SettingsScreen"]
