"""Make the screen captures in docs/: ``python -m mattis.tui.capture OUT_DIR [--lang en] [--png FILE]``.

Plays the default game (``mattis play`` with no options: the mattis rules, you against
two bots) seeded and headless until an interesting moment (phase 2, several entries on
the table, the human to act), then writes ``play.svg`` (Textual's screenshot) and
``play.txt`` (the same screen as plain text); with ``--png`` also that SVG rendered by
a headless Chromium (``docs/img/play.png``).
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

from ..core import PHASE2, MoveKind, preset
from .app import MattisApp
from .i18n import Lang
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
    parser.add_argument("out", type=Path)
    parser.add_argument("--lang", choices=("nb", "en"), default="en")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--png", type=Path, default=None, help="also render the SVG to this PNG file")
    args = parser.parse_args()
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
