"""Dou Di Zhu (斗地主, "fight the landlord"): a passive rules core.

>>> from pagoda import doudizhu as ddz
>>> c = ddz.classify("33344", rules=ddz.RULES["classic"])
>>> c.kind, c.rank
('trio_pair', 3)
>>> len(ddz.plays(ddz.parse_cards("33344"), rules=ddz.RULES["classic"]))
7
"""

from pagoda.core.errors import IllegalAction, PagodaError, ParseError
from pagoda.doudizhu.actions import PASS, Action
from pagoda.doudizhu.cards import Cards, format_cards, parse_cards
from pagoda.doudizhu.combos import KINDS, Combo, beats, classify
from pagoda.doudizhu.match import MATCH_GAME, Match
from pagoda.doudizhu.movegen import legal_plays, plays, plays_with_wild
from pagoda.doudizhu.round import Phase, Round, View, replay
from pagoda.doudizhu.rules import RULES, Rules, format_rules, parse_rules

__all__ = [
    "KINDS",
    "MATCH_GAME",
    "PASS",
    "RULES",
    "Action",
    "Cards",
    "Combo",
    "IllegalAction",
    "Match",
    "PagodaError",
    "ParseError",
    "Phase",
    "Round",
    "Rules",
    "View",
    "beats",
    "classify",
    "format_cards",
    "format_rules",
    "legal_plays",
    "parse_cards",
    "parse_rules",
    "plays",
    "plays_with_wild",
    "replay",
]
