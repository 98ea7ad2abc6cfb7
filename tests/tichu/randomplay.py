"""Random play for the invariant tests: any seat may act, out-of-turn bombs and calls included."""

import random

from pagoda.tichu import Round
from pagoda.tichu.round import Phase


def random_step(r: Round, rng: random.Random) -> tuple[int, str]:
    """Pick a seat and one of its legal actions: mostly the first seat the round asks
    (:meth:`Round.decisions`), sometimes another."""
    seat = r.decisions()[0].seat
    if rng.random() < 0.15:
        others = [s for s in range(4) if s != seat and r.legal_actions(s)]
        if others:
            seat = rng.choice(others)
    actions = r.legal_actions(seat)
    return seat, str(actions[rng.randrange(len(actions))])


def random_round(seed: int, max_steps: int = 2000) -> Round:
    """A whole round from ``seed`` played by :func:`random_step`."""
    rng = random.Random(seed)
    r = Round.new(seed)
    for _ in range(max_steps):
        if r.phase is Phase.OVER:
            return r
        seat, action = random_step(r, rng)
        r = r.apply(seat, action)
    raise AssertionError(f"round {seed} did not end in {max_steps} steps")


def no_bombs(r: Round) -> Round:
    """``r`` after every seat of its bomb window answers ``no-bomb`` (so the trick may be taken)."""
    for seat in r.window:
        r = r.apply(seat, "no-bomb")
    return r
