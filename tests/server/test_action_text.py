"""Action text at the edge: only the canonical text of the parsed action is ever stored or shown.

The attack this guards against: an action whose text began with a line break other than
``\\n`` (U+2028, ``\\x85``, ``\\x0b`` ...) was accepted (the parser splits on any whitespace),
stored as the record line ``0 \\u2028no-grand``, and read back by ``str.splitlines`` as two
lines, so the next start-up failed and every table of the server was gone. Now the edge
refuses text that is not printable ASCII, the table stores the canonical text, a record refuses
any text that could break a line, the reader splits lines where the writer joins them, and a
table whose stored record still does not replay is set aside while the others are restored.
"""

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from pagoda import doudizhu as ddz
from pagoda import tichu
from pagoda.core import PagodaError, ParseError, Record, format_record, parse_record
from pagoda.server.lobby import Lobby
from pagoda.server.protocol import ProtocolError, check_action_text, parse_client
from pagoda.server.store import BROKEN
from tests.server.helpers import FAST, Client, open_lobby, run
from tests.server.test_restart import JSON, free_port, post, receive, server

#: Every character ``str.splitlines`` breaks a line at, and other controls.
BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\t\x00\x1b\u200b\u202e"


# ----------------------------------------------------------------- the record


@given(st.text(alphabet=st.sampled_from(list("ab 9kpass" + BREAKS)), max_size=12))
@settings(max_examples=300, deadline=None)
def test_a_record_holds_only_text_that_reads_back_to_itself(text: str) -> None:
    try:
        rec = Record((("Game", "tichu"),), ((0, text),))
    except ParseError:
        # refused when made: never written, so never misread
        assert text == "" or text != text.strip() or "  " in text or any(ch in BREAKS for ch in text)
        return
    assert parse_record(format_record(rec)) == rec


def test_the_reader_splits_lines_only_where_the_writer_joins_them() -> None:
    # a legacy line holding U+2028 is one line: its seat and its action stay together
    rec = parse_record('[Game "tichu"]\n\n0 \u2028no-grand\n1 no-grand\r\n')
    assert rec.actions == ((0, "no-grand"), (1, "no-grand"))
    with pytest.raises(ParseError, match=r"line 3: '0' is not '<seat> <action>'"):
        parse_record('[Game "tichu"]\n\n0 \nno-grand')
    with pytest.raises(ParseError, match="U\\+2028"):
        Record((("Game", "x\u2028y"),), ())
    with pytest.raises(ParseError, match="single spaces"):
        Record((), ((0, "play  2g"),))


# ----------------------------------------------------------------- the edge

SPELLINGS = [
    "no-grand",
    "NO-GRAND",
    "  no-grand ",
    "No-Grand",
    "grand",
    "\u2028no-grand",
    "\x85no-grand",
    "\x0bno-grand",
    "no-grand\x1c",
    "\u2029grand",
    "no\u00a0grand",
    "n\u200bo-grand",
    "no-grand\n0 grand",
]


@pytest.mark.parametrize("text", SPELLINGS)
def test_the_edge_passes_only_printable_ascii(text: str) -> None:
    frame = json.dumps({"type": "act", "action": text})
    if text.isascii() and text.isprintable():
        assert parse_client(frame, 4096)["action"] == text
    else:
        with pytest.raises(ProtocolError) as info:
            parse_client(frame, 4096)
        assert info.value.code == "bad_action"
        assert "printable ASCII" in info.value.message


@given(
    st.one_of(
        st.text(alphabet=st.sampled_from(list("playexchngwisto-dr 2g3k5b8rMjDgPhAKQJT1")), max_size=24),
        st.sampled_from(
            ["play Mj 2k 3k 4k 5g wish 4", "exchange 2g Dr 3k", "give-dragon 1", "PLAY  5g 5r", " pass "]
        ),
    )
)
@settings(max_examples=400, deadline=None)
def test_any_tichu_action_text_stores_as_a_canonical_text_that_reads_back(text: str) -> None:
    try:
        check_action_text(text)
        action = tichu.parse_action(text)
    except (ProtocolError, ParseError):
        return
    canonical = str(action)
    rec = parse_record(format_record(Record((("Game", "tichu"),), ((2, canonical),))))
    assert rec.actions == ((2, canonical),)
    assert tichu.parse_action(canonical) == action
    assert str(tichu.parse_action(canonical)) == canonical


def _ddz_play_state() -> ddz.Round:
    r = ddz.Round.new(5)
    return r.apply(r.to_move, "bid 3")


@given(st.text(alphabet=st.sampled_from(list("playbidpascl 0123456789TJQKABR")), max_size=20))
@settings(max_examples=300, deadline=None)
def test_any_doudizhu_action_text_stores_as_a_canonical_text_that_reads_back(text: str) -> None:
    for r in (ddz.Round.new(5), _ddz_play_state()):
        seat = r.to_move
        try:
            check_action_text(text)
            action = r.parse_action(text, seat)
        except (ProtocolError, PagodaError):
            continue
        canonical = str(action)
        rec = parse_record(format_record(Record((("Game", "doudizhu"),), ((seat, canonical),))))
        assert rec.actions == ((seat, canonical),)
        assert r.parse_action(canonical, seat) == action


# ----------------------------------------------------------------- the table, in process


async def _four_players(tmp_path: Path, bomb_window: float = 60.0) -> tuple[Lobby, list[Client]]:
    lobby = await open_lobby(tmp_path, replace(FAST, bomb_window=bomb_window, bot_delay=60.0))
    options = lobby.options({"game": "tichu", "seed": 11, "turn_timer": 0})
    table = await lobby.create(options, "p0")
    clients = [Client(table, f"p{s}", f"P{s}") for s in range(4)]
    for s, c in enumerate(clients):
        await c.hello(**({"invite": table.invite} if s else {}))
        await c.send(type="sit", seat=s)
    await clients[0].send(type="start")
    return lobby, clients


def _actions_seen(c: Client) -> list[str]:
    return [m["event"]["action"] for m in c.got if m["type"] == "event" and m["event"]["kind"] == "action"]


def test_a_spelling_is_stored_and_shown_as_the_canonical_text(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, cs = await _four_players(tmp_path)
        table = cs[0].table
        for s, text in enumerate(["NO-GRAND", " no-grand", "No-Grand  ", "no-grand"]):
            assert cs[s].errors(await cs[s].send(type="act", action=text)) == []
        assert table.actions == [(s, "no-grand") for s in range(4)]
        hand = [str(c) for c in table.match.round.hand(1)]
        # the exchange as sent in another case: shown to its seat in full, to every other as "exchange"
        assert cs[1].errors(await cs[1].send(type="act", action=f" Exchange {' '.join(hand[:3])}")) == []
        for c in cs:
            await c.settle()
        assert _actions_seen(cs[1])[-1] == f"exchange {' '.join(hand[:3])}"
        for s in (0, 2, 3):
            assert _actions_seen(cs[s])[-1] == "exchange"
            assert not set(hand[:3]) & set(json.dumps(cs[s].got[-6:]).split('"'))
        stored = await lobby.store.get(table.id)
        assert stored is not None
        assert stored.record is not None
        assert stored.record.splitlines()[-5:] == [
            "0 no-grand",
            "1 no-grand",
            "2 no-grand",
            "3 no-grand",
            f"1 exchange {' '.join(hand[:3])}",
        ]
        await lobby.close()
        again = Lobby(lobby.store, FAST)
        assert await again.restore() == 1
        assert again.tables[table.id].actions == table.actions
        await again.close()
        await lobby.store.close()

    run(body)


def test_the_servers_take_cannot_be_sent_in_any_spelling(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, cs = await _four_players(tmp_path)
        table = cs[0].table
        for s in range(4):
            await cs[s].send(type="act", action="no-grand")
        for s in range(4):
            hand = [str(c) for c in table.match.round.hand(s)]
            assert cs[s].errors(await cs[s].send(type="act", action="exchange " + " ".join(hand[:3]))) == []
        r = table.match.round
        leader = r.to_move
        # a lead the others can pass on (no Dog, no Mah Jong's wish)
        lead = next(
            str(a)
            for a in r.legal_actions(leader)
            if str(a).startswith("play") and "Mj" not in str(a) and "Dg" not in str(a)
        )
        assert cs[leader].errors(await cs[leader].send(type="act", action=lead)) == []
        for k in (1, 2, 3):
            seat = (leader + k) % 4
            assert cs[seat].errors(await cs[seat].send(type="act", action="pass")) == []
        assert table.game.window_pending(table.match)
        before = (table.seq, list(table.actions))
        for text in ("take", "TAKE", " Take ", "tAkE"):
            errors = cs[leader].errors(await cs[leader].send(type="act", action=text))
            assert [e["code"] for e in errors] == ["illegal"], text
            assert "bomb window" in errors[0]["message"]
        assert (table.seq, table.actions) == before
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_restore_sets_a_table_aside_whose_record_does_not_replay(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, cs = await _four_players(tmp_path)
        good = cs[0].table
        bad = await lobby.create(lobby.options({"game": "tichu", "seed": 12}), "p9")
        owner = Client(bad, "p9")
        await owner.hello()
        await owner.send(type="start", fill="random")
        await lobby.close()
        row = await lobby.store.get(bad.id)
        assert row is not None
        assert row.record is not None
        # the line an unpatched server stored for the action "\u2028no-grand"
        await lobby.store.append(bad.id, [], "playing", row.record + "\n0 \nno-grand")
        again = Lobby(lobby.store, FAST)
        assert await again.restore() == 1
        assert list(again.tables) == [good.id]
        broken = await lobby.store.get(bad.id)
        assert broken is not None
        assert broken.status == BROKEN
        assert broken.record == row.record + "\n0 \nno-grand"  # kept as it was, for a person to look at
        await again.close()
        third = Lobby(lobby.store, FAST)
        assert await third.restore() == 1  # not retried
        await third.close()
        await lobby.store.close()

    run(body)


# ----------------------------------------------------------------- a real server process


def _seat_and_start(port: int, made: JSON) -> None:
    """Sit at seat 0 of a new table and start it with bots in the other seats."""
    with connect(f"ws://127.0.0.1:{port}/ws/{made['id']}", open_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "guest": made["guest"], "name": "Bo"}))
        ws.send(json.dumps({"type": "sit", "seat": 0}))
        ws.send(json.dumps({"type": "start", "fill": "heuristic"}))
        while "legal" not in receive(ws):  # (the started event carries the first legal actions)
            pass


def test_the_attack_no_longer_stops_a_real_server(tmp_path: Path) -> None:
    db = tmp_path / "pagoda.sqlite3"
    port = free_port()
    with server(db, port):
        made = post(port, "/api/tables", {"game": "tichu", "turn_timer": 0})
        other = post(port, "/api/tables", {"game": "doudizhu", "turn_timer": 0})
        _seat_and_start(port, other)
        with connect(f"ws://127.0.0.1:{port}/ws/{made['id']}", open_timeout=5) as ws:
            ws.send(json.dumps({"type": "hello", "protocol": 1, "guest": made["guest"], "name": "Ann"}))
            ws.send(json.dumps({"type": "sit", "seat": 0}))
            ws.send(json.dumps({"type": "start", "fill": "heuristic"}))
            for evil in ("\u2028no-grand", "\x85no-grand", "\x0bno-grand", "\u2029grand"):
                ws.send(json.dumps({"type": "act", "action": evil, "ref": 1}))
                msg = receive(ws)
                while msg["type"] != "error":
                    msg = receive(ws)
                assert msg["code"] == "bad_action", evil
            ws.send(json.dumps({"type": "act", "action": "  NO-GRAND"}))
            msg = receive(ws)
            while not (
                msg["type"] == "event" and msg["event"]["kind"] == "action" and msg["event"]["seat"] == 0
            ):
                msg = receive(ws)
            assert msg["event"]["action"] == "no-grand"
    with sqlite3.connect(db) as con:
        (record,) = con.execute("SELECT record FROM tables WHERE id = ?", (made["id"],)).fetchone()
        assert "0 no-grand" in record.split("\n")
        assert not any(ch in record for ch in BREAKS if ch != "\n")
        # the other table as an unpatched server stored it after the attack: a split line
        con.execute("UPDATE tables SET record = record || ? WHERE id = ?", ("\n0 \nbid 1", other["id"]))
    port = free_port()
    with server(db, port):
        with connect(f"ws://127.0.0.1:{port}/ws/{made['id']}", open_timeout=5) as ws:
            ws.send(json.dumps({"type": "hello", "protocol": 1, "guest": made["guest"]}))
            assert receive(ws)["type"] == "welcome"
            snap = receive(ws)
            assert snap["type"] == "snapshot"
            assert snap["table"]["status"] == "playing"
            assert snap["game"]["awaiting"] != []
        with sqlite3.connect(db) as con:
            (status,) = con.execute("SELECT status FROM tables WHERE id = ?", (other["id"],)).fetchone()
        assert status == BROKEN
