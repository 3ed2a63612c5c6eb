"""``mattis analyze FILE``: review a game move by move for one seat.

FILE is a game record: what ``mattis play`` saves (a record with a ``session``
object), what ``mattis replay`` reads, or a record downloaded from ``mattis serve``
(with ``names``).  See docs/analyze.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..core import GameRecord, RecordError, load_record, say
from ..core.cards import Lang
from ..play.saving import is_regular_or_absent
from .args import MAX_BUDGET, MAX_MOVES, seed, whole
from .common import dump_json, record_lang, record_people
from .main import CliError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game record (JSON): a saved game of mattis play, or a record from mattis serve")
    p.add_argument("--seat", default=None, metavar="N|NAME|all",
                   help="whose decisions to review: a seat number or a player's name (default: seat 0, "
                        "the person in a game saved by mattis play); all: every seat, and the accuracy per seat")
    p.add_argument("--json", action="store_true", help="print the review as JSON (schema in docs/analyze.md)")
    p.add_argument("--chart", default=None, metavar="PNG", help="also draw the chance over the game as a PNG")
    p.add_argument("--budget", type=whole(1, MAX_BUDGET), default=64, metavar="N",
                   help="playouts per legal move at each phase 2 decision (default 64, as the terminal and the web "
                        "page; phase 1 takes at most 16)")
    p.add_argument("--decision", type=whole(0, MAX_MOVES), default=None, metavar="N",
                   help="review only the decision at move N of the record (the number the review shows)")
    p.add_argument("--deeper", action="store_true",
                   help="with --decision: look deeper (16 times the playouts, ten times the solver's nodes, the "
                        "solver from 24 cards)")
    p.add_argument("--seed", type=seed, default=0, metavar="S", help="seed of the review's sampling (default 0)")
    p.add_argument("--lang", choices=("nb", "en"), default=None,
                   help="language of the review (default: the saved game's, else en)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def pick_seat(text: str | None, players: int, names: list[str]) -> int:
    """The seat ``--seat`` names: a number from 0, or a name (any case)."""
    if text is None:
        return 0
    t = text.strip()
    if t.isdigit():
        seat = int(t)
        if not 0 <= seat < players:
            raise CliError(f"--seat {t}: there is no seat {seat}; the seats are 0 to {players - 1}")
        return seat
    hits = [i for i, n in enumerate(names) if n.casefold() == t.casefold()]
    if len(hits) == 1:
        return hits[0]
    known = ", ".join(f"{i} {n}" for i, n in enumerate(names))
    if hits:
        raise CliError(f"--seat {t!r}: more than one seat has that name; give the number ({known})")
    raise CliError(f"--seat {t!r}: no player has that name; the seats are: {known}")


def run(args: argparse.Namespace) -> int:
    from ..bots.evaluate import Budget
    from ..lab.review import ReviewError, deeper, review, review_chart, review_text, seats_text

    if args.budget < 1:
        raise CliError("--budget must be 1 or more")
    if args.deeper and args.decision is None:
        raise CliError("--deeper looks deeper at one decision: give it with --decision N")
    try:
        record: GameRecord = load_record(args.file)  # refuses devices, pipes and monster files
        record.replay()
    except RecordError as e:
        raise CliError(f"{args.file}: {e}") from None
    # read again only now that the loader has found a regular record file
    lang: Lang = args.lang or record_lang(args.file) or "en"
    names = record_people(args.file, record.players, lang)
    every = args.seat is not None and args.seat.strip().lower() in ("all", "alle")
    if every and (args.decision is not None or args.chart):
        raise CliError("--seat all reviews every seat's game; --decision and --chart take one seat")
    seat = 0 if every else pick_seat(args.seat, record.players, names)
    chart: Path | None = None
    if args.chart:
        chart = Path(args.chart)
        if chart.exists() and chart.resolve() == Path(args.file).resolve():
            raise CliError(f"--chart {args.chart} is the game file itself; give another file name")
        if chart.is_dir():
            raise CliError(f"--chart {args.chart} is a folder; give a file name")
        if not is_regular_or_absent(chart):
            raise CliError(f"--chart {args.chart} is not a regular file (a device or a socket); give a file name")
        folder = chart.parent if str(chart.parent) else Path(".")
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise CliError(f"--chart {args.chart}: cannot write in {folder}")
        import matplotlib  # noqa: F401  (fail now, not after the review, when the extra is missing)

    def progress(done: int, total: int) -> None:
        print("\r" + say("review.progress", lang, done=done, total=total), end="" if done < total else "\n",
              file=sys.stderr, flush=True)

    try:
        budget = Budget(samples=args.budget)
        if every:
            reviews = [review(record, q, budget, args.seed, names=names, lang=lang,
                              progress=None if args.quiet else progress) for q in range(record.players)]
            print(dump_json({"seats": [r.to_json() for r in reviews]}) if args.json else
                  "\n\n".join([*(review_text(r, lang) for r in reviews), seats_text(reviews, lang)]))
            return 0
        rv = review(record, seat, deeper(budget) if args.deeper else budget, args.seed, names=names,
                    lang=lang, progress=None if args.quiet else progress, decision=args.decision)
    except ReviewError as e:
        raise CliError(f"{args.file}: {e}") from None
    if chart is not None:
        try:
            review_chart(rv, chart, lang)
        except OSError as e:
            raise CliError(f"cannot write the chart to {chart}: {e.strerror}") from None
    print(dump_json(rv.to_json()) if args.json else review_text(rv, lang))
    return 0
