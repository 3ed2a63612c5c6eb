"""The one door out: every byte the server sends on a table's WebSocket is built here.

:func:`frame` builds what one viewer (a seat, or ``None`` for a spectator) may
see, from the referee's ``observation(seat)`` and the table's public facts (seat
names, tally, rules).  Nothing else of the game is read: not the deck, not other
hands, not the stock, not the bot seed.
"""

from __future__ import annotations

import json
from typing import Any, Final

from ..core import Move, Observation, card_code, describe_move, rules_to_json
from ..core.cards import SUIT_LETTERS, Lang
from ..core.text import describe_bot_move, fight_term, loser_term
from ..lab.hint import hint
from ..play.seeds import position_seed
from .refusal import Refusal
from .table import Table

LOG_TAIL: Final = 30

def _codes(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [card_code(c) for c in cards]


def _obs_json(table: Table, obs: Observation, public: bool, lang: Lang, history: bool = False) -> dict[str, Any]:
    """The seat's observation as the page reads it: the core's
    :meth:`~mattis.core.Observation.to_json` (the rules and the raw history left out:
    the frame carries the rules, the log its last moves in words).  ``history``: keep the
    whole public history (a terminal seat, :mod:`mattis.tui.remote`, rebuilds the seat's
    :class:`~mattis.core.Observation` from it)."""
    names = [s.name for s in table.seats]
    hist = obs.history
    start = max(0, len(hist) - LOG_TAIL)
    out = obs.to_json(public=public, history_from=0 if history else len(hist))
    del out["rules"]
    if not history:
        del out["history"], out["history_start"]
    outcome = obs.outcome
    out["trump_rule"] = obs.rules.trump
    out["mattis"] = None if outcome is None else outcome.mattis
    by = table.by_bot.get(table.game, {})
    out["log"] = [{"seat": seat, "move": str(mv), "shown": _codes(shown), "by": by.get(i),
                   "text": move_words(names[seat], mv, shown, by.get(i), lang)}
                  for i, (seat, mv, shown) in enumerate(hist[start:], start)]
    out["log_start"] = start
    out["bot_moves"] = {str(i): why for i, why in sorted(by.items())}  # the whole game's: the terminal seat
    return out


def move_words(name: str, mv: Move, shown: tuple[int, ...] | list[int], by: str | None, lang: Lang) -> str:
    """A move as a log line: under the player's name, or, made by a bot for her (``by``: why),
    saying so and why (:func:`~mattis.core.text.describe_bot_move`)."""
    return describe_move(name, mv, shown, lang) if by is None else describe_bot_move(name, mv, shown, by, lang)


def hint_json(obs: Observation, lang: Lang, game: int, seq: int) -> dict[str, Any]:
    """The hint for the seat whose view ``obs`` is, as its page is sent it (``hint`` in a frame):
    :func:`mattis.lab.hint.hint` seeded from that view alone (``position_seed(None, "hint", obs)``,
    as a terminal seat at a web table does), so it is the same on every ask in a position and
    nothing the seat cannot see goes into it.  ``move`` and ``cards`` (to mark on the page), the
    sentence (``text``) and the position it is for (``game``, ``seq``)."""
    h = hint(obs, lang, position_seed(None, "hint", obs))
    return {"game": game, "seq": seq, "move": str(h.move), "cards": _codes(h.move.cards), "text": h.text}


def timer_json(table: Table, now: float | None) -> dict[str, Any] | None:
    """The clock running for the seat to act, as the page counts it down: ``left`` seconds when
    the frame was built (the page counts from when it arrives), of ``total``; ``kind``: ``clock``
    (the turn clock: a bot plays the turn), ``grace`` (she is away: a bot plays for her) or
    ``host`` (the host is away from the lobby: anyone may start).  Frozen while paused.  At a
    table with a time bank, ``left`` is the turn clock's own seconds and ``bank`` the seat's
    bank, spent after them (the page counts the bank down once ``left`` is out)."""
    t = table.timer
    if t is None or now is None or (t.game, t.seq) != (table.game, table.seq):
        return None
    out: dict[str, Any] = {"seat": t.seat, "kind": t.kind, "left": round(t.clock_left(now), 1), "total": t.total,
                           "paused": t.left is not None}
    if table.bank is not None:
        out["bank"] = round(t.bank_left(now), 1)
    return out


def frame(table: Table, viewer: int | None, lang: Lang, *, connected: set[int] | frozenset[int] = frozenset(),
          error: Refusal | None = None, echo: int | None = None, extra: dict[str, Any] | None = None,
          history: bool = False, now: float | None = None, heartbeat: float | None = None,
          former: int | None = None) -> str:
    """The JSON text one viewer is sent: the table as that seat (or a spectator) may see it,
    plus an optional refusal of that viewer's own request (or the number of its ``sync`` request).
    ``history``: the observation keeps the game's whole public history (asked for in the hello
    by a terminal seat; a page reads only the log).  ``now``: the hub's time, for the clock's
    seconds left; ``heartbeat``: how often the page pings; ``former``: the seat a spectator had
    before the host gave it to a bot (she is told so, ``given``)."""
    rules = table.rules
    seats = [{"name": s.name, "kind": s.kind, "level": s.level if s.kind == "bot" else None,
              "connected": s.kind == "bot" or i in connected, "standin": i in table.standin,
              "covered": table.covered(i), "back": s.kind == "bot" and s.former is not None,
              "cover_why": table.cover_why if table.covered(i) else None,  # clock or host
              "bot_last": table.last_bot_move(i)}  # a bot made her last move: why (until she moves herself)
             for i, s in enumerate(table.seats)]
    out: dict[str, Any] = {
        "type": "state",
        "table": table.id,
        "you": viewer,
        "host": viewer == 0,
        "status": table.status,
        "game": table.game,
        "seq": table.seq,
        "players": table.players,
        "rules": rules_to_json(rules),
        "rules_name": rules.name,
        "fight": fight_term(rules),  # the term.* key of the fight over equal cards
        "loser": loser_term(rules),  # what the loser is called: loser.*, end.loser.* keys
        "sequences": rules.sequences,
        "chance": str(rules.chance),  # "off": the sjanse button never applies
        "seats": seats,
        "tally": {"games": table.games_done, "mattis": table.tally},
        "records": sorted(table.records),
        "invite": table.invite if viewer is not None and table.status == "lobby" else None,
        "grace": table.grace,
        "host_away": table.host_away,  # the host left the lobby: anyone seated may start
        "clock": table.clock,  # the turn clock's seconds (None: no clock)
        "paused": table.paused,
        "timer": timer_json(table, now),
        "bank": table.bank,  # the time bank each seat has a game (None: none)
        "banks": [round(b, 1) for b in table.banks] if table.bank is not None and table.banks else None,
        "chat": table.chat.view(viewer),  # the recent lines, the muted seats, whether this page may write
        "heartbeat": heartbeat,
        "given": former if viewer is None and former is not None and former < len(seats)
        and table.seats[former].kind == "bot" else None,
    }
    ref = table.referee
    if ref is not None:
        seat = 0 if viewer is None else viewer
        out["obs"] = _obs_json(table, ref.observation(seat), viewer is None, lang, history)
    if echo is not None:
        out["echo"] = echo
    if extra:
        out.update(extra)
    if error is not None:
        out["error"] = error.nb if lang == "nb" else error.en
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))


def replay_steps(record_text: str, names: list[str], lang: Lang,
                 by: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """A finished game move by move, for replaying it in the browser: after the deal and
    after each move, every hand (the game is over, so nothing is secret any more), the
    cards on the table with who laid each, the stock and the trump, the move in words,
    who made it, and when a trick was completed who took it (``took``; ``took_phase`` 1:
    a trick won, 2: an avstikk; ``taken``: the trick's cards with who laid each) and the
    number of tricks done so far (``trick``),
    which the page steps by.  ``by``: the moves a bot made for a person (move number from 0:
    why), said so in the step's words and its ``by``.  Built through the play layer's referee."""
    from dataclasses import replace

    from ..core import GameRecord, parse_record_move
    from ..core.events import TrickCleared, TrickTaken
    from ..play import Referee

    rec = GameRecord.loads(record_text)
    ref = Referee.from_record(replace(rec, moves=[]))
    laid: dict[int, int] = {}
    tricks = 0

    def step(text: str, seat: int | None, took: int | None, taken: list[list[Any]] | None,
             took_phase: int | None, why: str | None = None) -> dict[str, Any]:
        obs = [ref.observation(s) for s in range(rec.players)]
        o = obs[0]
        table = ([[s, [card_code(c)]] for s, c in o.table1] if o.phase == 1
                 else [[s, _codes(e)] for s, e in o.table2])
        return {"text": text, "seat": seat, "phase": o.phase, "hands": [_codes(x.hand) for x in obs],
                "table": table, "stock_count": o.stock_count, "piles": [len(p) for p in o.piles],
                "trump_card": None if o.trump_card is None else card_code(o.trump_card),
                "trump": None if o.trump is None else SUIT_LETTERS[o.trump],
                "took": took, "taken": taken, "took_phase": took_phase, "trick": tricks, "by": why}

    steps = [step("", None, None, None, None)]
    for number, line in enumerate(rec.moves):
        seat, move = parse_record_move(line)
        shown_before = len(ref.observation(seat).history)
        events = ref.apply(seat, move)
        _s, mv, shown = ref.observation(seat).history[shown_before]
        for c in (*mv.cards, *shown):
            laid[c] = seat
        took: int | None = None
        took_phase: int | None = None
        taken: list[list[Any]] | None = None
        for ev in events:
            if isinstance(ev, TrickTaken | TrickCleared):
                tricks += 1
                took, took_phase = ev.seat, 1 if isinstance(ev, TrickTaken) else 2
                taken = [[laid.get(c), card_code(c)] for c in ev.cards]
        why = (by or {}).get(number)
        steps.append(step(move_words(names[seat], mv, shown, why, lang), seat, took, taken, took_phase, why))
    return steps


def notice(message_en: str, message_nb: str, lang: Lang) -> str:
    """A message to a connection that has no seat view yet (a refused hello)."""
    return json.dumps({"type": "refused", "error": message_nb if lang == "nb" else message_en}, ensure_ascii=False)
