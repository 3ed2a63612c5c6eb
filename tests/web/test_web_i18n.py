"""The page's words are generated from the one catalogue: the committed i18n.json is the
generated one, every key the page uses exists, and the page is told what the rules in force
call the fight over equal cards."""

from __future__ import annotations

import ast
import json
import re
from importlib.resources import files
from pathlib import Path

import pytest
from web_helpers import Web, create

import mattis.web
from mattis.core import PRESETS, Illegal, Reason, Termination, preset, reason_text
from mattis.core.catalogue import TEXT
from mattis.core.text import BOT_REASONS, fight_term, loser_term
from mattis.web.i18n import main, page_strings, render_json
from mattis.web.messages import KINDS
from mattis.web.refusal import Refusal
from mattis.web.seats import LEVELS

STATIC = files("mattis.web") / "static"


def test_the_committed_json_is_the_generated_one() -> None:
    committed = (STATIC / "i18n.json").read_text(encoding="utf-8")
    assert committed == render_json(), "stale i18n.json: run python -m mattis.web.i18n"
    assert main(["--check"]) == 0
    strings = json.loads(committed)
    assert strings == page_strings()
    assert {k: (strings["nb"][k], strings["en"][k]) for k in TEXT} == TEXT


#: The keys app.js builds at run time, by the prefix it writes: ``t("level." + l)`` and so on.
DYNAMIC = {
    "level.": {f"level.{x}" for x in LEVELS},
    "suit.": {f"suit.{i}" for i in range(4)},
    "phase.": {"phase.1", "phase.2"},
    "end.reason.": {f"end.reason.{r}" for r in Termination if r is not Termination.NORMAL},
    "term.": {f"term.{fight_term(r)}" for r in PRESETS.values()} | {"term.stoting"},
    "rules.preset.": {f"rules.preset.{p}" for p in PRESETS},
    "end.loser.": {f"end.loser.{loser_term(r)}" for r in PRESETS.values()},
    "status.loser.": {f"status.loser.{loser_term(r)}" for r in PRESETS.values()},
    "web.you_lose.": {f"web.you_lose.{loser_term(r)}" for r in PRESETS.values()},
    "botwhy.": {f"botwhy.{why}" for why in BOT_REASONS},
}


def test_every_key_the_page_uses_exists() -> None:
    js = (STATIC / "app.js").read_text(encoding="utf-8")
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("([a-z0-9_.]+)"', js)) | set(re.findall(r'"(phase\.over)"', js))
    used |= set(re.findall(r'setConn\("([a-z0-9_.]+)"', js)) | set(re.findall(r'data-t="([a-z0-9_.]+)"', html))
    prefixes = {k for k in used if k.endswith(".")} | set(re.findall(r'\bt\([^()]*"([a-z0-9_.]+\.)" \+', js))
    assert prefixes == set(DYNAMIC), "a key built at run time that this test does not know"
    keys = (used - prefixes).union(*DYNAMIC.values())
    assert len(keys) > 60
    assert sorted(keys - set(TEXT)) == []
    # Every page string is one of the catalogue's keys: the old page-only keys are gone.
    assert not {k for k in keys if "." not in k}


@pytest.mark.parametrize(("name", "overrides"), [(p, {}) for p in PRESETS] + [("skitgubbe", {"ties": "stoting"})])
def test_the_page_is_told_the_fight_term_of_the_rules(web: Web, name: str, overrides: dict[str, str]) -> None:
    seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    tbl = create(web.client, name, seats, overrides=overrides)
    p = web.player(tbl["table"], tbl["token"], lang="nb")
    frame = p.until(lambda f: f.get("type") == "state")
    assert frame["fight"] == fight_term(preset(name, **overrides))
    word = page_strings()["nb"][f"term.{frame['fight']}"]
    assert word == {"blodmattis": "støting", "skitgubbe": "stunsa" if not overrides else "støting"}.get(name, "krig")


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_page_is_told_what_the_loser_is_called(web: Web, name: str) -> None:
    tbl = create(web.client, name, [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
    frame = web.player(tbl["table"], tbl["token"], lang="nb").until(lambda f: f.get("type") == "state")
    assert frame["loser"] == loser_term(preset(name))
    line = page_strings()["nb"][f"end.loser.{frame['loser']}"].format(name="Per")
    assert line == ("Per er skitgubben!" if name == "skitgubbe" else "Per er Mattis!")


def test_every_engine_reason_has_a_norwegian_text() -> None:
    for r in Reason:
        ill = Illegal(r, cards=(5,), number=1)
        assert reason_text(ill, "nb") != reason_text(ill, "en"), r
    assert reason_text(Illegal(Reason.NOT_HELD, cards=(5,)), "nb") == "du har ikke 7♣"


def refusal_names() -> set[str]:
    """Every ``Refusal("<what>")`` the server writes (a plain name, or one of an ``x if c else y``)."""
    names: set[str] = set()
    for path in sorted(Path(mattis.web.__file__).parent.glob("*.py")):  # the server's modules and the offline app
        if path.name == "messages.py":  # its refusals name a field's kind (KINDS, below)
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Refusal":
                assert node.args, "a refusal names its reason"
                arg = node.args[0]
                options = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
                assert all(isinstance(o, ast.Constant) and isinstance(o.value, str) for o in options), \
                    ast.unparse(node)
                names |= {str(o.value) for o in options if isinstance(o, ast.Constant)}
    names |= {kind.refusal for kind in KINDS}  # a message field of the wrong type (mattis.web.messages)
    for module in ("guard.py", "rates.py"):  # the guard's refusals are whole keys
        tree = ast.parse((Path(mattis.web.__file__).parent / module).read_text(encoding="utf-8"))
        names |= {node.value.removeprefix("web.refused.") for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and node.value.startswith("web.refused.")}
    return names


def test_every_refusal_is_worded_in_the_catalogue_and_none_is_stale() -> None:
    names = refusal_names()
    assert len(names) > 30
    assert {f"web.refused.{n}" for n in names} == {k for k in TEXT if k.startswith("web.refused.")}


def test_a_refusal_is_told_in_the_language_of_whoever_is_refused() -> None:
    r = Refusal("players", rules="mattis", lo=2, hi=6)
    assert (r.en, r.nb) == ("mattis allows 2-6 players", "mattis er for 2-6 spillere")
    assert r.text("nb") == r.nb and str(r) == r.en and r.key == "web.refused.players"
    illegal = Illegal(Reason.NOT_HELD, cards=(9,))
    engine = Refusal.illegal(illegal)
    assert (engine.en, engine.nb) == (reason_text(illegal, "en"), reason_text(illegal, "nb")) == (
        "you do not hold J♣", "du har ikke J♣")
