"""The server steps through the rules core's bomb window and tells nobody who was asked.

Seed 5 (its first round, after each seat gives the first three cards of its hand): seat 2 leads
and seat 3 alone holds a bomb. After a single led and three passes the trick is complete and the
core's window holds seat 3: the server waits the bomb window, answers ``no-bomb`` for it (kept in
the record, in no event) and then takes the trick. With bots, their ``no-bomb`` goes into the
record with the action that asked them, and no message to anyone names it.
"""

from dataclasses import replace
from pathlib import Path

from pagoda.server.lobby import Lobby
from pagoda.tichu.movegen import has_bomb
from tests.server.helpers import FAST, Client, open_lobby, run, wait_for


async def _humans(tmp_path: Path, bomb_window: float) -> tuple[Lobby, list[Client]]:
    lobby = await open_lobby(tmp_path, replace(FAST, bomb_window=bomb_window, bot_delay=60.0))
    table = await lobby.create(lobby.options({"game": "tichu", "seed": 5, "turn_timer": 0}), "p0")
    clients = [Client(table, f"p{s}", f"P{s}") for s in range(4)]
    for s, c in enumerate(clients):
        await c.hello()
        await c.send(type="sit", seat=s)
    await clients[0].send(type="start")
    for s in range(4):
        await clients[s].send(type="act", action="no-grand")
    for s in range(4):
        hand = [str(c) for c in table.match.round.hand(s)]
        await clients[s].send(type="act", action="exchange " + " ".join(hand[:3]))
    return lobby, clients


def _told_actions(c: Client) -> list[str]:
    return [m["event"]["action"] for m in c.got if m["type"] == "event" and m["event"]["kind"] == "action"]


def test_a_complete_trick_waits_for_the_window_then_the_server_answers_and_takes(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, cs = await _humans(tmp_path, bomb_window=0.3)
        table = cs[0].table
        r = table.match.round
        assert r.to_move == 2
        assert [s for s in range(4) if has_bomb(r.hand_mask(s))] == [3]
        for seat, text in ((2, "play 2b"), (3, "pass"), (0, "pass"), (1, "pass")):
            assert cs[seat].errors(await cs[seat].send(type="act", action=text)) == []
        assert table.match.round.window == (3,)  # the trick is complete: seat 3 is asked
        # the legal list a player gets never holds the server's take or no-bomb
        assert "no-bomb" not in cs[3].state["legal"]["actions"]
        assert "take" not in cs[2].state["legal"]["actions"]
        n = len(table.actions)
        await wait_for(lambda: len(table.actions) >= n + 2, cs)
        assert table.actions[n:] == [(3, "no-bomb"), (2, "take")]
        for c in cs:
            assert "no-bomb" not in _told_actions(c)
            assert _told_actions(c)[-1] == "take"
        stored = await lobby.store.get(table.id)
        assert stored is not None
        assert stored.record is not None
        assert stored.record.split("\n")[-2:] == ["3 no-bomb", "2 take"]
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_a_seat_in_the_window_may_still_bomb_before_it_closes(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, cs = await _humans(tmp_path, bomb_window=60.0)
        table = cs[0].table
        for seat, text in ((2, "play 2b"), (3, "pass"), (0, "pass"), (1, "pass")):
            await cs[seat].send(type="act", action=text)
        bombs = [a for a in cs[3].state["legal"]["actions"] if a.startswith("play")]
        assert bombs
        assert cs[3].errors(await cs[3].send(type="act", action=bombs[0])) == []
        assert table.actions[-1] == (3, bombs[0])
        assert not table.match.round.is_trick_complete
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_bots_answers_are_recorded_and_told_to_nobody(tmp_path: Path) -> None:
    async def body() -> None:
        lobby = await open_lobby(tmp_path, FAST)
        # seed 16: a random bot holding a bomb lets play go on once in the round
        table = await lobby.create(lobby.options({"game": "tichu", "seed": 16, "rounds": 1}), "p0")
        watcher = Client(table, "p0")
        await watcher.hello()
        await watcher.send(type="start", fill="random")
        await wait_for(lambda: table.status == "finished", [watcher])
        answers = [a for a in table.actions if a[1] == "no-bomb"]
        assert answers, "the bots met bomb windows in this round"
        assert "no-bomb" not in _told_actions(watcher)
        seqs = [m["seq"] for m in watcher.got if m["type"] == "event"]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # no gap where an answer was
        # the record replays with them
        assert table.game.replay(table.options, table.actions).is_over
        await lobby.close()
        await lobby.store.close()

    run(body)
