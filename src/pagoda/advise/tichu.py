"""``pagoda advise tichu <record file or ->``: rank the actions of the seat to move.

The record is replayed; the seat to move (the first still to decide in the Grand Tichu and
exchange phases) is shown its own view only, and the ``search`` bot scores its candidate
actions: the mean score difference of its team over the determinizations sampled, with a
standard error. In an endgame of 10 cards or fewer (all hands together) each sampled deal is
solved exactly (:mod:`pagoda.bots.tichu.solver`) and every legal play is ranked. Outside the
play the search bot's choice there (club's) is printed without a value.

    pagoda advise tichu game.txt --budget 2 --seed 1
"""

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from pagoda.advise import rank_actions
from pagoda.bots import Scored
from pagoda.bots.tichu.search import SearchBot
from pagoda.tichu import Round, replay
from pagoda.tichu.round import Phase


def advise(
    r: Round, budget: float = 1.0, iterations: int | None = None, seed: int = 0
) -> tuple[int, list[Scored[Any]]]:
    """The first seat the round asks (:meth:`Round.decisions`) and its candidate actions, best
    first (values only in the play phase)."""
    if r.is_over:
        raise ValueError("the round is over: nothing to advise")
    decision = r.decisions()[0]
    seat = decision.seat
    view = r.view(seat)
    legal = decision.actions
    bot = SearchBot(budget=budget, iterations=iterations, width=12)
    return seat, rank_actions(bot, view, legal, random.Random(seed), r.phase is Phase.PLAY)


def run(argv: Sequence[str]) -> int:
    """Print the advice for the position at the end of a record."""
    parser = argparse.ArgumentParser(prog="pagoda advise tichu", description=__doc__.splitlines()[0])
    parser.add_argument("record", help="a round record file, or - for standard input")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds of search (default 1)")
    parser.add_argument("--iterations", type=int, default=None, help="determinizations instead of a budget")
    parser.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.record == "-":
        text = sys.stdin.read()
    else:
        with open(args.record, encoding="utf-8") as f:
            text = f.read()
    r = replay(text)
    if r.is_over:
        print("the round is over: nothing to advise", file=sys.stderr)
        return 1
    seat, ranked = advise(r, args.budget, args.iterations, args.seed)
    if args.json:
        rows = [
            {"action": str(s.action), "value": s.mean, "stderr": s.stderr, "samples": s.samples}
            for s in ranked
        ]
        print(json.dumps({"seat": seat, "phase": str(r.phase), "actions": rows}, indent=2))
        return 0
    print(f"seat {seat} to move ({r.phase}); values: own team minus the other, in round points")
    for s in ranked:
        value = (
            "   (unvalued)" if s.samples == 0 else f"{s.mean:+8.1f} ± {s.stderr:5.1f}  ({s.samples} samples)"
        )
        print(f"  {s.action!s:40s} {value}")
    return 0
