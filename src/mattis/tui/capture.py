"""Make the screen captures in docs/: ``python -m mattis.tui.capture OUT_DIR [--lang en] [--png FILE]``.

Plays the default game (``mattis play`` with no options: the mattis rules, you against
two bots) seeded and headless until an interesting moment (phase 2, several entries on
the table, the human to act), then writes ``play.svg`` (Textual's screenshot) and
``play.txt`` (the same screen as plain text); with ``--png`` also that SVG rendered by
a headless Chromium (``docs/img/play.png``).

``python -m mattis.tui.capture --docs [--check]`` writes the 80x24 text captures in
docs/play.md (the welcome at the start of a game, and the review of a game at its end),
each between ``<!-- capture: NAME -->`` and ``<!-- /capture -->``; with ``--check`` it
only compares them and exits 1 when one is stale (a test runs the same comparison).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot

from ..bots.evaluate import Budget
from ..core import PHASE2, MoveKind, preset
from .analysis import AnalysisScreen
from .app import MattisApp
from .i18n import Lang
from .screens import EndScreen
from .session import Session


def interesting(session: Session) -> bool:
    obs = session.observation()
    return (obs.phase is PHASE2 and len(obs.table2) >= 2 and bool(obs.legal) and len(obs.hand) >= 6
            and len(obs.legal) >= 3)


async def capture(out: Path, lang: Lang, seed: int, size: tuple[int, int]) -> bool:
    """Write the captures; ``False`` if this seed's game never reached such a moment."""
    session = Session(rules=preset("mattis"), players=3, levels=["medium"] * 3, lang=lang,
                      seed=seed, save_path=out / "capture-game.json", stats_path=None)
    session.start()
    app = MattisApp(session, delay=0)
    rng = random.Random(seed)
    async with app.run_test(size=size) as pilot:
        while not interesting(session):
            if session.over:
                return False
            obs = session.observation()
            moves = [m for m in obs.legal if m.kind is not MoveKind.CHANCE] or list(obs.legal)
            app.submit(rng.choice(moves))
            await pilot.pause()
        await pilot.press("right", "right", "h")
        await pilot.pause()
        (out / "play.svg").write_text(app.export_screenshot(title="mattis play"), encoding="utf-8")
        console = Console(width=size[0], height=size[1], file=io.StringIO(), record=True,
                          legacy_windows=False, safe_box=False)
        console.print(app.screen._compositor.render_update(full=True))
        text = "\n".join(line.rstrip() for line in console.export_text(styles=False).splitlines())
        (out / "play.txt").write_text(text.rstrip() + "\n", encoding="utf-8")
    (out / "capture-game.json").unlink(missing_ok=True)
    return True


async def drawn(pilot: Pilot[Path | None]) -> None:
    """Wait until the screen has handled its messages and laid out and painted what it was
    last told (Textual does that on a timer)."""
    await pilot.pause()
    screen = pilot.app.screen
    while screen._layout_required or screen._repaint_required or screen._dirty_widgets:
        await pilot.pause()


def screen_text(app: MattisApp) -> str:
    """The screen as plain text, trailing spaces cut."""
    size = (app.size.width, app.size.height)
    console = Console(width=size[0], height=size[1], file=io.StringIO(), record=True, legacy_windows=False,
                      safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    return "\n".join(line.rstrip() for line in console.export_text(styles=False).splitlines()).rstrip() + "\n"


DOCS_SIZE = (80, 24)
"""The terminal of the captures in docs/play.md: the smallest the table fits."""

DOCS_SEED = 3
"""The seeded game of those captures (deal, bots, the first dealer)."""

DOCS_BUDGET = Budget(samples=8)
"""The review's budget in the docs' capture (8 playouts per move, so it is made in
seconds; the terminal's own is 64): its margins are wide, and it says so."""


async def docs_captures(folder: Path, lang: Lang = "en") -> dict[str, str]:
    """The captures for docs/play.md: ``welcome`` (the table at the start of the seeded
    default game, its first log line the welcome) and ``review`` (that game played to its
    end with seeded random moves, then **a**: the review window).  Files go to ``folder``."""
    def game() -> Session:
        session = Session(rules=preset("mattis"), players=3, levels=["medium"] * 3, lang=lang, seed=DOCS_SEED,
                          save_path=folder / "capture-game.json", stats_path=None)
        session.start()
        return session

    out: dict[str, str] = {}
    # the welcome: the table as it opens, before the first bot's move (at the usual pace the
    # bots wait; here the first waits longer than the capture takes)
    app = MattisApp(game(), delay=24 * 3600, settings_file=folder / "settings.json")
    async with app.run_test(size=DOCS_SIZE) as pilot:
        await drawn(pilot)
        out["welcome"] = screen_text(app)
    # the review: the same game played out (seeded random moves), then **a** on the end screen
    session = game()
    app = MattisApp(session, delay=0, settings_file=folder / "settings.json")
    rng = random.Random(DOCS_SEED)
    async with app.run_test(size=DOCS_SIZE) as pilot:
        while not isinstance(app.screen, EndScreen):
            obs = session.observation()
            moves = [m for m in obs.legal if m.kind is not MoveKind.CHANCE] or list(obs.legal)
            app.submit(rng.choice(moves))
            await pilot.pause()
        screen = AnalysisScreen(session.referee.record(), 0, list(session.names), lang, budget=DOCS_BUDGET)
        app.push_screen(screen)
        while screen.result is None:
            await pilot.pause()
        await drawn(pilot)
        out["review"] = screen_text(app)
    return out


def update_docs(doc: Path, captures: dict[str, str]) -> bool:
    """Put each capture between its markers in ``doc``; whether anything changed."""
    text = doc.read_text(encoding="utf-8")
    new = text
    for name, capture in captures.items():
        start = f"<!-- capture: {name} -->\n"
        i = new.index(start) + len(start)
        j = new.index("<!-- /capture -->", i)
        new = new[:i] + "```text\n" + capture + "```\n" + new[j:]
    if new != text:
        doc.write_text(new, encoding="utf-8")
    return new != text


def stale_captures(doc: Path, captures: dict[str, str]) -> list[str]:
    """The captures whose block in ``doc`` differs from ``captures``."""
    text = doc.read_text(encoding="utf-8")
    stale = []
    for name, capture in captures.items():
        start = f"<!-- capture: {name} -->\n"
        if start not in text:
            stale.append(name)
            continue
        i = text.index(start) + len(start)
        j = text.index("<!-- /capture -->", i)
        if text[i:j] != "```text\n" + capture + "```\n":
            stale.append(name)
    return stale


DOCS = Path(__file__).resolve().parents[3] / "docs" / "play.md"
"""docs/play.md in a clone (where ``--docs`` writes)."""


SIZE = (110, 36)
"""The terminal captured (columns, rows): roomy enough for card faces and the buttons."""


def svg_to_png(svg: Path, png: Path, size: tuple[int, int]) -> None:
    """Render ``svg`` with a headless Chromium (``$CHROMIUM``, else ``chromium`` on the path)."""
    browser = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise SystemExit("--png needs chromium (set CHROMIUM to its path)")
    text = svg.read_text(encoding="utf-8")
    # the page is the SVG at its own width; the window is cut to its height
    width = 12 * size[0] + 40
    height = int(24.4 * size[1]) + 58
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "play.html"
        page.write_text(f'<html><body style="margin:0;background:#000">'
                        f'<div style="width:{width}px">{text}</div></body></html>', encoding="utf-8")
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={width},{height}", f"--screenshot={png.resolve()}", page.as_uri()],
                       check=True, capture_output=True, timeout=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--docs", action="store_true", help="write the 80x24 captures in docs/play.md")
    parser.add_argument("--check", action="store_true", help="with --docs: only say whether they are stale")
    parser.add_argument("--lang", choices=("nb", "en"), default="en")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--png", type=Path, default=None, help="also render the SVG to this PNG file")
    args = parser.parse_args()
    if args.docs:
        with tempfile.TemporaryDirectory() as tmp:
            captures = asyncio.run(docs_captures(Path(tmp), args.lang))
        if args.check:
            stale = stale_captures(DOCS, captures)
            if stale:
                raise SystemExit(f"stale in {DOCS}: {', '.join(stale)} (python -m mattis.tui.capture --docs)")
            print("the captures in docs/play.md are current")
        else:
            print(f"{DOCS}: {'updated' if update_docs(DOCS, captures) else 'already current'}")
        return
    if args.out is None:
        parser.error("give OUT_DIR, or --docs")
    args.out.mkdir(parents=True, exist_ok=True)
    seed = args.seed
    while not asyncio.run(capture(args.out, args.lang, seed, SIZE)):
        seed += 1
    print(f"seed {seed}: wrote {args.out / 'play.svg'} and {args.out / 'play.txt'}")
    if args.png is not None:
        svg_to_png(args.out / "play.svg", args.png, SIZE)
        print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
