"""Advice: the ranked actions of a position with their estimated values (``pagoda advise``)."""

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar


class _Scored(Protocol):
    @property
    def mean(self) -> float: ...


S = TypeVar("S", bound=_Scored)


def rank_actions(
    bot: Any, view: Any, legal: Sequence[Any], rng: Any, searched: bool, scored: Callable[..., S]
) -> list[S]:
    """The actions a search bot would weigh, best first; outside the searched phases (or with a
    single candidate) the one the bot's heuristic plays, unvalued (``nan``)."""
    if not searched:
        return [scored(bot.heuristic.decide(view, legal, rng), float("nan"), float("nan"), 0)]
    candidates = bot.candidates(view, legal)
    if len(candidates) == 1:
        return [scored(candidates[0], float("nan"), float("nan"), 0)]
    return sorted(bot.evaluate(view, candidates, rng), key=lambda s: -s.mean)
