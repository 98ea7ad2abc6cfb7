"""Seating bots at a Tichu round: who is asked what, and when.

The rules core answers *what* each seat may do; a driver decides *whom to ask*. This one:

1. **Grand Tichu and exchange** (simultaneous in the rules): every seat the round awaits is
   asked in seat order, each from its own view (nobody sees another's gifts before the
   exchange completes, so the order leaks nothing). In the exchange the legal actions are the
   2,184 exchanges (a lazy list) with ``tichu`` first while it may be called; a bot that
   calls is asked again for its exchange.
2. **Play**: the seat to move is asked with its legal actions (``tichu`` among them while it
   may call; a call is applied and the seat asked again for its play).
3. **Out-of-turn bombs**: after every action that leaves a live trick on the table (a play, a
   pass, the last pass before the take), each other seat that can beat the table with a bomb
   is offered its bombs plus :data:`NO_BOMB`, a driver-only action meaning "let play go on"
   that the rules core never sees. Seats are asked in play order after the one that acted;
   a bomb is applied at once and the offers start again after the bomber. Out-of-turn
   ``tichu`` calls are not offered: a seat calls on its own turn, which always comes before
   its first play other than a bomb. The seat to move is not offered: its bombs are among its
   own legal actions.

Every decision gets its own :class:`random.Random`, derived from the deal seed and the seat,
so a seeded round replays exactly whatever the bots' randomness.
"""

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from pagoda.tichu import Action, Round, View
from pagoda.tichu.actions import EXCHANGE, PLAY, TICHU
from pagoda.tichu.movegen import has_bomb
from pagoda.tichu.round import Phase

#: The driver's "no bomb now" answer to an out-of-turn offer; never applied to a round.
NO_BOMB = Action("no-bomb")

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


def bomb_offers(r: Round, seat: int) -> list[Action]:
    """The out-of-turn bombs ``seat`` may play now (empty when it has none or may not)."""
    if r.phase is not Phase.PLAY or r.top is None or seat == r.to_move:
        return []
    if not has_bomb(r.hand_mask(seat)):
        return []
    return [a for a in r.legal_actions(seat) if a.kind == PLAY]


def offer_bombs(
    r: Round,
    bots: Sequence[Any],
    rngs: Sequence[random.Random],
    after: int,
    hook: DecisionHook | None = None,
    view_of: ViewOf = _round_view,
) -> Round:
    """Offer every other seat its out-of-turn bombs, in play order after seat ``after``."""
    k = 1
    while k <= 4 and r.phase is Phase.PLAY:
        seat = (after + k) & 3
        offers = bomb_offers(r, seat)
        if offers:
            choice = _ask(bots[seat], r, seat, [*offers, NO_BOMB], rngs[seat], hook, view_of)
            if choice != NO_BOMB:
                r = r.apply(seat, choice)
                after, k = seat, 1
                continue
        k += 1
    return r


def step(
    r: Round,
    bots: Sequence[Any],
    rngs: Sequence[random.Random],
    hook: DecisionHook | None = None,
    view_of: ViewOf = _round_view,
) -> Round:
    """The round after the next decision (and the out-of-turn bomb offers that follow it)."""
    if r.phase in (Phase.GRAND_TICHU, Phase.EXCHANGE):
        seat = r.awaiting[0]
        action = _ask(bots[seat], r, seat, r.legal_actions(seat), rngs[seat], hook)
        r = r.apply(seat, action)
        if action.kind == TICHU and r.phase is Phase.EXCHANGE and seat in r.awaiting:
            legal = r.legal_actions(seat)
            action = _ask(bots[seat], r, seat, legal, rngs[seat], hook)
            r = r.apply(seat, action)
            if action.kind != EXCHANGE:
                raise AssertionError("a bot answered the exchange with another call")
        return r
    seat = r.to_move
    action = _ask(bots[seat], r, seat, r.legal_actions(seat), rngs[seat], hook, view_of)
    r = r.apply(seat, action)
    if action.kind == TICHU and not r.is_over:
        action = _ask(bots[seat], r, seat, r.legal_actions(seat), rngs[seat], hook, view_of)
        r = r.apply(seat, action)
    if r.phase is Phase.PLAY and r.top is not None:
        r = offer_bombs(r, bots, rngs, seat, hook, view_of)
    return r


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
