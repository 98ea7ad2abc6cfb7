"""The Tichu bots and the driver that seats them (see :mod:`pagoda.bots.tichu.driver`).

Registered levels: ``random`` (0), ``heuristic`` (1), ``club`` (2), ``search`` (2).
"""

from pagoda.bots.tichu.club import ClubBot
from pagoda.bots.tichu.driver import NO_BOMB, play_round, seat_rngs, step
from pagoda.bots.tichu.heuristic import HeuristicBot
from pagoda.bots.tichu.search import SearchBot, determinize

__all__ = [
    "NO_BOMB",
    "ClubBot",
    "HeuristicBot",
    "SearchBot",
    "determinize",
    "play_round",
    "seat_rngs",
    "step",
]
