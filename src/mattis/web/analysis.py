"""The "Analyse" button of the web page: a finished game reviewed for one seat.

``GET /api/tables/{tid}/games/{game}/analysis?seat=N&lang=nb|en`` answers with the
review (:mod:`mattis.lab.review`) of seat ``N`` in finished game ``game``: the JSON
of :meth:`mattis.lab.review.Review.to_json` plus ``lines`` (the review as text in
the page's language) and ``words`` (:func:`mattis.lab.review_words.player_words`: the
deal's luck, the accuracy and the three costliest choices in plain words, the same
sentences as the terminal's), which the page shows as a chart, the sentences, and the
detail behind a tap.

Who may ask for what: only a **finished** game is analysed (the table keeps records
of finished games only), and then any seat: once a game is over its record, every
card included, is the table's to download and replay, so a review of another seat
tells nobody anything the record does not.  A game still being played is never
analysed, so no one learns anything about a hand in play.

**Look deeper** (``GET /api/tables/{tid}/games/{game}/analysis/deeper?seat=N&move=M&lang=``):
one decision of the review (move ``M`` of the record, one of seat ``N``'s decisions,
else 400) reviewed again with :func:`mattis.lab.review.deeper`'s budget of the
server's.  It is a job like a review, keyed (table, game, seat, move): the same
queue, the tables' turns, the processes, the waiting limit and the cache; it answers
202 while it waits or runs, then the decision (:meth:`mattis.lab.review.Decision.to_json`)
with ``lines``, its lines in the page's language
(:func:`mattis.lab.review.decision_lines`), ``samples`` (playouts per legal move) and
``note`` (:func:`mattis.lab.review.deeper_words`: what the first look said).
From then on the game's review is answered with that decision in place of the first
look (its text, words and chart), so the page shows the deeper figures in place.
The budget is the server's (:data:`BUDGET`), never the client's.  With several
workers each keeps its own queue and cache (a review asked at two workers is worked
out twice, with the same result: its seed is the table's and the game's).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..core import GameRecord, parse_record_move
from ..core.cards import Lang
from ..core.text import say
from ..lab.review import (
    ReviewError,
    decision_lines,
    deeper_words,
    review_text,
)
from ..lab.review_words import player_words
from .refusal import Refusal
from .reviews import Analyses, Full, Job, NotADecision

__all__ = ["mark_bot_moves", "router"]


class _Seat(Protocol):
    @property
    def name(self) -> str: ...


class _Table(Protocol):
    @property
    def records(self) -> Mapping[int, str]: ...

    @property
    def seats(self) -> Sequence[_Seat]: ...

    @property
    def by_bot(self) -> Mapping[int, Mapping[int, str]]: ...


class _Hub(Protocol):
    def table(self, tid: str) -> _Table | None:
        """A table by id (with several workers, read from the log if this worker holds no copy)."""
        ...


def _lang(value: str) -> Lang:
    return "nb" if value == "nb" else "en"


def _refuse(refusal: Refusal, lang: Lang, status: int) -> JSONResponse:
    return JSONResponse({"error": refusal.text(lang)}, status_code=status)


def _busy(lang: Lang) -> JSONResponse:
    """503: too many reviews already wait."""
    return JSONResponse({"error": Refusal("busy").text(lang)}, status_code=503, headers={"Retry-After": "10"})


def _waiting(state: Analyses, job: Job, where: dict[str, Any]) -> JSONResponse:
    """202: the job's place in the queue, or its progress while it runs."""
    wait: dict[str, Any] = ({"status": "running", "done": job.done, "total": job.total} if job.running
                            else {"status": "queued", "position": state.position(job)})
    return JSONResponse({**where, **wait}, status_code=202)


def _record(hub: _Hub, tid: str, game: int, seat: int, lang: Lang) -> tuple[str, list[str]] | JSONResponse:
    """The record of game ``game`` of table ``tid`` and the seats' names, or the refusal
    (404: no such table or game; 400: no such seat)."""
    t = hub.table(tid)
    text = t.records.get(game) if t is not None else None
    if t is None or text is None:
        return _refuse(Refusal("no_record"), lang, 404)
    if not 0 <= seat < len(t.seats):
        return _refuse(Refusal("no_such_seat"), lang, 400)
    return text, [s.name for s in t.seats]


NUMBERED: Final = re.compile(r"^\s*(\d+)\.")


def mark_bot_moves(body: dict[str, Any], by: Mapping[int, str], record: str, seat: int, name: str,
                   lang: Lang) -> None:
    """Say in a review which of the seat's moves a bot made for her, and why (``by``: the game's
    moves a bot made for a person, numbered from 0; a decision's number counts from 1): each such
    decision gets ``by``, its lines say so, and the summary gets one sentence listing them."""
    if not by:
        return
    movers = [parse_record_move(line)[0] for line in GameRecord.loads(record).moves]
    mine = {n + 1: why for n, why in by.items() if n < len(movers) and movers[n] == seat}
    if not mine:
        return
    for d in body.get("decisions", ()):
        if d.get("move") in mine:
            d["by"] = mine[d["move"]]
    lines: list[str] = body["lines"]
    for k, line in enumerate(lines):
        m = NUMBERED.match(line)
        if m and int(m.group(1)) in mine:
            lines[k] = line + " " + say("review.bot_line", lang, why=say(f"botwhy.{mine[int(m.group(1))]}", lang))
    listed = [say("review.bot_move", lang, n=n, why=say(f"botwhy.{why}", lang)) for n, why in sorted(mine.items())]
    body["words"]["summary"].append(say("review.bot_moves", lang, n=len(listed), name=name, list=", ".join(listed)))


def router(hub: _Hub, analyses: Analyses | None = None) -> APIRouter:
    """The analysis endpoint for the tables of ``hub``."""
    api = APIRouter()
    state = analyses or Analyses()

    @api.get("/api/tables/{tid}/games/{game}/analysis")
    async def analysis(tid: str, game: int, seat: int = 0, lang: str = "en") -> JSONResponse:
        words = _lang(lang)
        found = _record(hub, tid, game, seat, words)
        if isinstance(found, JSONResponse):
            return found
        text, names = found
        try:
            got = state.ask((tid, game, seat), text, names)
        except ReviewError:
            return _refuse(Refusal("no_record"), words, 404)
        except Full:
            return _busy(words)
        if isinstance(got, Job):
            return _waiting(state, got, {"game": game, "seat": seat})
        rv = state.with_deeper((tid, game, seat), got)
        body: dict[str, Any] = rv.to_json()
        body["game"] = game
        body["lines"] = review_text(rv, words).split("\n")
        body["words"] = player_words(rv, words).to_json()
        t = hub.table(tid)
        if t is not None:
            mark_bot_moves(body, t.by_bot.get(game, {}), text, seat, names[seat], words)
        return JSONResponse(body)

    @api.get("/api/tables/{tid}/games/{game}/analysis/deeper")
    async def analysis_deeper(tid: str, game: int, seat: int = 0, move: int = 0, lang: str = "en") -> JSONResponse:
        words = _lang(lang)
        found = _record(hub, tid, game, seat, words)
        if isinstance(found, JSONResponse):
            return found
        text, names = found
        try:
            got = state.ask((tid, game, seat, move), text, names)
        except NotADecision:
            return _refuse(Refusal("no_such_decision"), words, 400)
        except ReviewError as e:  # it failed (logged where it ran): said, with what went wrong
            kind, _, detail = str(e).partition(": ")
            return JSONResponse({"error": say("analyse.deeper_failed", words, n=move, kind=kind, detail=detail),
                                 "detail": str(e)}, status_code=500)
        except Full:
            return _busy(words)
        if isinstance(got, Job):
            return _waiting(state, got, {"game": game, "seat": seat, "move": move})
        d = got.decisions[0]
        full = state.cached((tid, game, seat))
        context = full if full is not None else got
        first = next((x for x in full.decisions if x.number == move), None) if full is not None else None
        return JSONResponse({"game": game, "seat": seat, "move": move, "decision": d.to_json(),
                             "samples": d.samples, "lines": decision_lines(d, context, words),
                             "note": deeper_words(first, d, words) if first is not None else ""})

    return api
