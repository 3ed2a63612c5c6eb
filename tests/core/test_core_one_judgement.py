"""One judgement: ``mattis.core.legal.verify`` is the one place that decides whether a
move is legal and why not.

A scan of every module outside ``mattis/core`` fails on code that decides legality
itself: a call of the judgement's old names (``explain``, ``State.why_illegal``,
``State.is_legal``), or a membership test of a move against a list of legal moves
(``move in state.legal_moves()``, ``move not in obs.legal``, ``m in legal``).  Moving
through the lists is allowed (a bot choosing among them, a front end showing them), and
so is asking whether the list offers one of the fixed moves (``CHANCE in legal``: a
bot's choice, not a judgement of a move someone made); two more uses are allowed by
name, each with its reason (``ALLOWED``).  The scanner is shown to catch the patterns
that judged moves before the one judgement (the web's and referee's ``why_illegal``,
the Gymnasium env's ``move in legal``).

Also: ``verify`` agrees with the move generators over random games under presets
(``check_option`` does so under every option value, with random illegal moves).
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import mattis
from mattis.core import CHANCE, PICKUP, PRESETS, Reason, State, play, preset, verify

SRC = Path(mattis.__file__).parent

OLD_NAMES = frozenset({"explain", "why_illegal", "is_legal"})
"""The judgement's names before ``verify``: nothing outside the core may call them."""

ALLOWED: dict[tuple[str, str], str] = {
    ("bots/conformance.py", "m in legal"): "check_option compares verify with the move generator",
    ("tui/app.py", "c in self.legal"): "the hand widget brightens the cards of the legal moves (cards, not a move)",
}
"""(module under ``mattis/``, the membership test) -> why it does not judge a move."""


def _legal_list(node: ast.expr) -> bool:
    """Whether ``node`` is a list of legal moves: ``x.legal_moves()``, ``x.legal``,
    ``x.legal_moves``, or a name that says ``legal``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "legal_moves"
    if isinstance(node, ast.Attribute):
        return node.attr in ("legal", "legal_moves")
    return isinstance(node, ast.Name) and "legal" in node.id


def _fixed_move(node: ast.expr) -> bool:
    """A module constant (``CHANCE``, ``PICKUP``): asking whether the list offers it."""
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return name.isupper()


def judgements(source: str) -> list[str]:
    """The places in ``source`` that decide legality outside the core (see the module
    docstring), as ``"<line>: <code>"``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in OLD_NAMES:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Compare):
            lefts = [node.left, *node.comparators[:-1]]
            for left, op, right in zip(lefts, node.ops, node.comparators, strict=True):
                if isinstance(op, (ast.In, ast.NotIn)) and _legal_list(right) and not _fixed_move(left):
                    found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_outside_the_core_decides_legality() -> None:
    found: list[str] = []
    used: set[tuple[str, str]] = set()
    modules = sorted(p for p in SRC.rglob("*.py") if p.relative_to(SRC).parts[0] != "core")
    assert len(modules) > 50  # the scan reaches the package
    for path in modules:
        rel = path.relative_to(SRC).as_posix()
        for hit in judgements(path.read_text(encoding="utf-8")):
            code = hit.split(": ", 1)[1]
            if (rel, code) in ALLOWED:
                used.add((rel, code))
            else:
                found.append(f"mattis/{rel}:{hit}")
    assert not found, "legality decided outside mattis.core (ask mattis.core.legal.verify):\n" + "\n".join(found)
    assert used == set(ALLOWED), f"allowed uses no longer in the code (drop them): {set(ALLOWED) - used}"


@pytest.mark.parametrize("code", [
    "why = self._state.why_illegal(move)",  # the referee and the web before verify
    "why = s.why_illegal(move)",  # the OpenSpiel replay
    "ok = explain(state, move) is None",
    "ok = state.is_legal(move)",
    "if move is None or not _among(move, obs.legal):\n    pass\ndef _among(move, legal):\n    return move in legal",
    "if move not in state.legal_moves():\n    raise ValueError",
    "ok = m in obs.legal",
])
def test_the_scan_catches_a_judgement_outside_the_core(code: str) -> None:
    assert judgements(code), code


@pytest.mark.parametrize("code", [
    "move = rng.choice(state.legal_moves())",
    "for m in obs.legal:\n    print(m)",
    "can_chance = CHANCE in legal",
    "also = obs.legal[-1] in (CHANCE, PICKUP)",
    "why = verify(state, move)",
    "n = len(obs.legal)",
])
def test_the_scan_allows_moving_through_the_lists(code: str) -> None:
    assert not judgements(code), code


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_verify_agrees_with_the_move_generator(name: str) -> None:
    """Over random games: ``verify(s, m) is None`` iff ``m in s.legal_moves()``, for every
    card alone, sjanse and a pickup; a refusal is never the generic ``not_legal``."""
    reasons: set[Reason] = set()
    for seed in range(4):
        s = State.new(preset(name), 3 + seed % 2, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = set(s.legal_moves())
            for m in [play(c) for c in range(52)] + [CHANCE, PICKUP]:
                why = verify(s, m)
                assert (why is None) == (m in legal), (str(m), why)
                if why is not None:
                    assert why.reason is not Reason.NOT_LEGAL, str(m)
                    reasons.add(why.reason)
            s.apply(rng.choice(s.legal_moves()))
        assert verify(s, PICKUP) is not None and verify(s, PICKUP).reason is Reason.GAME_OVER  # type: ignore[union-attr]
    assert {Reason.NOT_HELD, Reason.NO_PICKUP_IN_PHASE1, Reason.NO_CHANCE_IN_PHASE2, Reason.MUST_PICK_UP} <= reasons
