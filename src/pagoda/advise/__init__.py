"""Advice: the ranked actions of a position with their estimated values (``pagoda advise``)."""

from collections.abc import Sequence
from typing import Any

from pagoda.bots import Scored


def rank_actions(bot: Any, view: Any, legal: Sequence[Any], rng: Any, searched: bool) -> list[Scored[Any]]:
    """The actions a search bot would weigh, best first; outside the searched phases (or with a
    single candidate) the one the bot plays there (its base bot's choice), unvalued (``nan``)."""
    if not searched:
        return [Scored(bot.decide(view, legal, rng), float("nan"), float("nan"), 0)]
    candidates = bot.candidates(view, legal)
    if len(candidates) == 1:
        return [Scored(candidates[0], float("nan"), float("nan"), 0)]
    scored: list[Scored[Any]] = bot.evaluate(view, candidates, rng)
    return sorted(scored, key=lambda s: -s.mean)
