"""``pagoda demo doudizhu [--seed N] [--rules TEXT]``: random players bid and play one round,
printed as its record (the notation), with each seat's view of the hands and the score."""

import argparse
import random

from pagoda import doudizhu as ddz


def run(argv: list[str]) -> int:
    """Play and print one round; returns 0."""
    parser = argparse.ArgumentParser(prog="pagoda demo doudizhu", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="the deal and the players' choices")
    parser.add_argument("--rules", default="classic", help='rules text, e.g. "classic rob=true" or "laizi"')
    args = parser.parse_args(argv)
    rules = ddz.parse_rules(args.rules)
    rng = random.Random(args.seed)
    r = ddz.Round.new(args.seed, rules)
    for seat in range(rules.players):
        print(f"seat {seat} holds {r.view(seat).hand}")
    while not r.is_over:
        seat = r.to_move
        r = r.apply(seat, rng.choice(r.legal_actions(seat)))
    print()
    print(r.record)
    print()
    role = {s: "landlord" if s == r.landlord else "peasant" for s in range(rules.players)}
    for seat, points in enumerate(r.score()):
        print(f"seat {seat} ({role[seat]}): {points:+d}")
    print(f"bid {r.bid} x multiplier {r.multiplier}; seat {r.winner} played out first")
    return 0
