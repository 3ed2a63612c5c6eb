"""Helpers shared by the research interfaces: rule parameters and rewards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import OVER, Rules, State, card_code, parse_overrides, preset, seat_names
from ..core.cards import SUIT_LETTERS


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


def loser_rewards(players: int, losers: tuple[int, ...] | list[int]) -> list[float]:
    """The final reward of each seat: -1 for each loser (Mattis, Blodmattis), 0 for the others."""
    out = [0.0] * players
    for s in losers:
        out[s] = -1.0
    return out


def render_text(g: State) -> str:
    """The public view of a game plus every hand (the environment's own view, for watching)."""
    names = seat_names(g.players)
    obs = g.observation(0)
    lines = [f"{g.rules.name}, phase {obs.phase if obs.phase != OVER else 'over'}, stock {obs.stock_count}"
             + (f", trump {SUIT_LETTERS[obs.trump]}" if obs.trump is not None else "")]
    for s in range(g.players):
        hand = " ".join(card_code(c) for c in g.hand(s)) or "-"
        mark = "*" if g.to_act == s else " "
        lines.append(f"{mark} {s} {names[s]:<6} hand: {hand}")
    if obs.table1:
        lines.append("table: " + " ".join(f"{s}:{card_code(c)}" for s, c in obs.table1))
    if obs.table2:
        lines.append("table: " + " ".join(f"{s}:" + "".join(card_code(c) for c in e) for s, e in obs.table2))
    if g.is_over:
        lines.append(f"over ({g.end_reason}); losers: {', '.join(names[s] for s in g.losers)}")
    return "\n".join(lines)
