"""``mattis join URL``: one seat of a ``mattis serve`` table, played from the terminal.

The link is the one a browser gets: an invite (``http://host:port/t/TABLE?invite=CODE``:
this asks the server for a free seat, as the page's join form does) or a seat's resume
link (``http://host:port/t/TABLE#seat=TOKEN``).  The seat then speaks the web protocol
over the table's WebSocket (``/ws/TABLE``), as the page does: a ``hello`` with the seat's
token, then ``move``, ``rematch`` and ``sync`` requests; the server answers each with a
frame, the table as this seat may see it (:func:`mattis.web.view.frame`).  The hello asks
for the observation's whole public history (``"history": true``), so the seat's core
:class:`~mattis.core.Observation` is rebuilt from the frame
(:meth:`~mattis.core.Observation.from_json`) and drawn by the same code as ``mattis
play`` (:mod:`mattis.tui.render`).  Nothing of the server's code is imported here.

When the connection drops, :class:`Connection` connects again with the seat's token and
the game goes on; while the seat is away the server's bot plays for it after the table's
grace period, and the seat is hers again as soon as she is back (the log says how many
moves were played for her).  After a game, "play again" asks the table for the next
game of the sitting (a ``rematch``).
"""

from __future__ import annotations

import json
import queue
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TextIO
from urllib.parse import parse_qs, quote, urlsplit

from ..core import Move, Observation
from ..core.cards import Lang
from ..core.rules import Rules, rules_from_json
from ..core.text import describe_bot_move, describe_move, loser_sentence, new_game_line, say
from ..play.seeds import position_seed
from .i18n import t
from .render import last_trick_in_phase1
from .session import fix_you

Frame = dict[str, Any]

CONNECT_TIMEOUT: Final = 30.0
"""Seconds to wait for the server to answer a connection (an unreachable server is said
in one line after this)."""
RETRY_PAUSE: Final = 0.3
"""Seconds before connecting again after the connection dropped, times the failures in a
row (at most :data:`RETRY_MAX`)."""
RETRY_MAX: Final = 3.0
GIVE_UP_AFTER: Final = 60
"""Failed connections in a row after which the seat stops trying (about three minutes
when the server's machine refuses at once; each try waits up to :data:`CONNECT_TIMEOUT`
when nothing answers); the user is told how to come back with the resume link."""


class JoinError(Exception):
    """Why the seat cannot be taken, in one line (the command line prints it and exits 2)."""


@dataclass(frozen=True)
class Link:
    """A table's invite or resume link, taken apart."""

    base: str
    """``http://host:port`` (or ``https``)."""
    table: str
    invite: str | None = None
    token: str | None = None

    @property
    def ws_url(self) -> str:
        return ("wss" if self.base.startswith("https") else "ws") + self.base[self.base.index(":"):] + \
            f"/ws/{self.table}"


def parse_link(url: str, lang: Lang = "en") -> Link:
    """An invite link (``…/t/TABLE?invite=CODE``) or a resume link (``…/t/TABLE#seat=TOKEN``)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise JoinError(t(lang, "join.bad_link", url=url[:200])) from None
    path = parts.path.rstrip("/")
    table = path[3:] if path.startswith("/t/") else ""
    ok_table = bool(table) and all(ch.isalnum() or ch in "-_" for ch in table)
    if parts.scheme not in ("http", "https") or not parts.hostname or not ok_table:
        raise JoinError(t(lang, "join.bad_link", url=url[:200]))
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    base = f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")
    invite = parse_qs(parts.query).get("invite", [None])[0]
    token = parse_qs(parts.fragment).get("seat", [None])[0]
    if token is None and invite is None:
        raise JoinError(t(lang, "join.bad_link", url=url[:200]))
    return Link(base, table, invite=invite, token=token)


def _post(url: str, body: dict[str, Any], origin: str) -> dict[str, Any]:
    """A JSON POST; returns the JSON answer (also of a refusal: its ``error``)."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Origin": origin})
    try:
        with urllib.request.urlopen(req, timeout=CONNECT_TIMEOUT) as answer:
            data = json.loads(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        try:
            data = json.loads(e.read().decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            data = {"error": f"HTTP {e.code}"}
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


def take_seat(link: Link, name: str, lang: Lang = "en") -> str:
    """The seat's token: the resume link's, or a free seat asked for with the invite."""
    if link.token is not None:
        return link.token
    try:
        data = _post(f"{link.base}/api/tables/{quote(link.table)}/join",
                     {"invite": link.invite, "name": name, "lang": lang}, link.base)
    except (OSError, ValueError) as e:
        raise JoinError(t(lang, "join.unreachable", url=link.base, why=_why(e))) from None
    token = data.get("token")
    if not isinstance(token, str):
        raise JoinError(t(lang, "join.refused", why=str(data.get("error", "?"))[:300]))
    return token


def _why(e: BaseException) -> str:
    reason = getattr(e, "reason", None)
    return str(reason if reason is not None else e) or type(e).__name__


@dataclass(frozen=True)
class Note:
    """Not a frame: the connection ``dropped`` (it is being made again), is ``back``, or
    ``failed`` for good (``text``: why, in one line); ``closed``: the terminal table has
    closed (its reader stops)."""

    kind: str
    text: str = ""


class Connection:
    """The seat's WebSocket: a thread reads the frames into :attr:`inbox` (with a
    :class:`Note` when the connection drops and when it is back) and connects again with
    the seat's token whenever the connection drops, until :meth:`close` or until
    ``give_up_after`` tries in a row have failed (then a ``failed`` note says how to come
    back).  ``watch`` sees every frame as it arrives (the tests check each one)."""

    def __init__(self, link: Link, token: str, lang: Lang, watch: Callable[[Frame], None] | None = None) -> None:
        self.link = link
        self.token = token
        self.lang = lang
        self.watch = watch
        self.inbox: queue.Queue[Frame | Note] = queue.Queue()
        self._ws: Any = None
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self.online = threading.Event()
        """Set: the connection is made again whenever it drops.  Cleared, it waits (the
        seat stays away, as when the network is down for a while) until set again."""
        self.online.set()
        self._thread: threading.Thread | None = None
        self.connections = 0
        """How many times the connection was made (more than 1: it dropped and came back)."""
        self.give_up_after = GIVE_UP_AFTER
        """Failed connections in a row after which the seat stops trying."""

    def open(self) -> Frame:
        """Connect and return the table's first frame; :class:`JoinError` when the server
        cannot be reached or refuses the seat."""
        self._thread = threading.Thread(target=self._run, name="mattis-join", daemon=True)
        self._thread.start()
        got = self.inbox.get()
        if isinstance(got, Note):
            raise JoinError(got.text)
        return got

    def _connect(self) -> Any:
        from websockets.sync.client import connect
        from websockets.typing import Origin

        ws = connect(self.link.ws_url, origin=Origin(self.link.base), open_timeout=CONNECT_TIMEOUT,
                     close_timeout=1, max_size=2 ** 22)
        ws.send(json.dumps({"type": "hello", "token": self.token, "lang": self.lang, "history": True}))
        return ws

    def _run(self) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        failures = 0
        while not self._closed.is_set():
            self.online.wait()
            if self._closed.is_set():
                return
            try:
                ws = self._connect()
            except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as e:
                if self.connections == 0:
                    self.inbox.put(Note("failed", t(self.lang, "join.unreachable", url=self.link.base, why=_why(e))))
                    return
                failures += 1
                if failures >= self.give_up_after:
                    self.inbox.put(Note("failed", t(self.lang, "join.gone", url=self.link.base, n=failures,
                                                    why=_why(e), link=self.resume_link())))
                    return
                self._closed.wait(min(RETRY_PAUSE * failures, RETRY_MAX))
                continue
            with self._lock:
                self._ws = ws
            self.connections += 1
            if self.connections > 1:
                self.inbox.put(Note("back"))
            try:
                for text in ws:
                    msg = json.loads(text)
                    if not isinstance(msg, dict):
                        continue
                    if msg.get("type") == "refused":  # a dead token, a table the server does not know
                        self.inbox.put(Note("failed", t(self.lang, "join.refused", why=str(msg.get("error")))))
                        self._closed.set()
                        break
                    failures = 0
                    if self.watch is not None:
                        self.watch(msg)
                    self.inbox.put(msg)
            except (ConnectionClosed, OSError, ValueError):
                pass
            with self._lock:
                self._ws = None
            if not self._closed.is_set():
                self.inbox.put(Note("dropped"))
                failures += 1
                self._closed.wait(min(RETRY_PAUSE * failures, RETRY_MAX))

    def resume_link(self) -> str:
        """The seat's resume link (to come back to it, from here or a browser)."""
        return f"{self.link.base}/t/{self.link.table}#seat={quote(self.token)}"

    def send(self, request: dict[str, Any]) -> bool:
        """Send a request; ``False`` when the connection is down (it is being made again)."""
        with self._lock:
            ws = self._ws
        if ws is None:
            return False
        try:
            ws.send(json.dumps(request))
        except Exception:
            return False
        return True

    def drop(self) -> None:
        """Close the socket as a network would drop it (the thread connects again)."""
        with self._lock:
            ws = self._ws
        if ws is not None:
            ws.close()

    def close(self) -> None:
        self._closed.set()
        self.online.set()
        self.drop()
        if self._thread is not None:
            self._thread.join(CONNECT_TIMEOUT)


@dataclass
class RemoteSession:
    """The seat's side of a web table, as the terminal's screens read a
    :class:`~mattis.tui.session.Session`: the seat's observation, the names, the log, the
    tally.  Updated from each frame (:meth:`update`); moves go to the server."""

    lang: Lang
    frame: Frame = field(default_factory=dict)
    rules: Rules = field(init=False)
    names: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    tally: list[int] = field(default_factory=list)
    take_backs: int = 0
    save_error: str | None = None
    stats_path: None = None
    you: int = 0
    _obs: Observation | None = None
    _logged: tuple[int, int] = (0, 0)
    """(game, history items put in the log)."""
    _sent: set[tuple[int, int]] = field(default_factory=set)
    """(game, seq) of the moves this terminal sent."""
    _hint: tuple[int, Move] | None = None
    away_moves: int = 0
    """Moves the server's bot played for this seat while this terminal was away (all games;
    a seat taken back with its link in a new ``mattis join`` cannot tell its own earlier
    moves from the bot's, and counts none of them)."""

    @property
    def players(self) -> int:
        return int(self.frame.get("players", 0))

    @property
    def status(self) -> str:
        return str(self.frame.get("status", "lobby"))

    @property
    def game(self) -> int:
        return int(self.frame.get("game", 0))

    @property
    def seq(self) -> int:
        return int(self.frame.get("seq", 0))

    @property
    def games(self) -> int:
        return self.game

    def update(self, frame: Frame) -> str | None:
        """Take a frame from the server; returns its refusal of this seat's request, if any."""
        self.frame = frame
        you = frame.get("you")
        self.you = you if isinstance(you, int) else 0
        self.rules = rules_from_json(frame["rules"])
        you_word = say("word.you", self.lang)
        self.names = [you_word if i == self.you else str(s["name"]) for i, s in enumerate(frame["seats"])]
        tally = frame.get("tally", {}).get("mattis")
        self.tally = [int(x) for x in tally] if isinstance(tally, list) else [0] * self.players
        data = frame.get("obs")
        before = self._obs
        self._obs = None if data is None else Observation.from_json({**data, "rules": frame["rules"]})
        if self._obs is not None:
            self._log(before, self._obs)
        error = frame.get("error")
        return str(error) if error is not None else None

    def _you(self, line: str) -> str:
        return fix_you(line, self.names[self.you], self.lang)

    def _log(self, before: Observation | None, obs: Observation) -> None:
        """New log lines from what changed since the last frame (the moves in words, the
        tricks taken, phase 2, the game's end, moves played for this seat while away)."""
        lang, names = self.lang, self.names
        game, done = self._logged
        if game != self.game:
            self.log.append(self._you(new_game_line(names[obs.dealer], lang)))
            done, before = 0, None
        away = 0
        first = self._logged == (0, 0)  # joined now: the seat's earlier moves may have been her own
        by = self.frame.get("obs", {}).get("bot_moves")
        by = by if isinstance(by, dict) else {}  # moves a bot made for a person (the server says why)
        for i in range(done, len(obs.history)):
            seat, move, shown = obs.history[i]
            why = by.get(str(i))
            self.log.append(self._you(describe_move(names[seat], move, shown, lang) if not isinstance(why, str)
                                      else describe_bot_move(names[seat], move, shown, why, lang)))
            if seat == self.you and (self.game, i) not in self._sent and not first and why != "clock" \
                    and why != "host":
                away += 1
        if away:
            self.away_moves += away
            self.log.append(t(lang, "join.played_for_you", n=away))
        if obs.last_trick is not None and (before is None or before.last_trick != obs.last_trick) \
                and len(obs.history) > done:
            key = "log.wins_trick" if last_trick_in_phase1(obs) else "log.avstikk"
            self.log.append(self._you(t(lang, key, name=names[obs.last_trick[0]])))
        if obs.phase == 2 and (before is None or before.phase == 1) and len(obs.history) > done:
            self.log.append(t(lang, "log.phase2", trump=t(lang, f"suit.{obs.trump}")) if obs.trump is not None
                            else t(lang, "log.phase2_notrump"))
        outcome = obs.outcome
        if outcome is not None and (before is None or before.outcome is None) and outcome.mattis is not None \
                and len(obs.history) > done:
            self.log.append(self._you(loser_sentence(self.rules, names[outcome.mattis], lang)))
        self._logged = (self.game, len(obs.history))

    # ------------------------------------------------------------ as a Session
    def observation(self) -> Observation:
        assert self._obs is not None, "no game at the table yet"
        return self._obs

    @property
    def playing(self) -> bool:
        return self._obs is not None

    @property
    def over(self) -> bool:
        return self.status in ("over", "ended")

    @property
    def human_to_act(self) -> bool:
        return self.status == "playing" and self._obs is not None and self._obs.to_act == self.you

    @property
    def bot_to_act(self) -> bool:
        return False

    @property
    def can_take_back(self) -> bool:
        return False

    def why_no_take_back(self, lang: Lang | None = None) -> str:
        return t(lang or self.lang, "join.no_take_back")

    def move_request(self, move: Move) -> dict[str, Any]:
        """The request for this seat's move (numbered by game and move, as the server checks)."""
        self._sent.add((self.game, self.seq))
        return {"type": "move", "game": self.game, "seq": self.seq, "move": str(move)}

    def hint(self) -> Move | None:
        """The hint's move from this seat's observation, one per position (as
        :meth:`~mattis.tui.session.Session.hint`)."""
        obs = self._obs
        if obs is None or not obs.legal or obs.to_act != self.you:
            return None
        seed = position_seed(None, "hint", obs)
        if self._hint is None or self._hint[0] != seed:
            from ..lab.hint import hint_move

            self._hint = (seed, hint_move(obs, seed))
        return self._hint[1]

    def hint_text(self, lang: Lang | None = None) -> str | None:
        lang = lang or self.lang
        move = self.hint()
        if move is None:
            return None
        from ..lab.hint import hint_sentence

        obs = self.observation()
        return hint_sentence(obs, move, lang, position_seed(None, "hint", obs))


class Seat:
    """A :class:`RemoteSession` and its :class:`Connection`: waits for frames (never for
    a time) and sends this seat's requests."""

    def __init__(self, conn: Connection, session: RemoteSession, on_note: Callable[[Note], None]) -> None:
        self.conn = conn
        self.session = session
        self.on_note = on_note

    def take(self, item: Frame | Note) -> str | None:
        """Apply one item of the inbox; returns a refusal of this seat's request, if any."""
        if isinstance(item, Note):
            if item.kind == "failed":
                raise JoinError(item.text)
            self.on_note(item)
            return None
        if item.get("you") is None:  # the token no longer holds a seat here: re-invited, or a bot took it
            given = item.get("given")
            seats = item.get("seats")
            if isinstance(given, int) and isinstance(seats, list) and 0 <= given < len(seats):
                name = str(seats[given].get("name", "")) if isinstance(seats[given], dict) else ""
                raise JoinError(t(self.session.lang, "join.given_away", name=name))
            raise JoinError(t(self.session.lang, "join.lost_seat"))
        return self.session.update(item)

    def next(self) -> str | None:
        """Wait for the next frame (notes on the way are passed on)."""
        while True:
            item = self.conn.inbox.get()
            error = self.take(item)
            if not isinstance(item, Note):
                return error

    def drain(self) -> None:
        """Apply every item already in the inbox (without waiting)."""
        while True:
            try:
                item = self.conn.inbox.get_nowait()
            except queue.Empty:
                return
            self.take(item)

    def wait_for_game(self, say_: Callable[[str], None]) -> None:
        """Wait (saying so once) while the table is in its lobby: the host starts the game."""
        if self.session.status == "lobby":
            say_(t(self.session.lang, "join.lobby"))
        while self.session.status == "lobby":
            self.next()

    def request(self, body: dict[str, Any], done: Callable[[], bool]) -> str | None:
        """Send a request and wait until ``done()`` holds or the server refuses it (its
        reason); sent again when the connection was down (it is made again)."""
        while not self.conn.send(body):
            self.next()
            if done():
                return None
        while not done():
            error = self.next()
            if error is not None:
                return error
        return None

    def move(self, move: Move) -> str | None:
        s = self.session
        at = (s.game, s.seq)
        return self.request(s.move_request(move), lambda: (s.game, s.seq) != at)

    def rematch(self) -> str | None:
        s = self.session
        game = s.game
        return self.request({"type": "rematch", "game": game}, lambda: s.game > game and s.status == "playing")


def connect_seat(url: str, name: str, lang: Lang, on_note: Callable[[Note], None],
                 watch: Callable[[Frame], None] | None = None) -> Seat:
    """Take the seat the link gives and connect it (:class:`JoinError` when it cannot be)."""
    link = parse_link(url, lang)
    token = take_seat(link, name, lang)
    conn = Connection(link, token, lang, watch)
    session = RemoteSession(lang)
    first = conn.open()
    session.update(first)
    if session.frame.get("you") is None:
        conn.close()
        given = session.frame.get("given")
        if isinstance(given, int) and 0 <= given < len(session.names):
            raise JoinError(t(lang, "join.given_away", name=session.names[given]))
        raise JoinError(t(lang, "join.refused", why=say("web.refused.bad_token", lang)))
    return Seat(conn, session, on_note)


def resume_link(seat: Seat) -> str:
    """The seat's resume link (to come back to it, from here or a browser)."""
    return seat.conn.resume_link()


def run_plain(seat: Seat, inp: TextIO, out: TextIO) -> int:
    """The seat in line mode (as ``mattis play --plain``): the table's moves as they come,
    the seat's turn asked for on stdin.  Returns the exit status."""
    from .plain import ANALYSE, BAD_AGAIN, NO, RESUMED_LOG, YES, parse_answer, status_lines
    from .render import end_lines, last_trick_text, rules_lines

    s = seat.session
    lang = s.lang
    shown = max(0, len(s.log) - RESUMED_LOG)  # back at a game under way: its last moves

    def say_(text: str = "") -> None:
        print(text, file=out, flush=True)

    def flush() -> None:
        nonlocal shown
        for line in s.log[shown:]:
            say_(line)
        shown = len(s.log)

    def ask(prompt: str) -> str | None:
        out.write(prompt)
        out.flush()
        line = inp.readline()
        return None if not line else line.strip()

    seat.on_note = lambda note: say_(t(lang, f"join.{note.kind}"))
    say_(t(lang, "join.welcome", rules=s.rules.name, players=s.players, seat=s.you + 1,
           link=resume_link(seat)) + " " + t(lang, "join.help"))
    told_lobby = False
    try:
        while True:
            seat.drain()
            flush()
            if s.status == "lobby":
                if not told_lobby:
                    told_lobby = True
                    say_(t(lang, "join.lobby"))
                seat.next()
                continue
            if s.over:
                obs = s.observation()
                for line in end_lines(obs, s.names, s.tally, lang):
                    say_(line)
                for _ in range(BAD_AGAIN):
                    answer = ask(t(lang, "join.again") + " ")
                    if answer is None or answer.lower() in NO:
                        say_(t(lang, "join.bye", link=resume_link(seat)))
                        return 0
                    if answer.lower() in YES:
                        error = seat.rematch()
                        if error is not None:
                            say_(error)
                        break
                    if answer.lower() in ANALYSE:
                        say_(t(lang, "join.no_analyse"))
                        continue
                    say_(t(lang, "plain.again_help"))
                else:
                    return 0
                continue
            if not s.human_to_act:
                seat.next()
                continue
            obs = s.observation()
            for line in status_lines(obs, s.names, lang):
                say_(line)
            while True:
                answer = ask("> ")
                if answer is None:
                    say_()
                    say_(t(lang, "join.bye", link=resume_link(seat)))
                    return 0
                result = parse_answer(answer, obs)
                if isinstance(result, Move):
                    error = seat.move(result)
                    if error is None:
                        break
                    say_(t(lang, "plain.illegal", reason=error))
                    if not s.human_to_act or s.observation() != obs:
                        break  # the table moved on meanwhile (the host ended the game, a reconnection)
                    continue
                if result == "quit":
                    say_(t(lang, "join.bye", link=resume_link(seat)))
                    return 0
                if result == "help":
                    say_(t(lang, "plain.help"))
                elif result == "hint":
                    say_(s.hint_text(lang) or t(lang, "hint.none"))
                elif result == "back":
                    say_(s.why_no_take_back(lang))
                elif result == "learn":
                    from ..core.text import how_to_play

                    for heading, text in how_to_play(s.rules, lang):
                        say_(f"{heading}: {text}")
                elif result == "stats":
                    say_(t(lang, "join.no_stats"))
                elif result == "last":
                    say_(last_trick_text(obs, s.names, lang, codes=False))
                elif result == "rules":
                    for line in rules_lines(s.rules, lang, obs, s.names):
                        say_(line)
                elif result == "status":
                    for line in status_lines(obs, s.names, lang):
                        say_(line)
                elif result == "?number":
                    say_(t(lang, "plain.bad_number", n=len(obs.legal)))
                else:
                    say_(t(lang, "plain.bad_input", text=answer))
    finally:
        seat.conn.close()

