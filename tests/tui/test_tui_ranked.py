"""Players ranked at a forced end are shown as ranked, never as out."""

from __future__ import annotations

from mattis.core import State, parse_position, play, preset, seat_names
from mattis.core.cards import parse_card
from mattis.tui.render import end_lines, status_text


def _capped() -> State:
    """The phase 2 cap stops the game after one move: Anne (1 card) and Cato rank ahead
    of Bjørn, who is Mattis; nobody went out."""
    r = preset("mattis", phase2_cap=1)
    s = parse_position(r, "2 dealer=0 trump=S hands=2C9D/2D5D/3H5H lead=0")
    s.apply(play(parse_card("2C")))
    assert s.is_over and s.finished == [] and s.ranked == [0, 2] and s.losers == [1]
    return s


def test_end_screen_says_ranked_not_out() -> None:
    s = _capped()
    names = seat_names(3, lang="en")
    obs = s.observation(0)
    text = "\n".join(end_lines(obs, names, [0, 1, 0], "en"))
    assert f"1. {names[0]} (ranked when the game was stopped, not out)" in text
    assert f"2. {names[2]} (ranked when the game was stopped, not out)" in text
    assert f"3. {names[1]} (Mattis)" in text
    assert status_text(obs, 0, "en") == "ranked 1 when the game was stopped (not out)"
    assert "out, place" not in status_text(obs, 2, "en")
    nb = "\n".join(end_lines(s.observation(0), seat_names(3, lang="nb"), [0, 1, 0], "nb"))
    assert "rangert da spillet ble stoppet, ikke ute" in nb
