"""Text forms of a position: the position notation and the JSON snapshot.

The **position notation** is to a game of this family what FEN is to chess: one
line that sets up a game anywhere in phase 1 or phase 2, so tests, puzzles and
bots can start from a position without replaying a game.  A record may start
from it (``"position": "<text>"``).  It is a phase number, then ``key=value``
fields separated by spaces; seats are separated by ``/`` in seat order, cards
are record codes written together (``4C9CTS``), and ``-`` is "none".

Phase 1 (``1``): ``dealer``, ``hands``, ``piles`` (cards won), ``won`` (tricks
won), ``stock`` (top card first), ``trump`` (the trump card: ``-`` while it is
still in the stock face down; ``QD`` for the bottom card turned face up;
``QD@2`` once seat 2 drew it), ``last`` (who took the last trick), ``leader``
(who leads the trick), and during a trick ``trick`` (the cards on the table in
the order laid, ``seat:card`` joined by ``,``), ``round`` (the seats laying in
this round, ``,``-joined), ``laid`` (how many of them have laid) and ``fight``
(``1`` in a krig/støting).  Cards in no place are set aside unseen.

Phase 2 (``2``): ``dealer``, ``trump`` (the suit, or the trump card and who drew
it: ``KD@0``), ``hands``, then either
``lead=L`` (phase 2 begins here: the empty-hand rule applies, then seat L
leads) or ``turn=T`` (seat T is to act) with ``table`` (the entries of the
trick, ``seat:cards`` joined by ``,``), ``need`` (entries that complete it under
``trick_size=start``), ``finished``, ``losers``, ``blodmattis`` (``,``-joined
seats) and optionally ``won``, ``known`` (cards everyone knows a seat holds),
``aside`` (cards set aside unseen at the deal) and ``waiting`` (under
``going_out=cleared``: empty-handed seats whose last entry is on the table).  Cards in no other place are out of
play.

>>> from mattis.core import preset
>>> text = "2 dealer=0 trump=S hands=4C9C/JC2H/QS lead=0"
>>> s = parse_position(preset("mattis"), text)
>>> s.to_act, position_text(s)
(0, '2 dealer=0 trump=S turn=0 hands=4C9C/JC2H/QS table=- need=0 finished=- losers=- blodmattis=- won=1/1/1')
>>> position_text(parse_position(preset("mattis"), position_text(s))) == position_text(s)
True
"""

from __future__ import annotations

from typing import Any

from .cards import SUIT, SUIT_LETTERS, Card, CardError, card_code, cards_of, parse_card
from .rules import Rules
from .state import GameSetupError, PositionFields, State
from .vocabulary import Phase

__all__ = ["parse_position", "phase2_start_text", "position_text", "snapshot"]


def _cards(cards: list[Card] | tuple[Card, ...]) -> str:
    return "".join(card_code(c) for c in cards) or "-"


def _mask(mask: int) -> str:
    return _cards(cards_of(mask))


def _seats(seats: list[int] | tuple[int, ...]) -> str:
    return ",".join(str(s) for s in seats) or "-"


def phase2_start_text(hands: list[list[Card]] | tuple[tuple[Card, ...], ...], trump: int, leader: int,
                      dealer: int = 0) -> str:
    """The notation of a position at the start of phase 2 (``lead=``)."""
    return (f"2 dealer={dealer} trump={SUIT_LETTERS[trump]} hands={'/'.join(_cards(sorted(h)) for h in hands)} "
            f"lead={leader}")


def position_text(state: State) -> str:
    """``state`` in the position notation (the history is not part of it).

    Raises ``ValueError`` for a finished game."""
    s = state
    if s.phase is Phase.OVER:
        raise ValueError("a finished game has no position")
    hands = "/".join(_mask(h) for h in s.hands)
    won = "/".join(str(w) for w in s.tricks_won)
    if s.phase is Phase.COLLECT:
        if s.trump_card < 0:
            trump = "-"
        elif s.trump_holder >= 0:
            trump = f"{card_code(s.trump_card)}@{s.trump_holder}"
        else:
            trump = card_code(s.trump_card)
        parts = [
            "1", f"dealer={s.dealer}", f"hands={hands}", f"piles={'/'.join(_mask(p) for p in s.piles)}",
            f"won={won}", f"stock={_cards(list(reversed(s.stock)))}", f"trump={trump}",
            f"last={s.last_winner if s.last_winner >= 0 else '-'}", f"leader={s.trick_leader}",
        ]
        if s.trick or s.fighting:
            parts += [
                "trick=" + (",".join(f"{seat}:{card_code(c)}" for seat, c in s.trick) or "-"),
                f"round={_seats(s.round_seats)}", f"laid={len(s.round_laid)}", f"fight={int(s.fighting)}",
            ]
        return " ".join(parts)
    table = ",".join(f"{seat}:{_cards(e)}" for seat, e in s.table) or "-"
    trump = SUIT_LETTERS[s.trump]
    if s.trump_card >= 0:
        trump = card_code(s.trump_card) + (f"@{s.trump_holder}" if s.trump_holder >= 0 else "")
    parts = [
        "2", f"dealer={s.dealer}", f"trump={trump}", f"turn={s.to_act}", f"hands={hands}",
        f"table={table}", f"need={s.trick_need}", f"finished={_seats(s.finished)}", f"losers={_seats(s.losers)}",
        f"blodmattis={_seats(s.blodmattis)}", f"won={won}",
    ]
    if any(s.known):
        parts.append("known=" + "/".join(_mask(k) for k in s.known))
    if s.aside:
        parts.append(f"aside={_mask(s.aside)}")
    if s.pending:
        parts.append(f"waiting={_seats([q for q in range(s.n) if s.pending >> q & 1])}")
    return " ".join(parts)


_SEAT_FIELDS = {"lead": "the leader (lead=)", "leader": "the leader (leader=)", "turn": "the player to act (turn=)",
                "dealer": "the dealer (dealer=)"}


class _Reader:
    """The fields of a position text, read with clear errors."""

    def __init__(self, text: str) -> None:
        words = text.split()
        if not words or words[0] not in ("1", "2"):
            raise GameSetupError("a position starts with its phase, 1 or 2")
        self.phase = int(words[0])
        self.fields: dict[str, str] = {}
        for w in words[1:]:
            key, sep, value = w.partition("=")
            if not sep or not key:
                raise GameSetupError(f"expected key=value in the position, got {w!r}")
            if key in self.fields:
                raise GameSetupError(f"{key} is given twice in the position")
            self.fields[key] = value

    def has(self, key: str) -> bool:
        return key in self.fields

    def raw(self, key: str, default: str | None = None) -> str:
        if key not in self.fields:
            if default is None:
                raise GameSetupError(f"the position needs {key}=")
            return default
        return self.fields.pop(key)

    def int(self, key: str, default: str | None = None, lo: int = 0, hi: int = 10**9) -> int:
        text = self.raw(key, default)
        if not text.isdigit() or not lo <= int(text) <= hi:
            what = _SEAT_FIELDS.get(key, key)
            raise GameSetupError(f"{what} must be {'a seat' if key in _SEAT_FIELDS else 'a number'} "
                                 f"from {lo} to {hi}, got {text!r}")
        return int(text)

    def done(self) -> None:
        if self.fields:
            raise GameSetupError(f"unknown field(s) in the position: {', '.join(sorted(self.fields))}")


def _read_cards(text: str) -> list[Card]:
    if text == "-":
        return []
    if len(text) % 2:
        raise GameSetupError(f"cards are written as two-letter codes (4C, TS): {text!r}")
    try:
        return [parse_card(text[i:i + 2]) for i in range(0, len(text), 2)]
    except CardError as e:
        raise GameSetupError(str(e)) from None


def _read_seats(text: str, n: int) -> list[int]:
    if text == "-":
        return []
    out: list[int] = []
    for w in text.split(","):
        if not w.isdigit() or not 0 <= int(w) < n:
            raise GameSetupError(f"not a seat: {w!r} (seats are 0 to {n - 1})")
        out.append(int(w))
    return out


def _read_seat(text: str, n: int) -> int:
    if not text.isdigit() or not 0 <= int(text) < n:
        raise GameSetupError(f"not a seat: {text!r} (seats are 0 to {n - 1})")
    return int(text)


def _per_seat(text: str, n: int | None, what: str) -> list[str]:
    parts = text.split("/")
    if n is not None and len(parts) != n:
        raise GameSetupError(f"{what} needs {n} seats separated by /, got {len(parts)}")
    return parts


def parse_position(rules: Rules, text: str) -> State:
    """A state set up from the position notation (see the module docstring), through
    :meth:`State.from_fields`.

    Raises :class:`~mattis.core.state.GameSetupError` saying what is wrong."""
    r = _Reader(text)
    hand_texts = _per_seat(r.raw("hands"), None, "hands")
    n = len(hand_texts)
    if not 2 <= n <= 6:
        raise GameSetupError("a position needs 2 to 6 hands")
    dealer = r.int("dealer", "0", 0, n - 1)
    hands = tuple(tuple(_read_cards(h)) for h in hand_texts)
    won: tuple[int, ...] | None = None
    if r.has("won"):
        won = tuple(int(w) if w.isdigit() else -1 for w in _per_seat(r.raw("won"), n, "won"))
        if min(won) < 0:
            raise GameSetupError("won must be whole numbers")
    fields = _phase1(r, n, hands, dealer, won) if r.phase == 1 else _phase2(r, n, hands, dealer, won)
    r.done()
    return State.from_fields(rules, fields, text.strip())


def _phase1(r: _Reader, n: int, hands: tuple[tuple[Card, ...], ...], dealer: int,
            won: tuple[int, ...] | None) -> PositionFields:
    piles = tuple(tuple(_read_cards(p)) for p in _per_seat(r.raw("piles", "/".join("-" * n)), n, "piles"))
    stock = tuple(_read_cards(r.raw("stock", "-")))
    trump_card = holder = -1
    trump = r.raw("trump", "-")
    if trump != "-":
        code, _, who = trump.partition("@")
        card = _read_cards(code)
        if len(card) != 1:
            raise GameSetupError(f"trump must be one card, optionally @seat: {trump!r}")
        trump_card = card[0]
        if who:
            holder = _read_seat(who, n)
    last = r.raw("last", "-")
    last_winner = _read_seat(last, n) if last != "-" else -1
    leader = r.int("leader", None, 0, n - 1)
    if not r.has("trick") and not r.has("round"):
        return PositionFields(Phase.COLLECT, hands, dealer, won, trump_card=trump_card, trump_holder=holder,
                              leader=leader, piles=piles, stock=stock, last_winner=last_winner)
    trick: list[tuple[int, Card]] = []
    trick_text = r.raw("trick", "-")
    for w in trick_text.split(",") if trick_text != "-" else []:
        seat_text, _, code = w.partition(":")
        seat = _read_seat(seat_text, n)
        card = _read_cards(code)
        if len(card) != 1:
            raise GameSetupError(f"a phase 1 table entry is seat:card, got {w!r}")
        trick.append((seat, card[0]))
    round_seats = tuple(_read_seats(r.raw("round"), n))
    laid = r.int("laid", "0", 0, len(round_seats))
    fight = r.int("fight", "0", 0, 1) == 1
    return PositionFields(Phase.COLLECT, hands, dealer, won, trump_card=trump_card, trump_holder=holder,
                          leader=leader, piles=piles, stock=stock, last_winner=last_winner, trick=tuple(trick),
                          round_seats=round_seats, laid=laid, fighting=fight)


def _phase2(r: _Reader, n: int, hands: tuple[tuple[Card, ...], ...], dealer: int,
            won: tuple[int, ...] | None) -> PositionFields:
    trump_text = r.raw("trump")
    code, _, who = trump_text.partition("@")
    trump = trump_card = holder = -1
    if len(code) == 1 and code.upper() in SUIT_LETTERS and not who:
        trump = SUIT_LETTERS.index(code.upper())
    else:
        card = _read_cards(code) if len(code) == 2 else []
        if len(card) != 1:
            raise GameSetupError(f"trump must be a suit letter (C, D, H, S) or the trump card, got {trump_text!r}")
        trump_card = card[0]
        if who:
            holder = _read_seat(who, n)
    aside = tuple(_read_cards(r.raw("aside", "-")))
    if r.has("lead"):
        leader = r.int("lead", None, 0, n - 1)
        return PositionFields(Phase.SHED, hands, dealer, won, trump=trump, trump_card=trump_card,
                              trump_holder=holder, leader=leader, aside=aside)
    turn = r.int("turn", None, 0, n - 1)
    table: list[tuple[int, tuple[Card, ...]]] = []
    table_text = r.raw("table", "-")
    for w in table_text.split(",") if table_text != "-" else []:
        seat_text, _, code = w.partition(":")
        seat = _read_seat(seat_text, n)
        cards = _read_cards(code)
        if not cards:
            raise GameSetupError(f"a phase 2 table entry is seat:cards, got {w!r}")
        table.append((seat, tuple(cards)))
    need = r.int("need", "0", 0, n)
    finished = tuple(_read_seats(r.raw("finished", "-"), n))
    losers = tuple(_read_seats(r.raw("losers", "-"), n))
    blodmattis = tuple(_read_seats(r.raw("blodmattis", "-"), n))
    known = None
    if r.has("known"):
        known = tuple(tuple(_read_cards(k)) for k in _per_seat(r.raw("known"), n, "known"))
    waiting = tuple(_read_seats(r.raw("waiting", "-"), n))
    return PositionFields(Phase.SHED, hands, dealer, won, trump=trump, trump_card=trump_card, trump_holder=holder,
                          aside=aside, turn=turn, table=tuple(table), need=need, finished=finished, losers=losers,
                          blodmattis=blodmattis, known=known, waiting=waiting)


def snapshot(state: State) -> dict[str, Any]:
    """The full state as JSON-ready data (for the referee and ``mattis replay``)."""
    s = state
    trump: str | None = None
    if s.trump >= 0:
        trump = SUIT_LETTERS[s.trump]
    elif s.trump_card >= 0:
        trump = SUIT_LETTERS[SUIT[s.trump_card]]
    table: list[Any]
    if s.phase is Phase.COLLECT:
        table = [card_code(c) for _, c in s.trick]
    else:
        table = [[card_code(c) for c in e] for _, e in s.table]
    return {
        "phase": "over" if s.phase is Phase.OVER else int(s.phase),
        "trump": trump,
        "trump_card": card_code(s.trump_card) if s.trump_card >= 0 else None,
        "trump_holder": s.trump_holder if s.trump_holder >= 0 else None,
        "to_act": s.to_act,
        "hands": [[card_code(c) for c in cards_of(h)] for h in s.hands],
        "piles": [[card_code(c) for c in cards_of(p)] for p in s.piles],
        "table": table,
        "table_seats": [seat for seat, _ in s.trick] if s.phase is Phase.COLLECT else [seat for seat, _ in s.table],
        "stock": [card_code(c) for c in reversed(s.stock)],
        "set_aside": [card_code(c) for c in cards_of(s.aside)],
        "out_of_play": [card_code(c) for c in cards_of(s.out)],
        "finished": list(s.finished),
        "ranked": list(s.ranked),
        "waiting": [q for q in range(s.n) if s.pending >> q & 1],
        "losers": list(s.losers),
        "blodmattis": list(s.blodmattis),
        "end_reason": str(s.end_reason) if s.end_reason is not None else None,
        "moves_played": s.n_moves,
        "legal": [f"{s.to_act} {m}" for m in s.legal_moves()],
    }
