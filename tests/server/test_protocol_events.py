"""What events tell each viewer: its view's change, its legal actions and the timers.

Random matches of both games are played by people (and for a while by a stand-in) at a table
watched by a spectator, a second connection of one seat and a spectator who joins late. After
every command each connection's view, folded from the messages as a client folds them (the
snapshot, then each event's patch or whole view), is exactly ``game.view(match, seat)``; its legal
actions are exactly the game's, its timers those running; no ``state`` message follows an event
(one goes only where a bomb window closed with the server's ``no-bomb``, which no event tells);
and no message carries a card another seat holds, nor one to a spectator a hand.
"""

import json
import random
from dataclasses import replace
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pagoda.server.games import GAMES, TableOptions
from pagoda.server.messages import PATCHES, GamePatch, GameView, tag
from pagoda.server.protocol import apply_patch, view_patch
from pagoda.server.table import Table

from .helpers import FAST, JSON, Client, card_words, hidden_from, open_lobby, run, wait_for


def _choose(table: Table, seat: int, rng: random.Random) -> str:
    legal = table.game.legal(table.match, seat)
    if legal.get("exchange"):
        hand = table.game.view(table.match, seat)["hand"]
        return "exchange " + " ".join(rng.sample(hand, 3))
    acts = [a for a in legal["actions"] if a != "tichu"] or legal["actions"]
    return str(rng.choice(acts))


def _ready(table: Table) -> bool:
    """The table waits for a person (not a stand-in, not the bomb window), or is over."""
    if table.status != "playing":
        return True
    if table.take_due is not None or table.bot_due:
        return False
    return any(not table.standin[s] for s in table.game.awaiting(table.match))


def _check(table: Table, clients: list[Client], joined: dict[int, int]) -> None:
    """Every connection holds the view and legal actions the game gives its seat and the timers
    running; no more ``state`` messages than the server's ``no-bomb`` answers since it joined."""
    for c in clients:
        seat = c.conn.seat
        assert c.game == table.game.view(table.match, seat), (seat, c.game)
        legal = (
            table.game.legal(table.match, seat) if seat is not None and table.status == "playing" else None
        )
        assert c.legal == legal, (seat, c.legal, legal)
        assert c.timers is not None
        assert sorted(c.timers["turn"]) == sorted(str(s) for s in table.turn_due)
        assert (c.timers["take"] is None) == (table.take_due is None)
        # A state goes to the seats the server answered no-bomb for when a bomb window closed
        # (to everyone when no take follows: a Dragon trick waits for its gift), never after an event.
        states = sum(1 for m in c.got if m["type"] == "state")
        # (+1: a Dragon trick's gift may still be awaited)
        answered = 1 + sum(
            a == "no-bomb" or a.startswith("give-dragon") for _, a in table.actions[joined[id(c)] :]
        )
        assert states <= answered, (seat, states, answered)


def _check_messages(table: Table, c: Client, msgs: list[JSON]) -> None:
    """No message holds a card another seat holds (Tichu), and none to a spectator a hand."""
    seat = c.conn.seat
    if table.options.game == "tichu" and table.status == "playing":
        assert not card_words(json.dumps(msgs)) & hidden_from(table.match.round, seat), seat
    if seat is None:
        for msg in msgs:
            for part in ("game", "patch"):
                assert "hand" not in (msg.get(part) or {}), msg


async def _play(tmp: Path, game: str, seed: int) -> int:
    """Play one round at random; the number of patches the connections got."""
    lobby = await open_lobby(tmp, replace(FAST, bomb_window=0.0, bot_delay=0.0))
    opts = lobby.options({"game": game, "rounds": 1, "turn_timer": 0})
    opts = type(opts)(**{**opts.to_json(), "seed": seed})
    table = await lobby.create(opts, owner="p0")
    n = len(table.seats)
    players = [Client(table, f"p{s}", f"P{s}") for s in range(n)]
    clients = [*players, Client(table, "watcher")]
    joined = {id(c): 0 for c in clients}
    for s, c in enumerate(players):
        await c.hello()
        await c.send(type="sit", seat=s)
    await clients[-1].hello()
    await players[0].send(type="start")
    rng = random.Random(seed)
    patches = 0
    steps = 0
    late: list[Client] = []
    seen = {id(c): 0 for c in clients}
    while table.status == "playing":
        await wait_for(lambda: _ready(table), clients)
        for c in clients:
            new, seen[id(c)] = c.got[seen[id(c)] :], len(c.got)
            patches += sum(1 for m in new if "patch" in m)
            _check_messages(table, c, new)
        _check(table, clients, joined)
        if table.status != "playing":
            break
        steps += 1
        if steps == 5:  # a second connection of seat 0 and a spectator join in the middle
            late = [Client(table, "p0", "P0"), Client(table, "late")]
            for c in late:
                joined[id(c)] = len(table.actions)
                seen[id(c)] = 0
                await c.hello()
            clients += late
            continue
        if steps == 9:
            await players[2].send(type="chat", text="hi")
            continue
        if steps in (12, 20):  # seat 1 lets a bot play a few moves, then takes its seat back
            await players[1].send(type="autoplay", on=steps == 12)
            continue
        seat = next(s for s in table.game.awaiting(table.match) if not table.standin[s])
        await players[seat].send(type="act", action=_choose(table, seat, rng))
    await wait_for(lambda: True, clients)
    _check(table, clients, joined)
    assert all(c.game == table.game.view(table.match, c.conn.seat) for c in clients)
    await lobby.close()
    await lobby.store.close()
    return patches


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["tichu", "doudizhu"]), seed=st.integers(0, 10**6))
def test_folded_events_give_each_viewer_exactly_its_view_and_legal_actions(
    tmp_path: Path, game: str, seed: int
) -> None:
    patches = run(lambda: _play(tmp_path / f"{game}-{seed}", game, seed))
    assert patches > 20  # (the views changed by patches, not by whole views)


def test_a_patch_holds_the_fields_that_changed_and_nothing_else() -> None:
    old = {"game": "tichu", "round": 1, "to_move": 0, "hand": ["2g", "3g"], "top": None, "wish": 0}
    new = {**old, "to_move": 1, "hand": ["3g"], "top": {"seat": 0, "cards": "2g", "kind": "single"}}
    assert view_patch(old, new) == {"game": "tichu", "to_move": 1, "hand": ["3g"], "top": new["top"]}
    assert apply_patch(old, view_patch(old, new) or {}) == new
    assert view_patch(old, dict(old)) == {"game": "tichu"}  # nothing changed
    assert view_patch(None, new) is None  # no view yet: the whole view goes
    assert view_patch(old, {**new, "round": 2}) is None  # a new deal: the whole view goes
    assert view_patch(old, {**old, "game": "doudizhu"}) is None
    assert view_patch({k: v for k, v in old.items() if k != "hand"}, old) is None  # other fields
    everything = {"game": "tichu", "round": 1, "to_move": 3, "hand": [], "top": new["top"], "wish": 5}
    assert view_patch(old, everything) is None  # a patch of every field would be no smaller
    with pytest.raises(ValueError, match="a doudizhu patch cannot change a tichu view"):
        apply_patch(old, {"game": "doudizhu", "bid": 1})


def test_each_patch_model_has_its_view_models_fields_and_takes_their_values() -> None:
    for view_model, patch_model in PATCHES.items():
        assert patch_model.__struct_fields__ == view_model.__struct_fields__, patch_model
        assert tag(patch_model) == tag(view_model)
    for name in ("tichu", "doudizhu"):
        game = GAMES[name]
        match = game.new(TableOptions(name, game.presets()[0], None, 1, 0.0, True, "heuristic", 7))
        for seat in (0, None):
            view = game.view(match, seat)
            msgspec.convert(view, GameView)  # a whole view is a patch of every field
            msgspec.convert(view, GamePatch)
            with pytest.raises(msgspec.ValidationError, match="Object contains unknown field `extra`"):
                msgspec.convert({**view, "extra": 1}, GamePatch)
