"""``python -m pagoda.bench.wire``: the bytes a table sends per action, over one seeded Tichu round.

Four players sit at a table (no bots, no turn timer) and one spectator watches; each awaited
seat plays an action drawn from its legal list by a seeded generator (an exchange of three of its
cards; no Tichu calls), until the round is over. Every message the table puts in each
connection's outbox from the start on is written as the server writes it (compact JSON) and
counted; the figures are the bytes and messages per action the match applied (the server's takes
and ``no-bomb`` answers included), for one seat, all four seats and the spectator.

    python -m pagoda.bench.wire --seed 1
"""

import argparse
import asyncio
import json
import random
import sys
import tempfile
from typing import Any

from pagoda.server.lobby import Lobby
from pagoda.server.store import SqlStore, default_url
from pagoda.server.table import Conn, Settings, Table

JSON = dict[str, Any]


def _drain(conn: Conn) -> list[JSON]:
    out = []
    while not conn.outbox.empty():
        msg = conn.outbox.get_nowait()
        if msg is not None:
            out.append(msg)
    return out


def _choose(table: Table, seat: int, rng: random.Random) -> str:
    legal = table.game.legal(table.match, seat)
    if legal.get("exchange"):
        hand = table.game.view(table.match, seat)["hand"]
        return "exchange " + " ".join(rng.sample(hand, 3))
    actions = [a for a in legal["actions"] if a != "tichu"]
    return str(rng.choice(actions))


async def measure(seed: int) -> JSON:
    """Play the round; the bytes and messages each receiver got, per action."""
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqlStore.open(default_url(tmp))
        lobby = Lobby(store, Settings(secret=b"bench", bomb_window=0.0, bot_delay=0.0))
        opts = lobby.options({"game": "tichu", "rounds": 1, "turn_timer": 0})
        opts = type(opts)(**{**opts.to_json(), "seed": seed})
        table = await lobby.create(opts, owner="p0")
        players = [Conn(f"p{s}", f"P{s}", f"g{s}", outbox=100_000) for s in range(4)]
        spectator = Conn("s", "S", "gs", outbox=100_000)
        for c in [*players, spectator]:
            table.join(c, {"type": "hello", "protocol": 1})
            await table.call(lambda: None)
        for s, c in enumerate(players):
            table.receive(c, {"type": "sit", "seat": s})
        table.receive(players[0], {"type": "start"})
        await table.call(lambda: None)
        for c in [*players, spectator]:
            _drain(c)
        got: dict[int | None, list[JSON]] = {s: [] for s in range(4)} | {None: []}
        rng = random.Random(seed)
        start = len(table.actions)
        while table.status == "playing":
            # the take and the server's no-bomb come from timers: let them run first
            for _ in range(100):
                await asyncio.sleep(0)
                await table.call(lambda: None)
                if table.game.awaiting(table.match) and not table.game.window_pending(table.match):
                    break
            if table.status != "playing":
                break
            seat = table.game.awaiting(table.match)[0]
            table.receive(players[seat], {"type": "act", "action": _choose(table, seat, rng)})
            await table.call(lambda: None)
            for s, c in enumerate(players):
                got[s] += _drain(c)
            got[None] += _drain(spectator)
        actions = len(table.actions) - start
        await lobby.close()
        await store.close()

    def size(msgs: list[JSON]) -> int:
        return sum(len(json.dumps(m, separators=(",", ":")).encode()) for m in msgs)

    seats = [size(got[s]) for s in range(4)]
    return {
        "seed": seed,
        "actions": actions,
        "bytes_per_action": {
            "seat_0": round(seats[0] / actions, 1),
            "all_seats": round(sum(seats) / actions, 1),
            "spectator": round(size(got[None]) / actions, 1),
        },
        "messages_per_action_seat_0": round(len(got[0]) / actions, 2),
        "types_seat_0": sorted({m["type"] for m in got[0]}),
    }


def main(argv: list[str] | None = None) -> int:
    """Run :func:`measure` and print its figures as JSON."""
    parser = argparse.ArgumentParser(prog="python -m pagoda.bench.wire", description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="the table's seed and the players' (default 1)")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(measure(args.seed)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
