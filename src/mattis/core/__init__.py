"""The pure rules core: cards, rule sets, state, moves, observations, records.

No I/O, no printing, no globals; every front end goes through this API.
"""

from .cards import (
    RANK,
    SUIT,
    Card,
    CardError,
    card_code,
    card_name,
    card_symbol,
    cards_of,
    mask_of,
    parse_card,
    parse_suit,
    sequence_spans,
    sort_by_rank,
    sort_for_phase2,
    suit_name,
)
from .legal import verify
from .moves import CHANCE, PICKUP, Move, MoveError, MoveKind, format_record_move, parse_move, parse_record_move, play
from .notation import parse_position, position_text
from .observation import OVER, PHASE1, PHASE2, HistoryItem, Observation
from .record import GameRecord, RecordError, ReplayError, load_record
from .rules import (
    CHOICES,
    HOUSE_OPTIONS,
    OPTION,
    OPTION_TYPES,
    OPTIONS,
    PRESET_DOCS,
    PRESETS,
    Chance,
    Draw,
    EmptyFighter,
    EmptyHand,
    Follow,
    GoingOut,
    Leader2,
    NextLeader,
    OptionSpec,
    Phase1End,
    Pickup,
    Rules,
    RulesError,
    Ties,
    Tricks,
    TrickSize,
    Trump,
    parse_overrides,
    preset,
    rules_from_json,
    rules_to_json,
)
from .state import GameSetupError, IllegalMoveError, PositionFields, State
from .text import describe_move, reason_text, say, seat_names
from .vocabulary import Illegal, Outcome, Phase, Reason, Termination


def build_kind() -> str:
    """Which core runs: ``"compiled"`` (the mypyc build of the hot modules, see
    setup.py) or ``"pure"`` (their Python source: no build, or ``MATTIS_PURE=1``)."""
    from . import state

    return "pure" if (state.__file__ or "").endswith(".py") else "compiled"


__all__ = [
    "CHANCE", "CHOICES", "HOUSE_OPTIONS", "OPTION", "OPTIONS", "OPTION_TYPES", "OVER", "PHASE1", "PHASE2", "PICKUP",
    "PRESETS", "PRESET_DOCS", "RANK", "OptionSpec",
    "SUIT", "Card", "CardError", "Chance", "Draw", "EmptyFighter", "EmptyHand", "Follow", "GameRecord",
    "GameSetupError", "GoingOut", "HistoryItem", "Illegal", "IllegalMoveError", "Leader2", "Move", "MoveError",
    "MoveKind",
    "NextLeader", "Observation", "Outcome", "Phase", "Phase1End", "Pickup", "PositionFields", "Reason", "RecordError",
    "ReplayError",
    "Rules",
    "RulesError", "State", "Termination", "Ties", "TrickSize", "Tricks", "Trump", "build_kind", "card_code",
    "card_name", "card_symbol", "cards_of", "describe_move", "format_record_move", "load_record", "mask_of",
    "parse_card", "parse_move", "parse_overrides", "parse_position", "parse_record_move", "parse_suit", "play",
    "position_text", "preset", "reason_text", "rules_from_json", "rules_to_json", "say", "seat_names", "sequence_spans",
    "sort_by_rank", "sort_for_phase2", "suit_name", "verify",
]
