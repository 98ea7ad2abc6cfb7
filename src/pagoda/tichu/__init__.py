"""Tichu: the rules core.

Four players in two teams (seats s and s+2) play 56 cards: 2..A in the suits Jade, Sword,
Pagoda and Star, with the Mah Jong, Dog, Phoenix and Dragon. A round deals 8 cards, takes the
Grand Tichu calls, deals 6 more, exchanges one card with each other seat, then climbs: each
play beats the one before it until all others pass, and whoever plays their last card first
wins any Tichu call. A match goes to 1000 points.

The modules, each with the rules it implements: :mod:`~pagoda.tichu.cards` (cards and
notation), :mod:`~pagoda.tichu.combos` (combinations and what beats what),
:mod:`~pagoda.tichu.movegen` (every legal play, from one generator per kind in
:mod:`~pagoda.tichu.generators`; a lead counted first in :mod:`~pagoda.tichu.leads`),
:mod:`~pagoda.tichu.round` (a round as an immutable state), :mod:`~pagoda.tichu.match` (a game
to 1000), :mod:`~pagoda.tichu.rules` (options and presets). Nothing here does I/O, reads a
clock, or uses hidden randomness.

>>> from pagoda import tichu
>>> tichu.classify("Ak Ar Kg Kr Ph").kind
'full_house'
>>> r = tichu.Round.new(seed=7)
>>> r.phase, len(r.hand(0))
(<Phase.GRAND_TICHU: 'grand_tichu'>, 8)
"""

from typing import Any

from pagoda.core import IllegalAction, ParseError, Record
from pagoda.tichu.actions import Action, parse_action
from pagoda.tichu.cards import CARDS, Card, count_points, format_cards, parse_cards, to_mask
from pagoda.tichu.combos import KINDS, Combo, beats, classify, readings
from pagoda.tichu.match import Match
from pagoda.tichu.movegen import bombs, plays
from pagoda.tichu.round import Phase, Round, View, replay
from pagoda.tichu.rules import RULES, Rules


def new_round(seed: int | None = None, rules: Rules | None = None, *, engine: str = "auto") -> Any:
    """A fresh round dealt from ``seed`` on ``engine`` (``auto``: the native core when it is built).

    Both engines deal the same cards from the same seed and give the same answers; the native one
    (:class:`pagoda.tichu.native.NativeRound`) is faster.

    >>> new_round(5, engine="python").position() == Round.new(5).position()
    True
    """
    from pagoda.native import engine_name

    if engine_name(engine) == "native":
        from pagoda.tichu.native import NativeRound

        return NativeRound.new(seed, rules)
    return Round.new(seed, rules)


__all__ = [
    "CARDS",
    "KINDS",
    "RULES",
    "Action",
    "Card",
    "Combo",
    "IllegalAction",
    "Match",
    "ParseError",
    "Phase",
    "Record",
    "Round",
    "Rules",
    "View",
    "beats",
    "bombs",
    "classify",
    "count_points",
    "format_cards",
    "new_round",
    "parse_action",
    "parse_cards",
    "plays",
    "readings",
    "replay",
    "to_mask",
]
