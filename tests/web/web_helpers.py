"""Helpers for the web tests: an in-process app, WebSocket players, the referee's truth."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from starlette.testclient import TestClient

from mattis.core import GameRecord, Phase, State, card_code, card_name, parse_move
from tiers import HUNG, wait_until

ORIGIN = {"origin": "http://testserver"}
CODE = re.compile(r"^[2-9TJQKA][CDHS]$")
Frame = dict[str, Any]


def wait_up(proc: subprocess.Popen[bytes], base: str, log: Path) -> None:
    """Wait until the server ``proc`` answers at ``base`` (fail at once if it exits, or if
    it hangs: tiers.HUNG)."""
    def up() -> bool:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited ({proc.returncode}): " + log.read_text())
        try:
            return httpx.get(base + "/api/meta", timeout=HUNG).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until(up, "the server answering", poll=0.05)
    except BaseException:
        proc.kill()
        raise


class FakeClock:
    """A clock for the limits (``time.monotonic``'s stand-in) that moves only when a test sets :attr:`now`."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Player:
    """One WebSocket connection (a seat with a token, or a spectator) that keeps every frame."""

    def __init__(self, client: TestClient, tid: str, token: str | None, lang: str = "en") -> None:
        self.cm = client.websocket_connect(f"/ws/{tid}", headers=dict(ORIGIN))
        self.ws = self.cm.__enter__()
        hello: dict[str, Any] = {"type": "hello", "lang": lang}
        if token is not None:
            hello["token"] = token
        self.ws.send_json(hello)
        self.raw: list[str] = []
        self.last: Frame = {}

    def recv(self) -> Frame:
        text = self.ws.receive_text()
        self.raw.append(text)
        self.last = json.loads(text)
        return self.last

    def until(self, pred: Callable[[Frame], bool]) -> Frame:
        if self.last and pred(self.last):
            return self.last
        while True:
            f = self.recv()
            if pred(f):
                return f

    def sync(self) -> Frame:
        """Ask for the table now and read up to that answer (so ``last`` is current)."""
        self.echo = getattr(self, "echo", 0) + 1
        self.send({"type": "sync", "echo": self.echo})
        return self.until(lambda f: f.get("echo") == self.echo)

    def send(self, obj: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(obj))

    def move(self, text: str, seq: int | None = None, game: int | None = None) -> None:
        self.send({"type": "move", "game": self.last["game"] if game is None else game,
                   "seq": self.last["seq"] if seq is None else seq, "move": text})

    def close(self) -> None:
        self.cm.__exit__(None, None, None)


def settled(f: Frame) -> bool:
    """A person is to act, or the game is over (no bot move is pending)."""
    if f.get("status") == "over":
        return True
    if f.get("status") != "playing":
        return False
    return bool(f["seats"][f["obs"]["to_act"]]["kind"] != "bot")


def first_legal(f: Frame) -> str:
    legal: list[str] = f["obs"]["legal"]
    plays = [m for m in legal if m.startswith("play")]
    return plays[0] if plays else legal[0]


def create(client: TestClient, preset: str, seats: list[dict[str, Any]], seed: int | None = 1,
           overrides: dict[str, Any] | None = None, name: str = "Anne") -> dict[str, Any]:
    body: dict[str, Any] = {"preset": preset, "players": len(seats), "seats": seats, "name": name,
                            "overrides": overrides or {}}
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def join(client: TestClient, tid: str, invite: str, name: str) -> dict[str, Any]:
    r = client.post(f"/api/tables/{tid}/join", json={"invite": invite, "name": name})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def play_out(players: dict[int, Player], watchers: list[Player],
             policy: Callable[[Frame], str] = first_legal, max_moves: int = 5000) -> Frame:
    """Drive a started game to its end: each person plays ``policy``; every connection
    reads every frame it is sent.  Returns the last frame."""
    conns = list(players.values()) + watchers
    p0 = conns[0]
    for c in conns:
        c.sync()
    f = p0.until(lambda g: g.get("status") in ("playing", "over") and settled(g))
    for _ in range(max_moves):
        game, seq = f["game"], f["seq"]
        for c in conns:
            c.until(lambda g: bool(g.get("game") == game and g.get("seq") == seq and settled(g)))  # noqa: B023
        if f["status"] == "over":
            return f
        actor = players[f["obs"]["to_act"]]
        actor.move(policy(actor.last))
        f = p0.until(lambda g: bool(g.get("game") == game and g.get("seq", 0) > seq and settled(g)))  # noqa: B023
    raise AssertionError("the game did not end")


def states_by_seq(record_text: str) -> list[tuple[State, set[int]]]:
    """The referee's state after each number of moves (index = seq), from the record, with
    the cards that have been face up in front of everyone by then."""
    rec = GameRecord.loads(record_text)
    st = rec.start()
    public: set[int] = set()

    def shown(st: State, before: State | None) -> set[int]:
        if st.trump_shown and st.trump_card >= 0:
            public.add(st.trump_card)
        phase1_ended = before is not None and before.phase is Phase.COLLECT and st.phase is not Phase.COLLECT
        if phase1_ended and before is not None and st.rules.leftovers_shown:
            for s in range(st.players):  # this rule shows the cards left in hand when phase 1 ends
                public.update(before.hand(s))
        return set(public)

    out = [(st.clone(), shown(st, None))]
    for text in rec.moves:
        seat, _, mv = text.partition(" ")
        assert st.to_act == int(seat)
        before = st.clone()
        st.apply(parse_move(mv))
        public.update(st.history()[-1][2])
        out.append((st.clone(), shown(st, before)))
    return out


def secret_cards(st: State, public: set[int], seat: int | None) -> set[int]:
    """Cards ``seat`` (None = a spectator) cannot know about in this state: everything
    not in its own hand that was never laid or shown face up."""
    own = set(st.hand(seat)) if seat is not None else set()
    return set(range(52)) - public - own


def cards_in(obj: Any) -> set[int]:
    """Every card named in a frame: card codes in any string (also inside move strings)."""
    from mattis.core import parse_card

    out: set[int] = set()
    if isinstance(obj, dict):
        for v in obj.values():
            out |= cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= cards_in(v)
    elif isinstance(obj, str):
        for w in obj.split():
            if CODE.match(w):
                out.add(parse_card(w))
    return out


def names_in_text(text: str, cards: set[int]) -> set[int]:
    """Cards among ``cards`` whose name (nb or en) appears in ``text``."""
    low = text.lower()
    return {c for c in cards if card_name(c, "en") in low or card_name(c, "nb") in low
            or re.search(rf"\b{card_code(c)}\b", text)}


class Web:
    """An in-process server (bots without delay, seeded deals allowed) and its connections."""

    def __init__(self, client: TestClient, db: Path) -> None:
        self.client = client
        self.db = db
        self.players: list[Player] = []

    def player(self, tid: str, token: str | None, lang: str = "en") -> Player:
        p = Player(self.client, tid, token, lang)
        self.players.append(p)
        return p

    @property
    def hub(self) -> Any:
        return self.client.app.state.hub  # type: ignore[attr-defined]
