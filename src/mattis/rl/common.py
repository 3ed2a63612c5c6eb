"""Helpers shared by the research interfaces: rule parameters and rewards."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..core import EmptyHand, Phase, Rules, Termination, card_symbol, parse_overrides, preset, seat_names
from ..core.cards import SUIT_SYMBOLS
from ..play import Referee, Seed, derive_seed

SeatChoice = int | str
"""A seat (or dealer) per episode: a seat number, ``"rotate"`` or ``"random"``."""


def choose_seat(choice: SeatChoice, what: str, players: int, seed: Seed, episode: int) -> int:
    """The seat ``choice`` names in episode ``episode`` (``what``: ``"seat"`` or
    ``"dealer"``, the label of its seed; ``"random"`` draws it from the episode's seed)."""
    if isinstance(choice, int):
        return choice % players
    if choice == "rotate":
        return episode % players
    if choice == "random":
        return random.Random(derive_seed(seed, what, episode)).randrange(players)
    raise ValueError(f"{what} must be a seat number, 'rotate' or 'random', not {choice!r}")


def make_rules(rules: str | Rules = "mattis", overrides: Mapping[str, Any] | str | None = None) -> Rules:
    """A rule set from a preset name (or a :class:`Rules`) and overrides.

    ``overrides`` is a mapping (``{"sequences": 3}``) or a text ``"sequences=3,pickup=last"``;
    ``:`` may stand for ``=``, and ``;``, ``+`` or a space for ``,`` (OpenSpiel game
    strings: ``overrides=sequences:3;pickup:last``).
    Raises :class:`mattis.core.RulesError` for a bad preset, option or value.
    """
    items: dict[str, Any]
    if overrides is None or overrides == "":
        items = {}
    elif isinstance(overrides, str):
        text = overrides.replace(":", "=")
        for sep in ";+ ":
            text = text.replace(sep, ",")
        items = dict(parse_overrides([w for w in text.split(",") if w.strip()]))
    else:
        items = dict(overrides)
    if isinstance(rules, Rules):
        if not items:
            return rules
        return preset(rules.name, **{**rules.overrides(), **items})
    return preset(rules, **items)


def loser_rewards(players: int, losers: tuple[int, ...] | list[int], zero_sum: bool = False) -> list[float]:
    """The final reward of each seat: -1 for each loser (Mattis, Blodmattis), 0 for the others.

    ``zero_sum=True``: the losers' total is shared out equally among the others, so the
    rewards sum to 0 (two players: +1 for the winner, -1 for the Mattis; three with one
    loser: +0.5, +0.5, -1)."""
    out = [0.0] * players
    for s in losers:
        out[s] = -1.0
    if zero_sum:
        rest = players - len(set(losers))
        if rest:
            share = len(set(losers)) / rest
            out = [r if r < 0 else share for r in out]
    return out


def check_zero_sum(rules: Rules, players: int) -> None:
    """Raise ``ValueError`` unless the zero-sum reward fits: two players and rules with
    exactly one loser per game (not ``empty_hand=loses``, under which both may lose)."""
    if players != 2:
        raise ValueError("zero_sum is for two players (the winner gets +1, the Mattis -1)")
    if rules.empty_hand is EmptyHand.LOSES:
        raise ValueError("zero_sum needs one loser per game; under empty_hand=loses both players may lose")


def is_truncated(termination: Termination | None) -> bool:
    """Whether a game that ended this way was truncated rather than terminated: the
    phase 2 cap (``rules.phase2_cap``) stops a game that would go on, a time limit in
    Gymnasium's, PettingZoo's and Pardo et al.'s sense (the players are ranked by the
    cards they hold; the rewards are the ranking's).  Every other ending (a loser found
    by play, a third repetition, a player who cannot move) terminates the game."""
    return termination is Termination.CAP


def render_text(referee: Referee, seat: int | None = None) -> str:
    """The table as text, cards written as on the cards (``10♠``).

    ``seat=None``: for watching, the public view plus every seat's own hand (each read
    from that seat's observation).  ``seat=k``: only what seat ``k`` may see (its own
    hand; the others' card counts and publicly known cards)."""
    names = seat_names(referee.players)
    view = referee.observation(0 if seat is None else seat)
    obs = view
    phase = "over" if obs.phase is Phase.OVER else str(int(obs.phase))
    lines = [f"{referee.rules.name}, phase {phase}, stock {obs.stock_count}"
             + (f", trump {SUIT_SYMBOLS[obs.trump]}" if obs.trump is not None else "")
             + ("" if seat is None else f", seen by {seat} {names[seat]}")]
    for s in range(referee.players):
        if seat is None or s == seat:
            hand = " ".join(card_symbol(c) for c in referee.observation(s).hand) or "-"
        else:
            known = " ".join(card_symbol(c) for c in view.known[s])
            hand = f"{view.hand_counts[s]} cards" + (f" (known: {known})" if known else "")
        mark = "*" if referee.to_act == s else " "
        lines.append(f"{mark} {s} {names[s]:<6} hand: {hand}")
    if obs.table1:
        lines.append("table: " + " ".join(f"{s}:{card_symbol(c)}" for s, c in obs.table1))
    if obs.table2:
        lines.append("table: " + " ".join(f"{s}:" + ",".join(card_symbol(c) for c in e) for s, e in obs.table2))
    outcome = referee.outcome
    if outcome is not None:
        lines.append(f"over ({outcome.termination}); losers: {', '.join(names[s] for s in outcome.losers)}")
    return "\n".join(lines)
