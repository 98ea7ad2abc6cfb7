"""How well Dou Di Zhu play networks learned the search's measure, and what their choices are worth by it.

Collects every play decision with a choice from rounds the heuristic plays against itself (deals
from ``--seed``, 90,000,001 by default: never trained, tuned or reported on), and gives each of
its candidates (the learned bot's: the heuristic's best six and the pass) its target as
``pagoda train doudizhu --targets sampled`` would: its share of ``--samples`` deals consistent with
the seat's view won, less the heuristic's choice's (the "teacher"; 128 deals by default). The rows
are kept in ``--cache`` (a pickle) so that several weights are checked on the same ones. Then, for
each weights file (or several joined by ``+``, valued together as the bot does):

- the mean squared error of each play network on its rows (the training loss, held out);
- the teacher's value of the candidate the bot would play at ``--margin`` (its best, where that
  beats the heuristic's choice by more than the margin) over the heuristic's choice, a mean over
  the decisions, and how often the bot leaves the heuristic's choice.

The teacher's best is its largest of six noisy estimates, so it reads high; the value of the
bot's choice does not (the choice is made without the teacher's noise). These are the teacher's
values, not play: ``pagoda arena`` says what wins::

    python examples/distill_check.py src/pagoda/bots/doudizhu/learned_doudizhu.npz ddz.npz --margin 0.05
"""

import argparse
import os
import pickle
import random
from typing import Any, cast

import numpy as np

from pagoda import doudizhu as ddz
from pagoda.bots.doudizhu.learned import ROLES, Model, load_weights
from pagoda.train.doudizhu import episode

#: a decision: its network, its candidates' rows (the heuristic's choice first) and their targets
Decision = tuple[str, Any, list[float]]


def decisions(rounds: int, seed: int, samples: int) -> list[Decision]:
    """The play decisions with a choice of ``rounds`` heuristic rounds, with their sampled targets."""
    rules = ddz.RULES["classic"]
    out: list[Decision] = []
    for k in range(rounds):
        rows, _ = episode(
            Model(hidden=(8,)), seed + k, random.Random(k), rules, 1.0, targets="sampled", samples=samples
        )
        # a decision's rows come together, the heuristic's choice first: the one row whose
        # advice column (play_features' last but one) is set
        for name, x, _, y in rows:
            if name == "bid":
                continue
            if x[-2] == 1.0:
                out.append((name, [], []))
            out[-1][1].append(x)
            out[-1][2].append(cast(float, y))
    return [(name, np.stack(xs), ys) for name, xs, ys in out]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("weights", nargs="+", help="weights files (several joined by '+': valued together)")
    parser.add_argument("--rounds", type=int, default=100, help="heuristic rounds (default 100)")
    parser.add_argument("--seed", type=int, default=90_000_001, help="the first deal")
    parser.add_argument("--samples", type=int, default=128, help="the teacher's deals a decision")
    parser.add_argument("--margin", type=float, default=0.05, help="the bot's margin (default 0.05)")
    parser.add_argument("--cache", default="distill-rows.pkl", help="where the rows are kept")
    args = parser.parse_args()
    key = (args.rounds, args.seed, args.samples)
    cached: tuple[tuple[int, int, int], list[Decision]] | None = None
    if os.path.exists(args.cache):
        with open(args.cache, "rb") as f:
            cached = pickle.load(f)
    if cached is None or cached[0] != key:
        cached = (key, decisions(*key))
        with open(args.cache, "wb") as f:
            pickle.dump(cached, f)
    found = cached[1]
    targets = np.concatenate([y for *_, y in found])
    best = float(np.mean([max(y) for *_, y in found]))
    print(
        f"{len(found)} decisions, {len(targets)} rows; targets' variance {targets.var():.4f}; "
        f"the teacher's best over the heuristic's choice {best:.4f} a decision"
    )
    for weights in args.weights:
        model = load_weights(weights)
        errors: dict[str, list[float]] = {role: [] for role in ROLES}
        gains, left = [], 0
        for net, x, y in found:
            q = model.q(net, x).ravel()
            errors[net].extend((q - np.asarray(y)) ** 2)
            k = int(np.argmax(q))
            if q[k] - q[0] <= args.margin:
                k = 0
            gains.append(y[k])
            left += k != 0
        mse = {role: round(float(np.mean(e)), 5) for role, e in errors.items()}
        everything = float(np.mean([v for e in errors.values() for v in e]))
        print(
            f"{weights}: squared error {everything:.5f} {mse}; its choice at margin {args.margin} "
            f"gains {np.mean(gains):.4f} over the heuristic's by the teacher, leaving it in "
            f"{100 * left / len(found):.1f}% of the decisions"
        )


if __name__ == "__main__":
    main()
