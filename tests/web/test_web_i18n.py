"""Every string of the page exists in Norwegian and English; every engine reason is translated."""

from __future__ import annotations

import json
import random
import re
from importlib.resources import files

from mattis.core import CHANCE, PICKUP, PRESETS, Illegal, Reason, State, play, preset, reason_text

STATIC = files("mattis.web") / "static"


def test_every_page_string_is_in_both_languages() -> None:
    strings = json.loads((STATIC / "i18n.json").read_text(encoding="utf-8"))
    assert set(strings) == {"en", "nb"}
    assert set(strings["en"]) == set(strings["nb"])
    for lang in ("en", "nb"):
        assert all(isinstance(v, str) and v.strip() for v in strings[lang].values()), lang
    js = (STATIC / "app.js").read_text(encoding="utf-8")
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("([a-z0-9_]+)"', js)) | set(re.findall(r'data-t="([a-z0-9_]+)"', html))
    # Keys built at run time: t("level_" + l), t("suit_" + X), t("phase_" + n), t("end_" + reason).
    used |= {f"level_{x}" for x in ("easy", "medium", "hard", "expert")}
    used |= {f"suit_{x}" for x in "CDHS"} | {f"phase_{n}" for n in (1, 2, 3)}
    used |= {f"end_{r}" for r in ("repetition", "cap", "stuck")}
    missing = {k for k in used if not k.endswith("_")} - set(strings["en"])
    assert not missing, f"strings used by the page but not translated: {sorted(missing)}"
    assert len(used) > 60
    # The two languages really differ (a copy would pass the key check).
    same = [k for k in strings["en"] if strings["en"][k] == strings["nb"][k] and len(strings["en"][k]) > 12]
    assert not same, same


def test_every_engine_reason_has_a_norwegian_text() -> None:
    rng = random.Random(5)
    reasons: set[Illegal] = set()
    tries = [CHANCE, PICKUP, play(0), play(0, 1), play(0, 2), play(13, 14, 15)]
    for name in PRESETS:
        for seq in (0, 2, 3):
            rules = preset(name, sequences=seq) if name != "blodmattis" or seq else preset(name)
            for _game in range(8):
                st = State.new(rules, 3, seed=rng.randrange(10**6))
                while not st.is_over:
                    for mv in tries + [play(c) for c in range(52)]:
                        why = st.why_illegal(mv)
                        if why:
                            reasons.add(why)
                    st.apply(rng.choice(st.legal_moves()))
    assert len({r.reason for r in reasons}) >= 12
    untranslated = {r for r in reasons if reason_text(r, "nb") == reason_text(r, "en")}
    assert not untranslated, untranslated
    assert reason_text(Illegal(Reason.NOT_HELD, cards=(5,)), "nb") == "du har ikke 7♣"
