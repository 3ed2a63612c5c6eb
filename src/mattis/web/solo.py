"""The offline app's engine side: the web table run in the browser (Pyodide, in a Web Worker).

``mattis build-web DIR`` (:mod:`mattis.web.bundle`) puts this package's pure-Python wheel in a
static bundle; the bundle's worker (``worker.js``) loads it under Pyodide and hands every request
of the page to one :class:`Solo`.  The page is the server's own client (``web/static/app.js``),
its WebSocket replaced by the worker (the transport seam, ``solo.js``): the same message shapes,
and every frame built by :func:`mattis.web.view.frame` from the same :class:`~mattis.web.table.Table`,
so the page gets exactly the seat's view, never more (the worker holds the truth).

A table here is its event log, as on the server: the worker keeps it in the browser's storage
(IndexedDB) after each change and rebuilds the table from it when the page opens it again
(:meth:`Solo.load`; a log that cannot be replayed is refused in words and left alone, the other
tables untouched).  Every other seat is a bot; a seat asked for as a friend is a bot too.
Take-back (``undo``) drops the last moves back to and with the player's own last move and
rebuilds the table from the shorter log.  A hint (``hint``) is answered as the server answers
it (:func:`mattis.web.view.hint_json`, from her seat's observation; not logged).  No I/O here:
the worker does the storage.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any, Final

from ..core import OPTIONS, PRESET_DOCS, PRESETS, Rules, rules_from_json
from ..core.cards import Lang
from ..core.text import how_to_play, option_label, option_value_text, rules_in_words, say
from ..play import Sitting, make_bot, next_move
from ..play.agents import DEFAULT_LEVEL
from . import messages
from .refusal import Refusal
from .table import Table
from .tablestate import Event
from .view import frame, hint_json, replay_steps

log = logging.getLogger(__name__)

LANGS: Final[tuple[Lang, ...]] = ("nb", "en")
SOLO_LEVELS: Final = ("easy", "medium", "hard")
"""The bot levels offered offline: those that think at a bearable speed in a phone's browser
(docs/web.md: think time per decision under Chromium's CPU throttling x4; ``expert`` takes
seconds a decision in phase 2 there)."""
HOUSE: Final = tuple(spec.name for spec in OPTIONS if spec.house)


def _lang(value: object) -> Lang:
    return "nb" if value == "nb" else "en"


def _plain(value: object) -> object:
    return value if isinstance(value, bool | int) else str(value)


def solo_meta() -> dict[str, Any]:
    """What the create form needs, as the server's ``/api/meta`` (web/app.py) gives it, for a
    table of one person and bots: no grace period, no turn clock, no reactions."""
    def players(r: Rules) -> list[int]:
        return [r.allowed_players().start, r.allowed_players().stop - 1]

    return {
        "presets": {name: {"doc": PRESET_DOCS[name], "players": players(r),
                           "values": {o: _plain(getattr(r, o)) for o in HOUSE},
                           "words": {lang: rules_in_words(r, lang) for lang in LANGS}}
                    for name, r in PRESETS.items()},
        "options": [{"option": spec.name, "label": {lang: option_label(spec.name, lang) for lang in LANGS},
                     "values": [{"value": v, "text": {lang: option_value_text(spec.name, v, lang) for lang in LANGS}}
                                for v in spec.values]}
                    for spec in OPTIONS if spec.house],
        "levels": list(SOLO_LEVELS), "default_level": DEFAULT_LEVEL if DEFAULT_LEVEL in SOLO_LEVELS else SOLO_LEVELS[0],
        "grace": {"default": None, "choices": [None]}, "clock": {"default": None, "choices": [None]},
        "reactions": [], "db": "this device", "solo": True,
    }


def _events_of(text: str) -> list[Event]:
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("events"), list) or not data["events"]:
        raise ValueError("no events")
    events: list[Event] = data["events"]
    if not all(isinstance(e, dict) for e in events) or events[0].get("type") != "create":
        raise ValueError("not a table's log")
    return events


def rebuild(events: list[Event]) -> Table:
    """The table its log makes (raises on a log that does not replay)."""
    table = Table.from_create(events[0])
    for ev in events[1:]:
        table.apply(ev)
    return table


class Solo:
    """The tables open in this browser, each with its log."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.logs: dict[str, list[Event]] = {}

    # ------------------------------------------------------------ storage
    def saved(self, tid: str) -> str:
        """The table's log as the worker stores it."""
        return json.dumps({"v": 1, "id": tid, "events": self.logs[tid]}, ensure_ascii=False, separators=(",", ":"))

    def where(self, tid: str) -> str:
        """``game:move`` of the table as last stored (the page marks it: a test waits on it)."""
        table = self.tables[tid]
        return f"{table.game}:{table.seq}"

    def load(self, tid: str, text: str | None, lang: str = "en") -> str | None:
        """Open a stored table (already open: kept as it is).  ``None`` when it opened, else why not
        in words: unknown, or a log that cannot be read or replayed (left in storage as it is)."""
        if tid in self.tables:
            return None
        if text is None:
            return Refusal("no_table").text(_lang(lang))
        try:
            events = _events_of(text)
            table = rebuild(events)
            if table.id != tid:
                raise ValueError("another table's log")
        except Exception:  # any fault in a stored log: said, the log kept, the other tables untouched
            return say("solo.damaged", _lang(lang))
        self.tables[tid], self.logs[tid] = table, events
        return None

    def _commit(self, tid: str, ev: Event) -> None:
        self.tables[tid].apply(ev)
        self.logs[tid].append(ev)

    # ----------------------------------------------------------- requests
    def request(self, method: str, path: str, body: str) -> tuple[int, str]:
        """One of the page's HTTP requests (those app.js makes to ``/api/...``): status and JSON."""
        try:
            data = json.loads(body) if body else {}
        except ValueError:
            data = {}
        lang = _lang(data.get("lang") if isinstance(data, dict) else None)
        parts = path.split("?")[0].strip("/").split("/")
        query = dict(p.split("=", 1) for p in (path.split("?", 1)[1].split("&") if "?" in path else []) if "=" in p)
        try:
            if parts == ["api", "meta"]:
                return 200, json.dumps(solo_meta(), ensure_ascii=False)
            if parts == ["api", "tables"] and method == "POST" and isinstance(data, dict):
                return 200, json.dumps(self.create(data))
            if len(parts) >= 3 and parts[:2] == ["api", "tables"]:
                table = self.tables.get(parts[2])
                if table is None:
                    raise Refusal("no_table")
                if parts[3:] == ["rules"]:
                    r = table.rules
                    return 200, json.dumps({"name": r.name, "words": {lg: rules_in_words(r, lg) for lg in LANGS},
                                            "how": {lg: how_to_play(r, lg) for lg in LANGS},
                                            "house": {lg: rules_in_words(r, lg, changed_only=True) for lg in LANGS}},
                                           ensure_ascii=False)
                if len(parts) == 6 and parts[3] == "games" and parts[4].isdigit():
                    game = int(parts[4])
                    text = table.records.get(game)
                    if text is None:
                        raise Refusal("no_record")
                    names = [s.name for s in table.seats]
                    if parts[5] == "record":
                        return 200, self.record(parts[2], game)
                    if parts[5] == "replay":
                        steps = replay_steps(text, names, _lang(query.get("lang")))
                        return 200, json.dumps({"game": game, "names": names, "steps": steps}, ensure_ascii=False)
                    if parts[5] == "analysis":
                        return 501, json.dumps({"error": say("solo.no_review", _lang(query.get("lang")))},
                                               ensure_ascii=False)
            return 404, json.dumps({"error": say("solo.no_such", lang)}, ensure_ascii=False)
        except Refusal as r:
            return 400, json.dumps({"error": r.text(lang)}, ensure_ascii=False)

    def create(self, data: dict[str, Any]) -> dict[str, Any]:
        """A new table: the person in seat 0, a bot in every other seat (a friend's seat too)."""
        seats = data.get("seats")
        if isinstance(seats, list):
            seats = [dict(s, kind="bot") if isinstance(s, dict) and i else s for i, s in enumerate(seats)]
        seed = data.get("seed")
        ev, token = Table.create_event(data.get("preset", "mattis"), data.get("overrides"), data.get("players"),
                                       seats, data.get("name"), seed if isinstance(seed, int) else None,
                                       None, None)
        for s in ev["seats"][1:]:
            if s.get("level") not in SOLO_LEVELS:
                raise Refusal("bad_level", levels=", ".join(SOLO_LEVELS))
        table = Table.from_create(ev)
        self.tables[table.id], self.logs[table.id] = table, [ev]
        return {"table": table.id, "seat": 0, "token": token, "invite": None}

    def record(self, tid: str, game: int) -> str:
        """A finished game's record as the server's download gives it (with the seats' names):
        what ``mattis replay`` and ``mattis analyze`` read."""
        table = self.tables[tid]
        data = json.loads(table.records[game])
        data["names"] = [s.name for s in table.seats]
        return json.dumps(data, ensure_ascii=False, indent=1)

    # ---------------------------------------------------------- the table
    def view(self, tid: str, lang: str, error: Refusal | None = None, echo: int | None = None,
             hint: dict[str, Any] | None = None) -> str:
        """The frame the person's seat (0) is sent, as the server sends it (with ``hint``: her hint)."""
        table = self.tables[tid]
        extra: dict[str, Any] = {"invite": None, "solo": True, "undo": self.can_undo(tid)}
        if hint is not None:
            extra["hint"] = hint
        return frame(table, 0, _lang(lang), connected={0}, error=error, echo=echo, extra=extra)

    def message(self, tid: str, text: str, lang: str) -> tuple[str | None, bool]:
        """One message from the page (the shapes app.js sends on its WebSocket): the frame to send
        back (``None``: nothing) and whether the table changed (the worker then stores it)."""
        table = self.tables[tid]
        try:
            msg = json.loads(text)
        except ValueError:
            return self.view(tid, lang, Refusal("not_json_message")), False
        if not isinstance(msg, dict):
            return self.view(tid, lang, Refusal("not_json_object")), False
        kind = msg.get("type")
        try:
            messages.check(msg)  # every field of its type, as on the server
        except Refusal as r:
            return self.view(tid, lang, r), False
        if kind == "ping":
            return '{"type":"pong"}', False
        if kind in ("lang", "hello"):
            return self.view(tid, lang), False
        if kind == "sync":
            return self.view(tid, lang, echo=msg.get("echo")), False
        if kind in ("react", "nudge"):
            return None, False
        if kind in ("chat", "mute"):  # no one else here: said in words (the page hides the chat offline)
            return self.view(tid, lang, Refusal("chat_offline")), False
        if kind == "hint":  # as the server's (Hub.ask_hint): from her seat's observation only, not logged
            ref = table.referee
            if ref is None or table.person_to_act() != 0:
                return self.view(tid, lang, Refusal("no_hint")), False
            try:
                hint = hint_json(ref.observation(0), _lang(lang), table.game, table.seq)
            except Exception:  # a bug in the hint: logged (the worker's console), said, the game goes on
                log.exception("offline table %s: the hint failed", tid)
                return self.view(tid, lang, Refusal("hint_failed")), False
            return self.view(tid, lang, hint=hint), False
        try:
            if kind == "move":
                ev = table.move_event(0, msg.get("game"), msg.get("seq"), msg.get("move"))
            elif kind in ("start", "rematch"):
                if kind == "rematch" and isinstance(msg.get("game"), int) and msg["game"] < table.game:
                    return self.view(tid, lang), False
                if (kind == "start") != (table.referee is None):
                    raise Refusal("started" if kind == "start" else "no_rematch")
                ev = table.deal_event(0, msg.get("level") if msg.get("level") in SOLO_LEVELS else SOLO_LEVELS[0])
            elif kind == "end":
                ev = table.end_event(0)
            elif kind == "pause":
                ev = table.pause_event(0, msg.get("paused"))
            elif kind == "undo":
                if not self.undo(tid):
                    raise Refusal("unknown_request")
                return self.view(tid, lang), True
            else:
                raise Refusal("unknown_request")
        except Refusal as r:
            return self.view(tid, lang, r), False
        self._commit(tid, ev)
        return self.view(tid, lang), True

    def bot_due(self, tid: str) -> bool:
        """A bot is to act (and the game is not paused)."""
        table = self.tables[tid]
        return table.referee is not None and not table.paused and table.bot_to_act() is not None

    def bot_move(self, tid: str) -> bool:
        """The bot to act makes its move (``False``: none is to act)."""
        table = self.tables[tid]
        ref = table.referee
        if ref is None or not self.bot_due(tid):
            return False
        chosen = next_move(ref, table.agents())
        if chosen is None:
            return False
        seat, move = chosen
        self._commit(tid, table.move_event(seat, table.game, table.seq, str(move)))
        return True

    def _undo_cut(self, tid: str) -> int | None:
        """Where the log is cut to take back the person's last move in the running game."""
        table, log = self.tables[tid], self.logs[tid]
        ref = table.referee
        if ref is None or ref.is_over or table.ended:
            return None
        for i in range(len(log) - 1, 0, -1):
            ev = log[i]
            if ev["type"] != "move" or ev["game"] != table.game:
                return None
            if ev["seat"] == 0:
                return i
        return None

    def can_undo(self, tid: str) -> bool:
        return self._undo_cut(tid) is not None

    def undo(self, tid: str) -> bool:
        """Take back the person's last move (and the bots' moves after it)."""
        cut = self._undo_cut(tid)
        if cut is None:
            return False
        events = self.logs[tid][:cut]
        self.tables[tid], self.logs[tid] = rebuild(events), events
        return True


def think_times(preset: str, players: int, level: str, games: int, seed: int) -> list[list[float]]:
    """``[phase, seconds]`` of each bot decision in ``games`` whole games (bots of ``level`` in every
    seat, dealt from ``seed`` on): the figures docs/web.md gives for the browser
    (benchmarks/solo_web.py runs this in the app's worker and, throttled, in the page).  Only real
    choices are timed (a position with one legal move is played without asking the bot)."""
    rules = rules_from_json({"preset": preset})
    out: list[list[float]] = []
    for game in range(games):
        ref = Sitting(rules, players, seed=seed + game).deal()
        agents = {i: make_bot(level, seed * 1000 + game * 10 + i) for i in range(players)}
        while not ref.is_over:
            seat = ref.to_act
            assert seat is not None
            obs = ref.observation(seat)
            if len(obs.legal) == 1:
                ref.apply(seat, obs.legal[0])
                continue
            t0 = time.perf_counter()
            move = agents[seat].act(obs)
            out.append([obs.phase, time.perf_counter() - t0])
            ref.apply(seat, move)
    return out
