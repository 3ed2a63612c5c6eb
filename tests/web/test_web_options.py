"""The web create form and the terminal settings offer the house rules of the option
table, with the same values (no hand-written list of options in either)."""

from __future__ import annotations

from mattis.core import HOUSE_OPTIONS, OPTIONS
from mattis.tui.screens import HOUSE_OPTIONS as TUI_HOUSE
from mattis.web.app import house_options


def test_web_form_and_terminal_settings_offer_the_tables_values() -> None:
    table = [(spec.name, list(spec.values)) for spec in OPTIONS if spec.house]
    assert table == [(spec.name, list(spec.values)) for spec in HOUSE_OPTIONS]
    assert [(o["option"], [v["value"] for v in o["values"]]) for o in house_options()] == table
    assert [(name, list(values)) for name, values in TUI_HOUSE] == table
    offered = dict(table)
    assert offered["sequences"] == [0, 2, 3, 4, 5]
    assert offered["pickup_optional"] == [False, True] and "leftovers_shown" in offered
    assert "phase2_cap" not in offered and "min_players" not in offered


def test_every_offered_value_has_words_in_both_languages() -> None:
    for o in house_options():
        assert o["label"]["nb"] and o["label"]["en"] and o["label"]["nb"] != o["option"]
        for v in o["values"]:
            assert v["text"]["nb"] and v["text"]["en"]
