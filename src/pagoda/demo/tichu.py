"""``pagoda demo tichu``: four bots play a round, printed action by action in the notation.

The bots here pick uniformly among their legal actions (the Grand Tichu, the exchange and every
play), except that they never call Tichu or Grand Tichu: a demo of the rules, not of strategy.
"""

import argparse
import random
from collections.abc import Sequence

from pagoda.tichu import Round, format_cards
from pagoda.tichu.actions import GRAND, TICHU
from pagoda.tichu.round import Phase


def demo_round(seed: int) -> tuple[Round, list[str]]:
    """Play a round from ``seed`` and return it with the lines that describe it."""
    rng = random.Random(seed)
    r = Round.new(seed)
    lines = [f"Tichu round, seed {seed}, rules {r.rules}"]
    lines += [f"  seat {s} is dealt {format_cards(r.hand_mask(s))}" for s in range(4)]
    phase = r.phase
    while not r.is_over:
        decision = r.decisions()[0]  # the first seat the round asks
        seat = decision.seat
        actions = [a for a in decision.actions if a.kind not in (GRAND, TICHU)]
        action = actions[rng.randrange(len(actions))]
        r = r.apply(seat, action)
        lines.append(f"{seat} {action}")
        if r.phase is not phase:
            phase = r.phase
            if phase is Phase.EXCHANGE:
                lines += [f"  seat {s} holds {format_cards(r.hand_mask(s))}" for s in range(4)]
            elif phase is Phase.PLAY:
                lines.append(f"  exchange done; seat {r.to_move} holds the Mah Jong and leads")
    a, b = r.score()
    lines.append(f"Out in order: {' '.join(map(str, r.out))}; score {a}:{b} (seats 0+2 : seats 1+3)")
    return r, lines


def run(argv: Sequence[str]) -> int:
    """Print a demo round."""
    parser = argparse.ArgumentParser(prog="pagoda demo tichu", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    for line in demo_round(seed)[1]:
        print(line)
    return 0
