"""The Dou Di Zhu bots and the driver that seats them.

Registered levels: ``random`` (0), ``rlcard-rule`` (1, RLCard's rule agent, needs ``rlcard``),
``heuristic`` (2), ``learned`` (3, networks trained by self-play: :mod:`.learned`), ``search`` (3).
Every bot sees only ``Round.view(seat)``.

>>> from pagoda import doudizhu as ddz
>>> from pagoda.bots import get_bot
>>> bots = [get_bot("doudizhu", "heuristic") for _ in range(3)]
>>> r = play_round(ddz.Round.new(seed=7), bots, seed=7)
>>> r.is_over, sum(r.score())
(True, 0)
"""

from typing import Any

from pagoda.bots import register
from pagoda.bots.doudizhu.driver import play_round, seat_rngs, step
from pagoda.bots.doudizhu.hand import min_plays, partition
from pagoda.bots.doudizhu.heuristic import HeuristicBot, strength
from pagoda.bots.doudizhu.search import SearchBot, determinize


@register("doudizhu", "heuristic", level=2, description="hand-strength bids, fewest-combinations play")
def _heuristic(rules: str | None = None) -> HeuristicBot:
    return HeuristicBot(rules=rules)


@register("doudizhu", "rlcard-rule", level=1, description="RLCard's rule agent (needs rlcard)")
def _rlcard_rule() -> Any:
    from pagoda.bots.doudizhu.rlcard_rule import RLCardRuleBot

    return RLCardRuleBot()


@register("doudizhu", "learned", level=3, description="Q networks and a bidding network from self-play")
def _learned(
    weights: str | None = None,
    margin: str | None = None,
    width: str | None = None,
    bid_margin: str | None = None,
    bids: str | None = None,
    samples: str | None = None,
    prior: str | None = None,
) -> Any:
    from pagoda.bots.doudizhu.learned import BID_MARGIN, MARGIN, PRIOR, WIDTH, LearnedBot

    return LearnedBot(
        weights=weights,
        bids=bids,
        margin=MARGIN if margin is None else margin,
        width=WIDTH if width is None else width,
        bid_margin=BID_MARGIN if bid_margin is None else bid_margin,
        samples=0 if samples is None else samples,
        prior=PRIOR if prior is None else prior,
    )


@register("doudizhu", "search", level=3, description="determinized sampling with heuristic rollouts")
def _search(**options: str) -> SearchBot:
    return SearchBot(**options)


__all__ = [
    "HeuristicBot",
    "SearchBot",
    "determinize",
    "min_plays",
    "partition",
    "play_round",
    "seat_rngs",
    "step",
    "strength",
]
