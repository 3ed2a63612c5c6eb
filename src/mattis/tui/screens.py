"""The windows shown over the card table: text to read (rules, how to play,
statistics), the history (every trick and the whole log), the end of a game.

Every window closes at most once, and takes every key that reaches it: a key
that arrives while the window is closing (Enter Enter, key auto-repeat) is ignored,
rather than popping the table itself (the old ``ScreenStackError: Can't pop
screen``) or passing on to the table's bindings (Enter on the end screen dealt
the next game, then laid a card in it).  So is a key typed while the window was
opening (before it was on top): it was meant for what was on the screen then (Enter
Enter on the last card must not deal the next game past the end screen).
"""

from __future__ import annotations

from pathlib import Path
from typing import Generic, TypeVar

from textual import events
from textual._time import get_time
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..core import HOUSE_OPTIONS as OPTION_HOUSE
from ..core import PRESETS, RulesError, preset
from ..core.text import option_label, option_value_text
from ..play.saving import os_error_words
from .i18n import Lang, has, t
from .settings import LEVELS, Settings, SettingsError, save_settings

R = TypeVar("R")

SCROLL: dict[str, float] = {"up": -1, "down": 1, "pageup": -10, "pagedown": 10}
"""Keys that scroll a window's text (lines), rather than close it."""


class Window(ModalScreen[R], Generic[R]):
    """A window over the table that closes once, however many keys come.

    Subclasses handle keys in :meth:`key`, called only while the window is open and
    on top; no key goes on to the app's bindings (the table's), whatever its state."""

    _window_closed = False
    _on_top_since: float | None = None
    """When this window last came on top (Textual's clock, that of ``Message.time``)."""

    @property
    def is_open(self) -> bool:
        """On top and not closing: keys and clicks still act on this window."""
        return not self._window_closed and self.is_attached and self.app.screen is self

    def on_screen_resume(self) -> None:
        self._on_top_since = get_time()

    def typed_while_open(self, event: events.Key) -> bool:
        """Whether ``event`` was typed while this window was open and on top (not while
        it was opening, nor while a window over it was closing)."""
        return self.is_open and self._on_top_since is not None and event.time >= self._on_top_since

    def close(self, result: R | None = None) -> None:
        """Close this window with ``result``, unless it is closing already or not on top."""
        if not self.is_open:
            return
        self._window_closed = True
        self.dismiss(result)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if self.typed_while_open(event):
            self.key(event)

    def key(self, event: events.Key) -> None:
        """A key pressed in the open window (by default: close it)."""
        self.close()


class InfoScreen(Window[None]):
    """A text shown over the table, in pages (rules, how to play, statistics).  ↑/↓
    scroll, ←/→ turn the page, Page Up/Down scroll and at the page's end turn it; any
    other key or a click closes it."""

    DEFAULT_CSS = """
    InfoScreen { align: center middle; }
    InfoScreen > Vertical { width: 96; max-width: 100%; height: 100%;
                            border: thick $accent; background: $surface; padding: 0 1; }
    InfoScreen VerticalScroll { height: 1fr; }
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

    def key(self, event: events.Key) -> None:
        scroll = self.query_one(VerticalScroll)
        if event.key in ("pagedown", "pageup") and len(self.pages) > 1:
            # Page Down scrolls what is left of the page, then turns it (Page Up the same, back).
            down = event.key == "pagedown"
            if scroll.scroll_y >= scroll.max_scroll_y if down else scroll.scroll_y <= 0:
                self.turn(1 if down else -1)
            else:
                scroll.scroll_relative(y=SCROLL[event.key], animate=False)
        elif event.key in SCROLL:
            scroll.scroll_relative(y=SCROLL[event.key], animate=False)
        elif event.key in ("left", "right"):
            self.turn(-1 if event.key == "left" else 1)
        elif event.key in ("home", "end"):
            self.turn(-len(self.pages) if event.key == "home" else len(self.pages))
        else:
            self.close()

    def on_click(self) -> None:
        self.close()


def fill_pages(title: str, topics: list[tuple[str, str]], width: int, height: int) -> list[list[str]]:
    """Topics (a heading and a paragraph) laid on as few pages as hold them whole: each
    page is ``title`` then as many topics as fit ``height`` lines of ``width`` columns
    (a topic longer than a page gets a page of its own, and scrolls).

    >>> fill_pages("T", [("A", "a"), ("B", "b")], 40, 10)
    [['T', '', 'A', 'a', '', 'B', 'b']]
    """
    import textwrap

    pages: list[list[str]] = []
    page: list[str] = []
    used = 0
    for heading, paragraph in topics:
        size = 1 + len(textwrap.wrap(paragraph, width)) + (1 if page else 0)
        if page and used + size > height:
            pages.append(page)
            page, used = [], 0
            size -= 1
        if not page:
            page, used = [title, ""], 2
        page += ([""] if len(page) > 2 else []) + [heading, paragraph]
        used += size
    if page:
        pages.append(page)
    return pages


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

    def key(self, event: events.Key) -> None:
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
    AGAIN = ("n", "enter", "y", "j")
    """Keys that deal the next game (q quits, a analyses, ↑/↓ scroll)."""

    def __init__(self, lines: list[str], again: str, leave: str, analyse: str | None = None) -> None:
        super().__init__()
        self.lines = lines
        self.again = again
        self.leave = leave
        self.analyse = analyse
        """The label of the "Analyse" button (``None``: no such button)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll():
                yield Static("\n".join(self.lines), id="end-text", markup=False)
            with Horizontal():
                yield Button(self.again, id="again", variant="success")
                yield Button(self.leave, id="leave", variant="error")
                if self.analyse:
                    yield Button(self.analyse, id="analyse", variant="primary")

    def on_mount(self) -> None:
        for b in self.query(Button):
            b.can_focus = False

    def key(self, event: events.Key) -> None:
        if event.key in self.AGAIN:
            self.close("again")
        elif event.key == "q":
            self.close("quit")
        elif event.key == "a" and self.analyse:
            self.close("analyse")
        elif event.key in ("up", "down"):
            self.query_one(VerticalScroll).scroll_relative(y=SCROLL[event.key], animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.close({"again": "again", "analyse": "analyse"}.get(event.button.id or "", "quit"))




class SettingsScreen(Window[Settings]):
    """The settings (language, rules and house rules, players, bots, pace, your name),
    kept in the settings file for the next ``mattis play``.  ↑/↓ choose a line, ←/→
    change it, letters type your name, Enter saves, Escape leaves without saving."""

    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen > Vertical { width: 90; max-width: 100%; height: 100%;
                                border: thick $accent; background: $surface; padding: 0 1; }
    SettingsScreen VerticalScroll { height: 1fr; }
    SettingsScreen #settings-message { height: auto; color: #ffb0a0; text-style: bold; }
    SettingsScreen #settings-help { height: auto; color: $text-muted; }
    """

    def __init__(self, settings: Settings, lang: Lang, path: Path | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.path = path
        self.settings = settings
        self.row = 0
        self.message = ""
        self.house: dict[str, str] = dict(settings.overrides)

    # ------------------------------------------------------------ the lines
    def fields(self) -> list[tuple[str, list[object], list[str]]]:
        """(key, values, words) for each line, in order; the house rules last."""
        lang = self.lang
        s = self.settings
        try:
            allowed = list(preset(s.rules).allowed_players())
        except RulesError:
            allowed = [3]
        bots: list[object] = list(LEVELS)
        if s.bots not in LEVELS:
            bots.insert(0, s.bots)
        out: list[tuple[str, list[object], list[str]]] = [
            ("lang", list[object](["nb", "en"]), [t(lang, "tui.settings.nb"), t(lang, "tui.settings.en")]),
            ("rules", list[object](sorted(PRESETS)), [name.capitalize() for name in sorted(PRESETS)]),
            ("players", list[object](allowed), [str(n) for n in allowed]),
            ("bots", bots, [", ".join(t(lang, f"level.{b}") if has(lang, f"level.{b}") else b
                                      for b in str(v).split(",")) for v in bots]),
            ("delay", list(PACES), [t(lang, f"tui.settings.pace.{i}") for i in range(len(PACES))]),
            ("name", list[object]([s.name]), [s.name or t(lang, "tui.settings.no_name", you=t(lang, "word.you"))]),
        ]
        for option, values in HOUSE_OPTIONS:
            out.append((f"opt:{option}", list(values), [option_value_text(option, v, lang) for v in values]))
        return out

    def value(self, key: str) -> object:
        s = self.settings
        if key.startswith("opt:"):
            option = key[4:]
            spelled = self.house.get(option)
            default = getattr(preset(s.rules), option)
            if spelled is None:
                return default.value if hasattr(default, "value") else default
            for v in dict(HOUSE_OPTIONS)[option]:
                if _spell(v) == spelled:
                    return v
            return default
        return getattr(s, key)

    def label(self, key: str) -> str:
        if key.startswith("opt:"):
            return option_label(key[4:], self.lang)
        return t(self.lang, f"tui.settings.{key}")

    def lines(self) -> list[str]:
        out = []
        for i, (key, values, words) in enumerate(self.fields()):
            if key.startswith("opt:") and not self.fields()[i - 1][0].startswith("opt:"):
                out.append("")
                out.append(t(self.lang, "tui.settings.house"))
            current = self.value(key)
            word = words[values.index(current)] if current in values else str(current)
            if key == "name":
                word = words[0]
            changed = key.startswith("opt:") and key[4:] in self.house
            mark = "▶" if i == self.row else " "
            out.append(f"{mark} {self.label(key)}: ‹ {word} ›{' *' if changed else ''}")
        return out

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(t(self.lang, "tui.settings.title"), id="settings-title", markup=False)
            with VerticalScroll():
                yield Static(id="settings-text", markup=False)
            yield Static(id="settings-message", markup=False)
            yield Static(t(self.lang, "tui.settings.help"), id="settings-help", markup=False)

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        self.query_one("#settings-text", Static).update("\n".join(self.lines()))
        self.query_one("#settings-message", Static).update(self.message)
        # keep the chosen line on screen (two header lines come before the house rules)
        extra = 2 if self.row >= len(BASIC) else 0
        self.query_one(VerticalScroll).scroll_to_region(Region(0, self.row + extra, 1, 1), animate=False)

    # ------------------------------------------------------------ changing
    def change(self, step: int) -> None:
        key, values, _words = self.fields()[self.row]
        if key == "name":
            return
        current = self.value(key)
        i = values.index(current) if current in values else 0
        new = values[(i + step) % len(values)]
        s = self.settings
        if key.startswith("opt:"):
            option = key[4:]
            default = getattr(preset(s.rules), option)
            default = default.value if hasattr(default, "value") else default
            if new == default:
                self.house.pop(option, None)
            else:
                self.house[option] = _spell(new)
        elif key == "rules":
            # another preset: its own player counts, no house rules carried over
            players = s.players if s.players in preset(str(new)).allowed_players() else 3
            self.settings = s.with_changes(rules=new, players=players)
            self.house = {}
        else:
            self.settings = s.with_changes(**{key: new})
        self.message = ""

    def type_name(self, char: str | None, erase: bool = False) -> None:
        name = self.settings.name[:-1] if erase else self.settings.name + (char or "")
        self.settings = self.settings.with_changes(name=name[:NAME_LENGTH])
        self.message = ""

    def save(self) -> None:
        settings = self.settings.with_changes(overrides=dict(self.house), name=self.settings.name.strip())
        try:
            settings.make_rules()
            settings.bot_levels()
        except SettingsError as e:
            self.message = t(self.lang, "tui.settings.bad", why=e.words(self.lang))
            self.show()
            return
        try:
            save_settings(settings, self.path)
        except OSError as e:
            self.message = t(self.lang, "tui.settings.cannot_save", why=os_error_words(e, self.lang))
            self.show()
            return
        self.close(settings)

    def key(self, event: events.Key) -> None:
        n = len(self.fields())
        key = self.fields()[self.row][0]
        if event.key in ("up", "down"):
            self.row = (self.row + (1 if event.key == "down" else -1)) % n
        elif event.key in ("pageup", "pagedown", "home", "end"):
            self.row = 0 if event.key in ("pageup", "home") else n - 1
        elif event.key in ("left", "right"):
            self.change(1 if event.key == "right" else -1)
        elif event.key == "enter":
            self.save()
            return
        elif event.key == "escape":
            self.close(None)
            return
        elif key == "name" and event.key == "backspace":
            self.type_name(None, erase=True)
        elif key == "name" and event.is_printable and event.character:
            self.type_name(event.character)
        if self.is_open:
            self.show()


BASIC = ("lang", "rules", "players", "bots", "delay", "name")
"""The settings screen's first lines (the house rules follow)."""

PACES: tuple[float | None, ...] = (None, 0.0, 0.4, 1.5)
"""Seconds per bot move offered (``None``: the usual pace)."""

NAME_LENGTH = 20

HOUSE_OPTIONS: tuple[tuple[str, tuple[object, ...]], ...] = tuple(
    (spec.name, spec.values) for spec in OPTION_HOUSE
)
"""The rule options a house may change, with the values offered."""


def _spell(value: object) -> str:
    """A value as ``--set option=`` spells it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


__all__ = ["EndScreen", "HistoryScreen", "InfoScreen", "SettingsScreen", "Window"]
