"""The ASGI app (:func:`create_app`): the pages and the HTTP routes of the table API, and
the WebSocket route, which hands each socket to the hub (:class:`mattis.web.hub.Hub`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from ..core import CHOICES, OPTIONS, PRESET_DOCS, PRESETS
from ..core.cards import Lang
from ..core.text import how_to_play, option_label, option_value_text, rules_in_words
from ..play.agents import DEFAULT_LEVEL
from . import analysis, guard, retention
from .conn import HEARTBEAT
from .database import describe
from .hub import REACTIONS, Hub, _lang
from .limits import TEST_SERVER, Limits
from .origin import LOOPBACK, Hosts
from .rates import Gate
from .refusal import Refusal
from .reviews import Analyses
from .seats import BANK_CHOICES, CLOCK_CHOICES, GRACE_DEFAULT, LEVELS
from .store import StoreConflict, StoreError
from .table import Table
from .untrusted import loads, words
from .view import replay_steps

log = logging.getLogger("mattis.web")

STATIC: Final = Path(str(files("mattis.web") / "static"))
QR_TEXT_MAX: Final = 400
REPLAY_CACHE: Final = 64
"""Replays kept built (a whole game each; the least recently asked is dropped first)."""
FULL_RETRY_AFTER: Final = 3600
"""``Retry-After`` (seconds) when the server holds ``max_tables`` tables: the retention sweep runs hourly."""
HEADERS: Final = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'; "
                               "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


LANGS: Final[tuple[Lang, ...]] = ("nb", "en")
GRACE_CHOICES: Final = (15, 30, 60, 120, 300, None)
HOUSE_OPTIONS: Final = tuple(spec.name for spec in OPTIONS if spec.house)
"""The rule options a host may change in the create form (not the engine's limits or the
player counts, which the preset and the seat count settle)."""


def _plain(value: object) -> object:
    """An option value as JSON (StrEnums as their text)."""
    return value if isinstance(value, bool | int) else str(value)


def house_options() -> list[dict[str, Any]]:
    """Each house-rule option with its values, all in the players' words in both languages."""
    out: list[dict[str, Any]] = []
    for spec in OPTIONS:
        if not spec.house:
            continue
        option, values = spec.name, spec.values
        out.append({"option": option, "label": {lang: option_label(option, lang) for lang in LANGS},
                    "values": [{"value": v, "text": {lang: option_value_text(option, v, lang) for lang in LANGS}}
                               for v in values]})
    return out


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as SVG (segno, error correction M)."""
    import io

    import segno

    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="svg", scale=4, border=2, xmldecl=False, svgns=True)
    return buf.getvalue().decode("utf-8")


def _replay_body(text: str, game: int, names: list[str], lang: Lang, by: dict[int, str] | None = None) -> bytes:
    """A finished game's replay as the JSON the page reads (:func:`replay_steps`; ``by``: the
    moves a bot made for a person, and why)."""
    steps = replay_steps(text, names, lang, by)
    return json.dumps({"game": game, "names": names, "steps": steps}, ensure_ascii=False,
                      separators=(",", ":")).encode()


def create_app(db_path: str = "mattis.db", bot_delay: float = 0.8, test_mode: bool = False,
               limits: Limits | None = None, hosts: Hosts | None = None,
               bot_processes: int = 0, heartbeat: float = HEARTBEAT) -> FastAPI:
    """The web app.  ``test_mode`` lets table creation take a ``seed`` (reproducible deals).
    ``limits`` and ``hosts`` (the ``Host`` allowlist) are the guard's (:mod:`mattis.web.guard`);
    the default hosts are loopback and ``testserver`` (Starlette's test client)."""
    hub = Hub(db_path, bot_delay, test_mode, bot_processes, heartbeat)
    hub.limits = limits or (Limits(**TEST_SERVER) if test_mode else Limits())
    hub.hosts = hosts or Hosts([*LOOPBACK, "testserver"])

    analyses = Analyses()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        sweeper = asyncio.get_running_loop().create_task(retention.keep(hub))
        yield
        sweeper.cancel()
        analyses.close()
        await hub.close()

    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.hub = hub
    app.state.analyses = analyses  # the reviews' queue and cache (tests set its budget)
    hub.gate = Gate(hub.limits)
    app.add_middleware(guard.Guard, hub=hub.gate, hosts=hub.hosts, words=words)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(analysis.router(hub, analyses))  # "Analyse": reviews of finished games (web/analysis.py)

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=HEADERS)

    @app.get("/")
    async def index() -> FileResponse:
        return page()

    @app.get("/t/{tid}")
    async def table_page(tid: str) -> FileResponse:
        return page()

    meta_cache: dict[str, Any] = {}

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        """What the create form needs: presets (with their rules in words), the house-rule
        options with every value in words (both languages), bot levels, grace periods, turn clocks,
        and the name of this server's database (so a page can say which one it asked)."""
        if not meta_cache:
            meta_cache.update({
                "presets": {name: {"doc": PRESET_DOCS[name],
                                   "players": [r.allowed_players().start, r.allowed_players().stop - 1],
                                   "values": {o: _plain(getattr(r, o)) for o in HOUSE_OPTIONS},
                                   "words": {lang: rules_in_words(r, lang) for lang in LANGS}}
                            for name, r in PRESETS.items()},
                "options": house_options(),
                "choices": CHOICES, "levels": list(LEVELS), "default_level": DEFAULT_LEVEL,
                "grace": {"default": GRACE_DEFAULT, "choices": list(GRACE_CHOICES)},
                "clock": {"default": None, "choices": list(CLOCK_CHOICES)}, "reactions": list(REACTIONS),
                "bank": {"default": None, "choices": list(BANK_CHOICES)},
                "chat": {"length": hub.limits.chat_length},
                "db": describe(hub.db_path)})
        return meta_cache

    @app.get("/api/tables/{tid}/rules")
    async def table_rules(tid: str) -> JSONResponse:
        """The rules in force at a table in the players' words, all of them and the house rules,
        and how to play under them (``core.text.how_to_play``: the terminal's text)."""
        t = hub.table(tid)
        if t is None:
            return JSONResponse({"error": Refusal("no_table").en}, status_code=404)
        return JSONResponse({"name": t.rules.name,
                             "words": {lang: rules_in_words(t.rules, lang) for lang in LANGS},
                             "how": {lang: how_to_play(t.rules, lang) for lang in LANGS},
                             "house": {lang: rules_in_words(t.rules, lang, changed_only=True) for lang in LANGS}})

    @app.post("/api/qr")
    async def qr(request: Request) -> JSONResponse:
        """A QR code (SVG text) for a link to this server: an invite or a seat's resume link."""
        lang: object = None
        try:
            data = await body(request)
            lang = data.get("lang")
            text = data.get("text")
            if not isinstance(text, str) or not 0 < len(text) <= QR_TEXT_MAX:
                raise Refusal("bad_qr", most=QR_TEXT_MAX)
        except Refusal as r:
            return refused(r, lang)
        return JSONResponse({"svg": qr_svg(text)})

    async def body(request: Request) -> dict[str, Any]:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise Refusal("send_json")
        try:
            data = loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise Refusal("bad_json") from None
        if not isinstance(data, dict):
            raise Refusal("not_json_object")
        return data

    def refused(r: Refusal, lang: object, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": r.text(_lang(lang))}, status_code=status)

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        lang: object = None
        try:
            data = await body(request)
            lang = data.get("lang")
            seed = data.get("seed")
            if seed is not None and (not hub.test_mode or not isinstance(seed, int) or isinstance(seed, bool)):
                raise Refusal("seed_not_allowed")
            ev, token = Table.create_event(data.get("preset", "mattis"), data.get("overrides"), data.get("players"),
                                           data.get("seats"), data.get("name"), seed,
                                           data.get("grace", GRACE_DEFAULT), data.get("clock"), data.get("bank"))
            if await hub.count_tables() >= hub.limits.max_tables:  # full: the hourly sweep may make room
                return JSONResponse({"error": Refusal("server_full").text(_lang(lang))}, status_code=503,
                                    headers={"Retry-After": str(FULL_RETRY_AFTER)})
            t = await hub.create(ev)
        except Refusal as r:
            return refused(r, lang)
        except StoreError as e:
            log.error("%s", e)
            return refused(Refusal("not_saved"), lang, 503)
        return JSONResponse({"table": t.id, "seat": 0, "token": token, "invite": t.invite})

    @app.post("/api/tables/{tid}/join")
    async def join_table(tid: str, request: Request) -> JSONResponse:
        lang: object = None
        try:
            data = await body(request)
            lang = data.get("lang")
            t = hub.table(tid)
            if t is None:
                return refused(Refusal("no_table"), lang, 404)
            for again in (False, True):  # once more if another worker wrote the table's next event first
                try:
                    async with hub.lock(t.id):
                        ev, token = t.join_event(data.get("invite"), data.get("name"))
                        await hub.commit(t, ev)
                    break
                except StoreConflict:
                    if again:
                        raise
        except Refusal as r:
            return refused(r, lang)
        except StoreError as e:
            log.error("%s", e)
            return refused(Refusal("not_saved"), lang, 503)
        return JSONResponse({"table": t.id, "seat": ev["seat"], "token": token})

    @app.get("/api/tables/{tid}/games/{game}/record")
    async def record(tid: str, game: int, chat: bool = False) -> Response:
        """A finished game's record (the core's ``GameRecord``); the table's chat during that
        game only when asked (``?chat=1``): it is never in the record otherwise."""
        t = hub.table(tid)
        text = t.records.get(game) if t is not None else None
        if t is None or text is None:
            return JSONResponse({"error": Refusal("no_record").en}, status_code=404)
        data = json.loads(text)
        data["names"] = [s.name for s in t.seats]  # who sat where (GameRecord reads and keeps it)
        if chat and hub.store is not None:
            events = (hub.store.events(tid, 0) if hub.cluster is None  # SQLite: a local file, read at once
                      else await asyncio.to_thread(hub.store.events, tid, 0))
            data["chat"] = [{"seat": e["seat"], "name": e["name"], "text": e["text"]}
                            for e in events if e["type"] == "chat" and e.get("game") == game]
        text = json.dumps(data, ensure_ascii=False, indent=1)
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="mattis-{tid}-{game}.json"'})

    replays: OrderedDict[tuple[str, int, Lang, tuple[str, ...]], bytes] = OrderedDict()
    building: dict[tuple[str, int, Lang, tuple[str, ...]], asyncio.Future[bytes]] = {}

    @app.get("/api/tables/{tid}/games/{game}/replay")
    async def replay(tid: str, game: int, lang: str = "en") -> Response:
        """A finished game move by move (every hand shown: the game is over)."""
        t = hub.table(tid)
        text = t.records.get(game) if t is not None else None
        if t is None or text is None:
            return JSONResponse({"error": Refusal("no_record").en}, status_code=404)
        names = [s.name for s in t.seats]
        key = (tid, game, _lang(lang), tuple(names))
        body = replays.get(key)
        if body is None:  # built once per game (and names, language), however many ask at once
            job = building.get(key)
            if job is None:
                job = building[key] = asyncio.ensure_future(
                    asyncio.to_thread(_replay_body, text, game, names, _lang(lang), dict(t.by_bot.get(game, {}))))
                job.add_done_callback(lambda _j: building.pop(key, None))
            body = await asyncio.shield(job)
            replays[key] = body
            while len(replays) > REPLAY_CACHE:
                replays.popitem(last=False)
        else:
            replays.move_to_end(key)
        return Response(body, media_type="application/json")

    @app.websocket("/ws/{tid}")
    async def ws_endpoint(ws: WebSocket, tid: str) -> None:
        await hub.serve_ws(ws, tid)

    return app
