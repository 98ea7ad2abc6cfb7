"""A whole Tichu round played through the Textual app, keys only, at 80×24."""

import asyncio
import random
from pathlib import Path

import pytest

from pagoda import tichu
from pagoda.tui.app import HandView, PlayApp
from pagoda.tui.i18n import Catalog
from pagoda.tui.tichu import TichuUI
from tests.tui.drive import answer_pending, next_keys


async def _play_round(game: TichuUI, seed: int) -> int:
    rng = random.Random(seed)
    app = PlayApp(game)
    decisions = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        while game.mode() != "summary":
            assert game.mode() != "wait", "the app waits for a bot although bots act at once"
            for key in next_keys(game, rng):
                await pilot.press(key)
            for key in answer_pending(game):
                await pilot.press(key)
            decisions += 1
            assert decisions < 400
        hand = app.query_one(HandView)
        assert hand.region.bottom <= 24
        assert hand.region.right <= 80
        await pilot.press("enter")  # next round
        assert game.mode() in ("grand", "wait")
        assert len(game.match.finished) == 1
        await pilot.press("q")
    return decisions


@pytest.mark.parametrize("seed", [1, 2])
def test_a_round_through_the_keys(tmp_path: Path, seed: int) -> None:
    record = tmp_path / "out.txt"
    game = TichuUI(Catalog("en"), human=seed % 4, bots=["heuristic"] * 4, seed=seed, record_path=record)
    decisions = asyncio.run(_play_round(game, seed))
    assert decisions > 3
    text = record.read_text(encoding="utf-8")
    assert '[Game "tichu-match"]' in text
    assert tichu.Match.replay(text) == game.match
