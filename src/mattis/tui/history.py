"""A game's tricks, one by one, for the history window: built from the public events
(:func:`mattis.play.replay_events`) of the game record, so it holds only what every
player at the table has seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core import Card, GameRecord, Move, Phase, describe_move
from ..play import GameOver, MovePlayed, PhaseTwoBegins, TrickCleared, TrickTaken, replay_events
from .i18n import Lang, t
from .render import cards_label
from .session import fix_you


@dataclass(frozen=True, slots=True)
class Trick:
    """The moves of one trick (stikk in phase 1, avstikk in phase 2) and who took it.

    ``taker`` is ``None`` for the trick being played (or a phase 1 fight nobody
    could finish); ``cards`` are the cards taken."""

    phase: Phase
    moves: tuple[tuple[int, Move, tuple[Card, ...]], ...]
    taker: int | None
    cards: tuple[Card, ...]


def tricks(record: GameRecord) -> list[Trick]:
    """Every trick of the game so far, in order; the last may be unfinished."""
    out: list[Trick] = []
    moves: list[tuple[int, Move, tuple[Card, ...]]] = []
    phase = Phase.COLLECT
    for _obs, events in replay_events(record):
        for e in events:
            if isinstance(e, MovePlayed):
                moves.append((e.seat, e.move, e.shown))
            elif isinstance(e, TrickTaken | TrickCleared):
                out.append(Trick(phase, tuple(moves), e.seat, e.cards))
                moves = []
            elif isinstance(e, PhaseTwoBegins | GameOver):
                if moves:
                    out.append(Trick(phase, tuple(moves), None, ()))
                    moves = []
                phase = Phase.SHED
    if moves:
        out.append(Trick(phase, tuple(moves), None, ()))
    return out


def trick_lines(trick: Trick, number: int, total: int, names: Sequence[str], lang: Lang) -> list[str]:
    """One trick for the history window: its number, each move, who took it."""
    key = "tui.history.trick1" if trick.phase is Phase.COLLECT else "tui.history.trick2"
    lines = [t(lang, key, n=number, total=total)]
    you = names[0]
    for seat, move, shown in trick.moves:
        lines.append("  " + fix_you(describe_move(names[seat], move, shown, lang), you, lang))
    if trick.taker is None:
        lines.append("  " + t(lang, "tui.history.open"))
    else:
        key = "tui.history.took1" if trick.phase is Phase.COLLECT else "tui.history.took2"
        lines.append("  " + fix_you(t(lang, key, name=names[trick.taker], cards=cards_label(trick.cards)),
                                    you, lang))
    return lines


__all__ = ["Trick", "trick_lines", "tricks"]
