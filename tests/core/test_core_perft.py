"""Perft counts: from a few positions in the position notation, the number of move
sequences to a fixed depth (python-chess's perft is the model), under every value of
every option in the option table.  The counts are pinned, so any change to move
generation under any option value shows here first, move by move; a new option value
fails here until its counts are pinned (``python tests/core/test_core_perft.py``
prints the table to paste).

Each position is read under a base rule set (a preset and house rules) with the option
set to the value.  The positions are chosen so that every two values of every option that
changes how a game moves give different counts at some position
(``test_every_two_values_of_an_option_are_told_apart``): a new value whose engine change
was left out counts like an old value and fails there.  Options that cannot change the
counts from a position are listed with the reason (``SAME_MOVES``).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from mattis.core import OPTIONS, PRESETS, GameSetupError, Rules, RulesError, parse_position, preset
from mattis.core.testing import perft

Base = tuple[str, dict[str, Any]]
MATTIS: Base = ("mattis", {})

POSITIONS: tuple[tuple[str, Base, tuple[str, ...], int], ...] = (
    # phase 1, three players, a short stock: trick, krig, sjanse and drawing
    ("p1", MATTIS,
     ("1 dealer=0 hands=7HAH7S/QC7D7C/TC2S3S piles=-/-/- won=0/0/0 stock=9H8S5H4D trump=- last=0 leader=0",
      "1 dealer=0 hands=7HAH7S/QC7D7C/TC2S3S piles=-/-/- won=0/0/0 stock=9H8S5H4D trump=4D last=0 leader=0"),
     5),
    # phase 2, three players: following, trumping, picking up, sequences
    ("p2", MATTIS, ("2 dealer=0 trump=S hands=4C5C9CJH/JC2H3H6S/QS7C8C lead=0",), 5),
    # phase 2, two players: a pickup war
    ("p2x2", MATTIS, ("2 dealer=0 trump=D hands=2C3C4C9H5D/6C7CTHJH6D lead=1",), 6),
    # the positions below were found by a search over random games (each tells apart values
    # the others do not); the end of phase 1 in a stunsa: phase1_end, leader2, going_out
    ("end1_stunsa", ("skitgubbe", {}),
     ("1 dealer=0 hands=6C8S/2D5D9S/JHKH2S/- piles=7CJC3DKD5S7STSKS/2C3C4C9CQCAC4DTDJDQD5H6H8HTHQH3SJSQS/"
      "KC6D8D2H3H7HAH4S/5C8CTC9D4H9H won=2/9/4/3 stock=- trump=7D@3 last=3 leader=3 trick=3:AD,0:AS,3:6S "
      "round=3,0 laid=1 fight=1",), 5),
    # phase 1 with four stock cards left: tricks, draw, chance, trump
    ("stock4", ("blodmattis", {}),
     ("1 dealer=0 hands=3D5HAH/AC3H9H/9DQHJS piles=2C3C7C9CJCQC2D4D5D6DQDAD6HJH3S5S8SKSAS/"
      "4C6C8CTCKCTDKD4S6S7S9S/5C7D8DJD4H7H8H2STS won=5/3/3 stock=TH2HKHQS trump=QS last=2 leader=2",), 5),
    # phase 2, five players, two out: trick size, going out, picking up a run
    ("p2x5", ("mattis", {"sequences": 2, "pickup": "last", "pickup_run": True}),
     ("2 dealer=0 trump=TD@4 turn=2 hands=-/8C4HKHAH9S/KCAC3H/-/5C2H3S table=4:2C,1:JC need=3 finished=0,3 "
      "losers=- blodmattis=- won=3/5/8/4/5 known=-/8C4HKHAH9S/KCAC3H/-/5C2H3S",), 6),
    # the last cards of phase 1 between two (støting, drawing after the trick)
    ("end1x2", ("hund", {"ties": "stoting", "draw": "after_trick"}),
     ("1 dealer=0 hands=3D6HKS/2H4S piles=2C5C6C7C8C9CKCAC8D9DQD8H9HJHAH2S8SAS/"
      "4CTCQC2D4D6D7DJDAD5H7HTHKH5S6S7S9SQS won=9/9 stock=- trump=3C@1 last=0 leader=0",), 5),
    # phase 2 between two with ten cards set aside: who follows, picks up, goes out
    ("p2aside", ("hund", {"ties": "stoting", "draw": "after_trick"}),
     ("2 dealer=0 trump=3C@1 turn=1 hands=8H/2D7D8D2H6S table=- need=0 finished=- losers=- blodmattis=- "
      "won=11/9 known=8H/2D7D8D2H6S aside=JC5DTDKD3H4HQH3STSJS",), 6),
    # six players, two of them without a trick as phase 1 ends: empty_hand
    ("end1x6", ("hund", {}),
     ("1 dealer=0 hands=-/-/4C/7C3H/3S/6S piles=3C5C8C9CTCAC7DJD2H4H6H8HTHKH5S7STSJS/"
      "2CQC4D5D6DTDKD5H9HQH2S8SKSAS/JC2DADJH4S9S/KC3DQD7HAHQS/-/- won=3/2/1/1/0/0 stock=- trump=6C@4 last=0 "
      "leader=0 trick=0:8D,1:9D round=0,1,2,3,4,5 laid=2 fight=0",), 6),
    # a støting whose fighter holds no card while the stock has cards: empty_fighter
    ("emptyfight", ("blodmattis", {"going_out": "laid"}),
     ("1 dealer=0 hands=4D2S/-/KCTH/2H piles=7CQC5D5H8H9H8STS/TCJC2D9D/-/- won=2/1/0/0 "
      "stock=ACKHJD8DJHJS3S3DAH6SQH6H4CAS4H3CKS4S6C9CKDTD3H8C6D7SQD9S trump=9S last=0 leader=0 "
      "trick=0:QS,1:5C,2:AD,3:5S,1:7H,3:7D,1:2C round=1,3 laid=1 fight=1",), 5),
    # phase 2, a run of two on the table to pick up: pickup_run
    ("run", ("mattis", {"sequences": 2, "pickup": "last", "pickup_run": True}),
     ("2 dealer=0 trump=2C@0 turn=2 hands=-/9HTH/3D7D9D8S/2D4D8D4H2SQS table=1:5S,1:6S need=3 finished=0 "
      "losers=- blodmattis=- won=6/7/3/7 known=-/9HTH/3D7D9D8S/4D8D4H2SQS",), 5),
)
"""(name, base rule set, the position (alternatives: the first that parses), depth)."""

SAME_MOVES: dict[str, str] = {
    "min_players": "which player counts a table may have: a dealt position is the same game",
    "max_players": "which player counts a table may have: a dealt position is the same game",
    "max_pair_players": "which player counts may play two-card tricks: a dealt position is the same game",
    "two_player_discard": "the deal only (cards set aside before it)",
    "next_leader": "the sitting: who leads the next game",
    "leftovers_shown": "what is seen, not what may be played (the observation tests)",
    "phase2_cap": "the engine's stop at 2,000 or 40 phase 2 moves, beyond any perft depth",
    "deck_ranks": "the research deck: the positions hold cards outside a short deck",
    "deck_suits": "the research deck: the positions hold cards outside a short deck",
    "hand_size": "the research deck's hand size (told apart at p1; kept with the deck)",
}
"""Options whose values perft need not tell apart, and why."""

SAME_PAIRS: dict[tuple[str, object, object], str] = {
    ("trump", "bottom_up", "shown_when_drawn"): "the same moves (the trump card is drawn last like any card); "
                                                "they differ in when the trump is shown (the observation tests)",
}
"""Pairs of values that give the same moves everywhere, and why."""


def rules_at(base: Base, option: str, value: object) -> Rules | None:
    """The base rule set with ``option=value`` (``None``: it refuses the value)."""
    name, over = base
    try:
        return preset(name, **{**over, option: value})
    except RulesError:
        return None


def rules_with(option: str, value: object) -> Rules:
    """``mattis`` with ``option=value`` (another preset where ``mattis`` refuses it)."""
    for name in ["mattis", *sorted(PRESETS)]:
        try:
            return preset(name, **{option: value})
        except RulesError:
            continue
    raise AssertionError(f"no preset takes {option}={value}")


def perft_counts(option: str, value: object) -> dict[str, list[int]]:
    """Each position's perft counts at depths 1..N under ``option=value`` on its base (a
    position the rule set cannot hold, e.g. two hands where three players are the least,
    or a base that refuses the value, is left out; the ``mattis`` positions take another
    preset where ``mattis`` refuses the value)."""
    out: dict[str, list[int]] = {}
    for name, base, texts, depth in POSITIONS:
        rules = rules_with(option, value) if base == MATTIS else rules_at(base, option, value)
        if rules is None:
            continue
        for text in texts:
            try:
                state = parse_position(rules, text)
            except GameSetupError:
                continue
            out[name] = [perft(state, d) for d in range(1, depth + 1)]
            break
    return out


def cases() -> list[tuple[str, object]]:
    return [(spec.name, value) for spec in OPTIONS for value in spec.values]


PINNED: dict[str, dict[str, list[int]]] = {  # each position's counts at depths 1..N
    "min_players=2": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "min_players=3": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "max_players=4": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "max_players=6": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "max_pair_players=4": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "max_pair_players=6": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "two_player_discard=0": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "two_player_discard=10": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "tricks=pair": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 81, 240], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "tricks=all": {
        "p1": [4, 12, 36, 108, 324], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 332, 1109], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "ties=war": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 76, 218], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "ties=stoting": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "draw=after_card": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 81, 243], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 3, 9, 18], "run": [1, 3, 4, 6, 9],
    },
    "draw=after_trick": {
        "p1": [4, 12, 44, 132, 374], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "chance=off": {
        "p1": [3, 9, 27, 81, 213], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "chance=lead": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [4, 12, 36, 133, 399], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [2, 5, 13, 40, 120], "run": [1, 3, 4, 6, 9],
    },
    "chance=any": {
        "p1": [4, 16, 64, 192, 488], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [4, 16, 64, 244, 888], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [2, 5, 17, 68, 272], "run": [1, 3, 4, 6, 9],
    },
    "trump=last_card": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "p2x5": [3, 5, 5, 30, 30, 126], "end1x2": [3, 6, 11, 12, 236],
        "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2], "run": [1, 3, 4, 6, 9],
    },
    "trump=bottom_up": {
        "p1": [4, 12, 48, 160, 480], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 9, 34, 315, 1037], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 224], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 36, 155],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "trump=shown_when_drawn": {
        "p1": [4, 12, 48, 160, 480], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 9, 34, 315, 1037], "p2x5": [3, 5, 5, 30, 30, 126], "end1x2": [3, 6, 11, 12, 224],
        "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 36, 155], "run": [1, 3, 4, 6, 9],
    },
    "phase1_end=one_holder": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 2, 6, 12, 36], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "phase1_end=first_empty": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 52], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "phase1_end=stock_empty": {
        "p1": [4, 12, 48, 144, 622], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 14, 62, 476, 1604], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [21, 201, 4020, 17824, 338656], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "empty_hand=pick_up": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "empty_hand=loses": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 36, 155],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "empty_hand=safe": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 8],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "leader2=trump_holder": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "leader2=last_trick": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 353, 1241], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 268], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 40, 71],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "follow=free": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "follow=void": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 4, 6, 6, 16], "p2x2": [5, 5, 20, 20, 64, 68],
        "end1_stunsa": [2, 10, 28, 251, 576], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "pickup=first": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1091], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 7],
    },
    "pickup=last": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "pickup=lowest": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1101], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 7],
    },
    "pickup_optional=False": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 28, 155, 328], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "pickup_optional=True": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 11, 26, 39, 123], "p2x2": [5, 9, 36, 98, 338, 732],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [4, 7, 13, 50, 71, 224],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 6, 21, 28, 68, 98], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [2, 9, 15, 57, 96],
    },
    "pickup_run=False": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 8],
    },
    "pickup_run=True": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "trick_size=start": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "trick_size=active": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 134],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "trick_size=seated": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 3, 3, 3, 8, 13],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 1, 5, 7, 15],
    },
    "going_out=laid": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "going_out=cleared": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 130],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 37], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "going_out=holders": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 130],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "sequences=0": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [2, 4, 4, 20, 20, 74],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 5, 7],
    },
    "sequences=2": {
        "p1": [4, 12, 48, 144, 361], "p2": [5, 9, 9, 27, 27], "p2x2": [7, 7, 48, 137, 495, 621],
        "end1_stunsa": [2, 10, 39, 527, 1694], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 320], "p2aside": [6, 6, 22, 24, 51, 57], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "sequences=3": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 24, 58, 198, 218],
        "end1_stunsa": [2, 10, 36, 373, 1207], "stock4": [3, 9, 27, 72, 198], "p2x5": [2, 4, 4, 20, 20, 74],
        "end1x2": [3, 6, 11, 12, 260], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 5, 8],
    },
    "sequences=4": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1146], "stock4": [3, 9, 27, 72, 198], "p2x5": [2, 4, 4, 20, 20, 74],
        "end1x2": [3, 6, 11, 12, 240], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 5, 8],
    },
    "sequences=5": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1146], "stock4": [3, 9, 27, 72, 198], "p2x5": [2, 4, 4, 20, 20, 74],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 5, 8],
    },
    "empty_fighter=chance": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "empty_fighter=drop": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 78, 169, 6498, 27060], "run": [1, 3, 4, 6, 9],
    },
    "next_leader=left_of_dealer": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "next_leader=loser": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "leftovers_shown=False": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "leftovers_shown=True": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "phase2_cap=10000": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "phase2_cap=40": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "deck_ranks=13": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "deck_ranks=7": {},
    "deck_suits=4": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "deck_suits=2": {},
    "hand_size=3": {
        "p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 72, 198], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 3, 9], "run": [1, 3, 4, 6, 9],
    },
    "hand_size=2": {
        "p1": [4, 12, 38, 97, 289], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176],
        "end1_stunsa": [2, 10, 36, 339, 1124], "stock4": [3, 9, 27, 54, 108], "p2x5": [3, 5, 5, 30, 30, 126],
        "end1x2": [3, 6, 11, 12, 236], "p2aside": [5, 5, 17, 17, 35, 36], "end1x6": [1, 2, 2, 2, 2, 2],
        "emptyfight": [1, 1, 1, 2, 4], "run": [1, 3, 4, 6, 9],
    },
}


def pairs() -> list[tuple[str, object, object]]:
    return [(spec.name, a, b) for spec in OPTIONS if spec.name not in SAME_MOVES
            for a, b in itertools.combinations(spec.values, 2)]


@pytest.mark.parametrize(("option", "a", "b"), pairs(), ids=[f"{o}={a}-{b}" for o, a, b in pairs()])
def test_every_two_values_of_an_option_are_told_apart(option: str, a: object, b: object) -> None:
    """Some position counts differently under ``option=a`` and ``option=b`` (both read it):
    a value whose engine change is missing counts like another value and fails here."""
    ca, cb = PINNED[f"{option}={a}"], PINNED[f"{option}={b}"]
    apart = [p for p in ca if p in cb and ca[p] != cb[p]]
    if (option, a, b) in SAME_PAIRS:
        assert not apart, SAME_PAIRS[(option, a, b)]
        return
    assert apart, f"no perft position tells {option}={a} from {option}={b}: its engine change may be missing"


def test_every_option_is_told_apart_or_said_why_not() -> None:
    names = {spec.name for spec in OPTIONS}
    assert set(SAME_MOVES) <= names and {o for o, _, _ in SAME_PAIRS} <= names


@pytest.mark.parametrize(("option", "value"), cases(), ids=[f"{o}={v}" for o, v in cases()])
def test_perft(option: str, value: object) -> None:
    key = f"{option}={value}"
    assert key in PINNED, f"no perft counts pinned for {key}: {perft_counts(option, value)}"
    assert perft_counts(option, value) == PINNED[key]


if __name__ == "__main__":
    import json

    for o, v in cases():
        print(f"    {f'{o}={v}'!r}: {json.dumps(perft_counts(o, v))},".replace("'", '"'))
