"""Where a random Tichu deal spends its time: the decisions of ``pagoda bench tichu`` by situation.

``python -m pagoda.bench.tichu_parts`` plays ``--deals`` seeded random rounds as the benchmark
does and prints, per situation, the decisions a deal, how often the only legal action is ``pass``
and how often a lead's pick is a single card. With ``--situation S --replay N`` it then lists the
legal actions of each decision of ``S`` again and applies the one picked, ``N`` times: run it
under callgrind with ``N`` and with 0, and the difference over ``N`` times the decisions printed
is the instructions one such decision costs. ``--lead-sizes`` times a lead's plays made all at
once (``raw_plays``) against counted and made when read (``lead_plays``, which the rules core uses),
by the number of cards in the hand (best of 7 runs).
"""

import argparse
import random
import time
from collections.abc import Callable, Sequence

from pagoda.tichu import Round
from pagoda.tichu.actions import PASS, PLAY
from pagoda.tichu.cards import MAH_JONG_BIT
from pagoda.tichu.combos import SINGLE
from pagoda.tichu.movegen import lead_plays, raw_plays
from pagoda.tichu.round import Phase

SITUATIONS = ("grand", "exchange", "lead", "lead_mj", "single", "other", "wish", "take")


def situation(r: Round, seat: int) -> str:
    """The kind of decision the seat to move of ``r`` faces."""
    if r.phase is Phase.GRAND_TICHU:
        return "grand"
    if r.phase is Phase.EXCHANGE:
        return "exchange"
    if r.is_trick_complete:
        return "take"
    top = r.top
    if top is None:
        return "lead_mj" if r.hand_mask(seat) & MAH_JONG_BIT else "lead"
    if r.wish:
        return "wish"
    return "single" if top.kind == SINGLE else "other"


Decision = tuple[str, Round, int, float]


def decisions(deals: int, seed: int = 1) -> list[Decision]:
    """Every decision of ``deals`` random rounds (seeds ``seed``...): situation, state, seat, and
    the random number that picks the action, as ``pagoda bench tichu`` draws it."""
    out: list[Decision] = []
    for s in range(seed, seed + deals):
        rng = random.Random(s)
        r = Round.new(s)
        while r.phase is not Phase.OVER:
            seat = r.decisions()[0].seat  # the first seat the round asks
            x = rng.random()
            out.append((situation(r, seat), r, seat, x))
            actions = r.legal_actions(seat)
            r = r.apply(seat, actions[int(x * len(actions))])
    for d in out:
        d[1].memo.clear()  # listed again from scratch when replayed
    return out


def replay(found: Sequence[Decision]) -> None:
    """List the legal actions of each decision and apply the one picked."""
    for _, r, seat, x in found:
        r.memo.clear()
        actions = r.legal_actions(seat)
        r.apply(seat, actions[int(x * len(actions))])


def _best_of(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def lead_sizes(found: Sequence[Decision]) -> None:
    """Microseconds a lead, made all at once (``raw_plays``) and counted first (``lead_plays``)."""
    by_size: dict[int, list[tuple[int, float]]] = {}
    for name, r, seat, x in found:
        if name == "lead":
            hand = r.hand_mask(seat)
            by_size.setdefault(hand.bit_count(), []).append((hand, x))
    print("cards  leads  all at once  counted first  (us a lead, the pick included)")
    for size in sorted(by_size):
        hands = by_size[size]

        def eager(hands: list[tuple[int, float]] = hands) -> None:
            for hand, x in hands:
                plays = raw_plays(hand, None)
                _ = plays[int(x * len(plays))]

        def lazy(hands: list[tuple[int, float]] = hands) -> None:
            for hand, x in hands:
                plays = lead_plays(hand)
                _ = plays[int(x * len(plays))]

        per = 1e6 / len(hands)
        at_once = _best_of(7, eager) * per
        counted = _best_of(7, lazy) * per
        print(f"{size:5d} {len(hands):6d} {at_once:12.2f} {counted:14.2f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pagoda.bench.tichu_parts", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--deals", type=int, default=40, help="random rounds (default 40)")
    parser.add_argument("--situation", choices=SITUATIONS, help="the decisions to replay")
    parser.add_argument("--replay", type=int, default=0, help="times to replay them (default 0)")
    parser.add_argument("--lead-sizes", action="store_true", help="time leads by hand size")
    args = parser.parse_args(argv)
    found = decisions(args.deals)
    print(f"{args.deals} random deals, {len(found)} decisions")
    print("situation  a deal  only pass  pass picked  single picked")
    for name in SITUATIONS:
        mine = [d for d in found if d[0] == name]
        if not mine:
            continue
        only = picked_pass = picked_single = 0
        for _, r, seat, x in mine:
            actions = r.legal_actions(seat)
            action = actions[int(x * len(actions))]
            only += len(actions) == 1 and actions[0].kind == PASS
            picked_pass += action.kind == PASS
            picked_single += action.kind == PLAY and action.combo is not None and action.combo.length == 1
            r.memo.clear()
        n = len(mine)
        shares = f"{only / n:10.0%} {picked_pass / n:12.0%} {picked_single / n:14.0%}"
        print(f"{name:10s} {n / args.deals:6.1f} {shares}")
    if args.situation:
        mine = [d for d in found if d[0] == args.situation]
        for _ in range(args.replay):
            replay(mine)
        print(f"replayed {len(mine)} decisions of {args.situation} x {args.replay}")
    if args.lead_sizes:
        lead_sizes(found)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
