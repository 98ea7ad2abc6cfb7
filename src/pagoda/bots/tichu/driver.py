"""Seating bots at a Tichu round: each asked in turn through the round's own flow.

The rules core answers both *who* is asked now and *what* each may do
(:meth:`~pagoda.tichu.Round.decisions`): the simultaneous Grand Tichu and exchange decisions in
seat order (each from its own view: nobody sees another's gifts before the exchange completes,
so the order leaks nothing), every seat of the bomb window with its bombs and ``no-bomb``
(:data:`NO_BOMB`), then the seat to move. The driver asks the first of them and applies its
answer, one decision a step; a ``tichu`` call is applied and the seat asked again.

Every decision gets its own :class:`random.Random`, derived from the deal seed and the seat,
so a seeded round replays exactly whatever the bots' randomness.
"""

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from pagoda.tichu import Action, Round, View
from pagoda.tichu.actions import NO_BOMB as _NO_BOMB_KIND

#: The answer "no bomb now" of a seat in the bomb window (the core's ``no-bomb`` action).
NO_BOMB = Action(_NO_BOMB_KIND)

#: Called after every decision with the seat, the action and the seconds the bot took.
DecisionHook = Callable[[int, Action, float], None]
#: What a bot is shown: by default :meth:`Round.view`; simulations may pass a cheaper one.
ViewOf = Callable[[Round, int], View]


def _round_view(r: Round, seat: int) -> View:
    return r.view(seat)


def seat_rngs(seed: int) -> list[random.Random]:
    """One generator per seat, derived from ``seed``: the bots' randomness for a round."""
    return [random.Random(f"tichu-bot/{seed}/{seat}") for seat in range(4)]


def _ask(
    bot: Any,
    r: Round,
    seat: int,
    legal: Sequence[Action],
    rng: random.Random,
    hook: DecisionHook | None,
    view_of: ViewOf = _round_view,
) -> Action:
    view = view_of(r, seat)
    start = time.perf_counter()
    action: Action = bot.decide(view, legal, rng)
    if hook is not None:
        hook(seat, action, time.perf_counter() - start)
    return action


def step(
    r: Round,
    bots: Sequence[Any],
    rngs: Sequence[random.Random],
    hook: DecisionHook | None = None,
    view_of: ViewOf = _round_view,
) -> Round:
    """The round after the first decision it asks for (:meth:`Round.decisions`)."""
    decision = r.decisions()[0]
    seat = decision.seat
    action = _ask(bots[seat], r, seat, decision.actions, rngs[seat], hook, view_of)
    return r.apply(seat, action)


def play_round(
    r: Round,
    bots: Sequence[Any],
    seed: int = 0,
    hook: DecisionHook | None = None,
    rngs: Sequence[random.Random] | None = None,
    max_decisions: int = 5000,
    view_of: ViewOf = _round_view,
) -> Round:
    """Play ``r`` to its end with ``bots[seat]`` deciding for each seat; returns the final round.

    ``seed`` derives the bots' generators (see :func:`seat_rngs`) unless ``rngs`` are given.
    """
    if len(bots) != 4:
        raise ValueError(f"a Tichu round seats 4 bots, not {len(bots)}")
    gens = list(rngs) if rngs is not None else seat_rngs(seed)
    for _ in range(max_decisions):
        if r.is_over:
            return r
        r = step(r, bots, gens, hook, view_of)
    raise RuntimeError(f"the round did not end in {max_decisions} decisions")
