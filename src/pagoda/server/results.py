"""Match results and ratings: written once per finished match, by whichever process gets there first.

When a match ends its result is *settled*: who sat where, the scores and the winner go to
``results`` and ``result_seats``, and a rated match changes its players' ratings (each change
kept in ``rating_changes`` with the rating before and after). Everything is read back from the
stored table (its seats, ``match_over`` and ``standin`` events), so any process can settle any
finished table: the owner does it as the match ends, and every process sweeps for finished
tables without a result (at start-up and every so often), which covers an owner that died at
that moment. The result's primary key is the table id and it is inserted first, in the same
transaction as the ratings: a second settlement of one match fails on it and changes nothing.

The ratings are openskill's Plackett-Luce model with the prior of :mod:`pagoda.arena.ratings`
(mu 25, sigma 25/3, shown as the ordinal mu - 3 sigma). In Tichu the partners are one team (the
team's rating is both of theirs); in Dou Di Zhu, where the landlord changes every round, each seat
is ranked by its match total. Bots are rated too, as ``bot:<level>``, and never appear on the
leaderboard, which lists accounts. A seated player whose grace period ran out and who never came
back *abandoned* the match: a bot played on for the others, who are rated by the result, while the
abandoner is rated as if its team had come last.

>>> teams_of("tichu", 4)
[0, 1, 0, 1]
>>> teams_of("doudizhu", 3)
[0, 1, 2]
"""

import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from pagoda.arena.ratings import MU, SIGMA, Z_ORDINAL, outcome
from pagoda.server.store import (
    SqlStore,
    accounts,
    aliases,
    rating_changes,
    ratings,
    result_seats,
    results,
    tables,
)

log = logging.getLogger("pagoda.server")

JSON = dict[str, Any]
BOT_PREFIX = "bot:"


def teams_of(game: str, seats: int) -> list[int]:
    """Each seat's team: Tichu's partners (``s`` and ``s + 2``) share one; in Dou Di Zhu each seat
    is its own."""
    if game == "tichu":
        return [s % 2 for s in range(seats)]
    return list(range(seats))


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished match."""

    seat: int
    player: str | None
    bot: str | None
    name: str | None
    team: int
    score: int
    won: bool
    abandoned: bool

    @property
    def key(self) -> str:
        """Whose rating this seat changes: the player's id, or ``bot:<level>``."""
        return self.player if self.player is not None else f"{BOT_PREFIX}{self.bot}"


def seat_results(game: str, events: list[JSON]) -> tuple[list[SeatResult], int | None] | None:
    """The seats of a finished match and its winning team, from its event log (None if it has no
    ``match_over``).

    A seat abandoned the match when its last stand-in event is one the grace period started.
    """
    seats: list[JSON] = []
    summary: JSON | None = None
    away: dict[int, bool] = {}
    for ev in events:
        if ev["kind"] == "seats":
            seats = ev["seats"]
        elif ev["kind"] == "standin":
            away[int(ev["seat"])] = bool(ev["on"]) and ev.get("why") == "grace"
        elif ev["kind"] == "match_over":
            summary = ev["summary"]
    if summary is None or not seats:
        return None
    teams = teams_of(game, len(seats))
    scores, winner = summary["scores"], summary.get("winner")
    out = []
    for i, s in enumerate(seats):
        abandoned = away.get(i, False) and s.get("player") is not None
        out.append(
            SeatResult(
                seat=i,
                player=s.get("player"),
                bot=s.get("bot"),
                name=s.get("name"),
                team=teams[i],
                score=int(scores[teams[i]]),
                won=winner == teams[i] and not abandoned,
                abandoned=abandoned,
            )
        )
    return out, winner


def rate_match(
    seats: list[SeatResult], current: dict[str, tuple[float, float]]
) -> dict[str, tuple[float, float]]:
    """The new (mu, sigma) of every key of ``seats`` from ``current`` (missing keys: the prior).

    A key on several seats (one bot level in several seats) gets the mean of their updates.

    >>> a = SeatResult(0, "a", None, "a", 0, 100, True, False)
    >>> b = SeatResult(1, None, "heuristic", None, 1, 0, False, False)
    >>> new = rate_match([a, b], {})
    >>> new["a"][0] > 25 > new["bot:heuristic"][0]
    True
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA)
    team_ids = sorted({s.team for s in seats})
    members = {t: [s for s in seats if s.team == t] for t in team_ids}
    points = [members[t][0].score for t in team_ids]
    ranks = list(outcome([[s.key for s in members[t]] for t in team_ids], points).ranks)

    def run(ranks: list[int]) -> dict[int, tuple[float, float]]:
        teams = [[model.rating(*current.get(s.key, (MU, SIGMA))) for s in members[t]] for t in team_ids]
        new = model.rate(teams, ranks=[float(r) for r in ranks])
        got = {}
        for t, rated in zip(team_ids, new, strict=True):
            for s, r in zip(members[t], rated, strict=True):
                got[s.seat] = (float(r.mu), float(r.sigma))
        return got

    played = run(ranks)
    updates: dict[str, list[tuple[float, float]]] = {}
    for s in seats:
        update_ = played[s.seat]
        if s.abandoned:
            worse = [*ranks]
            worse[team_ids.index(s.team)] = max(ranks) + 1
            update_ = run(worse)[s.seat]
        updates.setdefault(s.key, []).append(update_)
    return {k: (sum(m for m, _ in u) / len(u), sum(sd for _, sd in u) / len(u)) for k, u in updates.items()}


async def settle(store: SqlStore, table_id: str) -> bool:
    """Write the result of the finished table ``table_id`` (and, if rated, its rating changes)
    unless it is written already; True when this call wrote it."""
    async with store.engine.connect() as conn:
        row = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
    if row is None or row.status != "finished":
        return False
    options = json.loads(row.options)
    game, rated = str(row.game), bool(options.get("rated", False))
    found = seat_results(game, await store.events(table_id))
    if found is None:
        log.error("table %s is finished but its log has no seats or match_over; no result", table_id)
        return False
    seats, winner = found
    scores = sorted({(s.team, s.score) for s in seats})
    for attempt in range(3):
        try:
            return await _write(store, table_id, game, rated, seats, [p for _, p in scores], winner)
        except (IntegrityError, DBAPIError):
            # Another process settled it meanwhile (then the result is there), or two first
            # ratings of one player raced: then this one tries again.
            if await _settled(store, table_id) or attempt == 2:
                if not await _settled(store, table_id):
                    raise
                return False
    return False


async def _settled(store: SqlStore, table_id: str) -> bool:
    async with store.engine.connect() as conn:
        got = (await conn.execute(select(results.c.table_id).where(results.c.table_id == table_id))).first()
    return got is not None


async def _write(
    store: SqlStore,
    table_id: str,
    game: str,
    rated: bool,
    seats: list[SeatResult],
    scores: list[int],
    winner: int | None,
) -> bool:
    now = time.time()
    async with store._write, store.engine.begin() as conn:
        # The result first: the write that a second settlement of this match fails on (and on
        # SQLite the write that takes the database's lock before anything is read).
        await conn.execute(
            insert(results).values(
                table_id=table_id,
                game=game,
                rated=rated,
                scores=json.dumps(scores),
                winner=winner,
                finished=now,
            )
        )
        # Merged guests are rated as the account they now are.
        players = sorted({s.player for s in seats if s.player is not None})
        merged: dict[str, str] = {}
        if players:
            query = (
                select(aliases.c.player, accounts.c.player)
                .join(accounts, accounts.c.id == aliases.c.account_id)
                .where(aliases.c.player.in_(players))
            )
            merged = {r[0]: r[1] for r in (await conn.execute(query)).all()}
        seats = [s if s.player not in merged else _with_player(s, merged[str(s.player)]) for s in seats]
        await conn.execute(
            insert(result_seats),
            [
                {
                    "table_id": table_id,
                    "seat": s.seat,
                    "player": s.player,
                    "bot": s.bot,
                    "name": s.name,
                    "team": s.team,
                    "score": s.score,
                    "won": s.won,
                    "abandoned": s.abandoned,
                }
                for s in seats
            ],
        )
        if not rated:
            return True
        keys = sorted({s.key for s in seats})
        query = select(ratings).where(ratings.c.game == game, ratings.c.player.in_(keys))
        if conn.dialect.name == "postgresql":
            query = query.with_for_update()
        found = {r.player: r for r in (await conn.execute(query)).all()}
        current = {k: (float(r.mu), float(r.sigma)) for k, r in found.items()}
        new = rate_match(seats, current)
        for key in keys:
            mu, sigma = new[key]
            before = current.get(key, (MU, SIGMA))
            won = any(s.won for s in seats if s.key == key)
            values = {"mu": mu, "sigma": sigma, "ordinal": mu - Z_ORDINAL * sigma, "updated": now}
            if key in found:
                old = found[key]
                values |= {"games": old.games + 1, "wins": old.wins + int(won)}
                where = (ratings.c.player == key) & (ratings.c.game == game)
                await conn.execute(update(ratings).where(where).values(**values))
            else:
                await conn.execute(
                    insert(ratings).values(player=key, game=game, games=1, wins=int(won), **values)
                )
            await conn.execute(
                insert(rating_changes).values(
                    table_id=table_id,
                    player=key,
                    game=game,
                    mu_before=before[0],
                    sigma_before=before[1],
                    mu_after=mu,
                    sigma_after=sigma,
                    created=now,
                )
            )
    return True


def _with_player(s: SeatResult, player: str) -> SeatResult:
    return SeatResult(s.seat, player, s.bot, s.name, s.team, s.score, s.won, s.abandoned)


async def unsettled(store: SqlStore, limit: int = 16) -> list[str]:
    """Finished tables that have no result yet (the oldest first)."""
    done = select(results.c.table_id)
    query = (
        select(tables.c.id)
        .where(tables.c.status == "finished", tables.c.id.not_in(done))
        .order_by(tables.c.updated)
        .limit(limit)
    )
    async with store.engine.connect() as conn:
        return [r[0] for r in (await conn.execute(query)).all()]


async def sweep(store: SqlStore, limit: int = 16) -> int:
    """Settle finished tables that have no result yet; returns how many this call settled."""
    n = 0
    for table_id in await unsettled(store, limit):
        try:
            n += await settle(store, table_id)
        except Exception:
            log.exception("table %s: its result could not be written", table_id)
    return n


# ---------------------------------------------------------------------- reading


def _ordinal(mu: float, sigma: float) -> float:
    return round(mu - Z_ORDINAL * sigma, 2)


async def leaderboard(store: SqlStore, game: str, limit: int, offset: int) -> list[JSON]:
    """The accounts rated in ``game``, the best ordinal first (bots and guests are never listed)."""
    query = (
        select(accounts.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games, ratings.c.wins)
        .join(accounts, accounts.c.player == ratings.c.player)
        .where(ratings.c.game == game)
        .order_by(ratings.c.ordinal.desc(), accounts.c.name_key)
        .limit(limit)
        .offset(offset)
    )
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [
        {
            "rank": offset + i + 1,
            "name": r.name,
            "rating": _ordinal(r.mu, r.sigma),
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "games": r.games,
            "wins": r.wins,
        }
        for i, r in enumerate(rows)
    ]


async def player_ratings(store: SqlStore, player: str) -> JSON:
    """A player's rating in each game it has one."""
    async with store.engine.connect() as conn:
        rows = (await conn.execute(select(ratings).where(ratings.c.player == player))).all()
    return {
        r.game: {
            "rating": _ordinal(r.mu, r.sigma),
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "games": r.games,
            "wins": r.wins,
        }
        for r in rows
    }


async def recent(store: SqlStore, players: list[str], limit: int, offset: int = 0) -> list[tuple[str, int]]:
    """The finished matches where one of ``players`` sat, the latest first: (table id, seat)."""
    if not players:
        return []
    query = (
        select(result_seats.c.table_id, result_seats.c.seat)
        .join(results, results.c.table_id == result_seats.c.table_id)
        .where(result_seats.c.player.in_(players))
        .order_by(results.c.finished.desc())
        .limit(limit)
        .offset(offset)
    )
    async with store.engine.connect() as conn:
        return [(r[0], int(r[1])) for r in (await conn.execute(query)).all()]


async def matches(store: SqlStore, table_ids: list[str]) -> dict[str, JSON]:
    """The results of these finished tables: each seat's name (its account's when it has one),
    bot, team, score, and whether it won or abandoned; the scores and the winning team."""
    if not table_ids:
        return {}
    async with store.engine.connect() as conn:
        heads = (await conn.execute(select(results).where(results.c.table_id.in_(table_ids)))).all()
        query = (
            select(result_seats, accounts.c.name.label("account"))
            .outerjoin(accounts, accounts.c.player == result_seats.c.player)
            .where(result_seats.c.table_id.in_(table_ids))
            .order_by(result_seats.c.table_id, result_seats.c.seat)
        )
        rows = (await conn.execute(query)).all()
    out: dict[str, JSON] = {
        h.table_id: {
            "id": h.table_id,
            "game": h.game,
            "rated": bool(h.rated),
            "finished": round(h.finished, 3),
            "scores": json.loads(h.scores),
            "winner": h.winner,
            "seats": [],
        }
        for h in heads
    }
    for r in rows:
        if r.table_id not in out:  # written between the two reads
            continue
        out[r.table_id]["seats"].append(
            {
                "seat": r.seat,
                "name": r.account or r.name,
                "account": r.account,
                "bot": r.bot,
                "team": r.team,
                "score": r.score,
                "won": bool(r.won),
                "abandoned": bool(r.abandoned),
            }
        )
    return out


async def changes(store: SqlStore, player: str, table_ids: list[str]) -> dict[str, JSON]:
    """What the rated ones of these matches did to ``player``'s rating: before and after."""
    if not table_ids:
        return {}
    query = select(rating_changes).where(
        rating_changes.c.player == player, rating_changes.c.table_id.in_(table_ids)
    )
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return {
        r.table_id: {
            "before": _ordinal(r.mu_before, r.sigma_before),
            "after": _ordinal(r.mu_after, r.sigma_after),
        }
        for r in rows
    }


def as_seen_by(match: JSON, seat: int) -> JSON:
    """A match from one seat: its partners' and opponents' names, its score and whether it won."""
    mine = match["seats"][seat]
    partners = [
        s["name"] or s["bot"] for s in match["seats"] if s["team"] == mine["team"] and s["seat"] != seat
    ]
    opponents = [s["name"] or s["bot"] for s in match["seats"] if s["team"] != mine["team"]]
    return {
        **match,
        "seat": seat,
        "partners": partners,
        "opponents": opponents,
        "score": mine["score"],
        "won": mine["won"],
        "abandoned": mine["abandoned"],
    }
