"""Make the screen captures in docs/: ``python -m mattis.tui.capture OUT_DIR [--lang en]``.

Plays a seeded game headless until an interesting moment (phase 2, several entries
on the table, the human to act), then writes ``play.svg`` (Textual's screenshot)
and ``play.txt`` (the same screen as plain text).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
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
    session = Session(rules=preset("mattis", sequences=2), players=4, levels=["medium"] * 4, lang=lang,
                      seed=seed, save_path=out / "capture-game.json")
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--lang", choices=("nb", "en"), default="en")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    seed = args.seed
    while not asyncio.run(capture(args.out, args.lang, seed, (104, 31))):
        seed += 1
    print(f"seed {seed}: wrote {args.out / 'play.svg'} and {args.out / 'play.txt'}")


if __name__ == "__main__":
    main()
