"""``pagoda bench tichu [--engine python|native]``: random rounds, as fast as the rules core plays them.

Every decision picks uniformly among the actions of the first seat the round asks
(:meth:`~pagoda.tichu.Round.decisions`: the Grand Tichu calls, the exchange and the bomb window
included), so the figures measure the rules core alone. Prints deals/s,
decisions/s and the cost of one call of the legal-move generator (``plays``, which makes a
``Combo`` of every play, and ``raw_plays``, the tuples the rules core itself works with).

``--engine native`` adds the native core: through the per-action API (``NativeRound``, the same
loop as the Python engine: ``decisions()[0]``, an index, ``apply``) and through the batched call
(whole rounds in one native call), with the Python engine run alternately in the same window
(``--repeats`` rounds of the alternation; medians), and the bytes per state and per cached list
of legal actions.
"""

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence

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


def native_round(seed: int) -> int:
    """One random round on the native core's per-action API (the loop of :func:`play_random_round`)."""
    from pagoda.tichu.native import NativeRound

    rng = random.Random(seed)
    r = NativeRound.new(seed)
    decisions = 0
    while not r.is_over:
        decision = r.decisions()[0]
        actions = decision.actions
        r = r.apply(decision.seat, actions[int(rng.random() * len(actions))])
        decisions += 1
    return decisions


def _deals_per_second(play: Callable[[int], object], deals: int, seed: int) -> float:
    start = time.perf_counter()
    for n in range(deals):
        play(seed + n)
    return deals / (time.perf_counter() - start)


def _batched_per_second(deals: int, seed: int) -> float:
    from pagoda.tichu.native import play_random

    start = time.perf_counter()
    play_random(deals, seed=seed)
    return deals / (time.perf_counter() - start)


def native_memory(deals: int, seed: int) -> tuple[float, float]:
    """Mean bytes per native state, and per cached legal-action list, over random rounds."""
    from pagoda.tichu.native import NativeRound

    states = lists = 0
    state_bytes = list_bytes = 0
    for n in range(deals):
        rng = random.Random(seed + n)
        r = NativeRound.new(seed + n)
        while not r.is_over:
            decision = r.decisions()[0]
            actions = decision.actions
            nxt = r.apply(decision.seat, actions[int(rng.random() * len(actions))])
            state_bytes += r.nbytes()
            states += 1
            if r.legal_nbytes():
                list_bytes += r.legal_nbytes()
                lists += 1
            r = nxt
    return state_bytes / max(1, states), list_bytes / max(1, lists)


def run_native(args: argparse.Namespace) -> int:
    """The native core beside the Python engine, alternated in one run."""
    from pagoda.native import describe

    print(describe())
    runners: list[tuple[str, Callable[[int], float]]] = [
        (
            "python",
            lambda rep: _deals_per_second(play_random_round, args.deals, args.seed + rep * args.deals),
        ),
        (
            "native",
            lambda rep: _deals_per_second(native_round, 10 * args.deals, args.seed + rep * args.deals),
        ),
        ("native batched", lambda rep: _batched_per_second(200 * args.deals, args.seed + rep)),
    ]
    results: dict[str, list[float]] = {name: [] for name, _ in runners}
    for rep in range(args.repeats):
        for name, measure in runners:
            results[name].append(measure(rep))
    print(f"pagoda tichu: random deals, {args.repeats} alternations, one core")
    print(f"{'engine':<16} {'deals/s median (range)':>28}   x python")
    py = statistics.median(results["python"])
    for name, values in results.items():
        med = statistics.median(values)
        spread = f"{med:.0f} ({min(values):.0f}..{max(values):.0f})"
        print(f"{name:<16} {spread:>28}   x{med / py:.2f}")
    state_bytes, list_bytes = native_memory(min(args.deals, 100), args.seed)
    print(f"  native bytes per state       {state_bytes:8.0f} (mean over random rounds)")
    print(f"  native bytes per cached list {list_bytes:8.0f} (the seat to move's legal actions)")
    return 0


def run(argv: Sequence[str]) -> int:
    """Run the benchmark; ``--deals`` per repeat, ``--repeats`` repeats."""
    parser = argparse.ArgumentParser(prog="pagoda bench tichu", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="random rounds per repeat (default 500)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; medians are reported (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--engine", choices=("python", "native"), default="python", help="rules engine")
    args = parser.parse_args(argv)
    if args.engine == "native":
        # numpy's BLAS threads spin on the benchmark's core otherwise (they are never used here)
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        return run_native(args)
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
