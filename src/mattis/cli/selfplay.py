"""``mattis selfplay``: bots play a whole game, printed move by move."""

from __future__ import annotations

import argparse

from ..core import Termination, card_name, describe_move, seat_names, suit_name
from ..play import Event, MovePlayed, PhaseTwoBegins, Sitting, play_until
from .common import add_rules_arguments, rules_from_args, save_record
from .main import CliError


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_rules_arguments(p)
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible deal and bots")
    p.add_argument("--bots", default="random", help="bot name or level per seat, comma separated "
                   "(one name = every seat)")
    p.add_argument("--lang", choices=("nb", "en"), default="en", help="language of the printout")
    p.add_argument("--dealer", type=int, default=0, help="dealer seat")
    p.add_argument("--save", metavar="FILE", help="save the game record (JSON) here")


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
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
    nb = lang == "nb"
    house = ", ".join(f"{k}={v}" for k, v in rules.overrides().items())
    print(("Regler" if nb else "Rules") + f": {rules.name}" + (f" ({house})" if house else "")
          + f", {n} " + ("spillere" if nb else "players"))
    print(("Giver" if nb else "Dealer") + f": {people[args.dealer]}")
    moves = 0

    def show(seat: int, events: list[Event]) -> None:
        nonlocal moves
        for e in events:
            if isinstance(e, MovePlayed):
                moves += 1
                print(f"{moves:4d}. " + describe_move(people[e.seat], e.move, e.shown, lang))
            elif isinstance(e, PhaseTwoBegins) and e.trump is not None:
                trump_text = suit_name(e.trump, lang)
                if e.trump_card is not None and e.trump_holder is not None:
                    trump_text += f" ({card_name(e.trump_card, lang)}, {people[e.trump_holder]})"
                print(("--- Fase 2. Trumf: " if nb else "--- Phase 2. Trump: ") + trump_text)

    play_until(referee, agents, on_events=show)
    outcome = referee.outcome
    assert outcome is not None, "bots play every game to its end"
    order = [people[s] for s in outcome.finished]
    print(("Rekkefølge ut: " if nb else "Finishing order: ") + (", ".join(order) or "-"))
    for s in outcome.blodmattis:
        print(f"{people[s]} " + ("er Blodmattis" if nb else "is Blodmattis (won no trick)"))
    if outcome.mattis is not None:
        print(f"{people[outcome.mattis]} " + ("er Mattis!" if nb else "is Mattis!"))
    if outcome.termination is not Termination.NORMAL:
        print(("Avsluttet: " if nb else "Ended by rule: ") + outcome.termination.value)
    if args.save:
        save_record(referee.record(), args.save)
        print(("Lagret: " if nb else "Saved: ") + args.save)
    return 0
