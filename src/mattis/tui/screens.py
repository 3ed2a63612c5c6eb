"""The windows shown over the card table: text to read (rules, how to play,
statistics), the history (every trick and the whole log), the end of a game.

Every window closes at most once: a second key that arrives before the first one
has closed it (Enter Enter, key auto-repeat) is ignored rather than popping the
table itself (the old ``ScreenStackError: Can't pop screen``).
"""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

R = TypeVar("R")

SCROLL: dict[str, float] = {"up": -1, "down": 1, "pageup": -10, "pagedown": 10}
"""Keys that scroll a window's text (lines), rather than close it."""


class Window(ModalScreen[R], Generic[R]):
    """A window over the table that closes once, however many keys come."""

    _window_closed = False

    def close(self, result: R | None = None) -> None:
        """Close this window with ``result``, unless it is closing already or not on top."""
        if self._window_closed or not self.is_attached or self.app.screen is not self:
            return
        self._window_closed = True
        self.dismiss(result)


class InfoScreen(Window[None]):
    """A text shown over the table, in pages (rules, how to play, statistics).  ↑/↓ and
    Page Up/Down scroll, ←/→ turn the page; any other key or a click closes it."""

    DEFAULT_CSS = """
    InfoScreen { align: center middle; }
    InfoScreen > Vertical { width: 96; max-width: 100%; height: auto; max-height: 100%;
                            border: thick $accent; background: $surface; padding: 0 1; }
    InfoScreen VerticalScroll { height: auto; max-height: 1fr; }
    InfoScreen #info-page { height: 1; color: $text-muted; }
    InfoScreen #info-close { height: auto; color: $text-muted; }
    """

    def __init__(self, lines: list[str], close_hint: str, *, pages: list[list[str]] | None = None,
                 page: int = 0, page_label: str = "") -> None:
        super().__init__()
        self.pages = pages if pages else [lines]
        self.page = max(0, min(page, len(self.pages) - 1))
        self.page_label = page_label
        """``{n}`` and ``{total}`` are filled in with the page number (shown when there are several)."""
        self.close_hint = close_hint

    @property
    def lines(self) -> list[str]:
        return self.pages[self.page]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="info-page", markup=False)
            with VerticalScroll():
                yield Static(id="info-text", markup=False)
            yield Static(self.close_hint, id="info-close", markup=False)

    def on_mount(self) -> None:
        self.show_page()

    def show_page(self) -> None:
        label = self.query_one("#info-page", Static)
        label.display = len(self.pages) > 1
        if len(self.pages) > 1:
            label.update(self.page_label.format(n=self.page + 1, total=len(self.pages)))
        self.query_one("#info-text", Static).update("\n".join(self.lines))
        self.query_one(VerticalScroll).scroll_home(animate=False)

    def turn(self, step: int) -> None:
        page = max(0, min(self.page + step, len(self.pages) - 1))
        if page != self.page:
            self.page = page
            self.show_page()

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key in SCROLL:
            self.query_one(VerticalScroll).scroll_relative(y=SCROLL[event.key], animate=False)
        elif event.key in ("left", "right"):
            self.turn(-1 if event.key == "left" else 1)
        elif event.key in ("home", "end"):
            self.turn(-len(self.pages) if event.key == "home" else len(self.pages))
        else:
            self.close()

    def on_click(self) -> None:
        self.close()


class HistoryScreen(Window[None]):
    """Every trick of the game (←/→ browse, Home/End first/last) above the whole log
    (↑/↓, Page Up/Down scroll); any other key closes it."""

    DEFAULT_CSS = """
    HistoryScreen { align: center middle; }
    HistoryScreen > Vertical { width: 100; max-width: 100%; height: 100%; border: thick $accent;
                               background: $surface; padding: 0 1; }
    HistoryScreen #history-known { height: auto; color: #ffe08a; }
    HistoryScreen #history-trick { height: auto; max-height: 12; border: round $accent; padding: 0 1; }
    HistoryScreen #history-log { height: 1fr; min-height: 3; border: round $accent; padding: 0 1; }
    HistoryScreen #history-close { height: auto; color: $text-muted; }
    """

    def __init__(self, known: list[str], tricks: list[list[str]], log: list[str], close_hint: str,
                 empty: str, log_title: str, start: int | None = None) -> None:
        super().__init__()
        self.known = known
        self.tricks = tricks
        self.log_lines = log
        self.index = len(tricks) - 1 if start is None else max(0, min(start, len(tricks) - 1))
        """The trick shown (by default the last)."""
        self.close_hint = close_hint
        self.empty = empty
        self.log_title = log_title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("\n".join(self.known), id="history-known", markup=False)
            yield VerticalScroll(Static(id="history-trick-text", markup=False), id="history-trick")
            log = VerticalScroll(Static("\n".join(self.log_lines), markup=False), id="history-log")
            log.border_title = self.log_title
            yield log
            yield Static(self.close_hint, id="history-close", markup=False)

    def on_mount(self) -> None:
        self.query_one("#history-known", Static).display = bool(self.known)
        self.show_trick()
        self.call_after_refresh(self.query_one("#history-log", VerticalScroll).scroll_end, animate=False)

    def show_trick(self) -> None:
        text = "\n".join(self.tricks[self.index]) if self.tricks else self.empty
        self.query_one("#history-trick-text", Static).update(text)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        log = self.query_one("#history-log", VerticalScroll)
        if event.key in SCROLL:
            log.scroll_relative(y=SCROLL[event.key], animate=False)
        elif event.key in ("left", "right", "home", "end"):
            if self.tricks:
                step = {"left": -1, "right": 1, "home": -len(self.tricks), "end": len(self.tricks)}[event.key]
                self.index = max(0, min(self.index + step, len(self.tricks) - 1))
                self.show_trick()
        else:
            self.close()

    def on_click(self) -> None:
        self.close()


class EndScreen(Window[str]):
    """Finishing order, who lost, the tally; play again or quit."""

    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    EndScreen > Vertical { width: 64; max-width: 100%; height: auto; max-height: 100%;
                           border: thick $warning; background: $surface; padding: 0 2; }
    EndScreen VerticalScroll { height: auto; max-height: 1fr; }
    EndScreen Horizontal { height: auto; margin-top: 1; }
    EndScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter,y,j", "again", "again", show=False),
        Binding("q,escape", "leave", "quit", show=False),
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
    ]

    def __init__(self, lines: list[str], again: str, leave: str) -> None:
        super().__init__()
        self.lines = lines
        self.again = again
        self.leave = leave

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll():
                yield Static("\n".join(self.lines), id="end-text", markup=False)
            with Horizontal():
                yield Button(self.again, id="again", variant="success")
                yield Button(self.leave, id="leave", variant="error")

    def on_mount(self) -> None:
        for b in self.query(Button):
            b.can_focus = False

    def action_again(self) -> None:
        self.close("again")

    def action_leave(self) -> None:
        self.close("quit")

    def action_scroll(self, step: int) -> None:
        self.query_one(VerticalScroll).scroll_relative(y=step, animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.close("again" if event.button.id == "again" else "quit")


__all__ = ["EndScreen", "HistoryScreen", "InfoScreen", "Window"]
