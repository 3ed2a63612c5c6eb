"""The one source of move truth: which moves are legal, why another is not,
what may answer an entry, and which position counts for repetition.

The state machine (:mod:`mattis.core.state`), the determinizer, the solver and
the policy bots all ask these functions; none of them writes the rules again.
A rule option that changes what may be laid is added here and nowhere else.

Cards are ints and hands are bit masks (see :mod:`mattis.core.cards`).

>>> from mattis.core.cards import mask_of, parse_card
>>> from mattis.core.rules import Follow
>>> hand = mask_of([parse_card(c) for c in ("8S", "2H", "3S")])
>>> top = (parse_card("9S"),)
>>> from mattis.core.rules import preset
>>> [str(m) for m in phase2_moves(hand, top, 2, preset("mattis"))]
['play 2H']
>>> [str(m) for m in phase2_moves(hand, top, 2, preset("mattis", follow=Follow.VOID))]
['pickup']

Whether one move is legal, and why not, is :func:`verify`: the one judgement that
the state (``State.apply``), the referee and every front end ask.  It agrees with
the move generators exactly (``verify(s, m) is None`` iff ``m in s.legal_moves()``:
a property test over random games under every option value).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .cards import BIT, FULL_DECK_MASK, RANK, SUIT, Card, mask_of, sequence_spans
from .moves import _SINGLE, CHANCE, PICKUP, Move, MoveKind, play
from .rules import Chance, Follow, Pickup, Rules, Ties, TrickSize, Trump
from .vocabulary import Illegal, Phase, Reason

# Enum members as module constants: reading ``Enum.MEMBER`` costs a descriptor call.
_CHANCE_ANY: Final = Chance.ANY
_CHANCE_LEAD: Final = Chance.LEAD
_CHANCE_OFF: Final = Chance.OFF
_FOLLOW_FREE: Final = Follow.FREE
_FOLLOW_VOID: Final = Follow.VOID
_MOVEKIND_CHANCE: Final = MoveKind.CHANCE
_MOVEKIND_PICKUP: Final = MoveKind.PICKUP
_MOVEKIND_PLAY: Final = MoveKind.PLAY
_PHASE_COLLECT: Final = Phase.COLLECT
_PHASE_OVER: Final = Phase.OVER
_PICKUP_FIRST: Final = Pickup.FIRST
_TRICKSIZE_ACTIVE: Final = TrickSize.ACTIVE
_TRICKSIZE_START: Final = TrickSize.START
_TIES_STOTING: Final = Ties.STOTING
_PICKUP_LAST: Final = Pickup.LAST
_TRUMP_LAST_CARD: Final = Trump.LAST_CARD


if TYPE_CHECKING:
    from .state import State

__all__ = [
    "RepetitionKey", "answer_bits", "answer_mask", "chance_floor", "lay_outcome", "next_seat_in",
    "phase1_moves", "phase2_moves", "pickup_span", "repetition_key", "revealed_absent", "round_winners",
    "suit_above", "trick_complete_at", "verify",
]

SUIT_BITS: Final = 0x1FFF
"""The 13 rank bits of one suit."""

# Memo tables of immutable move tuples: pure functions of their keys, so sharing them
# between states and threads is safe (they hold no game state).
_SINGLES: Final[list[tuple[Move, ...] | None]] = [None] * (4 << 13)
"""[suit << 13 | 13-bit rank pattern] -> the single-card moves (a list: indexing it is
cheaper than a dict lookup, in the compiled core most of all)."""
_SINGLES_PICKUP: Final[list[tuple[Move, ...] | None]] = [None] * (4 << 13)
"""The same, then ``pickup``: an answer where picking up is optional."""
_ENTRIES: Final[dict[int, tuple[Move, ...]]] = {}
"""(min_seq << 15 | suit << 13 | 13-bit rank pattern) -> singles and sequences."""
_PHASE1: Final[dict[int, tuple[Move, ...]]] = {}
"""(hand mask << 1 | chance allowed) -> phase 1 legal moves."""
_PICKUP_ONLY: Final[tuple[Move, ...]] = (PICKUP,)


def _suit_singles(suit: int, bits: int) -> tuple[Move, ...]:
    """The single-card moves of a 13-bit rank pattern in ``suit`` (memoised)."""
    key = (suit << 13) | bits
    singles = _SINGLES[key]
    if singles is None:
        base = 13 * suit
        singles = _SINGLES[key] = tuple(_SINGLE[base + r] for r in range(13) if bits >> r & 1)
    return singles


def _suit_singles_pickup(suit: int, bits: int) -> tuple[Move, ...]:
    """:func:`_suit_singles`, then ``pickup`` (memoised)."""
    key = (suit << 13) | bits
    moves = _SINGLES_PICKUP[key]
    if moves is None:
        moves = _SINGLES_PICKUP[key] = _suit_singles(suit, bits) + _PICKUP_ONLY
    return moves


def _suit_entries(suit: int, bits: int, min_seq: int) -> tuple[Move, ...]:
    """The entries of a 13-bit rank pattern in ``suit``: its single cards, then its
    sequences (serie/rad) of ``min_seq`` or more cards (0 = none); memoised."""
    if not min_seq:
        return _suit_singles(suit, bits)
    key = (min_seq << 15) | (suit << 13) | bits
    entries = _ENTRIES.get(key)
    if entries is None:
        base = 13 * suit
        entries = _ENTRIES[key] = _suit_singles(suit, bits) + tuple(
            play(*range(base + a, base + b)) for a, b in sequence_spans(bits, min_seq))
    return entries


# ------------------------------------------------------------------ phase 1
def chance_floor(rules: Rules) -> int:
    """The fewest stock cards that allow a sjanse (chance): two where the last card is
    the hidden trump (``trump=last_card``: "bare lov så lenge det ligger mer enn ett
    kort igjen i bunken", Regler for kortspillet Skitgubbe), else one (the last card
    is drawn like any card)."""
    return 2 if rules.trump is _TRUMP_LAST_CARD else 1


def phase1_moves(hand: int, rules: Rules, stock_count: int, leading: bool) -> tuple[Move, ...]:
    """Phase 1: lay any card of ``hand`` (in card order), then sjanse (lay the top
    stock card) where allowed: never with fewer stock cards than :func:`chance_floor`,
    else always with an empty hand, and as ``rules.chance`` says (``any``, or
    ``lead``: only when laying out, ``leading``: the trick's first card, or any
    fighter's card in a krig/støting)."""
    chance = False
    if stock_count >= chance_floor(rules):
        ch = rules.chance
        chance = not hand or ch is _CHANCE_ANY or (ch is _CHANCE_LEAD and leading)
    key = hand << 1 | chance
    moves = _PHASE1.get(key)
    if moves is None:
        singles = tuple(_SINGLE[c] for c in range(52) if hand >> c & 1)
        moves = singles + (CHANCE,) if chance else singles
        if len(_PHASE1) < 1_000_000:
            _PHASE1[key] = moves
    return moves


def round_winners(cards: list[Card], rules: Rules, fighting: bool) -> list[int]:
    """Phase 1: who is still in contention after a round in which ``cards`` were laid
    (their indices; one index: that card takes the trick).  ``ties="stoting"``: any
    rank laid twice among the first cards of a trick starts a fight between the cards
    of the highest such rank; in a fight round (``fighting``), and under ``war``, the
    highest card takes all and only a tie for it fights again ("den med høyeste
    kampkort tar alt. Er kampkortene også like, blir det ny støting mellom dem")."""
    if rules.ties is _TIES_STOTING and not fighting:
        seen = 0
        dup = -1
        for c in cards:
            r = RANK[c]
            if seen >> r & 1 and r > dup:
                dup = r
            seen |= 1 << r
        if dup >= 0:
            return [i for i, c in enumerate(cards) if RANK[c] == dup]
    best = -1
    for c in cards:
        if RANK[c] > best:
            best = RANK[c]
    return [i for i, c in enumerate(cards) if RANK[c] == best]


def lay_outcome(laid: list[Card], card: Card, rules: Rules, fighting: bool) -> int:
    """Phase 1, if ``card`` were laid last in a round in which ``laid`` lie: ``1`` it
    takes the trick, ``0`` it fights on (a krig/støting), ``-1`` it is beaten."""
    winners = round_winners([*laid, card], rules, fighting)
    me = len(laid)
    if me not in winners:
        return -1
    return 1 if len(winners) == 1 else 0


def next_seat_in(still_in: int, seat: int, players: int) -> int:
    """Phase 2: the next seat after ``seat`` (clockwise) still in, by the seat mask
    ``still_in``; ``seat`` itself if no other is."""
    s = (seat + 1) % players
    for _ in range(players):
        if still_in >> s & 1:
            return s
        s = (s + 1) % players
    return seat


# ------------------------------------------------------------------ phase 2
def suit_above(top: tuple[Card, ...]) -> int:
    """The cards of the suit of the entry ``top`` ranked above its highest card."""
    ts, sb, _ = _answer_bits(FULL_DECK_MASK, top, -1, False)
    return sb << (13 * ts)


def _answer_bits(hand: int, top: tuple[Card, ...], trump: int, void: bool) -> tuple[int, int, int]:
    """:func:`answer_bits` with ``follow=void`` as a flag (``void``)."""
    ts = SUIT[top[0]]
    above = RANK[top[-1]] + 1
    held = hand >> (13 * ts) & SUIT_BITS
    sb = held >> above << above
    tb = 0
    if ts != trump and trump >= 0 and (not void or not held):
        tb = hand >> (13 * trump) & SUIT_BITS
    return ts, sb, tb


def answer_bits(hand: int, top: tuple[Card, ...], trump: int, rules: Rules) -> tuple[int, int, int]:
    """The rule for answering the phase 2 entry ``top``: ``(suit, suit_bits,
    trump_bits)``, the 13-bit rank patterns of the cards of ``hand`` that may begin
    an answer: higher cards of the entry's suit, and trumps (trumf) on a non-trump
    entry, under ``follow=void`` only when no card of the suit is held."""
    return _answer_bits(hand, top, trump, rules.follow is _FOLLOW_VOID)


def answer_mask(hand: int, top: tuple[Card, ...], trump: int, rules: Rules) -> int:
    """The cards of ``hand`` that may begin an entry answering ``top`` (see :func:`answer_bits`)."""
    ts, sb, tb = _answer_bits(hand, top, trump, rules.follow is _FOLLOW_VOID)
    return sb << (13 * ts) | (tb << (13 * trump) if tb else 0)


def phase2_moves(hand: int, top: tuple[Card, ...] | None, trump: int, rules: Rules) -> tuple[Move, ...]:
    """Phase 2: lead any entry on an empty table (``top`` is ``None``); else answer
    ``top`` (the suit first, then trumps), and pick up when you cannot answer or the
    rules let you (``pickup_optional``).  Entries are single cards and, with
    ``rules.sequences`` > 0, sequences of that many cards or more."""
    min_seq = rules.sequences
    if top is None:
        if not hand:
            return ()
        if not min_seq:
            return (_suit_singles(0, hand & SUIT_BITS) + _suit_singles(1, hand >> 13 & SUIT_BITS)
                    + _suit_singles(2, hand >> 26 & SUIT_BITS) + _suit_singles(3, hand >> 39 & SUIT_BITS))
        return (_suit_entries(0, hand & SUIT_BITS, min_seq) + _suit_entries(1, hand >> 13 & SUIT_BITS, min_seq)
                + _suit_entries(2, hand >> 26 & SUIT_BITS, min_seq) + _suit_entries(3, hand >> 39 & SUIT_BITS, min_seq))
    ts, sb, tb = _answer_bits(hand, top, trump, rules.follow is _FOLLOW_VOID)
    pickup_optional = rules.pickup_optional
    if min_seq:
        out = _suit_entries(ts, sb, min_seq) + (_suit_entries(trump, tb, min_seq) if tb else ())
    elif not tb:
        # one suit to answer in (the common case): a memoised tuple, nothing built
        return _suit_singles_pickup(ts, sb) if pickup_optional or not sb else _suit_singles(ts, sb)
    else:
        out = _suit_singles(ts, sb) + _suit_singles(trump, tb)
    if not out or pickup_optional:
        out = out + _PICKUP_ONLY
    return out


def pickup_span(table: list[tuple[int, tuple[Card, ...]]], rules: Rules) -> tuple[int, int]:
    """Which entries of the phase 2 table a pickup takes: ``table[i:j]``.

    ``first``: the first entry (undertrekk); ``last``: the top entry, and with
    sequences and ``pickup_run`` the whole run of consecutive same-suit cards on top;
    ``lowest``: the entry holding the lowest card by face value, trumps included (ties:
    the older)."""
    rule = rules.pickup
    if rule is _PICKUP_FIRST:
        return 0, 1
    if rule is _PICKUP_LAST:
        i = len(table) - 1
        if rules.sequences and rules.pickup_run:
            while i > 0:
                below = table[i - 1][1][-1]
                cur = table[i][1][0]
                if SUIT[below] == SUIT[cur] and RANK[below] + 1 == RANK[cur]:
                    i -= 1
                else:
                    break
        return i, len(table)
    best = min(range(len(table)), key=lambda k: (RANK[table[k][1][0]], k))
    return best, best + 1


def trick_complete_at(rules: Rules, need_at_start: int, still_in: int, seated: int) -> int:
    """How many entries complete a phase 2 trick: the players still in when it
    began (``start``), still in now (``active``) or at the table (``seated``)."""
    ts = rules.trick_size
    if ts is _TRICKSIZE_START:
        return need_at_start
    return still_in if ts is _TRICKSIZE_ACTIVE else seated


def revealed_absent(move: Move, top: tuple[Card, ...] | None, trump: int, rules: Rules) -> int:
    """The cards a phase 2 move shows its player did not hold: a forced pickup
    (``pickup_optional`` off) shows no card could answer ``top`` (under ``follow=void``
    only the higher cards of its suit: she may have held a lower one and trumps, which a
    mask cannot say, so the determinizer's checked replay rejects such deals); a trump
    laid on a non-trump entry under ``follow=void`` shows no card of that suit at all."""
    if top is None or trump < 0:
        return 0
    if move.kind is _MOVEKIND_PICKUP:
        if rules.pickup_optional:
            return 0
        if rules.follow is _FOLLOW_VOID:
            return suit_above(top)
        ts, sb, tb = _answer_bits(FULL_DECK_MASK, top, trump, False)
        return sb << (13 * ts) | (tb << (13 * trump) if tb else 0)
    if (move.kind is _MOVEKIND_PLAY and rules.follow is _FOLLOW_VOID
            and SUIT[move.cards[0]] == trump and SUIT[top[0]] != trump):
        return SUIT_BITS << (13 * SUIT[top[0]])
    return 0


RepetitionKey = tuple[int | tuple[Card, ...], ...]
"""``(to act, trick size, waiting, *hands, *the cards of each table entry)``: one flat
tuple (one allocation per phase 2 move; a game's seat count fixes where the hands end)."""


def repetition_key(state: State) -> RepetitionKey:
    """The phase 2 position as the repetition rule counts it (docs/rules.md, "Where the
    engine goes beyond the texts"): the player to act, (``going_out="cleared"``) who is
    waiting to go out, the hands, and the cards of each table entry (not who laid them:
    no rule asks), and nothing else.

    The trick size is in it only under ``trick_size="start"``, where it is the number of
    players in when the trick began (0 on an empty table) and can differ between two
    visits of the same cards.  Under ``active`` and ``seated`` it follows from who is
    in (or the table), and who is in does not change between two irreversible events
    (every going out clears the counts), so neither is part of the key."""
    need = state.trick_need if state.rules.trick_size is _TRICKSIZE_START else 0
    key: list[int | tuple[Card, ...]] = [state._turn, need, state.pending]
    key.extend(state.hands)
    for entry in state.table:
        key.append(entry[1])
    return tuple(key)


# ----------------------------------------------------------- the judgement
def verify(state: State, move: Move) -> Illegal | None:
    """The one judgement of a move: ``None`` if ``move`` is legal for the player to act
    in ``state``, else why not (an :class:`Illegal` with a specific :class:`Reason`).

    Legal means listed by the move generators (:meth:`State.legal_moves`, from
    :func:`phase1_moves` and :func:`phase2_moves`); the reason for any other move is
    read from the same rules, and a property test over random games under every
    option value checks that the two agree and that a refused move is never given the
    generic ``not_legal``.  ``State.apply``, the referee and every front end ask this."""
    if state.phase is _PHASE_OVER:
        return Illegal(Reason.GAME_OVER)
    legal = state.legal_moves()
    for m in legal:
        if m is move:
            return None
    if move in legal:
        return None
    return _refusal(state, move, legal)


def _refusal(state: State, move: Move, legal: tuple[Move, ...]) -> Illegal:
    """Why ``move``, not among ``legal``, may not be made (see :func:`verify`)."""
    r = state.rules
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    kind = move.kind
    if state.phase is _PHASE_COLLECT:
        if kind is _MOVEKIND_PICKUP:
            return Illegal(Reason.NO_PICKUP_IN_PHASE1)
        if kind is _MOVEKIND_CHANCE:
            if r.chance is _CHANCE_OFF:
                return Illegal(Reason.CHANCE_OFF)
            if not state.stock:
                return Illegal(Reason.CHANCE_NO_STOCK)
            if len(state.stock) < chance_floor(r):
                return Illegal(Reason.CHANCE_STOCK)
            return Illegal(Reason.CHANCE_NOT_LEADING)
        if len(move.cards) != 1:
            return Illegal(Reason.ONE_CARD_IN_PHASE1)
        return Illegal(Reason.NOT_HELD, cards=move.cards)
    if kind is _MOVEKIND_CHANCE:
        return Illegal(Reason.NO_CHANCE_IN_PHASE2)
    table = state.table
    if kind is _MOVEKIND_PICKUP:
        if not table:
            return Illegal(Reason.NOTHING_TO_PICK_UP)
        return Illegal(Reason.MUST_BEAT_NOT_PICK_UP)
    cards = move.cards
    if mask_of(cards) & ~hand:
        return Illegal(Reason.NOT_HELD, cards=tuple(c for c in cards if not BIT[c] & hand))
    if len(cards) > 1:
        if r.sequences == 0:
            return Illegal(Reason.NO_SEQUENCES)
        if len({SUIT[c] for c in cards}) != 1 or RANK[cards[-1]] - RANK[cards[0]] != len(cards) - 1:
            return Illegal(Reason.NOT_A_SEQUENCE)
        if len(cards) < r.sequences:
            return Illegal(Reason.SEQUENCE_TOO_SHORT, number=r.sequences)
    if not table:
        return Illegal(Reason.CANNOT_LEAD)
    top = table[-1][1]
    ts = SUIT[top[0]]
    s = SUIT[cards[0]]
    only_pickup = len(legal) == 1 and legal[0].kind is _MOVEKIND_PICKUP
    if s != ts and r.follow is _FOLLOW_VOID and hand >> (13 * ts) & SUIT_BITS:
        if only_pickup:  # she holds the suit, but nothing higher
            return Illegal(Reason.MUST_FOLLOW_SUIT_PICK_UP)
        # the cards of the suit that may be played (the higher ones)
        above = _answer_bits(hand, top, -1, True)[1] << (13 * ts)
        return Illegal(Reason.MUST_FOLLOW_SUIT, cards=tuple(c for c in range(13 * ts, 13 * ts + 13) if BIT[c] & above))
    if only_pickup:  # nothing she holds may answer: picking up is the one move
        return Illegal(Reason.MUST_PICK_UP, cards=(top[-1],))
    if s == ts:
        return Illegal(Reason.MUST_BEAT, cards=(top[-1],))
    return Illegal(Reason.MUST_FOLLOW_OR_TRUMP)
