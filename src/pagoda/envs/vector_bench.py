"""``python -m pagoda.envs.vector_bench``: batched environment steps per second, the native engine
against the Python one (:mod:`pagoda.envs.vector`), for several batch sizes, alternated in one run.

A step is one decision in each of the B rounds: ``env.step(actions)`` with its observations and
masks. Only ``step`` is timed; the uniformly random legal actions are drawn from the masks outside
the timing. Each (game, B, engine) runs ``--reps`` times, the engines alternating; the median and
the range of the rates are printed.
"""

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from pagoda.envs.vector import VectorEnv, doudizhu_vector, tichu_vector


def rate(env: VectorEnv, seconds: float, seed: int) -> float:
    """Environment steps per second (B per call) over about ``seconds`` of stepping."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    spent = 0.0
    steps = 0
    while spent < seconds:
        scores = obs["action_mask"] * rng.random(obs["action_mask"].shape, dtype=np.float32)
        actions = scores.argmax(axis=1)
        start = time.perf_counter()
        obs, *_ = env.step(actions)
        spent += time.perf_counter() - start
        steps += env.num_envs
    return steps / spent


def main(argv: list[str] | None = None) -> int:
    """Print steps/s (median and range over the repetitions) per game, batch size and engine."""
    parser = argparse.ArgumentParser(
        prog="python -m pagoda.envs.vector_bench", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds of stepping per measurement")
    parser.add_argument("--reps", type=int, default=3, help="measurements per game, size and engine")
    parser.add_argument("--sizes", default="1,64,256", help="batch sizes, comma-separated")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    makers: dict[str, Callable[[int, str], VectorEnv]] = {
        "tichu standard": lambda b, e: tichu_vector(b, engine=e)
    }
    makers["doudizhu classic"] = lambda b, e: doudizhu_vector(b, engine=e)
    print(f"{'game':<18} {'B':>4} {'engine':<7} {'steps/s median':>15} {'range':>21}")
    for game, make in makers.items():
        for b in sizes:
            envs = {e: make(b, e) for e in ("python", "native")}
            rates: dict[str, list[float]] = {"python": [], "native": []}
            for rep in range(args.reps):
                for engine, env in envs.items():
                    rates[engine].append(rate(env, args.seconds, rep))
            for engine, rs in rates.items():
                span = f"{min(rs):,.0f} - {max(rs):,.0f}"
                print(f"{game:<18} {b:>4} {engine:<7} {statistics.median(rs):>15,.0f} {span:>21}")
            ratio = statistics.median(rates["native"]) / statistics.median(rates["python"])
            print(f"{game:<18} {b:>4} native/python {ratio:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
