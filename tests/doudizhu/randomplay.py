"""Random rounds for the invariant tests: a plain loop, no hypothesis, so that thousands run fast."""

import random

from pagoda import doudizhu as ddz


def random_round(seed: int, rules: ddz.Rules) -> ddz.Round:
    """Play one round from ``seed`` to the end, each seat choosing uniformly among its legal actions."""
    rng = random.Random(seed)
    r = ddz.Round.new(seed, rules)
    while not r.is_over:
        seat = r.to_move
        r = r.apply(seat, rng.choice(r.legal_actions(seat)))
    return r
