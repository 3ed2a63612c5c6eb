"""``mattis selfplay``: bots play a whole game, printed move by move."""

from __future__ import annotations

import argparse
import random

from ..bots import make_bot
from ..core import GameRecord, State, card_name, describe_move, seat_names, suit_name
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
    seed_rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    try:
        bots = [make_bot(name, seed_rng.randrange(2**32)) for name in names]
    except ValueError as e:
        raise CliError(str(e)) from None
    deal_seed = seed_rng.randrange(2**63) if args.seed is not None else None
    state = State.new(rules, n, seed=deal_seed, dealer=args.dealer)
    lang = args.lang
    people = seat_names(n, lang=lang)
    nb = lang == "nb"
    house = ", ".join(f"{k}={v}" for k, v in rules.overrides().items())
    print(("Regler" if nb else "Rules") + f": {rules.name}" + (f" ({house})" if house else "")
          + f", {n} " + ("spillere" if nb else "players"))
    print(("Giver" if nb else "Dealer") + f": {people[args.dealer]}")
    phase_seen = 1
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        move = bots[seat].act(state.observation(seat))
        state.apply(move)
        _, mv, shown = state.history()[-1]
        print(f"{state.n_moves:4d}. " + describe_move(people[seat], mv, shown, lang))
        if state.phase == 2 and phase_seen == 1:
            phase_seen = 2
            obs = state.observation(seat)
            if obs.trump is not None:
                trump_text = suit_name(obs.trump, lang)
                if obs.trump_card is not None and obs.trump_holder is not None:
                    trump_text += f" ({card_name(obs.trump_card, lang)}, {people[obs.trump_holder]})"
                print(("--- Fase 2. Trumf: " if nb else "--- Phase 2. Trump: ") + trump_text)
    order = [people[s] for s in state.finished]
    print(("Rekkefølge ut: " if nb else "Finishing order: ") + (", ".join(order) or "-"))
    for s in state.blodmattis:
        print(f"{people[s]} " + ("er Blodmattis" if nb else "is Blodmattis (won no trick)"))
    if state.mattis is not None:
        print(f"{people[state.mattis]} " + ("er Mattis!" if nb else "is Mattis!"))
    if state.end_reason not in (None, "normal"):
        print(("Avsluttet: " if nb else "Ended by rule: ") + str(state.end_reason))
    if args.save:
        save_record(GameRecord.from_state(state), args.save)
        print(("Lagret: " if nb else "Saved: ") + args.save)
    return 0
