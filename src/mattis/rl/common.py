"""Helpers shared by the research interfaces: rule parameters and rewards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import Rules, parse_overrides, preset


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
