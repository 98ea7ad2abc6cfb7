"""Rounds walked half by a bot, half at random: the positions the native policies are compared on."""

import random
from collections.abc import Callable
from typing import Any


def walk(r: Any, bot: Any, rng: random.Random, keep: Callable[[Any], bool]) -> list[Any]:
    """The positions of the round ``r`` that ``keep`` picks, played to its end: at each step the
    first seat asked takes ``bot``'s choice or, one time in two, a uniformly random legal action
    (so the positions include odd ones no bot would reach)."""
    out = []
    while not r.is_over:
        d = r.decisions()[0]
        if keep(r):
            out.append(r)
        if rng.random() < 0.5:
            action = bot.decide(r.view(d.seat), d.actions, rng)
        else:
            action = rng.choice(list(d.actions))
        r = r.apply(d.seat, action)
    return out
