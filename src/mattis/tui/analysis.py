"""The end screen's "Analyse": the finished game reviewed for the person's seat.

The review (:func:`mattis.lab.review.review`) runs in a Textual thread worker, so
the table never freezes; the window shows its progress, then the review.  Esc (or
q) cancels a review still running and closes the window; the worker stops at the
next decision.

Once the review is there, ← and → choose one of the seat's decisions (the costliest
marked one first), shown under the text with its figures, and ``d`` looks deeper at
it: that one decision is reviewed again with :func:`mattis.lab.review.deeper`'s
budget, in another thread worker (the window keeps answering; Esc cancels it too),
and its new figures, mark and line replace the old ones in place, in the chosen
decision's lines and in the whole review's text.  One look deeper runs at a time; a
failure is logged and shown in the window, never silently dropped.
"""

from __future__ import annotations

import logging
import textwrap
import threading

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from ..bots.evaluate import Budget
from ..core import GameRecord
from ..lab.review import Cancelled, Decision, Review, decision_lines, deeper, deeper_words, review
from .i18n import Lang, t
from .review_words import BUDGET, WRAP, player_review_lines
from .screens import SCROLL, Window

log = logging.getLogger(__name__)

SELECT: dict[str, int] = {"left": -1, "right": 1}
"""Keys that choose the previous or next decision."""


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
    AnalysisScreen #analysis-selected { height: auto; max-height: 8; color: $text; text-style: bold; }
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
        self.review: Review | None = None
        """The review once it is done, with every decision looked at deeper in place."""
        self.selected = 0
        """The chosen decision (an index into the review's decisions)."""
        self.deeper_running: int | None = None
        """The move number of the decision being looked at deeper, if one is."""
        self.deepened: dict[int, Decision] = {}
        """The decisions looked at deeper, by move number: the one before."""
        self.note = ""
        """What the window says of the chosen decision under its lines (a look deeper running, done, failed)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll():
                yield Static(t(self.lang, "analyse.running"), id="analysis-text", markup=False)
            yield Static("", id="analysis-selected", markup=False)
            yield Static(t(self.lang, "analyse.running"), id="analysis-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#analysis-selected", Static).display = False
        self.run_worker(self._work, thread=True, exclusive=True, group="analysis", exit_on_error=False)

    def _work(self) -> None:
        try:
            rv = review(self.record, self.seat, self.budget, seed=0, names=self.names, lang=self.lang,
                        progress=lambda done, total: self._post(self._progress, done, total),
                        cancelled=self.stop.is_set)
        except Cancelled:
            return
        except Exception as e:  # shown, never a crash of the table
            log.exception("the analysis failed")
            self._post(self._failed, t(self.lang, "analyse.failed", kind=type(e).__name__, detail=str(e)))
            return
        self._post(self._show, rv)

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

    def _failed(self, text: str) -> None:
        self.result = text
        if self.is_attached:
            self.query_one("#analysis-text", Static).update(text)
            self.query_one("#analysis-hint", Static).update(t(self.lang, "analyse.close"))

    def _show(self, rv: Review) -> None:
        first = self.review is None
        self.review = rv
        self.result = "\n".join(player_review_lines(rv, self.lang))
        if first and rv.decisions:
            top = rv.costliest(1)
            self.selected = rv.decisions.index(top[0]) if top else 0
        if self.is_attached:
            self.query_one("#analysis-text", Static).update(self.result)
            self.query_one("#analysis-hint", Static).update(
                t(self.lang, "analyse.keys" if rv.decisions else "analyse.close"))
            self._show_selected()

    # ------------------------------------------------------------ one decision
    @property
    def chosen(self) -> Decision | None:
        """The chosen decision (``None`` before the review is done, or if it has none)."""
        if self.review is None or not self.review.decisions:
            return None
        return self.review.decisions[self.selected]

    def selected_lines(self) -> list[str]:
        """The chosen decision as the window shows it under the review: its lines (as in
        the review's text, wrapped to :data:`~mattis.tui.review_words.WRAP`), then the note."""
        d, rv = self.chosen, self.review
        if d is None or rv is None:
            return []
        out: list[str] = []
        for i, line in enumerate(decision_lines(d, rv, self.lang)):
            out.extend(textwrap.wrap(line, WRAP, initial_indent="▶ " if i == 0 else "  ",
                                     subsequent_indent="    "))
        if self.note:
            out.extend(textwrap.wrap(self.note, WRAP))
        return out

    def _show_selected(self) -> None:
        if not self.is_attached:
            return
        box = self.query_one("#analysis-selected", Static)
        lines = self.selected_lines()
        box.display = bool(lines)
        box.update("\n".join(lines))

    def select(self, step: int) -> None:
        """Choose the previous (-1) or next (+1) decision."""
        if self.review is None or not self.review.decisions:
            return
        self.selected = max(0, min(len(self.review.decisions) - 1, self.selected + step))
        d = self.review.decisions[self.selected]
        self.note = self._note_of(d)
        self._show_selected()

    def _note_of(self, d: Decision) -> str:
        if self.deeper_running == d.number:
            return t(self.lang, "analyse.deeper_running", n=d.number, samples=deeper(self.budget).samples)
        old = self.deepened.get(d.number)
        return deeper_words(old, d, self.lang) if old is not None else ""

    def look_deeper(self) -> None:
        """Look deeper at the chosen decision, in a thread worker (one at a time)."""
        d = self.chosen
        if d is None:
            return
        if self.deeper_running is not None:
            self.note = t(self.lang, "analyse.deeper_busy", n=self.deeper_running)
            self._show_selected()
            return
        self.deeper_running = d.number
        self.note = self._note_of(d)
        self._show_selected()
        number = d.number
        self.run_worker(lambda: self._deeper_work(number), thread=True, group="deeper", exit_on_error=False)

    def _deeper_work(self, number: int) -> None:
        try:
            one = review(self.record, self.seat, deeper(self.budget), seed=0, names=self.names, lang=self.lang,
                         cancelled=self.stop.is_set, decision=number)
        except Cancelled:
            return
        except Exception as e:  # logged and shown, never a crash of the table nor a silent end
            log.exception("looking deeper at move %d failed", number)
            self._post(self._deeper_failed, number, type(e).__name__, str(e))
            return
        self._post(self._deeper_done, one.decisions[0])

    def _deeper_done(self, d: Decision) -> None:
        self.deeper_running = None
        if self.review is None:
            return
        old = next(x for x in self.review.decisions if x.number == d.number)
        self.deepened.setdefault(d.number, old)
        self._show(self.review.with_decision(d))
        chosen = self.chosen
        self.note = self._note_of(chosen) if chosen is not None else ""
        self._show_selected()

    def _deeper_failed(self, number: int, kind: str, detail: str) -> None:
        self.deeper_running = None
        self.note = t(self.lang, "analyse.deeper_failed", n=number, kind=kind, detail=detail)
        self._show_selected()

    def key(self, event: events.Key) -> None:
        """Esc, q or Enter close the window (cancelling a review or a look deeper still
        running); ↑/↓ and Page Up/Down scroll; ←/→ choose a decision, d looks deeper at
        it; other keys do nothing."""
        if event.key in ("escape", "q", "enter"):
            self.stop.set()
            self.close()
        elif event.key in SCROLL:
            self.query_one(VerticalScroll).scroll_relative(y=SCROLL[event.key], animate=False)
        elif event.key in SELECT:
            self.select(SELECT[event.key])
        elif event.key == "d":
            self.look_deeper()

    def on_unmount(self) -> None:
        self.stop.set()
