"""Round robins of several bots and their team-aware ratings (openskill's Plackett-Luce model).

With more than two bots the arena plays every pair on the same seeded deals, each pair exactly as a
two-bot arena would, and rates every game. A game is rated as teams of seats: in Tichu two teams of
two, in Dou Di Zhu the landlord alone against the peasants as one team. Each seat carries its bot's
rating, so a team's strength is the sum of its seats' (two peasants of one bot weigh twice that bot)
and a lone landlord is rated against the pair it beat or lost to. The ranks come from the game's
points; a tie shares the rank. A bot's new rating after a game is the mean over its seats of the
model's update (the seats of one bot on one team get the same update, so with the usual seatings
that is simply the seat's update).

Games are rated in order, and the order matters a little; :func:`interleave` takes the pairs' games
in turn (the first game of every pair, then the second, ...), so no pair is rated last.

>>> game = outcome([("a", "a"), ("b", "b")], [150, -50])
>>> game.ranks
(0, 1)
>>> [(r.bot, round(r.mu, 2), round(r.sigma, 2), r.games) for r in rate([game], ["a", "b"])]
[('a', 26.96, 8.18, 1), ('b', 23.04, 8.18, 1)]
>>> round_robin_pairs(["x", "y", "z"])
[('x', 'y'), ('x', 'z'), ('y', 'z')]
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

# The model's prior: openskill's defaults, mu 25 and sigma 25/3; the ordinal is mu - 3 sigma.
MU = 25.0
SIGMA = 25.0 / 3.0
Z_ORDINAL = 3.0


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game for the ratings: its teams (the bot of each seat) and ranks (0 = won; ties share)."""

    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rating:
    """A bot's rating after all its games: ``mu``, ``sigma`` and ``ordinal = mu - 3 sigma``."""

    bot: str
    mu: float
    sigma: float
    ordinal: float
    games: int

    @property
    def low(self) -> float:
        """``mu - 3 sigma`` (the ordinal): the lower end of the plotted interval."""
        return self.mu - Z_ORDINAL * self.sigma

    @property
    def high(self) -> float:
        """``mu + 3 sigma``."""
        return self.mu + Z_ORDINAL * self.sigma


@dataclass(slots=True)
class PairRun:
    """One pair of a round robin: its two-bot report, its games for the ratings, and the pair's
    headline (bot A's mean points per deal over bot B, with the 95% half-width)."""

    a: str
    b: str
    report: dict[str, Any]
    outcomes: list[Outcome] = field(default_factory=list)
    mean: float = 0.0
    half_width: float = 0.0


def outcome(teams: Sequence[Sequence[str]], points: Sequence[float]) -> Outcome:
    """The outcome of a game whose team ``i`` (the bots of its seats) scored ``points[i]``.

    >>> outcome([("landlord",), ("p", "p")], [-4, 4]).ranks
    (1, 0)
    >>> outcome([("a", "a"), ("b", "b")], [100, 100]).ranks
    (0, 0)
    """
    ranks = tuple(sum(1 for q in points if q > p) for p in points)
    return Outcome(tuple(tuple(t) for t in teams), ranks)


def round_robin_pairs(bots: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of ``bots`` once, in the order given (the first of a pair is its bot A)."""
    return list(combinations(bots, 2))


def interleave(per_pair: Sequence[Sequence[Outcome]]) -> list[Outcome]:
    """The pairs' games in turn: game 1 of every pair, then game 2, ... (pairs may differ in length)."""
    longest = max((len(p) for p in per_pair), default=0)
    return [p[i] for i in range(longest) for p in per_pair if i < len(p)]


def rate(outcomes: Sequence[Outcome], bots: Sequence[str]) -> list[Rating]:
    """Rate ``bots`` from ``outcomes`` in order, from openskill's prior; best ordinal first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA)
    current = dict.fromkeys(bots, (MU, SIGMA))
    played = dict.fromkeys(bots, 0)
    for game in outcomes:
        teams = [[model.rating(mu=current[b][0], sigma=current[b][1]) for b in team] for team in game.teams]
        new = model.rate(teams, ranks=[float(r) for r in game.ranks])
        updates: dict[str, list[tuple[float, float]]] = {}
        for team, rated in zip(game.teams, new, strict=True):
            for b, r in zip(team, rated, strict=True):
                updates.setdefault(b, []).append((r.mu, r.sigma))
        for b, seats in updates.items():
            current[b] = (sum(m for m, _ in seats) / len(seats), sum(s for _, s in seats) / len(seats))
            played[b] += 1
    table = [Rating(b, mu, sigma, mu - Z_ORDINAL * sigma, played[b]) for b, (mu, sigma) in current.items()]
    return sorted(table, key=lambda r: -r.ordinal)


def points_matrix(bots: Sequence[str], runs: Sequence[PairRun]) -> dict[str, Any]:
    """The pairs' headlines as a matrix: row bot's mean points per deal against the column bot.

    The games are zero-sum, so the entry for (B, A) is minus that for (A, B); the diagonal is None.
    """
    index = {b: i for i, b in enumerate(bots)}
    n = len(bots)
    mean: list[list[float | None]] = [[None] * n for _ in range(n)]
    half: list[list[float | None]] = [[None] * n for _ in range(n)]
    for run in runs:
        i, j = index[run.a], index[run.b]
        mean[i][j], mean[j][i] = run.mean, -run.mean
        half[i][j] = half[j][i] = run.half_width
    return {"bots": list(bots), "mean": mean, "half_width": half}


def round_robin(bots: Sequence[str], play_pair: Callable[[str, str], PairRun], unit: str) -> dict[str, Any]:
    """Play every pair with ``play_pair`` and rate all their games: the round robin's report.

    ``unit`` names what a matrix entry is (e.g. "A - B points per round").
    """
    runs = [play_pair(a, b) for a, b in round_robin_pairs(bots)]
    table = rate(interleave([r.outcomes for r in runs]), bots)
    return {
        "bots": list(bots),
        "pairs": [r.report for r in runs],
        "ratings": ratings_json(table),
        "rating_model": f"openskill Plackett-Luce, prior mu {MU:g}, sigma {SIGMA:.3f}; ordinal mu - 3 sigma",
        "points": {**points_matrix(bots, runs), "unit": unit},
    }


def ratings_json(table: Sequence[Rating]) -> list[dict[str, Any]]:
    """The table as JSON-ready rows."""
    return [asdict(r) for r in table]


def ratings_from_json(rows: Sequence[Mapping[str, Any]]) -> list[Rating]:
    """The table back from :func:`ratings_json`'s rows."""
    return [Rating(r["bot"], r["mu"], r["sigma"], r["ordinal"], r["games"]) for r in rows]


def format_ratings(table: Sequence[Rating]) -> str:
    """The ratings as a text table, best ordinal first.

    >>> print(format_ratings([Rating("heuristic", 30.5, 1.25, 26.75, 40)]))
    rank  bot           mu  sigma  ordinal  games
       1  heuristic  30.50   1.25    26.75     40
    """
    width = max([len("bot"), *(len(r.bot) for r in table)])
    lines = [f"rank  {'bot':<{width}}  {'mu':>5}  sigma  ordinal  games"]
    for k, r in enumerate(table, 1):
        lines.append(f"{k:>4}  {r.bot:<{width}}  {r.mu:5.2f}  {r.sigma:5.2f}  {r.ordinal:7.2f}  {r.games:5d}")
    return "\n".join(lines)


def format_round_robin(rep: Mapping[str, Any], format_pair: Callable[[dict[str, Any]], str]) -> str:
    """The round robin as text: each pair's report, the points matrix, then the ratings table."""
    parts = [format_pair(p) for p in rep["pairs"]]
    points = rep["points"]
    bots = points["bots"]
    width = max(len(b) for b in bots)
    cell = max(9, *(len(b) for b in bots))
    lines = [f"{points['unit']} (95% half-width):"]
    lines.append(" " * (width + 2) + "".join(f"{b:>{cell + 2}}" for b in bots))
    for i, b in enumerate(bots):
        row = []
        for j in range(len(bots)):
            m, h = points["mean"][i][j], points["half_width"][i][j]
            row.append(f"{'—' if m is None else f'{m:+.1f}±{h:.1f}':>{cell + 2}}")
        lines.append(f"{b:<{width}}  " + "".join(row))
    parts.append("\n".join(lines))
    parts.append(
        "Ratings (" + rep["rating_model"] + "):\n" + format_ratings(ratings_from_json(rep["ratings"]))
    )
    return "\n\n".join(parts)
