"""What more time changes in the Tichu search's choices: its regret by samples, against a long search.

The search bot (PIMC over club's rollouts) scores each candidate by its mean over sampled deals.
This collects positions the search would search (play decisions with a choice, more cards left
than the endgame solver takes) from rounds club plays against itself, scores every candidate of
each on ``--reference`` sampled deals (the reference), then lets the search choose with fewer
samples and reports, for each sample count: how often its choice differs from the reference's
best, and the mean regret (the reference's value of its best less that of the choice, in points
of the round for the team), with the bot's candidate width and with every candidate. It also
counts the samples a time budget draws on the same positions (on this machine, at this load)::

    python examples/search_regret.py --views 200 --seed 700001

The regret is measured by the search's own values (rollouts of club on uniform deals), not by
play: it says how much the search's choice still moves with more samples, not what that wins.
"""

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pagoda.bots.tichu.club import ClubBot
from pagoda.bots.tichu.driver import NO_BOMB, play_round
from pagoda.bots.tichu.search import NoDeal, SearchBot
from pagoda.tichu import Action, View, new_round
from pagoda.tichu.round import Phase

#: Every candidate: wider than any Tichu decision's distinct card sets.
ALL = 10_000

Position = tuple[View, list[Action]]


@dataclass
class Recorder:
    """Club at every seat, keeping one in ``every`` of the decisions the search would search."""

    every: int
    views: list[Position] = field(default_factory=list)
    club: ClubBot = field(default_factory=ClubBot)
    search: SearchBot = field(default_factory=SearchBot)
    searched: int = 0  # the decisions the search would search, with more than one candidate

    def decide(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        searched = (
            view.phase is Phase.PLAY
            and NO_BOMB not in legal
            and sum(view.hand_sizes) > self.search.solve_cards
            and len(self.search.candidates(view, legal)) > 1
        )
        if searched:
            self.searched += 1
            if rng.randrange(self.every) == 0:
                self.views.append((view, list(legal)))
        return self.club.decide(view, legal, rng)


def positions(n: int, seed: int, every: int) -> tuple[list[Position], float]:
    """``n`` searched positions from club's rounds on deals ``seed``, ``seed + 1``, ..., and the
    searched decisions a team makes in a round there."""
    recorder = Recorder(every)
    deal = seed
    while len(recorder.views) < n:
        play_round(new_round(deal), [recorder] * 4, seed=deal)
        deal += 1
    return recorder.views[:n], recorder.searched / (deal - seed) / 2


def choice(bot: SearchBot, view: View, legal: Sequence[Action], seed: int) -> Action:
    """The bot's choice at ``view`` with its sampling seeded by ``seed``."""
    scored = bot.evaluate(view, bot.candidates(view, legal), random.Random(seed))
    return max(scored, key=lambda s: s.mean).action


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--views", type=int, default=200, help="positions scored")
    parser.add_argument("--seed", type=int, default=700_001, help="the first deal the positions come from")
    parser.add_argument("--every", type=int, default=4, help="keep one in this many searched decisions")
    parser.add_argument("--reference", type=int, default=2000, help="the reference's sampled deals")
    parser.add_argument("--samples", default="25,100,300,1000", help="sample counts compared")
    parser.add_argument("--budgets", default="0.1,1", help="time budgets whose samples are counted")
    parser.add_argument("--width", type=int, default=SearchBot().width, help="the bot's candidate width")
    args = parser.parse_args(argv)
    counts = [int(s) for s in args.samples.split(",")]
    budgets = [float(b) for b in args.budgets.split(",")]
    views, per_round = positions(args.views, args.seed, args.every)
    regret: dict[tuple[int, int], list[float]] = {(n, w): [] for n in counts for w in (args.width, ALL)}
    outside: list[float] = []  # the reference's best is not among the width's candidates: its loss
    drawn: dict[float, list[int]] = {b: [] for b in budgets}
    started = time.perf_counter()
    for i, (view, legal) in enumerate(views):
        reference = SearchBot(iterations=args.reference, width=ALL)
        try:
            scored = reference.evaluate(view, reference.candidates(view, legal), random.Random(10_000 + i))
        except NoDeal:
            continue
        value = {s.action: s.mean for s in scored}
        best = max(value.values())
        narrow = SearchBot(width=args.width).candidates(view, legal)
        outside.append(best - max(value[a] for a in narrow))
        for n, w in regret:
            regret[n, w].append(best - value[choice(SearchBot(iterations=n, width=w), view, legal, i)])
        for b in budgets:
            bot = SearchBot(budget=b, width=args.width)
            timed = bot.evaluate(view, bot.candidates(view, legal), random.Random(20_000 + i))
            drawn[b].append(timed[0].samples)
        print(f"\r{i + 1}/{len(views)} positions, {time.perf_counter() - started:.0f} s", end="", flush=True)
    print()
    m = len(outside)
    print(f"{m} positions from deals {args.seed}+, reference {args.reference} samples, every candidate")
    print(f"searched decisions with a choice: {per_round:.1f} a team in a round")
    print(f"the reference's best outside the {args.width} candidates: {sum(x > 0 for x in outside) / m:.1%}")
    print(f"  of positions, costing {statistics.mean(outside):.2f} points each on average")
    print("| samples | width | choice differs from the reference's best | mean regret, points |")
    print("|---|---|---|---|")
    for (n, w), xs in regret.items():
        width = "all" if w == ALL else str(w)
        print(f"| {n} | {width} | {sum(x > 0 for x in xs) / m:.1%} | {statistics.mean(xs):.2f} |")
    for b, ns in drawn.items():
        print(f"samples drawn in {b:g} s: median {statistics.median(ns):g} (range {min(ns)}–{max(ns)})")


if __name__ == "__main__":
    main()
