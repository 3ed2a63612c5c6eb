"""Perft counts: from a few positions in the position notation, the number of move
sequences to a fixed depth (python-chess's perft is the model), under every value of
every option in the option table.  The counts are pinned, so any change to move
generation under any option value shows here first, move by move; a new option value
fails here until its counts are pinned (``python tests/core/test_core_perft.py``
prints the table to paste).
"""

from __future__ import annotations

import pytest

from mattis.core import OPTIONS, PRESETS, GameSetupError, Rules, RulesError, parse_position, preset
from mattis.core.testing import perft

POSITIONS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    # phase 1, three players, a short stock: trick, krig, sjanse and drawing
    ("p1", ("1 dealer=0 hands=7HAH7S/QC7D7C/TC2S3S piles=-/-/- won=0/0/0 stock=9H8S5H4D trump=- last=0 leader=0",
            "1 dealer=0 hands=7HAH7S/QC7D7C/TC2S3S piles=-/-/- won=0/0/0 stock=9H8S5H4D trump=4D last=0 leader=0"),
     5),
    # phase 2, three players: following, trumping, picking up, sequences
    ("p2", ("2 dealer=0 trump=S hands=4C5C9CJH/JC2H3H6S/QS7C8C lead=0",), 5),
    # phase 2, two players: a pickup war
    ("p2x2", ("2 dealer=0 trump=D hands=2C3C4C9H5D/6C7CTHJH6D lead=1",), 6),
)


def rules_with(option: str, value: object) -> Rules:
    """``mattis`` with ``option=value`` (another preset where ``mattis`` refuses it)."""
    for name in ["mattis", *sorted(PRESETS)]:
        try:
            return preset(name, **{option: value})
        except RulesError:
            continue
    raise AssertionError(f"no preset takes {option}={value}")


def perft_counts(option: str, value: object) -> dict[str, list[int]]:
    """Each position's perft counts at depths 1..N under ``option=value`` (a position
    the rule set cannot hold, e.g. two hands where three players are the least, is left
    out)."""
    rules = rules_with(option, value)
    out: dict[str, list[int]] = {}
    for name, texts, depth in POSITIONS:
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
    "min_players=2": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "min_players=3": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "max_players=4": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "max_players=6": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "max_pair_players=4": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "max_pair_players=6": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "two_player_discard=0": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "two_player_discard=10": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "tricks=pair": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "tricks=all": {"p1": [4, 12, 36, 108, 324], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "ties=war": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "ties=stoting": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "draw=after_card": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "draw=after_trick": {"p1": [4, 12, 44, 132, 374], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "chance=off": {"p1": [3, 9, 27, 81, 213], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "chance=lead": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "chance=any": {"p1": [4, 16, 64, 192, 488], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "trump=last_card": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "trump=bottom_up": {"p1": [4, 12, 48, 160, 480], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "trump=shown_when_drawn": {"p1": [4, 12, 48, 160, 480], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "phase1_end=one_holder": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "phase1_end=first_empty": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "phase1_end=stock_empty": {"p1": [4, 12, 48, 144, 622], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "empty_hand=pick_up": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "empty_hand=loses": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "empty_hand=safe": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "leader2=trump_holder": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "leader2=last_trick": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "follow=free": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "follow=void": {"p1": [4, 12, 48, 144, 361], "p2": [4, 4, 6, 6, 16], "p2x2": [5, 5, 20, 20, 64, 68]},
    "pickup=first": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "pickup=last": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "pickup=lowest": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "pickup_optional=False": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "pickup_optional=True": {"p1": [4, 12, 48, 144, 361], "p2": [4, 11, 26, 39, 123], "p2x2": [5, 9, 36, 98, 338, 732]},
    "pickup_run=False": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "pickup_run=True": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "trick_size=start": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "trick_size=active": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "trick_size=seated": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "going_out=laid": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "going_out=cleared": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "going_out=holders": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "sequences=0": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "sequences=2": {"p1": [4, 12, 48, 144, 361], "p2": [5, 9, 9, 27, 27], "p2x2": [7, 7, 48, 137, 495, 621]},
    "sequences=3": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 24, 58, 198, 218]},
    "sequences=4": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "sequences=5": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "empty_fighter=chance": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "empty_fighter=drop": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "next_leader=left_of_dealer": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14],
                                   "p2x2": [5, 5, 20, 48, 160, 176]},
    "next_leader=loser": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "leftovers_shown=False": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "leftovers_shown=True": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "phase2_cap=2000": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "phase2_cap=40": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    # the positions hold cards outside a short deck: none of them is a short deck's
    # (the mini preset's counts are in tests/core/test_core_short_deck.py)
    "deck_ranks=13": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14],
                      "p2x2": [5, 5, 20, 48, 160, 176]},
    "deck_ranks=7": {},
    "deck_suits=4": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "deck_suits=2": {},
    "hand_size=3": {"p1": [4, 12, 48, 144, 361], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
    "hand_size=2": {"p1": [4, 12, 38, 97, 289], "p2": [4, 7, 7, 14, 14], "p2x2": [5, 5, 20, 48, 160, 176]},
}


@pytest.mark.parametrize(("option", "value"), cases(), ids=[f"{o}={v}" for o, v in cases()])
def test_perft(option: str, value: object) -> None:
    key = f"{option}={value}"
    assert key in PINNED, f"no perft counts pinned for {key}: {perft_counts(option, value)}"
    assert perft_counts(option, value) == PINNED[key]


if __name__ == "__main__":
    import json

    for o, v in cases():
        print(f"    {f'{o}={v}'!r}: {json.dumps(perft_counts(o, v))},".replace("'", '"'))
