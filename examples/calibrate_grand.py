"""Calibrate the club bot's Grand Tichu call on self-play: what a call is worth, by the first 8 cards.

For every seeded deal, four ``club`` bots play the round once with no Grand Tichu call, and then
once for each seat whose first 8 cards reach ``--floor`` on :func:`grand_strength`, with that
seat calling Grand Tichu (everything else decided by the bots as they would). A call's worth on
that deal is what it changes in the caller's team's score against the other team's, the same
deal played out both ways: the +200 or -200, and what the call does to the play (the partner
supports the caller, the opponents stop it, the caller may no longer call Tichu). The table
prints, per strength, how often the call was made (the caller out first) and the mean worth
with its 95% interval; a threshold pays where the worth is above zero.

    PYTHONPATH=src python examples/calibrate_grand.py 1 2999
"""

import argparse
import math
import random
import statistics
from collections import defaultdict
from collections.abc import Sequence

from pagoda.bots.tichu import ClubBot, play_round
from pagoda.bots.tichu.heuristic import grand_strength
from pagoda.tichu import Action, Round, View
from pagoda.tichu.actions import GRAND


class _Calls(ClubBot):
    """The club bot, with Grand Tichu called by ``seat`` only (or by no seat: ``seat = -1``)."""

    def __init__(self, seat: int) -> None:
        super().__init__(grand_threshold=99.0)
        self.seat = seat

    def decide(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if view.seat == self.seat and any(a.kind == GRAND for a in legal_actions):
            return next(a for a in legal_actions if a.kind == GRAND)
        return super().decide(view, legal_actions, rng)


def worth(seed: int, floor: float) -> list[tuple[float, int, bool]]:
    """(strength, worth of the call, made) for each seat of deal ``seed`` at ``floor`` or above."""
    start = Round.new(seed)
    base = play_round(start, [_Calls(-1)] * 4, seed=seed).score()
    out = []
    for seat in range(4):
        strength = grand_strength(start.view(seat).hand)
        if strength < floor:
            continue
        end = play_round(start, [_Calls(seat)] * 4, seed=seed)
        score = end.score()
        team = seat & 1
        gain = (score[team] - score[1 - team]) - (base[team] - base[1 - team])
        out.append((strength, gain, end.out[0] == seat))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--floor", type=float, default=3.0, help="the least strength called (default 3)")
    args = parser.parse_args(argv)
    table: dict[float, list[tuple[int, bool]]] = defaultdict(list)
    for seed in range(args.first, args.last + 1):
        for strength, gain, made in worth(seed, args.floor):
            table[strength].append((gain, made))
    print("strength  calls  made    worth (95%)       at or above: calls  made    worth (95%)")
    keys = sorted(table)
    for key in keys:
        above = [row for k in keys if k >= key for row in table[k]]
        print(f"{key:8.2f}  {_summary(table[key])}       {_summary(above)}")


def _summary(rows: list[tuple[int, bool]]) -> str:
    """Calls, the share made and the mean worth with its 95% interval."""
    gains = [g for g, _ in rows]
    share = sum(m for _, m in rows) / len(rows)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else float("nan")
    return f"{len(rows):5d}  {100 * share:4.0f}%  {statistics.mean(gains):+7.1f} ± {half:5.1f}"


if __name__ == "__main__":
    main()
