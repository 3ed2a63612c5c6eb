"""``check_option`` for every value of every option in the option table.

The option table (``mattis.core.rules.OPTIONS``) is iterated, so a new option or value
is checked without editing this file: seeded random games under it agree move by move
with the property tests' independent reference model (``reference_step``), the
2-player solver agrees with plain minimax, determinized samples show the seat its
observation, and its words exist and render.  The fast tier plays each value under one
preset (taken in turn); the slow tier under every preset, with more games.
"""

from __future__ import annotations

import pytest
import test_core_properties as props

from mattis.bots.conformance import ConformanceError, check_option
from mattis.core import OPTIONS, PRESETS, Move, Rules, RulesError, State, preset
from mattis.core.cards import SUIT
from mattis.core.catalogue import TEXT
from mattis.core.observation import PHASE2
from tiers import is_slow, scale

NAMES = sorted(PRESETS)


def cases() -> list[tuple[str, str, object]]:
    out: list[tuple[str, str, object]] = []
    k = 0
    for spec in OPTIONS:
        for value in spec.values:
            bases = NAMES if is_slow() else [NAMES[k % len(NAMES)]]
            k += 1
            out.extend((base, spec.name, value) for base in bases)
    return out


CASES = cases()


def rules_for(base: str, option: str, value: object) -> Rules:
    """``base`` with ``option=value``; sequences on (so runs meet every phase 2 rule)
    unless the case is about sequences; another preset where ``base`` refuses it."""
    extra: dict[str, object] = {} if option == "sequences" else {"sequences": 2}
    for name in [base, *NAMES]:
        try:
            return preset(name, **{**extra, option: value})
        except RulesError:
            continue
    raise AssertionError(f"no preset takes {option}={value}")


@pytest.mark.parametrize(("base", "option", "value"), CASES, ids=[f"{b}-{o}={v}" for b, o, v in CASES])
def test_check_option(base: str, option: str, value: object) -> None:
    rules = rules_for(base, option, value)
    assert getattr(rules, option) == value
    report = check_option(rules, games=scale(3, 8), positions=scale(30, 100), samples=scale(3, 6),
                          seed=len(option), reference=props.reference_step)
    assert report.games == scale(3, 8) and report.moves > 40 * report.games
    assert report.solver_positions == scale(30, 100) and report.samples >= 3


def test_check_option_finds_a_missing_word(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(TEXT, "val.follow.void")
    with pytest.raises(ConformanceError, match="val.follow.void"):
        check_option(preset("mattis", follow="void"), games=1, positions=1, samples=0)


def test_check_option_finds_a_reference_disagreement() -> None:
    """A reference model that knows a rule the engine lacks (here: a trump may never
    be led in phase 2) is a disagreement that ``check_option`` reports."""
    def no_trump_lead(pre: State, move: Move, post: State) -> None:
        props.reference_step(pre, move, post)
        if pre.phase == PHASE2 and not pre.table:
            assert all(SUIT[c] != pre.trump for c in move.cards), "a trump was led"

    with pytest.raises(ConformanceError, match="a trump was led"):
        for seed in range(20):
            check_option(preset("mattis"), games=2, positions=0, samples=0, seed=seed, reference=no_trump_lead)
