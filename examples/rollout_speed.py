"""Heuristic rollouts, native against Python: rollouts per second, and per search decision.

``python examples/rollout_speed.py speed``: whole-round heuristic rollouts from the first
play-phase position of held-out deals (seeds from 300001), each played by the Python bot
through the driver and by one native call (``NativeRound.rollouts(1, policy="heuristic")``),
the two engines alternated ``--repeats`` times; prints rollouts/s of each and the ratio.

``python examples/rollout_speed.py doudizhu``: the same for Dou Di Zhu (``classic``): whole-round
heuristic playouts from the first play-phase position of held-out deals (seeds from 300001), the
Python bot at every seat through the driver against one native call each
(``NativeRound.heuristic_playout()``), alternated, each pair on ``--deals`` new deals (the same
for both); rollouts/s of each and the ratio.

``python examples/rollout_speed.py decisions``: the search bot at ``--budget`` seconds a
decision with native and with Python rollouts, alternated on the same decisions (the searched
ones, at most 28 cards in hand, of heuristic rounds of held-out deals): rollouts and
determinizations per decision, and the decision's wall time.

Needs the native core (``make native``).
"""

import argparse
import random
import statistics
import time

from pagoda.bots.tichu.driver import play_round, seat_rngs, step
from pagoda.bots.tichu.heuristic import HeuristicBot
from pagoda.bots.tichu.search import SearchBot, fast_view
from pagoda.tichu import Round
from pagoda.tichu.native import from_reference
from pagoda.tichu.round import Phase

BOT = HeuristicBot()


def play_starts(seeds: range) -> list[Round]:
    """The first play-phase position of each deal, the heuristic deciding before."""
    out = []
    for seed in seeds:
        r = Round.new(seed)
        rngs = seat_rngs(seed)
        while r.phase is not Phase.PLAY:
            r = step(r, [BOT] * 4, rngs)
        out.append(r)
    return out


def searched(seeds: range, cards: int = 28) -> list[Round]:
    """The play decisions of heuristic rounds that the search bot searches (at most ``cards``)."""
    out = []
    for seed in seeds:
        r = Round.new(seed)
        rngs = seat_rngs(seed)
        while not r.is_over:
            d = r.decisions()[0]
            left = sum(r.hand_mask(s).bit_count() for s in range(4))
            if r.phase is Phase.PLAY and d.seat == r.to_move and left <= cards and len(d.actions) > 1:
                out.append(r)
            r = step(r, [BOT] * 4, rngs)
    return out


def speed(args: argparse.Namespace) -> None:
    starts = play_starts(range(300001, 300001 + args.deals))
    cores = [from_reference(r) for r in starts]
    rates: dict[str, list[float]] = {"python": [], "native": []}
    for _ in range(args.repeats):
        t = time.perf_counter()
        for r in starts:
            play_round(r, [BOT] * 4, rngs=seat_rngs(0), view_of=fast_view)
        rates["python"].append(len(starts) / (time.perf_counter() - t))
        t = time.perf_counter()
        for _ in range(args.native_factor):
            for c in cores:
                c.rollouts(1, 0, policy="heuristic")
        rates["native"].append(args.native_factor * len(cores) / (time.perf_counter() - t))
    report(rates)


def doudizhu(args: argparse.Namespace) -> None:
    from pagoda import doudizhu as ddz
    from pagoda.bots.doudizhu.driver import play_round as ddz_round
    from pagoda.bots.doudizhu.heuristic import HeuristicBot as DdzHeuristic
    from pagoda.doudizhu.native import NativeRound

    bot = DdzHeuristic()

    def starts(seeds: range) -> list[ddz.Round]:
        out = []
        for seed in seeds:
            r = ddz.Round.new(seed, ddz.RULES["classic"])
            while r.phase is not ddz.Phase.PLAY:
                r = r.apply(r.to_move, bot.decide(r.view(r.to_move), r.legal_actions(), random.Random(0)))
            out.append(r)
        return out

    rates: dict[str, list[float]] = {"python": [], "native": []}
    for k in range(args.repeats):
        # each pair plays new deals, the same for both engines: neither finds its own memo of
        # hand partitions warmed by an earlier pass over them
        rounds = starts(range(300001 + k * args.deals, 300001 + (k + 1) * args.deals))
        cores = [NativeRound(r) for r in rounds]
        t = time.perf_counter()
        for r in rounds:
            ddz_round(r, [bot] * 3)
        rates["python"].append(len(rounds) / (time.perf_counter() - t))
        t = time.perf_counter()
        for c in cores:
            c.heuristic_playout()
        rates["native"].append(len(cores) / (time.perf_counter() - t))
    report(rates)


def report(rates: dict[str, list[float]]) -> None:
    """Each engine's median and range, and the ratio of each alternated pair."""
    for name, xs in rates.items():
        print(f"{name}: median {statistics.median(xs):,.0f} rollouts/s, range {min(xs):,.0f}-{max(xs):,.0f}")
    ratios = [n / p for n, p in zip(rates["native"], rates["python"], strict=True)]
    print(
        f"ratio native/python (each alternated pair): median {statistics.median(ratios):.1f}x, "
        f"range {min(ratios):.1f}-{max(ratios):.1f}x"
    )


def decisions(args: argparse.Namespace) -> None:
    positions = searched(range(300001, 300001 + args.deals))
    bots = {name: SearchBot(budget=args.budget, rollouts=name) for name in ("native", "python")}
    stats: dict[str, dict[str, list[float]]] = {n: {"rollouts": [], "secs": []} for n in bots}
    for i, r in enumerate(positions):
        d = r.decisions()[0]
        view = r.view(d.seat)
        for name in ("native", "python") if i % 2 == 0 else ("python", "native"):
            bot = bots[name]
            before = bot.rollout_count
            t = time.perf_counter()
            bot.decide(view, d.actions, random.Random(i))
            stats[name]["secs"].append(time.perf_counter() - t)
            stats[name]["rollouts"].append(bot.rollout_count - before)
    for name, s in stats.items():
        print(
            f"{name}: {len(s['rollouts'])} decisions, "
            f"rollouts per decision mean {statistics.mean(s['rollouts']):.1f} "
            f"median {statistics.median(s['rollouts']):.0f}, "
            f"decision wall time median {statistics.median(s['secs']) * 1000:.0f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["speed", "doudizhu", "decisions"])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--native-factor", type=int, default=10, help="native passes per Python pass")
    parser.add_argument("--budget", type=float, default=0.1)
    args = parser.parse_args()
    {"speed": speed, "doudizhu": doudizhu, "decisions": decisions}[args.what](args)


if __name__ == "__main__":
    main()
