"""Under going_out=cleared a player out of cards waits for her trick to be cleared:
the table says so, and the log tells it when it happens."""

from __future__ import annotations

from mattis.core import parse_move, parse_position, preset
from mattis.play import Referee
from mattis.tui.i18n import t
from mattis.tui.render import status_text


def test_a_player_out_of_cards_on_an_open_trick_is_shown_waiting_to_go_out() -> None:
    ref = Referee(parse_position(preset("blodmattis", going_out="cleared"),
                                 "2 dealer=0 trump=S hands=4C/5C9C/7C8CTC lead=0"))
    ref.apply(0, parse_move("play 4C"))
    for lang in ("nb", "en"):
        assert status_text(ref.observation(1), 0, lang) == t(lang, "status.waiting")
        assert status_text(ref.observation(1), 2, lang) == ""
    assert t("nb", "status.waiting").startswith("venter på å gå ut")
    ref.apply(1, parse_move("play 5C"))
    ref.apply(2, parse_move("play 7C"))  # the trick is cleared: she is out, first
    assert status_text(ref.observation(1), 0, "en") == t("en", "status.finished", place=1)
