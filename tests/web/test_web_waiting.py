"""The web page is told who waits to go out (going_out=cleared): the seat's frame
carries the observation's ``waiting`` (from ``Observation.to_json``), and the page's
words for it come from the catalogue."""

from __future__ import annotations

import json
import random

from mattis.web.i18n import page_strings
from mattis.web.table import Table
from mattis.web.view import frame


def test_a_frame_says_who_waits_to_go_out() -> None:
    ev, _token = Table.create_event("blodmattis", {}, 3, [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
                                    "Kari", test_seed=4)
    table = Table.from_create(ev)
    table.apply(table.deal_event(0))
    ref = table.referee
    assert ref is not None
    rng = random.Random(4)
    seen_waiting = 0
    while not ref.is_over:
        seat = ref.to_act
        assert seat is not None
        table.apply(table.move_event(seat, table.game, ref.moves_played,
                                     str(rng.choice(ref.observation(seat).legal))))
        waiting = ref.observation(0).waiting
        for viewer in (0, None):
            obs = json.loads(frame(table, viewer, "nb"))["obs"]
            assert obs["waiting"] == list(waiting)
            assert obs["still_in"] == sorted(ref.observation(0).still_in)
        seen_waiting += bool(waiting)
    assert seen_waiting > 0
    assert page_strings()["nb"]["status.waiting"].startswith("venter på å gå ut")
