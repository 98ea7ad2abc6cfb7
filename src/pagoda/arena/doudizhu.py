"""``pagoda arena doudizhu``: two bots on seeded deals, each deal played with both seatings.

Each deal is played twice with the same cards: bot A at seat 0 and bot B at seats 1 and 2, then
B at seat 0 and A at 1 and 2. With a fixed landlord (the default) the deal goes straight into play
(``Round.from_hands``: seat 0 is landlord with the kept cards, bid 1), so A is landlord against B's
peasants and then B's landlord against A's peasants. With ``--auction`` the round starts at the
auction (``Round.new``): the bots bid, and the landlord is whoever wins it.

A game's points for A are the points of A's seats together (zero-sum: minus B's). With a fixed
landlord that is the landlord side's 2 × 2^(bombs and rocket played) (× 2 for a spring), won or lost.
WP is the share of games A's seats won (points > 0); ADP the mean of A's points. Intervals are
normal 95% ones: over games for each seating, over the deals' two-game means for both together.

    pagoda arena doudizhu --bots heuristic,rlcard-rule --deals 1000 --workers 2 --json out.json

With more than two bots every pair plays the same deals and all the games are rated, the landlord
against the peasants as a team (:mod:`pagoda.arena.ratings`); ``--plot out.png`` draws the
ratings and the pairs' ADP (:mod:`pagoda.arena.plot`).

>>> [(g.deal, g.a_seat0) for g in games(seed=10, deals=2)]
[(10, True), (10, False), (11, True), (11, False)]
"""

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from pagoda.arena.paired import CompareError, compare, format_comparison, load_report, per_deal
from pagoda.arena.pool import add_ray_option, run_games
from pagoda.arena.ratings import PairRun, format_round_robin, outcome, round_robin
from pagoda.arena.stats import percentile, summarize
from pagoda.bots import get_bot
from pagoda.bots.doudizhu import play_round
from pagoda.doudizhu import Action, Cards, Round, Rules, parse_rules
from pagoda.doudizhu.cards import RANK_CHARS
from pagoda.doudizhu.round import deal, draw_wild


@dataclass(frozen=True, slots=True)
class Game:
    """One game: a deal seed and whether bot A sits alone at seat 0 (else B does)."""

    deal: int
    a_seat0: bool


@dataclass(slots=True)
class GameResult:
    """What one game produced, from bot A's side."""

    deal: int
    a_seat0: bool
    a_points: int
    a_landlord: bool
    bid: int
    multiplier: int
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))


def games(seed: int, deals: int) -> list[Game]:
    """The schedule: deals ``seed``, ``seed + 1``, ..., each with A at seat 0, then B at seat 0."""
    return [Game(seed + i, first) for i in range(deals) for first in (True, False)]


def start(game: Game, rules: Rules, auction: bool) -> Round:
    """The round of ``game``: at the auction, or straight into play with seat 0 landlord."""
    if auction:
        return Round.new(game.deal, rules)
    d, _ = deal(game.deal, 1, rules)
    n = rules.players
    wild = RANK_CHARS[draw_wild(game.deal, 1)] if rules.wild == "drawn" else None
    return Round.from_hands([Cards(m) for m in d[:n]], Cards(d[n]), landlord=0, bid=1, rules=rules, wild=wild)


def play_game(game: Game, bots: Sequence[str], rules: Rules, auction: bool = False) -> GameResult:
    """Play one game of ``bots[0]`` (A) against ``bots[1]`` (B) as scheduled by ``game``."""
    n = rules.players
    owner = [0 if (s == 0) == game.a_seat0 else 1 for s in range(n)]
    seats = [get_bot("doudizhu", bots[owner[s]]) for s in range(n)]
    result = GameResult(game.deal, game.a_seat0, 0, False, 0, 1)

    def hook(seat: int, action: Action, seconds: float) -> None:
        result.times[owner[seat]].append(seconds)

    r = play_round(start(game, rules, auction), seats, seed=game.deal, hook=hook)
    score = r.score()
    result.a_points = sum(score[s] for s in range(n) if owner[s] == 0)
    result.a_landlord = owner[r.landlord] == 0
    result.bid = r.bid
    result.multiplier = r.multiplier
    return result


def _play(args: tuple[Game, tuple[str, str], str, bool]) -> GameResult:
    return play_game(args[0], args[1], parse_rules(args[2]), args[3])


def run_arena(
    bots: Sequence[str],
    deals: int,
    seed: int = 1,
    workers: int = 1,
    rules: str = "rlcard",
    auction: bool = False,
    progress: Callable[[int, int], None] | None = None,
    ray: str | None = None,
) -> list[GameResult]:
    """Play the schedule; results in schedule order whatever the number of workers."""
    schedule = games(seed, deals)
    tasks = [(g, (bots[0], bots[1]), rules, auction) for g in schedule]
    return run_games(_play, tasks, workers, progress, chunksize=4, ray=ray)


def _win(r: GameResult) -> float:
    return 1.0 if r.a_points > 0 else 0.5 if r.a_points == 0 else 0.0


def report(results: Sequence[GameResult], bots: Sequence[str], rules: str, auction: bool) -> dict[str, Any]:
    """WP and ADP of A with 95% intervals: per seating and over both, and the decision times."""
    by_deal: dict[int, dict[bool, GameResult]] = {}
    for r in results:
        by_deal.setdefault(r.deal, {})[r.a_seat0] = r
    pairs = [(d[True], d[False]) for _, d in sorted(by_deal.items()) if len(d) == 2]
    wp = [(_win(x) + _win(y)) / 2 for x, y in pairs]
    adp = [(x.a_points + y.a_points) / 2 for x, y in pairs]
    out: dict[str, Any] = {
        "game": "doudizhu",
        "bots": {"A": bots[0], "B": bots[1]},
        "rules": rules,
        "landlord": "auction" if auction else "fixed (seat 0, bid 1)",
        "deals": len(pairs),
        "games": len(results),
        "both": {"wp": asdict(summarize(wp)), "adp": asdict(summarize(adp))},
        "seatings": {},
        "decision_seconds": {},
    }
    seatings = (("A at seat 0", True), ("B at seat 0", False))
    if not auction:
        seatings = (("A landlord", True), ("A peasants", False))
    for name, first in seatings:
        part = [r for r in results if r.a_seat0 == first]
        out["seatings"][name] = {
            "games": len(part),
            "wp": asdict(summarize([_win(r) for r in part])),
            "adp": asdict(summarize([float(r.a_points) for r in part])),
            "a_landlord": sum(r.a_landlord for r in part) / max(1, len(part)),
            "mean_bid": sum(r.bid for r in part) / max(1, len(part)),
        }
    for who, name in ((0, "A"), (1, "B")):
        times = [t for r in results for t in r.times[who]]
        out["decision_seconds"][name] = {
            "decisions": len(times),
            "median": percentile(times, 50),
            "p99": percentile(times, 99),
            "max": max(times, default=float("nan")),
        }
    out["per_deal"] = per_deal([x.deal for x, _ in pairs], wp=wp, adp=adp)
    return out


def pair_run(results: Sequence[GameResult], bots: Sequence[str], rules: str, auction: bool) -> PairRun:
    """A pair's results for a round robin: its report, its games as landlord-vs-peasants outcomes
    (the landlord side won when A's points have the sign of A holding the landlord), and A's ADP."""
    rep = report(results, bots, rules, auction)
    n = parse_rules(rules).players
    games = []
    for r in results:
        owners = [bots[0] if (s == 0) == r.a_seat0 else bots[1] for s in range(n)]
        landlord = bots[0] if r.a_landlord else bots[1]
        owners.remove(landlord)
        won = r.a_points if r.a_landlord else -r.a_points
        games.append(outcome([(landlord,), tuple(owners)], [won, -won]))
    adp = rep["both"]["adp"]
    return PairRun(bots[0], bots[1], rep, games, adp["mean"], adp["half_width"])


def format_report(rep: dict[str, Any]) -> str:
    """The report as text."""
    b = rep["both"]
    lines = [
        f"A = {rep['bots']['A']}  vs  B = {rep['bots']['B']}: {rep['deals']} deals, {rep['games']} games,"
        f" rules {rep['rules']}, landlord {rep['landlord']}",
        f"  both seatings: WP {b['wp']['mean']:.3f} ± {b['wp']['half_width']:.3f},"
        f" ADP {b['adp']['mean']:+.3f} ± {b['adp']['half_width']:.3f} (95%)",
    ]
    for name, s in rep["seatings"].items():
        lines.append(
            f"  {name}: WP {s['wp']['mean']:.3f} ± {s['wp']['half_width']:.3f},"
            f" ADP {s['adp']['mean']:+.3f} ± {s['adp']['half_width']:.3f}"
            f" (A landlord in {100 * s['a_landlord']:.0f}%, mean bid {s['mean_bid']:.2f})"
        )
    for name, t in rep["decision_seconds"].items():
        lines.append(
            f"  {name} decision time: median {1000 * t['median']:.3f} ms, p99 {1000 * t['p99']:.2f} ms,"
            f" max {1000 * t['max']:.1f} ms over {t['decisions']} decisions"
        )
    return "\n".join(lines)


def run(argv: Sequence[str]) -> int:
    """Run the arena from the command line."""
    parser = argparse.ArgumentParser(
        prog="pagoda arena doudizhu", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument(
        "--bots", default="heuristic,rlcard-rule", help="A,B bot specs, or more for a round robin"
    )
    parser.add_argument("--deals", type=int, default=200, help="deals (each played with both seatings)")
    parser.add_argument("--seed", type=int, default=1, help="first deal seed (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    add_ray_option(parser)
    parser.add_argument("--rules", default="rlcard", help="rules preset and options (default rlcard)")
    parser.add_argument(
        "--auction", action="store_true", help="start at the auction (default: seat 0 landlord)"
    )
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON")
    parser.add_argument("--plot", metavar="PNG", help="rate the bots and plot ratings and pairwise ADP")
    parser.add_argument("--no-progress", action="store_true", help="no progress output")
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("X.json", "Y.json"),
        help="compare two runs' --json reports deal by deal (paired intervals) and play nothing",
    )
    args = parser.parse_args(argv)
    if args.compare:
        try:
            x, y = (load_report(path, "doudizhu") for path in args.compare)
            c = compare(x, y, ("wp", "adp"), same=("rules", "landlord"))
        except CompareError as e:
            parser.error(str(e))
        print(format_comparison(c, {"wp": ("WP", 3), "adp": ("ADP", 3)}))
        return 0
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) < 2 or len(set(bots)) != len(bots):
        parser.error("--bots takes two or more different bot specs, A,B[,C...]")
    rules = parse_rules(args.rules)
    for spec in bots:
        get_bot("doudizhu", spec)  # fail early on a bad name
    if rules.players != 3 and "rlcard-rule" in bots:
        print("note: RLCard's rule agent knows three players only; it falls back where lost", file=sys.stderr)
    progress = None if args.no_progress else _dots
    if len(bots) > 2 or args.plot:
        return _round_robin(bots, args, progress, "pagoda arena doudizhu " + " ".join(argv))
    results = run_arena(
        bots, args.deals, args.seed, args.workers, args.rules, args.auction, progress, args.ray
    )
    rep = report(results, bots, args.rules, args.auction)
    rep["command"] = "pagoda arena doudizhu " + " ".join(argv)
    print(format_report(rep))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rep, f, indent=2)
    return 0


def _round_robin(
    bots: list[str], args: argparse.Namespace, progress: Callable[[int, int], None] | None, command: str
) -> int:
    def play(a: str, b: str) -> PairRun:
        results = run_arena(
            [a, b], args.deals, args.seed, args.workers, args.rules, args.auction, progress, args.ray
        )
        return pair_run(results, [a, b], args.rules, args.auction)

    rep = round_robin(bots, play, "row's points per game against column (ADP)")
    rep["command"] = command
    print(format_round_robin(rep, format_report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rep, f, indent=2)
    if args.plot:
        from pagoda.arena.plot import plot_round_robin

        landlord = "auction" if args.auction else "fixed landlord"
        title = f"Dou Di Zhu ({args.rules}, {landlord}): {args.deals} deals a pair, seeds from {args.seed}"
        plot_round_robin(rep, args.plot, title)
    return 0


def _dots(done: int, total: int) -> None:
    if done == total or done % 100 == 0:
        print(f"\r{done}/{total} games", end="" if done < total else "\n", file=sys.stderr)
