"""A native mirror of one game: the per-seat observation tensor and legal-action mask
written by the native engine (``mattis.rl._native``) instead of the Python encoder.

The per-step interfaces that control every seat (the PettingZoo env ``mattis_v0``
and the OpenSpiel game ``python_mattis``) keep a :class:`mattis.core.State` as the
truth: the rules core makes every move and judges it.  Beside it they may keep a
mirror, a C copy of the same game held as bitmasks (the batched engine's own per-game
code: no second copy of any rule), told each move the State makes; it writes a seat's
tensor (exactly :func:`mattis.rl.encoding.encode`'s) and mask into a NumPy buffer.

>>> import numpy as np
>>> from mattis.core import State, preset
>>> from mattis.rl.encoding import ActionSpace, encode
>>> rules = preset("mattis")
>>> state = State.new(rules, 3, seed=1)
>>> mirror = make_mirror(rules, 3, ActionSpace(rules), state)
>>> out = np.zeros(len(encode(state.observation(0))), np.float32)
>>> mirror is None or (mirror.write(0, out, None), bool((out == encode(state.observation(0))).all()))[1]
True

A mirror covers what the native engine covers (:func:`mirror_covers`): the four
presets' rule sets exactly (any ``phase2_cap``), a game dealt from a 52-card deck.
Anything else (another option mix, the ``mini`` preset, a game from a position, a
build without the extension) keeps the Python encoder; each front end says which in
its ``encoder`` attribute and why not native in ``encoder_note``.
"""

from __future__ import annotations

from typing import Any

from ..core import Rules, State
from .batched import _native, native_rules_covered, native_spec_args
from .encoding import ActionSpace

_SPECS: dict[tuple[Rules, int, str], Any] = {}
"""The native spec (an engine without games) of each rule set, player count and card
order, made once."""


def mirror_covers(rules: Rules) -> str | None:
    """``None`` if a native mirror can follow games of ``rules``, else why not (the
    native engine's own coverage, :func:`mattis.rl.batched.native_rules_covered`)."""
    return native_rules_covered(rules)


def _spec(rules: Rules, players: int, space: ActionSpace) -> Any:
    key = (rules, players, space.card_order)
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = _native.Engine(0, *native_spec_args(rules, players, space), None, None, None, None,
                                            None, None, None)
    return spec


def make_mirror(rules: Rules, players: int, space: ActionSpace, state: State) -> Any:
    """A mirror of the deal of ``state`` (its deck, dealer and first leader: the game
    before its first move; ``apply_all`` of the actions made since brings it up to
    date) with the actions of ``space``, or ``None`` where no mirror covers it
    (:func:`mirror_covers`, or a game from a position or with a short deck)."""
    if mirror_covers(rules) is not None or state.deck is None or len(state.deck) != 52:
        return None
    leader = state.first_leader if state.first_leader >= 0 else (state.dealer + 1) % players
    return _native.Mirror(_spec(rules, players, space), state.deck, state.dealer, leader)


__all__ = ["make_mirror", "mirror_covers"]
