"""Seating bots at a Dou Di Zhu round: the seat to move is asked, from its own view, until the end.

Every seat gets its own :class:`random.Random`, derived from the round's seed and the seat, so a
seeded round replays exactly whatever the bots' randomness. An all-pass auction redeals inside
the round (the rules core does it); the bots are simply asked again.

>>> from pagoda import doudizhu as ddz
>>> from pagoda.bots import RandomBot
>>> r = play_round(ddz.Round.new(seed=5), [RandomBot()] * 3, seed=5)
>>> r.is_over, sum(r.score())
(True, 0)
"""

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from pagoda.doudizhu import Action, Round

#: Called after every decision with the seat, the action and the seconds the bot took.
DecisionHook = Callable[[int, Action, float], None]


def seat_rngs(seed: int, players: int = 3) -> list[random.Random]:
    """One generator per seat, derived from ``seed``: the bots' randomness for a round."""
    return [random.Random(f"doudizhu-bot/{seed}/{seat}") for seat in range(players)]


def step(r: Round, bot: Any, rng: random.Random, hook: DecisionHook | None = None) -> Round:
    """Ask the one seat the round asks now (its decision) for an action, from its own view, and apply it."""
    (decision,) = r.decisions()
    seat, legal = decision.seat, decision.actions
    view = r.view(seat)
    start = time.perf_counter()
    action: Action = bot.decide(view, legal, rng)
    if hook is not None:
        hook(seat, action, time.perf_counter() - start)
    return r.apply(seat, action)


def play_round(
    r: Round, bots: Sequence[Any], seed: int = 0, hook: DecisionHook | None = None, max_steps: int = 10_000
) -> Round:
    """Play ``r`` to its end with one bot per seat; ``seed`` seeds the bots' generators."""
    rngs = seat_rngs(seed, len(bots))
    for _ in range(max_steps):
        if r.is_over:
            return r
        r = step(r, bots[r.to_move], rngs[r.to_move], hook)
    raise RuntimeError(f"the round did not end in {max_steps} actions")


__all__ = ["DecisionHook", "play_round", "seat_rngs", "step"]
