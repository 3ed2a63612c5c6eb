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
from .moves import CHANCE, PICKUP, Move, MoveError, format_record_move, parse_move, parse_record_move, play
from .observation import OVER, PHASE1, PHASE2, HistoryItem, Observation
from .record import GameRecord, RecordError, ReplayError, load_record
from .rules import (
    CHOICES,
    PRESET_DOCS,
    PRESETS,
    Rules,
    RulesError,
    parse_overrides,
    preset,
    rules_from_json,
    rules_to_json,
)
from .state import GameSetupError, IllegalMoveError, State
from .text import describe_move, seat_names, translate_reason

__all__ = [
    "CHANCE", "CHOICES", "OVER", "PHASE1", "PHASE2", "PICKUP", "PRESETS", "PRESET_DOCS", "RANK", "SUIT",
    "Card", "CardError", "GameRecord", "GameSetupError", "HistoryItem", "IllegalMoveError", "Move",
    "MoveError", "Observation", "RecordError", "ReplayError", "Rules", "RulesError", "State",
    "card_code", "card_name", "card_symbol", "cards_of", "describe_move", "format_record_move",
    "load_record", "mask_of", "parse_card", "parse_move", "parse_overrides", "parse_record_move",
    "parse_suit", "play", "preset", "sequence_spans", "rules_from_json", "rules_to_json", "seat_names", "sort_by_rank",
    "sort_for_phase2", "suit_name", "translate_reason",
]
