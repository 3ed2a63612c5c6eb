"""``mattis replay FILE [--json]``: replay a record and show the resulting state."""

from __future__ import annotations

import argparse
from dataclasses import replace

from ..core import GameRecord, RecordError, describe_move, load_record, say
from ..play import MovePlayed, PlayerOut, PlayerWaiting, replay_events
from .args import MAX_MOVES, whole
from .common import dump_json, record_people
from .main import CliError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game record (JSON)")
    p.add_argument("--json", action="store_true", help="print the resulting state as JSON")
    p.add_argument("--upto", type=whole(0, MAX_MOVES), default=None, metavar="N", help="replay only the first N moves")
    p.add_argument("--lang", choices=("nb", "en"), default="en", help="language of the move list")
    p.add_argument("--quiet", action="store_true", help="do not list the moves")


def run(args: argparse.Namespace) -> int:
    try:
        record: GameRecord = load_record(args.file)
        if args.upto is not None and args.upto > len(record.moves):
            raise CliError(f"--upto {args.upto}: the record has {len(record.moves)} moves; give 0 to "
                           f"{len(record.moves)}")
        state = record.replay(args.upto)
    except RecordError as e:
        raise CliError(f"{args.file}: {e}") from None
    snap = state.snapshot()
    if args.json:
        print(dump_json(snap))
        return 0
    names = record_people(args.file, state.players, args.lang)
    if not args.quiet:
        played = replace(record, moves=record.moves[:state.n_moves])
        i = 0
        for _obs, events in replay_events(played):
            for ev in events:
                if isinstance(ev, MovePlayed):
                    i += 1
                    print(f"{i:4d}. " + describe_move(names[ev.seat], ev.move, ev.shown, args.lang))
                elif isinstance(ev, PlayerWaiting):
                    print("      " + say("log.waiting", args.lang, name=names[ev.seat]))
                elif isinstance(ev, PlayerOut):
                    print("      " + say("log.out", args.lang, name=names[ev.seat], place=ev.place))
    print(f"phase: {snap['phase']}   trump: {snap['trump'] or 'not shown'}   "
          f"to act: {'-' if snap['to_act'] is None else names[snap['to_act']]}")
    for seat in range(state.players):
        hand = " ".join(snap["hands"][seat]) or "-"
        pile = len(snap["piles"][seat])
        print(f"  {seat} {names[seat]:<6} hand: {hand}   pile: {pile}")
    if snap["table"]:
        table = snap["table"]
        laid = " | ".join(" ".join(e) if isinstance(e, list) else e for e in table)
        print(f"  table: {laid}")
    print(f"  stock: {len(snap['stock'])} cards")
    if state.is_over:
        print("finished: " + (", ".join(names[s] for s in snap["finished"]) or "-"))
        print("losers: " + (", ".join(names[s] for s in snap["losers"]) or "-")
              + (f" (ended by {snap['end_reason']})" if snap["end_reason"] != "normal" else ""))
    elif snap["legal"]:
        print("legal: " + ", ".join(snap["legal"]))
    return 0
