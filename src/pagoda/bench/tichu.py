"""``pagoda bench tichu``: random rounds, as fast as the rules core plays them.

Every decision picks uniformly among the actions of the first seat the round asks
(:meth:`~pagoda.tichu.Round.decisions`: the Grand Tichu calls, the exchange and the bomb window
included), so the figures measure the rules core alone. Prints deals/s,
decisions/s and the cost of one call of the legal-move generator (``plays``, which makes a
``Combo`` of every play, and ``raw_plays``, the tuples the rules core itself works with).
"""

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from pagoda.tichu import Round, Rules, plays
from pagoda.tichu.movegen import raw_plays
from pagoda.tichu.round import Phase


def play_random_round(seed: int, rules: Rules | None = None) -> tuple[Round, int]:
    """Play one round with uniformly random actions of the seat to move; returns it and its length."""
    rng = random.Random(seed)
    r = Round.new(seed, rules)
    decisions = 0
    while not r.is_over:
        decision = r.decisions()[0]  # the first seat the round asks
        actions = decision.actions
        r = r.apply(decision.seat, actions[int(rng.random() * len(actions))])
        decisions += 1
    return r, decisions


def _movegen_cost(deals: int, seed: int) -> tuple[float, float]:
    """Seconds per ``plays`` and per ``raw_plays`` call over the hands and tables met in random rounds."""
    calls: list[tuple[int, object]] = []
    for n in range(deals):
        rng = random.Random(seed + n)
        r = Round.new(seed + n)
        while r.phase is not Phase.OVER:
            decision = r.decisions()[0]
            seat = decision.seat
            if decision.kind == "turn" and not r.is_trick_complete:
                calls.append((r.hand_mask(seat), r.top))
            actions = decision.actions
            r = r.apply(seat, actions[int(rng.random() * len(actions))])
    start = time.perf_counter()
    for hand, top in calls:
        plays(hand, top)  # type: ignore[arg-type]
    middle = time.perf_counter()
    for hand, top in calls:
        raw_plays(hand, top)  # type: ignore[arg-type]
    end = time.perf_counter()
    n = max(1, len(calls))
    return (middle - start) / n, (end - middle) / n


def run(argv: Sequence[str]) -> int:
    """Run the benchmark; ``--deals`` per repeat, ``--repeats`` repeats."""
    parser = argparse.ArgumentParser(prog="pagoda bench tichu", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="random rounds per repeat (default 500)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; medians are reported (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    args = parser.parse_args(argv)
    rates: list[float] = []
    decision_rates: list[float] = []
    for rep in range(args.repeats):
        total_decisions = 0
        start = time.perf_counter()
        for n in range(args.deals):
            _, decisions = play_random_round(args.seed + rep * args.deals + n)
            total_decisions += decisions
        elapsed = time.perf_counter() - start
        rates.append(args.deals / elapsed)
        decision_rates.append(total_decisions / elapsed)
    cost, raw_cost = _movegen_cost(min(args.deals, 200), args.seed)
    print(f"pagoda tichu: {args.deals} random deals x {args.repeats} repeats, one core")
    spread = f"(min {min(rates):.1f}, max {max(rates):.1f})"
    print(f"  deals/s      median {statistics.median(rates):10.1f}  {spread}")
    print(f"  decisions/s  median {statistics.median(decision_rates):10.1f}")
    print(f"  plays() per call     {cost * 1e6:10.2f} us (hands and tables met in random rounds)")
    print(f"  raw_plays() per call {raw_cost * 1e6:10.2f} us (the same, as tuples)")
    return 0
