"""``pagoda advise doudizhu <record file or ->``: rank the actions of the seat to move.

The record is replayed and the seat to move is shown its own view only. In the play, the
``search`` bot scores its candidate actions (the heuristic's best few, and pass when legal): the
mean outcome for the seat's side over the sampled deals of the unseen cards (points in units of
the bid, plus one for a win and minus one for a loss), with a standard error; a sampled deal of
12 cards or fewer is solved exactly (:mod:`pagoda.bots.doudizhu.solver`). In the auction the
search does not sample: the bid it makes (the learned bot's bidding network's, where that bids)
is printed with the hand's strength, unvalued.

    pagoda advise doudizhu game.txt --budget 2 --seed 1
"""

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from pagoda.advise import rank_actions
from pagoda.bots import Scored
from pagoda.bots.doudizhu import strength
from pagoda.bots.doudizhu.search import SearchBot
from pagoda.doudizhu import Phase, Round, replay


def advise(
    r: Round, budget: float = 1.0, iterations: int | None = None, seed: int = 0, width: int = 8
) -> tuple[int, list[Scored[Any]]]:
    """The seat to move and its candidate actions, best first (values only in the play)."""
    if r.is_over:
        raise ValueError("the round is over: nothing to advise")
    seat = r.to_move
    view = r.view(seat)
    legal = r.legal_actions(seat)
    bot = SearchBot(budget=budget, iterations=iterations, width=width, rules=r.rules)
    return seat, rank_actions(bot, view, legal, random.Random(seed), r.phase is Phase.PLAY)


def run(argv: Sequence[str]) -> int:
    """Print the advice for the position at the end of a record."""
    parser = argparse.ArgumentParser(
        prog="pagoda advise doudizhu", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("record", help="a round record file, or - for standard input")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds of search (default 1)")
    parser.add_argument("--iterations", type=int, default=None, help="sampled deals instead of a budget")
    parser.add_argument("--width", type=int, default=8, help="candidate actions (default 8)")
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
    seat, ranked = advise(r, args.budget, args.iterations, args.seed, args.width)
    if args.json:
        rows = [
            {"action": str(s.action), "value": s.mean, "stderr": s.stderr, "samples": s.samples}
            for s in ranked
        ]
        print(json.dumps({"seat": seat, "phase": r.phase.value, "actions": rows}, indent=2))
        return 0
    if r.phase is not Phase.PLAY:
        s = strength(r.hand(seat).mask, r.rules)
        print(f"seat {seat} to move ({r.phase.value}); hand strength {s:.1f}; the search's bid:")
    else:
        print(f"seat {seat} to move ({r.phase.value}); values: own side's points per bid unit, ±1 for a win")
    for sc in ranked:
        value = (
            "   (not valued)"
            if sc.samples == 0
            else f"{sc.mean:+8.2f} ± {sc.stderr:5.2f}  ({sc.samples} samples)"
        )
        print(f"  {sc.action!s:40s} {value}")
    return 0
