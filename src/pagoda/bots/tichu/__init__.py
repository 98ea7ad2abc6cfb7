"""The Tichu bots and the driver that seats them (see :mod:`pagoda.bots.tichu.driver`).

Registered levels: ``random`` (0), ``heuristic`` (1), ``club`` (2), ``search`` (2), ``learned`` (3,
:mod:`pagoda.bots.tichu.learned`, imported when first seated).
"""

from typing import Any

from pagoda.bots import register
from pagoda.bots.tichu.club import ClubBot
from pagoda.bots.tichu.driver import NO_BOMB, play_round, seat_rngs, step
from pagoda.bots.tichu.heuristic import HeuristicBot
from pagoda.bots.tichu.search import SearchBot, determinize


# level 1: on 2,000 held-out deals it loses to club and, on 1,000, to the heuristic (docs/strength.md)
@register("tichu", "learned", level=1, description="a Q network from self-play over the club bot's advice")
def _learned(weights: str | None = None, margin: str = "0") -> Any:
    from pagoda.bots.tichu.learned import LearnedBot

    return LearnedBot(weights=weights, margin=margin)


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
