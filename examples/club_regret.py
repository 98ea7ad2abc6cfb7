"""Where does the club bot lose points? Its regret against a search over it, by situation.

Four ``club`` bots play seeded deals. At every play decision with a choice, the search (PIMC
over club's rollouts, :class:`~pagoda.bots.tichu.search.SearchBot`) scores the candidates on
``ITERATIONS`` determinizations and picks its best; a second, independent set of twice as many
determinizations then scores that pick and club's own choice. The regret of the decision is
the pick's mean minus club's mean on the second set: choosing and measuring on separate
samples keeps the maximum's luck out of it (the pick can come out worse than club's choice).

The regret reads "deviate here once, then play club to the end", counted on deals drawn
uniformly from what the seat knows, so it points at the kinds of decision to improve; the
arena decides whether a rule built from it is stronger. The table groups the decisions by
(lead or follow, who holds the trick, club's choice, the search's choice) and prints each
group's decisions, mean regret with its 95% interval, and total per round, largest first.

    PYTHONPATH=src python examples/club_regret.py FIRST LAST [ITERATIONS] [options of club]

for example ``examples/club_regret.py 401 500 24 break_up=0:shed=-1`` (the club bot before
it followed to win the lead). The rollouts play the *default* club: a bot with other options
is measured against rollouts of the default one.
"""

import math
import random
import sys
from collections import defaultdict

from pagoda.bots import get_bot
from pagoda.bots.tichu import NO_BOMB
from pagoda.bots.tichu.driver import seat_rngs
from pagoda.bots.tichu.search import NoDeal, SearchBot
from pagoda.tichu import Action, Round, View
from pagoda.tichu.actions import PLAY
from pagoda.tichu.cards import DRAGON_BIT, PHOENIX_BIT, RANK_MASKS
from pagoda.tichu.round import Phase


def kind(action: Action) -> str:
    """The decision's shape: pass, a combination kind, or the Dragon, Phoenix, Ace or a bomb."""
    if action.kind != PLAY or action.combo is None:
        return action.kind
    if action.combo.is_bomb:
        return "bomb"
    if action.mask in (DRAGON_BIT, PHOENIX_BIT):
        return "dragon" if action.mask == DRAGON_BIT else "phoenix"
    if action.combo.kind == "single" and action.mask & RANK_MASKS[14]:
        return "ace"
    return action.combo.kind


def holder(view: View) -> str:
    """Who holds the trick: nobody (a lead), the partner, an opponent or this seat."""
    top = view.top_seat
    if view.top is None or top < 0:
        return "lead"
    return "self" if top == view.seat else "partner" if top == (view.seat + 2) & 3 else "opponent"


def main(first: int, last: int, iterations: int, options: str) -> None:
    """Play deals ``first..last`` with club at every seat and print the regret table."""
    club = get_bot("tichu", "club" + (":" + options if options else ""))
    pick = SearchBot(iterations=iterations, width=12)
    measure = SearchBot(iterations=2 * iterations, width=12)
    groups: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for seed in range(first, last + 1):
        r = Round.new(seed)
        rngs = seat_rngs(seed)
        while not r.is_over:
            d = r.decisions()[0]
            view = r.view(d.seat)
            action = club.decide(view, d.actions, rngs[d.seat])
            if view.phase is Phase.PLAY and NO_BOMB not in d.actions:
                # club's choice first: the one measured against
                candidates = [action, *(a for a in pick.candidates(view, d.actions) if a != action)]
                if len(candidates) > 1:
                    salt = seed * 1000 + len(view.events)
                    try:
                        chosen = pick.evaluate(view, candidates, random.Random(salt))
                        scored = measure.evaluate(view, candidates, random.Random(salt + 1))
                    except NoDeal:
                        chosen = []
                    if chosen:
                        best = max(range(len(chosen)), key=lambda i: chosen[i].mean)
                        key = (holder(view), kind(action), kind(candidates[best]))
                        groups[key].append(scored[best].mean - scored[0].mean)
            r = r.apply(d.seat, action)
    deals = last - first + 1
    print(
        f"{sum(map(len, groups.values()))} decisions of {deals} deals, {iterations}+{2 * iterations} samples"
    )
    print(f"{'trick':9} {'club':10} {'search':10} {'n':>6} {'mean regret':>16} {'per round':>10}")
    for (where, own, searched), values in sorted(groups.items(), key=lambda kv: -sum(kv[1]))[:20]:
        n = len(values)
        mean = sum(values) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        half, per_round = 1.96 * sd / math.sqrt(n), sum(values) / deals
        print(f"{where:9} {own:10} {searched:10} {n:6d} {mean:+8.1f} ± {half:5.1f} {per_round:10.1f}")


if __name__ == "__main__":
    argv = sys.argv[1:]
    main(int(argv[0]), int(argv[1]), int(argv[2]) if len(argv) > 2 else 24, argv[3] if len(argv) > 3 else "")
