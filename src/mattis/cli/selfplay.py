"""``mattis selfplay``: bots play a whole game, printed move by move."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core import Termination, card_symbol, describe_move, say, seat_names
from ..core.cards import Lang
from ..core.text import loser_sentence
from ..play import Event, MovePlayed, PhaseTwoBegins, PlayerOut, PlayerWaiting, Sitting, play_until
from .args import MAX_PLAYERS, names, seed, whole
from .common import add_rules_arguments, check_save_target, rules_from_args, save_record
from .main import CliError


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_rules_arguments(p)
    p.add_argument("--seed", type=seed, default=None, help="seed for a reproducible deal and bots")
    p.add_argument("--bots", type=names, default="random", help="bot name or level per seat, comma separated "
                   "(one name = every seat)")
    p.add_argument("--lang", choices=("nb", "en"), default="en", help="language of the printout")
    p.add_argument("--dealer", type=whole(0, MAX_PLAYERS - 1), default=0, help="dealer seat")
    p.add_argument("--save", metavar="FILE", help="save the game record (JSON) here (an existing file only with "
                   "--force, or when you answer yes at a terminal)")
    p.add_argument("--force", action="store_true", help="let --save overwrite an existing file")


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.save:
        check_save_target(Path(args.save), args.force, lang=args.lang)
    n = args.players
    if not 0 <= args.dealer < n:
        raise CliError(f"--dealer must be a seat from 0 to {n - 1}")
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise CliError(f"--bots names {len(names)} bots for {n} players")
    sitting = Sitting(rules, n, seed=args.seed, dealer=args.dealer)
    referee = sitting.deal()
    try:
        agents = sitting.bots(dict(enumerate(names)))
    except ValueError as e:
        raise CliError(str(e)) from None
    lang = args.lang
    people = seat_names(n, lang=lang)
    house = ", ".join(f"{k}={v}" for k, v in rules.overrides().items())
    print(say("cli.rules", lang, rules=rules.name + (f" ({house})" if house else ""), players=n))
    print(say("cli.dealer", lang, name=people[args.dealer]))
    moves = 0

    def show(seat: int, events: list[Event]) -> None:
        nonlocal moves
        for e in events:
            if isinstance(e, MovePlayed):
                moves += 1
                print(f"{moves:4d}. " + describe_move(people[e.seat], e.move, e.shown, lang))
            elif isinstance(e, PhaseTwoBegins):
                print("--- " + phase_two_line(e, people, lang))
            elif isinstance(e, PlayerWaiting):
                print("      " + say("log.waiting", lang, name=people[e.seat]))
            elif isinstance(e, PlayerOut):
                print("      " + say("log.out", lang, name=people[e.seat], place=e.place))

    play_until(referee, agents, on_events=show)
    outcome = referee.outcome
    assert outcome is not None, "bots play every game to its end"
    print(say("end.order", lang) + " " + (", ".join(people[s] for s in outcome.finished) or "-"))
    for s in outcome.blodmattis:
        print(say("log.blodmattis", lang, name=people[s]))
    if outcome.mattis is not None:
        print(loser_sentence(rules, people[outcome.mattis], lang))
    if outcome.termination is not Termination.NORMAL:
        print(say(f"end.reason.{outcome.termination.value}", lang))
    if args.save:
        save_record(referee.record(), args.save)
        print(say("saved", lang, path=args.save))
    return 0


def phase_two_line(e: PhaseTwoBegins, people: list[str], lang: Lang) -> str:
    """The phase 2 line, e.g. 'Phase 2 begins. Trump is hearts ♥ (Anne holds the trump card 3♥).'"""
    if e.trump is None:
        return say("log.phase2_notrump", lang)
    suit = say(f"suit.{e.trump}", lang)
    if e.trump_card is not None and e.trump_holder is not None:
        suit = say("trump.known_holder", lang, suit=suit, name=people[e.trump_holder], sym=card_symbol(e.trump_card))
    return say("log.phase2", lang, trump=suit)
