"""The offline app (``mattis build-web``) in Debian's Chromium, as a phone would use it.

The bundle is served by a static server on loopback; after the first visit the network is cut
(``context.set_offline``) and the app is reloaded from the service worker's cache.  A Blodmattis
game and a Skitgubbe game are played against bots by tapping at a phone's size, the tab is closed
in the middle of one and the game goes on in a new tab (a hint asked for on the way), each record
is exported and ``mattis replay`` finds the same ending.  Every frame the page got is checked
against the truth (the record): no card hidden from the seat is in any of them.  A damaged save
is refused in words and the other games are kept.  The manifest and service worker pass
Chromium's installability check.

The bundle is the one CI built (``MATTIS_SOLO_BUNDLE``), else it is built here (the Pyodide
runtime from ``MATTIS_PYODIDE_CACHE`` or the npm registry; skipped where neither is there).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import replace
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")

from test_web_browser import ARGS, CHROMIUM, dataset, enabled  # noqa: E402

from mattis.core import GameRecord, card_code  # noqa: E402
from mattis.play import Referee  # noqa: E402
from mattis.web.bundle import PYODIDE_VERSION  # noqa: E402
from tiers import HUNG  # noqa: E402

pytestmark = [pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
              pytest.mark.slow]
PHONE = {"width": 390, "height": 844}
# Every message the worker sends the page, kept by the test (the page's own code is not changed).
SPY = """(() => {
  const W = window.Worker;
  window.__seen = [];
  window.Worker = class extends W {
    constructor(...a) { super(...a); this.addEventListener("message", (e) => window.__seen.push(e.data)); }
  };
})();"""


def mattis(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mattis.cli.main", *args], capture_output=True, text=True,
                          timeout=HUNG)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("MATTIS_SOLO_BUNDLE")
    if given:
        return Path(given)
    cache = os.environ.get("MATTIS_PYODIDE_CACHE")
    if shutil.which("npm") is None and not (cache and (Path(cache) / f"pyodide-{PYODIDE_VERSION}.tgz").is_file()):
        pytest.skip("needs npm (the Pyodide runtime) or MATTIS_PYODIDE_CACHE holding its tarball")
    out = tmp_path_factory.mktemp("solo") / "app"
    run = mattis("build-web", str(out), *(["--cache", cache] if cache else []))
    assert run.returncode == 0, run.stderr
    return out


@pytest.fixture(scope="module")
def site(bundle: Path) -> Iterator[str]:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(bundle)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def ready(page: Any) -> None:
    page.wait_for_function("document.body.dataset.solo !== 'loading'", timeout=HUNG * 1000)
    assert dataset(page)["solo"] == "ready", page.locator("#app").inner_text()


def my_turn(page: Any) -> dict[str, str] | None:
    """The page's dataset once it is her turn; None once the game is over."""
    page.wait_for_function("(document.body.dataset.myturn === '1' && !('sent' in document.body.dataset))"
                           " || document.body.dataset.phase === '3'", timeout=HUNG * 1000)
    s = dataset(page)
    return None if s["phase"] == "3" else s


def act(page: Any) -> None:
    """Her turn by tapping: the first playable card (and Play, for a sequence), else sjanse / pick up."""
    legal = page.locator(".hand .card.legal")
    if legal.count():
        legal.first.tap()
        if enabled(page, "#btn-play"):
            page.locator("#btn-play").tap()
    elif enabled(page, "#btn-chance"):
        page.locator("#btn-chance").tap()
    else:
        page.locator("#btn-pickup").tap()


def play(page: Any, moves: int | None = None) -> None:
    """Her turns until the game is over (or ``moves`` of them)."""
    done = 0
    while moves is None or done < moves:
        s = my_turn(page)
        if s is None:
            return
        act(page)
        page.wait_for_function(f"document.body.dataset.seq !== '{s['seq']}' || document.body.dataset.phase === '3'"
                               " || !!document.querySelector('#error')", timeout=HUNG * 1000)
        assert not page.locator("#error").count(), page.locator("#error").inner_text()
        done += 1


def new_table(page: Any, preset: str, players: int, seed: int) -> str:
    page.fill("#name", "Anne")
    page.select_option("#preset", preset)
    page.select_option("#players", str(players))
    for i in range(1, players):
        page.select_option(f"#seat-level-{i}", "easy")
    page.locator("#create").tap()
    page.wait_for_selector("#btn-start")
    tid: str = page.evaluate("location.hash.slice(4)")
    page.locator("#btn-start").tap()
    page.wait_for_selector("#felt")
    return tid


def export(page: Any, tmp: Path, name: str) -> Path:
    with page.expect_download() as got:
        page.locator("#download").tap()
    path = tmp / name
    got.value.save_as(path)
    return path


def last_state(page: Any) -> dict[str, Any]:
    frames = [json.loads(m["data"]) for m in page.evaluate("window.__seen") if m.get("type") == "frame"]
    state: dict[str, Any] = [f for f in frames if f.get("type") == "state"][-1]
    return state


def replay_agrees(record: Path, state: dict[str, Any]) -> None:
    """``mattis replay`` reads the exported record and ends where the page's game ended."""
    run = mattis("replay", "--json", "--quiet", str(record))
    assert run.returncode == 0, run.stderr
    end = json.loads(run.stdout)
    obs = state["obs"]
    assert end["phase"] == "over" and obs["phase"] == 3
    assert end["moves_played"] == state["seq"]
    assert (end["losers"], end["finished"]) == (obs["losers"], obs["finished"])
    assert obs["losers"], "a finished game has its loser"


def no_leak(page: Any, record: Path) -> int:
    """No frame the page got holds a card another seat holds unseen (checked against the record's
    deal, replayed to each frame's move); returns the number of frames checked."""
    rec = GameRecord.loads(record.read_text(encoding="utf-8"))
    checked = 0
    for m in page.evaluate("window.__seen"):
        if m.get("type") != "frame" or not m["data"].startswith('{"type":"state"'):
            continue
        f = json.loads(m["data"])
        if f.get("game") != 1 or "obs" not in f or f["rules_name"] != rec.rules.name:
            continue
        ref = Referee.from_record(replace(rec, moves=rec.moves[:f["seq"]]))
        mine = ref.observation(0)
        assert [card_code(c) for c in mine.hand] == f["obs"]["hand"]
        for seat in range(1, rec.players):
            hidden = set(ref.observation(seat).hand) - set(mine.known[seat])
            shown = [card_code(c) for c in hidden if f'"{card_code(c)}"' in m["data"]]
            assert not shown, f"move {f['seq']}: seat {seat}'s unseen {shown} sent to the page"
        checked += 1
    return checked


def test_offline_app_plays_two_whole_games_on_a_phone_and_survives_a_closed_tab(
        site: str, tmp_path: Path) -> None:
    with pw.sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, viewport=PHONE, is_mobile=True,
            has_touch=True, accept_downloads=True)
        try:
            ctx.add_init_script(SPY)
            ctx.add_init_script("localStorage.setItem('mattis.lang', 'nb')")
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.goto(site + "?bot_delay=0&seed=11")
            # while the engine loads the page says so (or it is ready already): waited for, as
            # a busy machine may run the page's script after the load event
            page.wait_for_function("!!document.querySelector('#solo-status') || document.body.dataset.solo === 'ready'",
                                   timeout=HUNG * 1000)
            ready(page)
            page.wait_for_function("navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
                                   " || false", timeout=HUNG * 1000)
            page.wait_for_function("!!navigator.serviceWorker.controller", timeout=HUNG * 1000)
            # Installable: the manifest and the service worker meet Chromium's criteria.
            cdp = ctx.new_cdp_session(page)
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            manifest = cdp.send("Page.getAppManifest")
            assert not manifest.get("errors"), manifest

            # Offline from here on: the app comes from the device.
            ctx.set_offline(True)
            page.reload()
            ready(page)
            assert page.evaluate("fetch('https://example.invalid/').then(() => 'online', () => 'offline')") == "offline"

            # A whole Blodmattis game against two easy bots.
            blod = new_table(page, "blodmattis", 3, 11)
            play(page)
            page.wait_for_selector("#result")
            blod_state = last_state(page)
            # The finished game move by move, from the worker's copy of the record.
            page.locator("#btn-replay").tap()
            page.wait_for_selector("#replay")
            page.locator("#replay-next").tap()
            page.wait_for_function("document.querySelector('#replay-text').textContent.includes('Anne')"
                                   " || /\\d/.test(document.querySelector('#replay-step').textContent)")
            page.locator("#btn-replay-back").tap()
            page.wait_for_selector("#result")
            blod_rec = export(page, tmp_path, "blodmattis.json")
            replay_agrees(blod_rec, blod_state)
            assert no_leak(page, blod_rec) > 5

            # Skitgubbe: the tab is closed in the middle (once its last move is stored) ...
            page.goto(site + "?bot_delay=0&seed=12")
            ready(page)
            page.wait_for_selector("#name")
            skit = new_table(page, "skitgubbe", 2, 12)
            play(page, moves=6)
            # The hint: worked out in the worker from her view, said above the hand, its card marked.
            s = my_turn(page)
            assert s is not None
            page.locator("#btn-hint").tap()
            page.wait_for_function("!!document.body.dataset.hint", timeout=HUNG * 1000)
            assert page.locator("#hint").inner_text().startswith("Hint: ")
            assert page.locator(".hand .card.hinted, .actions button.hinted").count() >= 1
            # Take-back: her last move and the bots' after it are undone.
            s = my_turn(page)
            assert s is not None and dataset(page)["undo"] == "1"
            page.locator("#btn-undo").tap()
            page.wait_for_function(f"+document.body.dataset.seq < {s['seq']}", timeout=HUNG * 1000)
            play(page, moves=2)
            s = my_turn(page)
            assert s is not None, "the game ended before the tab was closed"
            page.wait_for_function(f"document.body.dataset.saved === '{skit}:1:{s['seq']}'", timeout=HUNG * 1000)
            seen_before = page.evaluate("window.__seen")
            page.close()
            # ... and a new tab, still offline, opens the app, finds the game among hers and goes on.
            page = ctx.new_page()
            page.goto(site + "?bot_delay=0")
            ready(page)
            page.wait_for_selector("#my-tables")
            page.locator(f'#my-tables a[href="/t/{skit}"]').tap()
            page.wait_for_selector("#felt")
            assert dataset(page)["seq"] == s["seq"]
            play(page)
            page.wait_for_selector("#result")
            skit_state = last_state(page)
            skit_rec = export(page, tmp_path, "skitgubbe.json")
            replay_agrees(skit_rec, skit_state)
            page.evaluate("(before) => { window.__seen = before.concat(window.__seen); }", seen_before)
            assert no_leak(page, skit_rec) > 5

            # A damaged save: said in words; the other games are kept and open.
            page.evaluate("""() => new Promise((ok) => {
              const r = indexedDB.open('mattis-solo', 1);
              r.onsuccess = () => { const tx = r.result.transaction('tables', 'readwrite');
                tx.objectStore('tables').put('{"v":1,"events":[{"type":"create"', 'broken1');
                tx.oncomplete = () => ok(); };
              localStorage.setItem('mattis.seat.broken1',
                JSON.stringify({token: 'x', seat: 0, rules: 'mattis', at: 1}));
            })""")
            page.goto(site + "#/t/broken1")
            ready(page)
            page.wait_for_selector("#refused")
            assert "skadet" in page.locator("#refused").inner_text()
            page.goto(site)
            ready(page)
            page.wait_for_selector("#my-tables")
            page.locator(f'#my-tables a[href="/t/{blod}"]').tap()
            page.wait_for_selector("#result")
            assert dataset(page)["status"] == "over"
        finally:
            ctx.close()


def test_a_runtime_that_fails_to_load_is_said_in_words_with_what_to_do(site: str, tmp_path: Path) -> None:
    with pw.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block")
            ctx.add_init_script("localStorage.setItem('mattis.lang', 'en')")
            ctx.route("**/pyodide.asm.wasm", lambda route: route.abort())
            page = ctx.new_page()
            page.goto(site)
            page.wait_for_function("document.body.dataset.solo !== 'loading'", timeout=HUNG * 1000)
            assert dataset(page)["solo"] == "failed"
            said = page.locator("#solo-status.error").inner_text()
            assert said.startswith("The game could not be loaded") and "Reload the page while online" in said
        finally:
            browser.close()
