"""``pagoda arena tichu``: two bots, seeded deals, each deal played twice with the seats swapped.

Bot A sits at seats 0 and 2 on the first game of a deal and at 1 and 3 on its mirror; the
cards are the same, so the luck of the deal cancels within the pair. A pair is the unit of the
statistics: its value is A's mean score difference over its two games, and the 95% interval is
the normal one over the pairs. With ``--matches`` a "deal" is a match to 1000 points (seeded,
and mirrored the same way) instead of a single round.

    pagoda arena tichu --bots search:budget=0.1,heuristic --deals 200 --workers 2 --json out.json

With more than two bots (``--bots random,heuristic,search``) every pair plays the same deals and
all the games are rated (:mod:`pagoda.arena.ratings`); ``--plot out.png`` draws the ratings and
the pairs' points (:mod:`pagoda.arena.plot`).

The engine is importable: :func:`play_game` plays one game, :func:`games` lists the mirrored
schedule, :func:`run_arena` plays it (on several processes) and :func:`report` sums it up.

>>> [(g.deal, g.a_team) for g in games(seed=10, deals=2)]
[(10, 0), (10, 1), (11, 0), (11, 1)]
"""

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from pagoda.arena.paired import CompareError, compare, format_comparison, load_report, per_deal
from pagoda.arena.pool import add_ray_option, run_games
from pagoda.arena.ratings import PairRun, format_round_robin, outcome, round_robin
from pagoda.arena.stats import percentile, summarize, wilson
from pagoda.bots import get_bot
from pagoda.bots.tichu import play_round
from pagoda.tichu import Action, Round, Rules
from pagoda.tichu.match import round_seed
from pagoda.tichu.rules import RULES


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the schedule: a deal (or match) seed and the team bot A sits in (0 or 1)."""

    deal: int
    a_team: int


@dataclass(slots=True)
class GameResult:
    """What one game produced, from bot A's side."""

    deal: int
    a_team: int
    a_points: int  # A's team's points (the round's, or the match's final total)
    b_points: int
    rounds: int = 1
    # calls as (bot 0 = A / 1 = B, "tichu" / "grand", made it)
    calls: list[tuple[int, str, bool]] = field(default_factory=list)
    # per round, the bot (0 = A / 1 = B) whose team went out first, and whose went out one-two
    first_out: list[int] = field(default_factory=list)
    one_two: list[int] = field(default_factory=list)
    # seconds per decision, by bot (0 = A, 1 = B)
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    @property
    def diff(self) -> int:
        """A's points minus B's."""
        return self.a_points - self.b_points


def games(seed: int, deals: int) -> list[Game]:
    """The schedule: deals ``seed``, ``seed + 1``, ..., each with A in team 0 then in team 1."""
    return [Game(seed + i, team) for i in range(deals) for team in (0, 1)]


def play_game(
    game: Game, bots: Sequence[str], matches: bool = False, rules: Rules | None = None
) -> GameResult:
    """Play one game of ``bots[0]`` (A) against ``bots[1]`` (B) as scheduled by ``game``."""
    rules = rules if rules is not None else RULES["standard"]
    a, b = get_bot("tichu", bots[0]), get_bot("tichu", bots[1])
    seats = [a if s & 1 == game.a_team else b for s in range(4)]
    owner = [0 if s & 1 == game.a_team else 1 for s in range(4)]
    result = GameResult(game.deal, game.a_team, 0, 0, rounds=0)

    def hook(seat: int, action: Action, seconds: float) -> None:
        result.times[owner[seat]].append(seconds)

    totals = [0, 0]
    number = 0
    while True:
        number += 1
        deal_seed = round_seed(game.deal, number) if matches else game.deal
        r = play_round(Round.new(deal_seed, rules), seats, seed=deal_seed, hook=hook)
        score = r.score()
        totals[0] += score[0]
        totals[1] += score[1]
        for s in r.tichu_calls:
            result.calls.append((owner[s], "tichu", r.out[0] == s))
        for s in r.grand_calls:
            result.calls.append((owner[s], "grand", r.out[0] == s))
        if r.out:
            result.first_out.append(owner[r.out[0]])
            if len(r.out) >= 2 and (r.out[0] - r.out[1]) % 2 == 0:
                result.one_two.append(owner[r.out[0]])
        if not matches:
            break
        if max(totals) >= rules.target_score and totals[0] != totals[1]:
            break
    result.rounds = number
    result.a_points = totals[game.a_team]
    result.b_points = totals[1 - game.a_team]
    return result


def _play(args: tuple[Game, tuple[str, str], bool]) -> GameResult:
    return play_game(args[0], args[1], args[2])


def run_arena(
    bots: Sequence[str],
    deals: int,
    seed: int = 1,
    workers: int = 1,
    matches: bool = False,
    progress: Callable[[int, int], None] | None = None,
    ray: str | None = None,
) -> list[GameResult]:
    """Play the mirrored schedule; results in schedule order whatever the number of workers."""
    schedule = games(seed, deals)
    tasks = [(g, (bots[0], bots[1]), matches) for g in schedule]
    return run_games(_play, tasks, workers, progress, chunksize=1, ray=ray)


def pairs(results: Iterable[GameResult]) -> list[tuple[GameResult, GameResult]]:
    """The mirrored pairs: the two games of each deal, A in team 0 first."""
    by_deal: dict[int, dict[int, GameResult]] = {}
    for r in results:
        by_deal.setdefault(r.deal, {})[r.a_team] = r
    return [(d[0], d[1]) for _, d in sorted(by_deal.items()) if 0 in d and 1 in d]


def _win(r: GameResult) -> float:
    return 1.0 if r.diff > 0 else 0.5 if r.diff == 0 else 0.0


def report(results: Sequence[GameResult], bots: Sequence[str], matches: bool = False) -> dict[str, Any]:
    """The summary: per mirrored pair, A's mean difference and win rate with 95% intervals."""
    mirrored = pairs(results)
    diffs = [(x.diff + y.diff) / 2 for x, y in mirrored]
    win_rates = [(_win(x) + _win(y)) / 2 for x, y in mirrored]
    diff, wins = summarize(diffs), summarize(win_rates)
    a_pts = summarize([(x.a_points + y.a_points) / 2 for x, y in mirrored])
    b_pts = summarize([(x.b_points + y.b_points) / 2 for x, y in mirrored])
    out: dict[str, Any] = {
        "game": "tichu",
        "bots": {"A": bots[0], "B": bots[1]},
        "unit": "match" if matches else "round",
        "deals": len(mirrored),
        "games": len(results),
        "rounds": sum(r.rounds for r in results),
        "a_minus_b": asdict(diff),
        "a_win_rate": asdict(wins),
        "a_points": asdict(a_pts),
        "b_points": asdict(b_pts),
        "calls": {},
        "first_out": {},
        "one_two": {},
        "decision_seconds": {},
    }
    rounds = max(1, sum(r.rounds for r in results))
    for who, name in ((0, "A"), (1, "B")):
        for kind in ("tichu", "grand"):
            calls = [ok for w, k, ok in (c for r in results for c in r.calls) if w == who and k == kind]
            made = sum(calls)
            low, high = wilson(made, len(calls))
            out["calls"][f"{name} {kind}"] = {
                "calls": len(calls),
                "made": made,
                "per_round": len(calls) / rounds,
                # the rate made, with its Wilson 95% interval (a normal one is 0 wide on 3 of 3)
                "success": {"rate": made / len(calls) if calls else math.nan, "low": low, "high": high},
            }
        out["first_out"][name] = sum(r.first_out.count(who) for r in results) / rounds
        out["one_two"][name] = sum(r.one_two.count(who) for r in results) / rounds
        times = [t for r in results for t in r.times[who]]
        out["decision_seconds"][name] = {
            "decisions": len(times),
            "median": percentile(times, 50),
            "p99": percentile(times, 99),
            "max": max(times, default=float("nan")),
        }
    out["per_deal"] = per_deal([x.deal for x, _ in mirrored], a_minus_b=diffs, a_win_rate=win_rates)
    return out


def pair_run(results: Sequence[GameResult], bots: Sequence[str], matches: bool = False) -> PairRun:
    """A pair's results for a round robin: its report, its games as team outcomes, A - B points."""
    rep = report(results, bots, matches)
    teams = [(bots[0], bots[0]), (bots[1], bots[1])]
    games = [outcome(teams, [r.a_points, r.b_points]) for r in results]
    d = rep["a_minus_b"]
    return PairRun(bots[0], bots[1], rep, games, d["mean"], d["half_width"])


def format_report(rep: dict[str, Any]) -> str:
    """The report as text."""
    d, w = rep["a_minus_b"], rep["a_win_rate"]
    unit = rep["unit"]
    lines = [
        f"A = {rep['bots']['A']}  vs  B = {rep['bots']['B']}: {rep['deals']} mirrored {unit} pairs"
        f" ({rep['games']} games, {rep['rounds']} rounds)",
        f"  A - B points per {unit}: {d['mean']:+.1f} ± {d['half_width']:.1f} (95%)",
        f"  A points {rep['a_points']['mean']:.1f}, B points {rep['b_points']['mean']:.1f} per {unit}",
        f"  A win rate: {100 * w['mean']:.1f}% ± {100 * w['half_width']:.1f}% (ties count half)",
    ]
    if "first_out" in rep:
        fo, ot = rep["first_out"], rep["one_two"]
        lines.append(
            f"  first out: A {100 * fo['A']:.1f}%, B {100 * fo['B']:.1f}%;"
            f" one-two: A {100 * ot['A']:.1f}%, B {100 * ot['B']:.1f}% of the rounds"
        )
    for key, c in rep["calls"].items():
        if c["calls"]:
            s = c["success"]
            lines.append(
                f"  {key} calls: {c['calls']} ({c['per_round']:.2f} per round), made {c['made']}"
                f" ({100 * s['rate']:.0f}%, 95% {100 * s['low']:.0f}%–{100 * s['high']:.0f}%)"
            )
    for name, t in rep["decision_seconds"].items():
        lines.append(
            f"  {name} decision time: median {1000 * t['median']:.2f} ms, p99 {1000 * t['p99']:.1f} ms"
            f" over {t['decisions']} decisions"
        )
    return "\n".join(lines)


def run(argv: Sequence[str]) -> int:
    """Run the arena from the command line."""
    parser = argparse.ArgumentParser(prog="pagoda arena tichu", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--bots",
        default="heuristic,random",
        help="A,B bot specs, or more for a round robin (default heuristic,random)",
    )
    parser.add_argument("--deals", type=int, default=200, help="mirrored deals (each played twice)")
    parser.add_argument("--seed", type=int, default=1, help="first deal seed (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    add_ray_option(parser)
    parser.add_argument("--matches", action="store_true", help="play whole matches to 1000, not rounds")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON")
    parser.add_argument("--plot", metavar="PNG", help="rate the bots and plot ratings and pairwise points")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("X.json", "Y.json"),
        help="compare two runs' --json reports deal by deal (paired intervals) and play nothing",
    )
    args = parser.parse_args(argv)
    if args.compare:
        try:
            x, y = (load_report(path, "tichu") for path in args.compare)
            c = compare(x, y, ("a_minus_b", "a_win_rate"), same=("unit",))
        except CompareError as e:
            parser.error(str(e))
        names = {"a_minus_b": (f"A − B points per {x['unit']}", 1), "a_win_rate": ("A win rate", 3)}
        print(format_comparison(c, names))
        return 0
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) < 2 or len(set(bots)) != len(bots):
        parser.error("--bots takes two or more different bot specs, A,B[,C...]")
    for spec in bots:
        get_bot("tichu", spec)  # fail early on a bad name
    if len(bots) > 2 or args.plot:
        return _round_robin(bots, args, "pagoda arena tichu " + " ".join(argv))
    if args.no_progress:
        results = run_arena(bots, args.deals, args.seed, args.workers, args.matches, ray=args.ray)
    else:
        results = _with_progress(bots, args)
    rep = report(results, bots, args.matches)
    rep["command"] = "pagoda arena tichu " + " ".join(argv)
    print(format_report(rep))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rep, f, indent=2)
    return 0


def _round_robin(bots: list[str], args: argparse.Namespace, command: str) -> int:
    def play(a: str, b: str) -> PairRun:
        if args.no_progress:
            results = run_arena([a, b], args.deals, args.seed, args.workers, args.matches, ray=args.ray)
        else:
            results = _with_progress([a, b], args)
        return pair_run(results, [a, b], args.matches)

    unit = "match" if args.matches else "round"
    rep = round_robin(bots, play, f"row - column points per {unit}")
    rep["command"] = command
    print(format_round_robin(rep, format_report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rep, f, indent=2)
    if args.plot:
        from pagoda.arena.plot import plot_round_robin

        plot_round_robin(rep, args.plot, f"Tichu: {args.deals} mirrored deals a pair, seeds from {args.seed}")
    return 0


def _with_progress(bots: list[str], args: argparse.Namespace) -> list[GameResult]:
    try:
        from rich.progress import Progress
    except ImportError:  # the bots extra is not installed: no bar

        def dots(done: int, total: int) -> None:
            print(f"\r{done}/{total} games", end="" if done < total else "\n", file=sys.stderr)

        return run_arena(bots, args.deals, args.seed, args.workers, args.matches, dots, args.ray)
    with Progress(transient=False) as bar:
        task = bar.add_task("games", total=2 * args.deals)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done)

        return run_arena(bots, args.deals, args.seed, args.workers, args.matches, tick, args.ray)
