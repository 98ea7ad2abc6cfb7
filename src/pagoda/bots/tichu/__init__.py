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


# level 2: on 2,000 held-out deals it beats club by 5 points a round; level with search (docs/strength.md)
@register(
    "tichu",
    "learned",
    level=2,
    description="club's play, left where a Q network trained on played-out deals is sure",
)
def _learned(weights: str | None = None, margin: str | None = None) -> Any:
    from pagoda.bots.tichu.learned import MARGIN, LearnedBot

    return LearnedBot(weights=weights, margin=MARGIN if margin is None else margin)


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
