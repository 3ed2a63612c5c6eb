"""Helpers for the tests of ``mattis join`` (a terminal seat at a web table): a real
server on loopback, a host seat that plays over the WebSocket, a scripted line-mode
terminal, and the check of every frame the terminal received against the referee's truth."""

from __future__ import annotations

import io
import json
import threading
from typing import Any

import httpx
from web_helpers import cards_in, names_in_text, secret_cards, states_by_seq
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from mattis.core import card_code
from tiers import HUNG


def create_table(base: str, seats: list[dict[str, Any]], seed: int, preset: str = "mattis",
                 grace: int | None = 60) -> dict[str, Any]:
    r = httpx.post(base + "/api/tables", json={"preset": preset, "players": len(seats), "name": "Anne",
                                               "seed": seed, "seats": seats, "grace": grace},
                   headers={"origin": base}, timeout=HUNG)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


class Host:
    """Seat 0 over the WebSocket, on a thread: starts the game once every seat is taken,
    plays its first legal move on its turns (once ``gate`` is set, where one is given)
    and asks for ``rematches`` more games."""

    def __init__(self, base: str, tid: str, token: str, rematches: int = 0,
                 gate: threading.Event | None = None) -> None:
        self.ws: ClientConnection = connect(base.replace("http", "ws") + f"/ws/{tid}", origin=Origin(base),
                                            open_timeout=HUNG)
        self.ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
        self.rematches = rematches
        self.gate = gate
        self.frames: list[dict[str, Any]] = []
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            started, asked = False, 0
            for text in self.ws:
                f = json.loads(text)
                self.frames.append(f)
                if f["status"] == "lobby" and not started and all(s["kind"] != "open" for s in f["seats"]):
                    started = True
                    self.ws.send(json.dumps({"type": "start"}))
                obs = f.get("obs")
                if f["status"] == "playing" and obs and obs["to_act"] == 0 and obs["legal"]:
                    if self.gate is not None and not self.gate.wait(HUNG):
                        return
                    self.ws.send(json.dumps({"type": "move", "game": f["game"], "seq": f["seq"],
                                             "move": obs["legal"][0]}))
                if f["status"] == "over" and asked < self.rematches and f["game"] == asked + 1:
                    asked += 1
                    self.ws.send(json.dumps({"type": "rematch", "game": f["game"]}))
        except Exception as e:  # a closed socket ends the loop; anything else fails the test
            from websockets.exceptions import ConnectionClosed

            if not isinstance(e, ConnectionClosed):
                self.error = e

    def close(self) -> None:
        self.ws.close()
        self.thread.join(HUNG)


class Terminal(io.StringIO):
    """The terminal's screen (stdout) and keyboard (stdin) for :func:`run_plain`: it answers
    each prompt, ``1`` (the first listed choice) at "> ", and ``again`` (in order, then
    ``n``) at "Play again?"; ``first``: answers given at "> " before those (commands), and
    ``quit`` from the ``quit_at``-th move on."""

    def __init__(self, again: list[str] | None = None, quit_at: int | None = None,
                 first: list[str] | None = None) -> None:
        super().__init__()
        self.again = list(again or [])
        self.first = list(first or [])
        self.moves = 0
        self.quit_at = quit_at

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        screen = self.getvalue()
        if screen.endswith("(y/n) ") or screen.endswith("(j/n) "):
            return (self.again.pop(0) if self.again else "n") + "\n"
        if self.first:
            return self.first.pop(0) + "\n"
        self.moves += 1
        if self.quit_at is not None and self.moves >= self.quit_at:
            return "quit\n"
        return "1\n"


def check_frames(frames: list[dict[str, Any]], seat: int, records: dict[int, str]) -> int:
    """Every frame a seat received holds only what that seat may see: its own hand, the
    cards on the table and the cards shown face up (the referee's truth, from each game's
    record); returns how many frames with a game were checked."""
    states = {g: states_by_seq(text) for g, text in records.items()}
    checked = 0
    for f in frames:
        raw = json.dumps(f)
        assert "deck" not in raw and "seed" not in raw
        if f.get("status") == "lobby":
            assert "obs" not in f
            continue
        st, public = states[f["game"]][f["seq"]]
        secret = secret_cards(st, public, seat)
        leaked = cards_in(f) & secret
        assert not leaked, f"game {f['game']} move {f['seq']}: the seat was sent {sorted(leaked)}"
        assert not names_in_text(" ".join(e["text"] for e in f["obs"]["log"]), secret)
        assert sorted(f["obs"]["hand"]) == sorted(card_code(c) for c in st.hand(seat))
        checked += 1
    return checked


def records(base: str, tid: str, games: int) -> dict[int, str]:
    out = {}
    for g in range(1, games + 1):
        r = httpx.get(f"{base}/api/tables/{tid}/games/{g}/record", timeout=HUNG)
        assert r.status_code == 200, r.text
        out[g] = r.text
    return out
