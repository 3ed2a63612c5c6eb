"""The end screen's "Analyse": the finished game reviewed for the person's seat.

The review (:func:`mattis.lab.review.review`) runs in a Textual thread worker, so
the table never freezes; the window shows its progress, then the review.  Esc (or
q) cancels a review still running and closes the window; the worker stops at the
next decision.
"""

from __future__ import annotations

import logging
import threading

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from ..bots.evaluate import Budget
from ..core import GameRecord
from ..lab.review import Cancelled, review
from .i18n import Lang, t
from .review_words import BUDGET, player_review_lines
from .screens import SCROLL, Window


class AnalysisScreen(Window[None]):
    """The review of ``seat`` in ``record``, worked out in the background.  A border
    above and below only, and no padding: the review's words are wrapped to 78 columns
    (:data:`~mattis.tui.review_words.WRAP`), what an 80-column terminal has beside the
    scroll bar (2 columns)."""

    DEFAULT_CSS = """
    AnalysisScreen { align: center middle; }
    AnalysisScreen > Vertical { width: 100; max-width: 100%; height: 100%;
                                border: thick $accent; border-left: none; border-right: none;
                                background: $surface; padding: 0; }
    AnalysisScreen VerticalScroll { height: 1fr; }
    AnalysisScreen #analysis-hint { height: auto; color: $text-muted; }
    """

    def __init__(self, record: GameRecord, seat: int, names: list[str], lang: Lang,
                 budget: Budget | None = None) -> None:
        super().__init__()
        self.record = record
        self.seat = seat
        self.names = names
        self.lang: Lang = lang
        self.budget = budget or BUDGET
        self.stop = threading.Event()
        self.result: str | None = None
        """The review's text once it is done (``None`` while it runs or if cancelled)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll():
                yield Static(t(self.lang, "analyse.running"), id="analysis-text", markup=False)
            yield Static(t(self.lang, "analyse.running"), id="analysis-hint", markup=False)

    def on_mount(self) -> None:
        self.run_worker(self._work, thread=True, exclusive=True, group="analysis", exit_on_error=False)

    def _work(self) -> None:
        try:
            rv = review(self.record, self.seat, self.budget, seed=0, names=self.names, lang=self.lang,
                        progress=lambda done, total: self._post(self._progress, done, total),
                        cancelled=self.stop.is_set)
            text = "\n".join(player_review_lines(rv, self.lang))
        except Cancelled:
            return
        except Exception as e:  # shown, never a crash of the table
            logging.getLogger(__name__).exception("the analysis failed")
            self._post(self._show, t(self.lang, "analyse.failed", kind=type(e).__name__, detail=str(e)))
            return
        self._post(self._show, text)

    def _post(self, fn: object, *args: object) -> None:
        if self.stop.is_set():
            return
        try:
            self.app.call_from_thread(fn, *args)  # type: ignore[arg-type]
        except RuntimeError:  # the app is closing
            pass

    def _progress(self, done: int, total: int) -> None:
        if self.is_attached:
            self.query_one("#analysis-hint", Static).update(
                t(self.lang, "analyse.running") + "  " + t(self.lang, "review.progress", done=done, total=total))

    def _show(self, text: str) -> None:
        self.result = text
        if self.is_attached:
            self.query_one("#analysis-text", Static).update(text)
            self.query_one("#analysis-hint", Static).update(t(self.lang, "analyse.close"))

    def key(self, event: events.Key) -> None:
        """Esc, q or Enter close the window (cancelling a review still running);
        ↑/↓ and Page Up/Down scroll; other keys do nothing."""
        if event.key in ("escape", "q", "enter"):
            self.stop.set()
            self.close()
        elif event.key in SCROLL:
            self.query_one(VerticalScroll).scroll_relative(y=SCROLL[event.key], animate=False)

    def on_unmount(self) -> None:
        self.stop.set()
