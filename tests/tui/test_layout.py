"""Every part of the client fits an 80×24 terminal, in each language, for each game."""

import asyncio

import pytest
from textual.widget import Widget

from pagoda import doudizhu as ddz
from pagoda.tui.app import HandView, PlayApp
from pagoda.tui.base import GameUI
from pagoda.tui.doudizhu import DoudizhuUI
from pagoda.tui.i18n import Catalog
from pagoda.tui.tichu import TichuUI


async def _check(game: GameUI) -> None:
    app = PlayApp(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for widget in app.query(Widget):
            if widget is app.screen:
                continue
            region = widget.region
            assert region.height >= 1, widget
            assert region.bottom <= 24, widget
            assert region.right <= 80, widget
        hand = app.query_one(HandView)
        text = hand.render()
        for cell in game.cells():
            assert cell.label in str(text)
        assert len(str(text).splitlines()) <= hand.region.height
        await pilot.press("q")


@pytest.mark.parametrize("lang", ["en", "ko", "ja"])
def test_tichu_fits(lang: str) -> None:
    game = TichuUI(Catalog(lang), human=0, bots=["random"] * 4, seed=5)
    game.command("n")
    asyncio.run(_check(game))


@pytest.mark.parametrize("rules", ["classic", "four_player"])
def test_doudizhu_fits(rules: str) -> None:
    game = DoudizhuUI(Catalog("ja"), human=0, bots=["random"], seed=5, rules=ddz.parse_rules(rules))
    game.run_bots()
    while game.mode() == "auction":  # bid the most, so the human holds the most cards
        game.command(game.choices()[-1].key)
        game.run_bots()
    asyncio.run(_check(game))
