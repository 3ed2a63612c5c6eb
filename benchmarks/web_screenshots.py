"""Retake the web page's screenshots in docs/img/ (not a test): seeded games on a
throwaway server, played by clicking in Chromium under Playwright.

    python benchmarks/web_screenshots.py                 # writes docs/img/web-*.png
    python benchmarks/web_screenshots.py --out /tmp/shots --chromium /usr/bin/chromium

It starts ``mattis serve --test-mode --bot-delay 0`` on a free port with a database in a
temporary folder (test mode lets the page ask for a seeded deal: ``/?seed=N``) and takes:

* ``web-table.png``: a laptop (1000×760), in English: Mattis, Anne against two bots, in
  phase 1 with a trick held on the table ("… takes the trick"), a 60 s turn clock
  counting down and the host's buttons (nudge, skip, pause);
* ``web-phone.png``: a phone (390×844, touch), in Norwegian: phase 2 of a two-player
  game with 27 cards in Anne's hand, on her turn (the hand and the buttons docked at the
  bottom);
* ``web-review.png``: the review page of a shorter two-player game (the first playable
  card each time) on a laptop, in English (the chart, the deal's luck, the accuracy and
  the three costliest choices in words);
* ``web-review-phone.png``: the same review on the phone, in Norwegian.

The deals are seeded, the person's moves follow a fixed rule (the highest playable card,
or for the reviewed game the first; else chance; else pick up) and the server's bots are
seeded by the table, so a rerun shows the same positions (the review's figures move
within their uncertainty: its sampling seed is the table's id, new each run).  Each PNG is reduced to 128
colours (Pillow) to keep the repository small.  Needs the ``web`` extra, Playwright and a Chromium.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
LAPTOP = {"width": 1000, "height": 760}
PHONE = {"width": 390, "height": 844}
WAIT = 300.0
"""Seconds any one step may take before the run gives up (a review takes a while)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "mattis.cli.main", "serve", "--host", "127.0.0.1", "--port",
                             str(port), "--db", str(db), "--bot-delay", "0", "--test-mode"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited ({proc.returncode})")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=5).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not answer")


def dataset(page: Any) -> dict[str, str]:
    d: dict[str, str] = page.evaluate("() => Object.assign({}, document.body.dataset)")
    return d


def create_table(page: Any, base: str, players: int, seed: int, clock: str = "off") -> None:
    page.goto(f"{base}/?seed={seed}")
    page.fill("#name", "Anne")
    page.select_option("#preset", "mattis")
    page.select_option("#players", str(players))
    page.select_option("#clock", clock)
    for i in range(1, players):
        page.select_option(f"#seat-kind-{i}", "bot")
    page.click("#create")
    page.wait_for_selector("#btn-start")
    page.click("#btn-start")
    page.wait_for_selector("#felt")


def my_turn(page: Any) -> dict[str, str] | None:
    """The page's dataset once it is Anne's turn; None once the game is over."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        s = dataset(page)
        if s.get("status") == "over":
            return None
        if s.get("myturn") == "1" and "sent" not in s:
            return s
        time.sleep(0.02)
    raise SystemExit("Anne's turn did not come")


def act(page: Any, highest: bool = True) -> None:
    """The highest playable card (the hand is sorted; else the first), else chance, else pick up."""
    seq = dataset(page)["seq"]
    legal = page.locator(".hand .card.legal")
    chance = page.locator("#btn-chance")
    if legal.count():
        (legal.last if highest else legal.first).click()
        play = page.locator("#btn-play")
        if play.count() and play.is_enabled():
            play.click()
    elif chance.count() and chance.is_enabled():
        chance.click()
    else:
        page.click("#btn-pickup")
    page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}' || document.body.dataset.status === 'over'")


def save(page: Any, path: Path, full: bool = False) -> None:
    from PIL import Image

    page.screenshot(path=str(path), full_page=full)
    img = Image.open(path).convert("RGB").quantize(colors=128, method=Image.Quantize.FASTOCTREE)
    img.save(path, optimize=True)
    print(f"{path}  {path.stat().st_size // 1024} kB")


def review_page(page: Any) -> None:
    page.click("#btn-analyse")
    page.wait_for_selector("#analysis-chart", timeout=WAIT * 1000)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="folder for the PNGs")
    ap.add_argument("--chromium", default="/usr/bin/chromium",
                    help="the Chromium to drive (Playwright's own if absent)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(Path(tmp) / "shots.db", port)
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as pw:
                exe = args.chromium if os.path.exists(args.chromium) else None
                browser = pw.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])

                def context(viewport: Any, lang: str) -> Any:
                    phone = viewport is PHONE
                    ctx = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
                    ctx.set_default_timeout(WAIT * 1000)
                    ctx.add_init_script(f"localStorage.setItem('mattis.lang', '{lang}'); "
                                        "localStorage.setItem('mattis.pace', '3')")
                    return ctx

                # The laptop: phase 1, a trick held on the table with who took it.
                laptop = context(LAPTOP, "en")
                page = laptop.new_page()
                create_table(page, base, 3, seed=11, clock="60")
                for _ in range(40):  # until a trick is held on the table on her turn
                    if my_turn(page) is None:
                        raise SystemExit("the game ended before a trick was held")
                    if page.locator("#taker").count():
                        break
                    act(page)
                page.evaluate("() => window.scrollTo(0, 0)")
                save(page, args.out / "web-table.png")
                laptop.close()

                # The phone: phase 2 with a big hand, on her turn.
                phone = context(PHONE, "nb")
                page = phone.new_page()
                create_table(page, base, 2, seed=4)
                while True:
                    s = my_turn(page)
                    if s is None:
                        raise SystemExit("the game ended before phase 2")
                    if s["phase"] == "2":
                        break
                    act(page)
                page.evaluate("() => window.scrollTo(0, 0)")
                page.wait_for_function("() => !document.querySelector('#taker')")  # the held trick is gone
                save(page, args.out / "web-phone.png")
                page.close()
                # The review of a shorter game (a long phase 2 takes minutes to review), on the phone.
                page = phone.new_page()
                create_table(page, base, 2, seed=3)
                while my_turn(page) is not None:
                    act(page, highest=False)
                page.wait_for_selector("#result")
                tid = page.url.rstrip("/").split("/")[-1]
                review_page(page)
                page.evaluate("() => window.scrollTo(0, 0)")
                save(page, args.out / "web-review-phone.png")
                phone.close()

                # The same review on a laptop, in English (the page of a spectator-free copy:
                # the review is cached per game and seat, so it is the same review).
                laptop = context(LAPTOP, "en")
                page = laptop.new_page()
                page.goto(f"{base}/t/{tid}")
                page.wait_for_selector("#felt")
                review_page(page)
                save(page, args.out / "web-review.png", full=True)
                laptop.close()
                browser.close()
        finally:
            proc.kill()
            proc.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
