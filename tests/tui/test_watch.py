"""pagoda watch: records of both games, rounds and matches, stepped forward and back."""

import asyncio
import random
from pathlib import Path

import pytest

from pagoda import doudizhu as ddz
from pagoda import tichu
from pagoda.bots import get_bot
from pagoda.bots.tichu import play_round
from pagoda.cli import _record_game
from pagoda.tui.i18n import Catalog
from pagoda.tui.watch import Replay, WatchApp, game_of


def _tichu_round() -> str:
    r = play_round(tichu.Round.new(seed=4), [get_bot("tichu", "random")] * 4, seed=4)
    return str(r.record)


def _doudizhu_match() -> str:
    rng = random.Random(2)
    m = ddz.Match.new(2, ddz.parse_rules("laizi rounds=2"))
    while not m.is_over:
        m = m.apply(m.to_move, rng.choice(m.current.legal_actions()))
    return str(m.record)


async def _step(replay: Replay) -> list[int]:
    app = WatchApp(replay)
    seen = []
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ["right", "right", "space", "left", "end", "left", "home", "pagedown"]:
            await pilot.press(key)
            seen.append(app.step)
        await pilot.press("q")
    return seen


@pytest.mark.parametrize("make", [_tichu_round, _doudizhu_match])
def test_step_through(make: object, tmp_path: Path) -> None:
    assert callable(make)
    text: str = make()
    replay = Replay(Catalog("en"), text)
    n = replay.total
    assert asyncio.run(_step(replay)) == [1, 2, 3, 2, n, n - 1, 0, 10]
    last = replay.table(n)
    assert any(line.strip() for line in last.center)
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    assert _record_game(str(path)) == game_of(text)


def test_tichu_match_record() -> None:
    m = tichu.Match.new(3)
    rng = random.Random(3)
    for _ in range(200):
        seat = m.round.awaiting[0]
        legal = m.legal_actions(seat)
        m = m.apply(seat, legal[rng.randrange(len(legal))])
    replay = Replay(Catalog("ja"), str(m.record))
    assert replay.states[-1] == m
    assert replay.table(replay.total).status.startswith("200/200")
