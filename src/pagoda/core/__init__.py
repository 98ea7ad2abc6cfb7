"""Machinery shared by the rules cores: errors, card tokens, bit sets, presets, records.

Nothing here knows a game; :mod:`pagoda.tichu` and :mod:`pagoda.doudizhu` build on it.
"""

from pagoda.core.bits import iter_bits, lowest_bits
from pagoda.core.errors import IllegalAction, PagodaError, ParseError
from pagoda.core.game import Decision, DecisionKind, GameState
from pagoda.core.notation import Tokenizer
from pagoda.core.record import Record, format_record, parse_record
from pagoda.core.rules import format_rules, parse_rules

__all__ = [
    "Decision",
    "DecisionKind",
    "GameState",
    "IllegalAction",
    "PagodaError",
    "ParseError",
    "Record",
    "Tokenizer",
    "format_record",
    "format_rules",
    "iter_bits",
    "lowest_bits",
    "parse_record",
    "parse_rules",
]
