"""Whole Dou Di Zhu rounds, auction included, played through the Textual app by keys only."""

import asyncio
import random
from pathlib import Path

import pytest

from pagoda import doudizhu as ddz
from pagoda.bots import available
from pagoda.tui.app import HandView, PlayApp
from pagoda.tui.doudizhu import DoudizhuUI, replay_match
from pagoda.tui.i18n import Catalog
from tests.tui.drive import answer_pending, next_keys

BOT = "heuristic" if "heuristic" in [s.name for s in available("doudizhu")] else "random"


async def _play_round(game: DoudizhuUI, seed: int) -> int:
    rng = random.Random(seed)
    app = PlayApp(game)
    decisions = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        while game.mode() != "summary":
            assert game.mode() in ("auction", "turn")
            for key in next_keys(game, rng):
                await pilot.press(key)
            for key in answer_pending(game):
                await pilot.press(key)
            decisions += 1
            assert decisions < 300
        hand = app.query_one(HandView)
        assert hand.region.bottom <= 24
        assert hand.region.right <= 80
        await pilot.press("enter")
        assert len(game.match.rounds) == 1
        await pilot.press("q")
    return decisions


@pytest.mark.parametrize(
    ("rules", "seed"), [("classic", 1), ("classic rob=true", 2), ("laizi", 3), ("four_player", 4)]
)
def test_a_round_through_the_keys(tmp_path: Path, rules: str, seed: int) -> None:
    record = tmp_path / "out.txt"
    parsed = ddz.parse_rules(rules)
    game = DoudizhuUI(
        Catalog("en"), human=seed % parsed.players, bots=[BOT], seed=seed, rules=parsed, record_path=record
    )
    assert asyncio.run(_play_round(game, seed)) >= 1
    text = record.read_text(encoding="utf-8")
    assert '[Game "doudizhu-match"]' in text
    assert replay_match(text)[0] == game.match
