"""The table actor: lobby commands, play, per-seat filtering, refusals, bots, timers, restore."""

import json
import logging
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pagoda import tichu
from pagoda.server.games import TableOptions, TichuGame, record_text
from pagoda.server.lobby import Lobby
from pagoda.server.protocol import parse_client
from pagoda.server.table import Settings, Table

from .helpers import FAST, Client, card_words, hidden_from, open_lobby, run, wait_for


async def _table(tmp: Path, settings: Settings = FAST, **options: Any) -> tuple[Lobby, Table]:
    lobby = await open_lobby(tmp, settings)
    opts = lobby.options({"game": "tichu", "rounds": 1, **options})
    return lobby, await lobby.create(opts, owner="owner")


def test_lobby_seats_bots_and_start(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path)
        owner, guest = Client(table, "owner", "Ann"), Client(table, "guest", "Bo")
        new = await owner.hello()
        assert [m["type"] for m in new] == ["welcome", "snapshot", "table"]
        await guest.hello(name="Bob")
        assert (await owner.send(type="sit", seat=0))[-1]["you"]["seat"] == 0
        assert owner.last("table")["you"]["rejoin"]
        assert guest.errors(await guest.send(type="sit", seat=0))[0]["code"] == "seat_taken"
        await guest.send(type="sit", seat=1)
        assert guest.errors(await guest.send(type="bot", seat=2))[0]["code"] == "not_owner"
        await owner.send(type="swap", a=1, b=2)
        await guest.settle()
        assert guest.last("table")["you"]["seat"] == 2
        assert owner.errors(await owner.send(type="bot", seat=1, level="nonesuch"))[0]["code"] == "bad_bot"
        await owner.send(type="bot", seat=1, level="random")
        assert owner.errors(await owner.send(type="start"))[0]["code"] == "seats_empty"
        seq = table.seq
        await owner.send(type="start", fill="heuristic")
        assert table.status == "playing"
        assert table.seq == seq + 2
        assert [s.bot for s in table.seats] == [None, "random", None, "heuristic"]
        state = owner.state
        assert state["legal"]["actions"] == ["grand", "no-grand"]
        assert len(state["game"]["hand"]) == 8
        assert owner.errors(await owner.send(type="sit", seat=3))[0]["code"] == "not_in_lobby"
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_illegal_and_out_of_turn_leave_the_table_unchanged(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path, replace(FAST, bot_delay=10.0))
        a = Client(table, "owner")
        await a.hello()
        await a.send(type="sit", seat=0)
        await a.send(type="start", fill="heuristic")
        before = (table.seq, table.actions, table.match)
        # the rules refuse the first three, the notation the last two
        codes = {"play 2g": "illegal", "exchange Mj Dg Ph": "illegal", "take": "illegal"}
        codes |= {"fly away": "bad_action", "grand grand": "bad_action"}
        reasons = {  # (the server's own take is refused before the rules are asked)
            "play 2g": ("grand_first", {"action": "play 2g"}),
            "exchange Mj Dg Ph": ("grand_first", {"action": "exchange Mj Dg Ph"}),
        }
        for text, code in codes.items():
            errs = a.errors(await a.send(type="act", action=text, ref=7))
            assert errs, text
            assert (errs[0]["code"], errs[0]["ref"]) == (code, 7), text
            assert errs[0]["message"]
            # a refusal of the rules names its rule, for the client to say it in the player's language
            assert (errs[0].get("reason"), errs[0].get("params")) == reasons.get(text, (None, None)), text
        spectator = Client(table, "watcher")
        await spectator.hello()
        assert (
            spectator.errors(await spectator.send(type="act", action="no-grand"))[0]["code"] == "not_seated"
        )
        assert (table.seq, table.actions, table.match) == before
        await a.send(type="act", action="no-grand")
        assert table.actions == [(0, "no-grand")]
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_why_says_whether_an_action_is_legal_and_changes_nothing(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path, replace(FAST, bot_delay=10.0))
        a = Client(table, "owner")
        await a.hello()
        await a.send(type="sit", seat=0)
        await a.send(type="start", fill="heuristic")
        before = (table.seq, table.actions, table.match)
        answers = {}
        for text in ("play 2g", "no-grand", "fly away", "take"):
            got = [m for m in await a.send(type="why", action=text, ref=3) if m["type"] == "why"]
            assert len(got) == 1, text
            answers[text] = {k: v for k, v in got[0].items() if k not in ("type", "message")}
        assert answers == {
            "play 2g": {
                "action": "play 2g",
                "legal": False,
                "code": "illegal",
                "reason": "grand_first",
                "params": {"action": "play 2g"},
                "ref": 3,
            },
            "no-grand": {"action": "no-grand", "legal": True, "ref": 3},
            "fly away": {"action": "fly away", "legal": False, "code": "bad_action", "ref": 3},
            "take": {"action": "take", "legal": False, "code": "illegal", "ref": 3},
        }
        assert (table.seq, table.actions, table.match) == before  # asking changed nothing
        spectator = Client(table, "watcher")
        await spectator.hello()
        got = [m for m in await spectator.send(type="why", action="no-grand") if m["type"] == "why"]
        assert (got[0]["legal"], got[0]["code"]) == (False, "not_seated")
        await lobby.close()
        await lobby.store.close()

    run(body)


def events(client: Client) -> list[dict[str, Any]]:
    return [m["event"] for m in client.got if m["type"] == "event"]


def test_autoplay_lets_a_bot_play_the_seat_until_taken_back(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path, FAST)
        a = Client(table, "owner")
        await a.hello()
        await a.send(type="sit", seat=0)
        errs = a.errors(await a.send(type="autoplay", on=True))
        assert [e["code"] for e in errs] == ["not_playing"]
        await a.send(type="start", fill="heuristic")
        await a.send(type="autoplay", on=True)
        assert table.standin[0]
        # the bot answers for seat 0: its Grand Tichu decision and on into the round
        await wait_for(lambda: sum(1 for s, _ in table.actions if s == 0) >= 3, [a])
        standins = [e["on"] for e in events(a) if e["kind"] == "standin"]
        assert standins == [True]
        await a.send(type="autoplay", on=False)
        assert not table.standin[0]
        standins = [e["on"] for e in events(a) if e["kind"] == "standin"]
        assert standins == [True, False]
        await a.send(type="autoplay", on=False)  # already off: nothing more is told
        standins = [e["on"] for e in events(a) if e["kind"] == "standin"]
        assert standins == [True, False]
        spectator = Client(table, "watcher")
        await spectator.hello()
        refused = spectator.errors(await spectator.send(type="autoplay", on=True))
        assert [e["code"] for e in refused] == ["not_seated"]
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_bots_play_a_round_to_the_summaries(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path)
        watcher = Client(table, "owner")
        await watcher.hello()
        await watcher.send(type="start", fill="heuristic")
        await wait_for(lambda: table.status == "finished", [watcher])
        kinds = [m["event"]["kind"] for m in watcher.got if m["type"] == "event"]
        assert kinds.count("round_over") == 1
        assert kinds[-1] == "match_over"
        assert any(m["event"].get("by") == "server" for m in watcher.got if m["type"] == "event")
        record = tichu.Match.replay(table.game.record(table.options, table.actions))
        assert record.scores == tuple(table.match.scores)
        stored = await lobby.store.get(table.id)
        assert stored is not None
        assert stored.status == "finished"
        # The record is kept line by line as actions come; it must equal the whole record formatted again.
        assert stored.record == record_text(table.game, table.options, table.actions)
        assert [e["seq"] for e in await lobby.store.events(table.id)] == list(range(1, table.seq + 1))
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_a_failing_bot_s_seat_plays_its_first_legal_action_and_the_log_names_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="pagoda.server")

    async def body() -> tuple[str, list[tuple[int, str]]]:
        lobby, table = await _table(tmp_path)

        async def unreadable(seat: int, view: Any, legal: Any, seed: str) -> str:
            return "fly away"  # not an action: applying it fails

        table._decide = unreadable  # type: ignore[method-assign]
        watcher = Client(table, "owner")
        await watcher.hello()
        await watcher.send(type="start", fill="heuristic")
        # the Grand Tichu calls, then the exchanges (which the client's list of actions omits)
        await wait_for(lambda: len(table.actions) >= 8, [watcher])
        await lobby.close()
        await lobby.store.close()
        return table.id, table.actions[:8]

    table_id, first = run(body)
    assert [text.split()[0] for _, text in first] == ["grand"] * 4 + ["exchange"] * 4
    lines = [r.getMessage() for r in caplog.records if "failed;" in r.getMessage()][:8]
    assert lines == [
        f"table {table_id}: bot for seat {seat} failed; its first legal action {text} is played instead"
        for seat, text in first
    ]


def test_turn_timer_plays_for_a_slow_player_and_standin_after_grace(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path, turn_timer=0.05)
        a = Client(table, "owner")
        await a.hello()
        await a.send(type="sit", seat=0)
        await a.send(type="start", fill="random")
        await wait_for(lambda: any(s == 0 for s, _ in table.actions), [a])
        assert any(m["event"].get("by") == "timer" for m in a.got if m["type"] == "event")
        table.leave(a.conn)
        await wait_for(lambda: table.standin[0], [])
        b = Client(table, "x")
        await b.hello(rejoin=a.last("table")["you"]["rejoin"])
        assert b.got[0]["you"]["seat"] == 0
        assert not table.standin[0]
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_invite_only_and_rejoin(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path, open=False)
        stranger = Client(table, "stranger")
        errs = stranger.errors(await stranger.hello())
        assert errs[0]["code"] == "invite_required"
        assert stranger.conn.closed
        friend = Client(table, "friend")
        assert friend.errors(await friend.hello(invite=table.invite)) == []
        assert friend.errors(await friend.hello(rejoin="nope"))[0]["code"] == "bad_rejoin"
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_restore_replays_the_record(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path, replace(FAST, bot_delay=60.0))
        a = Client(table, "owner")
        await a.hello()
        await a.send(type="sit", seat=0)
        await a.send(type="start", fill="heuristic")
        await a.send(type="act", action="no-grand")
        await a.send(type="chat", text="hello")
        view, seq = table.view(0), table.seq
        await lobby.close()
        again = Lobby(lobby.store, FAST)
        assert await again.restore() == 1
        restored = again.tables[table.id]
        assert restored.view(0) == view
        assert restored.seq == seq
        assert restored.status == "playing"
        await again.close()
        await lobby.store.close()

    run(body)


def test_client_messages_are_checked() -> None:
    import pytest

    from pagoda.server.protocol import ProtocolError

    assert parse_client('{"type": "act", "action": "pass"}', 4096)["action"] == "pass"
    for text, code in [
        ("nope", "bad_json"),
        ("[1]", "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "act"}', "bad_message"),
        ('{"type": "sit", "seat": -1}', "bad_message"),
        ('{"type": "ping", "extra": 1}', "bad_message"),
        ('{"type": "chat", "text": "' + "x" * 5000 + '"}', "too_large"),
    ]:
        with pytest.raises(ProtocolError) as e:
            parse_client(text, 4096)
        assert e.value.code == code, text


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), choices=st.lists(st.integers(0, 10_000), min_size=5, max_size=40))
def test_no_message_shows_another_seats_hidden_card(tmp_path: Path, seed: int, choices: list[int]) -> None:
    """Two humans, two bots and a spectator; humans send legal and illegal actions at random."""

    async def body() -> None:
        lobby = await open_lobby(
            tmp_path / str(seed) / str(len(choices)), Settings(secret=b"t", bot_delay=0.0)
        )
        opts = lobby.options({"game": "tichu", "rounds": 1})
        opts = type(opts)(**{**opts.to_json(), "seed": seed})
        table = await lobby.create(opts, owner="p0")
        players = [Client(table, "p0"), Client(table, "p1")]
        spectator = Client(table, "s")
        everyone = [*players, spectator]
        for c in everyone:
            await c.hello()
        await players[0].send(type="sit", seat=0)
        await players[1].send(type="sit", seat=2)
        await players[0].send(type="start", fill="heuristic")
        for pick in choices:
            if table.status != "playing":
                break
            c = players[pick % 2]
            seat = c.conn.seat
            assert seat is not None
            legal = table.game.legal(table.match, seat)
            options = list(legal["actions"])
            if legal.get("exchange"):
                hand = table.game.view(table.match, seat)["hand"]
                options.append("exchange " + " ".join(hand[(pick + k) % len(hand)] for k in range(3)))
            options += ["play Dr", "play 2g 2k 2b 2r", "exchange 2g 3g 4g"]
            sent = options[pick % len(options)]
            await c.send(type="act", action=sent)
            await wait_for(lambda: True, everyone)
            r = table.match.round
            for c2 in everyone:
                new = c2.got
                c2.got = []
                hidden = hidden_from(r, c2.conn.seat)
                for msg in new:
                    leaked = card_words(json.dumps(msg)) & hidden
                    if msg["type"] == "error":  # an error may quote the sender's own message
                        leaked -= card_words(sent)
                    assert not leaked, (c2.conn.seat, leaked, msg)
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_doudizhu_table_plays_to_the_end_with_hands_kept_private(tmp_path: Path) -> None:
    async def body() -> None:
        lobby = await open_lobby(tmp_path)
        table = await lobby.create(
            lobby.options({"game": "doudizhu", "rounds": 1, "turn_timer": 0.01}), owner="owner"
        )
        a, watcher = Client(table, "owner"), Client(table, "w")
        await a.hello()
        await watcher.hello()
        await a.send(type="sit", seat=1)
        await a.send(type="start", fill="random")
        assert len(table.seats) == 3
        await wait_for(lambda: table.status == "finished", [a, watcher])
        assert [m["event"]["kind"] for m in a.got if m["type"] == "event"][-2:] == [
            "round_over",
            "match_over",
        ]
        assert all(
            "hand" not in (m.get("game") or {}) and "hand" not in m.get("patch", {}) for m in watcher.got
        )
        assert all(m["game"]["hand"] is not None for m in a.got if m.get("game"))
        assert a.game == table.view(1)
        assert watcher.game == table.view(None)
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_tichu_views_share_the_public_part_of_the_match_they_are_asked_about() -> None:
    game = TichuGame()
    options = TableOptions("tichu", "standard", None, 1, 0.0, True, "heuristic", 3)
    rng = random.Random(3)
    matches = [game.new(options)]
    for _ in range(120):  # the Grand Tichu calls, the exchange and some 100 plays of the first round
        m = matches[-1]
        seat = game.awaiting(m)[0]
        matches.append(game.apply(m, seat, str(rng.choice(m.round.legal_actions(seat)))))
    for m, other in zip(matches, reversed(matches), strict=True):
        game.view(other, 1)  # another match's view in between must not be served for this one
        fresh = TichuGame()._public_view(m)
        spectator = game.view(m, None)
        assert spectator == fresh
        for seat in (2, 0, 3, 1):
            v = game.view(m, seat)
            assert {k: v[k] for k in fresh} == fresh
            assert v["hand"] == [str(c) for c in m.round.view(seat).hand_cards]
            assert set(v) - set(fresh) == {"hand", "given", "received"}
