"""The "Analyse" button of the web page: a finished game reviewed for one seat.

``GET /api/tables/{tid}/games/{game}/analysis?seat=N&lang=nb|en`` answers with the
review (:mod:`mattis.lab.review`) of seat ``N`` in finished game ``game``: the JSON
of :meth:`mattis.lab.review.Review.to_json` plus ``lines`` (the review as text in
the page's language), which the page shows as a chart and a list.

Who may ask for what: only a **finished** game is analysed (the table keeps records
of finished games only), and then any seat: once a game is over its record, every
card included, is the table's to download and replay, so a review of another seat
tells nobody anything the record does not.  A game still being played is never
analysed, so no one learns anything about a hand in play.

Load: each review runs in a process of its own (started on the first request and
kept), so its search never holds the interpreter lock that the event loop and the
other tables' frames need.  One review at a time for the whole server: a request
while one runs is refused with 429 (``web.refused.busy``) rather than queued.
Results are cached per (table, game, seat), at most :data:`CACHE_SIZE` of them, so
asking again costs nothing.  The budget is the server's (:data:`BUDGET`), never the
client's.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final, Protocol

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..bots.evaluate import Budget
from ..core import GameRecord, RecordError
from ..core.cards import Lang
from ..lab.review import Review, ReviewError, review, review_text
from .table import Refusal

__all__ = ["BUDGET", "CACHE_SIZE", "Analyses", "router"]

BUDGET: Final = Budget(samples=64)
"""The server's budget per decision (a few seconds for a whole game)."""
CACHE_SIZE: Final = 256
"""Reviews kept (the oldest is dropped first)."""


class _Seat(Protocol):
    @property
    def name(self) -> str: ...


class _Table(Protocol):
    @property
    def records(self) -> Mapping[int, str]: ...

    @property
    def seats(self) -> Sequence[_Seat]: ...


class _Hub(Protocol):
    @property
    def tables(self) -> Mapping[str, _Table]: ...


def _review_in_process(text: str, seat: int, budget: Budget, seed: str, names: list[str]) -> Review:
    """One review, in the analysis process."""
    return review(GameRecord.loads(text), seat, budget, seed=seed, names=names)


class Analyses:
    """The cache, the one-at-a-time gate and the analysis process."""

    def __init__(self, budget: Budget = BUDGET, size: int = CACHE_SIZE) -> None:
        self.budget = budget
        self.size = size
        self.cache: OrderedDict[tuple[str, int, int], Review] = OrderedDict()
        self.busy = threading.Lock()
        self.runs = 0
        """Reviews computed (not served from the cache): for tests and logs."""
        self.pool: ProcessPoolExecutor | None = None

    def close(self) -> None:
        """Stop the analysis process, if one was started."""
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    async def compute_async(self, key: tuple[str, int, int], text: str, names: list[str]) -> Review:
        """Review in the analysis process (started here the first time); the caller holds :attr:`busy`."""
        if self.pool is None:
            self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        loop = asyncio.get_running_loop()
        rv = await loop.run_in_executor(self.pool, _review_in_process, text, key[2], self.budget,
                                        f"{key[0]}/{key[1]}", names)
        self._keep(key, rv)
        return rv

    def _keep(self, key: tuple[str, int, int], rv: Review) -> None:
        self.runs += 1
        self.cache[key] = rv
        while len(self.cache) > self.size:
            self.cache.popitem(last=False)

    def cached(self, key: tuple[str, int, int]) -> Review | None:
        rv = self.cache.get(key)
        if rv is not None:
            self.cache.move_to_end(key)
        return rv

    def compute(self, key: tuple[str, int, int], text: str, names: list[str]) -> Review:
        """Review in this process (the same result as :meth:`compute_async`); the caller holds :attr:`busy`."""
        rv = _review_in_process(text, key[2], self.budget, f"{key[0]}/{key[1]}", names)
        self._keep(key, rv)
        return rv


def _lang(value: str) -> Lang:
    return "nb" if value == "nb" else "en"


def _refuse(refusal: Refusal, lang: Lang, status: int) -> JSONResponse:
    return JSONResponse({"error": refusal.text(lang)}, status_code=status)


def router(hub: _Hub, analyses: Analyses | None = None) -> APIRouter:
    """The analysis endpoint for the tables of ``hub``."""
    api = APIRouter()
    state = analyses or Analyses()

    @api.get("/api/tables/{tid}/games/{game}/analysis")
    async def analysis(tid: str, game: int, seat: int = 0, lang: str = "en") -> JSONResponse:
        words = _lang(lang)
        t = hub.tables.get(tid)
        text = t.records.get(game) if t is not None else None
        if t is None or text is None:
            return _refuse(Refusal("no_record"), words, 404)
        if not 0 <= seat < len(t.seats):
            return _refuse(Refusal("no_such_seat"), words, 400)
        names = [s.name for s in t.seats]
        key = (tid, game, seat)
        hit = state.cached(key)
        rv: Review
        if hit is not None:
            rv = hit
        else:
            if not state.busy.acquire(blocking=False):
                return _refuse(Refusal("busy"), words, 429)
            try:
                again = state.cached(key)  # computed while this request waited for the gate
                done = again if again is not None else await state.compute_async(key, text, names)
            except (RecordError, ReviewError):
                return _refuse(Refusal("no_record"), words, 404)
            finally:
                state.busy.release()
            rv = done
        body: dict[str, Any] = rv.to_json()
        body["game"] = game
        body["lines"] = review_text(rv, words).split("\n")
        return JSONResponse(body)

    return api
