"""The capture in docs/play.md of a terminal seat at a web table:
``python -m mattis.tui.capture_join OUT_DIR [--lang en] [--seed N]``.

Starts ``mattis serve --test-mode`` on a free loopback port (a subprocess: this module
speaks to it only over HTTP and the WebSocket, as ``mattis join`` does), makes a table
for three (the host, a free seat, a bot) with a seeded deal, takes the free seat with
the invite link, and plays it in the terminal table (:class:`~mattis.tui.remote_app.RemoteApp`,
80x24, headless) while the host plays its first legal move, until a moment in phase 2
with the terminal seat to act; then writes ``join.txt`` (the screen as plain text).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from rich.console import Console

from ..core import PHASE2
from .i18n import Lang
from .remote import connect_seat
from .remote_app import RemoteApp

SIZE = (80, 24)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, body: dict[str, Any], origin: str) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Origin": origin})
    with urllib.request.urlopen(req, timeout=60) as answer:
        data: dict[str, Any] = json.loads(answer.read())
    return data


def _host(base: str, tid: str, token: str, stop: threading.Event) -> None:
    """Seat 0: starts the game when the table is full and plays its first legal move."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect
    from websockets.typing import Origin

    try:
        _host_seat(connect(base.replace("http", "ws") + f"/ws/{tid}", origin=Origin(base)), token, stop)
    except (ConnectionClosed, OSError):
        return  # the server was stopped: the capture is done


def _host_seat(ws: Any, token: str, stop: threading.Event) -> None:
    with ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        started = False
        for text in ws:
            if stop.is_set():
                return
            f = json.loads(text)
            if f["status"] == "lobby" and not started and all(s["kind"] != "open" for s in f["seats"]):
                started = True
                ws.send(json.dumps({"type": "start"}))
            obs = f.get("obs")
            if f["status"] == "playing" and obs and obs["to_act"] == 0 and obs["legal"]:
                ws.send(json.dumps({"type": "move", "game": f["game"], "seq": f["seq"], "move": obs["legal"][0]}))


def screen_text(app: RemoteApp, size: tuple[int, int]) -> str:
    console = Console(width=size[0], height=size[1], file=io.StringIO(), record=True, legacy_windows=False,
                      safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    return "\n".join(line.rstrip() for line in console.export_text(styles=False).splitlines()).rstrip() + "\n"


async def _play(app: RemoteApp, out: Path) -> bool:
    async with app.run_test(size=SIZE) as pilot:
        sent: set[tuple[int, int]] = set()
        while True:
            s = app.remote
            if s.over:
                return False
            if s.human_to_act:
                obs = s.observation()
                if obs.phase is PHASE2 and len(obs.table2) >= 1 and len(obs.legal) >= 3:
                    await pilot.pause()
                    (out / "join.txt").write_text(screen_text(app, SIZE), encoding="utf-8")
                    return True
                if (s.game, s.seq) not in sent:
                    sent.add((s.game, s.seq))
                    app.submit(obs.legal[-1] if obs.legal[-1].is_play else obs.legal[0])
            await pilot.pause(0.02)


def capture(out: Path, lang: Lang, seed: int) -> bool:
    """Write ``join.txt``; ``False`` when this seed's game never reached such a moment."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "mattis.cli.main", "serve", "--host", "127.0.0.1", "--port",
                                 str(port), "--db", str(Path(tmp) / "capture.db"), "--bot-delay", "0",
                                 "--test-mode"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        stop = threading.Event()
        try:
            while True:
                try:
                    urllib.request.urlopen(base + "/api/meta", timeout=60).close()
                    break
                except OSError:
                    if proc.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            table = _post(base + "/api/tables", {"preset": "mattis", "players": 3, "name": "Anne", "seed": seed,
                                                 "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]},
                          base)
            seat = connect_seat(f"{base}/t/{table['table']}?invite={table['invite']}", "Tor", lang,
                                lambda _note: None)
            threading.Thread(target=_host, args=(base, table["table"], table["token"], stop), daemon=True).start()
            seat.wait_for_game(lambda _line: None)
            try:
                return asyncio.run(_play(RemoteApp(seat), out))
            finally:
                seat.conn.close()
        finally:
            stop.set()
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--lang", choices=("nb", "en"), default="en")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    seed = args.seed
    while not capture(args.out, args.lang, seed):
        seed += 1
    print(f"seed {seed}: wrote {args.out / 'join.txt'}")


if __name__ == "__main__":
    main()
