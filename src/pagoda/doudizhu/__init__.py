"""Dou Di Zhu (斗地主, "fight the landlord"): a passive rules core.

>>> from pagoda import doudizhu as ddz
>>> c = ddz.classify("33344", rules=ddz.RULES["classic"])
>>> c.kind, c.rank
('trio_pair', 3)
>>> len(ddz.plays(ddz.parse_cards("33344"), rules=ddz.RULES["classic"]))
7
"""

from typing import Any

from pagoda.core.errors import IllegalAction, PagodaError, ParseError
from pagoda.doudizhu.actions import PASS, Action
from pagoda.doudizhu.cards import Cards, format_cards, parse_cards
from pagoda.doudizhu.combos import KINDS, Combo, beats, classify
from pagoda.doudizhu.match import MATCH_GAME, Match
from pagoda.doudizhu.movegen import legal_plays, plays, plays_with_wild
from pagoda.doudizhu.round import Phase, Round, View, replay
from pagoda.doudizhu.rules import RULES, Rules, format_rules, parse_rules


def new_round(seed: int | None = None, rules: Rules | None = None, *, engine: str = "auto") -> Any:
    """A fresh round dealt from ``seed`` on ``engine`` (``auto``: the native core when it is built).

    Both engines deal the same cards from the same seed and give the same answers; the native one
    (:class:`pagoda.doudizhu.native.NativeRound`) is faster.

    >>> new_round(5, engine="python").position() == Round.new(5).position()
    True
    """
    from pagoda.native import engine_name

    if engine_name(engine) == "native":
        from pagoda.doudizhu.native import NativeRound

        return NativeRound.new(seed, rules)
    return Round.new(seed, rules)


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
    "new_round",
    "parse_cards",
    "parse_rules",
    "plays",
    "plays_with_wild",
    "replay",
]
