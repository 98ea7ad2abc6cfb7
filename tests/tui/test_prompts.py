"""Prompts that a random round seldom reaches: out-of-turn bombs, hints, the wish."""

import asyncio
import dataclasses

from pagoda import tichu
from pagoda.tui.doudizhu import DoudizhuUI
from pagoda.tui.i18n import Catalog
from pagoda.tui.tichu import TichuUI

HANDS = [
    "Mj 2g 3g 4g 5g 6g 7g 8g Tg Jg Qg Kg Ag Dr",
    "Dg 2k 3k 4k 5k 6k 7k 8k Tk Jk Qk Kk Ak Ph",
    "9g 9k 9b 9r 2b 3b 4b 5b 6b 7b 8b Tb Jb Qb",
    "Kb Ab 2r 3r 4r 5r 6r 7r 8r Tr Jr Qr Kr Ar",
]


def _table(human: int) -> TichuUI:
    ui = TichuUI(Catalog("en"), human=human, bots=["heuristic"] * 4, seed=1)
    ui.match = dataclasses.replace(ui.match, round=tichu.Round.from_hands(HANDS))  # a crafted deal
    return ui


def test_out_of_turn_bomb() -> None:
    ui = _table(2)
    ui.run_bots()  # seat 0 leads, seat 1 is to move: seat 2 is offered its bombs first
    assert ui.mode() == "bomb_offer"
    assert "bomb" in ui.prompt()
    ui.command("b")
    assert ui.legal_plays()[ui.mask_of(ui.selected)][0].combo.is_bomb
    ui.command("enter")
    assert ui.match.round.trick[-1][0] == 2


def test_no_bomb_lets_play_go_on() -> None:
    ui = _table(2)
    ui.run_bots()
    ui.command("x")
    ui.run_bots()
    assert ui.mode() != "bomb_offer" or ui.match.round.trick[-1][0] != 0


def test_wish_prompt() -> None:
    ui = _table(0)
    ui.run_bots()
    assert ui.mode() == "turn"
    ui.selected = ui.indices_of(tichu.to_mask("Mj"))
    ui.command("enter")
    assert ui.pending is not None
    assert "Wish" in ui.prompt()
    ui.command("7")
    assert ui.match.round.wish == 7 or ui.match.round.trick[0][1].mask == tichu.to_mask("Mj")
    assert str(ui.match.round.actions[0][1]) == "play Mj wish 7"


def test_tichu_call_and_hint() -> None:
    ui = _table(0)
    ui.hint_iterations = 2
    ui.run_bots()
    ui.command("t")
    assert 0 in ui.match.round.tichu_calls
    assert ui.hint().startswith("Hint: ")


def test_doudizhu_hint_in_app() -> None:
    from pagoda.tui.app import PlayApp

    game = DoudizhuUI(Catalog("ko"), human=0, bots=["random"], seed=1, hint_iterations=2)

    async def go() -> str:
        app = PlayApp(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("?")
            await app.workers.wait_for_complete()
            await pilot.pause()
            return game.message

    assert asyncio.run(go()).startswith("힌트: ")


def test_phoenix_reading_prompt() -> None:
    hands = [
        "Mj 3g 4g 5g 6g Ph 8g 9g Tg Jg Qg Kg Ag Dr",
        "Dg 2g 7g 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk",
        "Kk Ak 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb",
        "Ab 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar",
    ]
    ui = TichuUI(Catalog("en"), human=0, bots=["random"] * 4, seed=1, rules=tichu.Rules.parse("bsw"))
    ui.match = dataclasses.replace(ui.match, round=tichu.Round.from_hands(hands, ui.match.rules))
    ui.run_bots()
    ui.selected = ui.indices_of(tichu.to_mask("3g 4g 5g 6g Ph"))
    ui.command("enter")
    assert "Phoenix" in ui.prompt()
    assert sorted(c.key for c in ui.choices()) == ["2", "7"]
    ui.command("7")
    assert str(ui.match.round.actions[-1][1]) == "play 3g 4g 5g 6g Ph as 7"


def test_bots_paced_by_a_timer() -> None:
    from pagoda.tui.app import PlayApp

    game = TichuUI(Catalog("en"), human=3, bots=["random"] * 4, seed=1)

    async def go() -> str:
        app = PlayApp(game, delay=0.01)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(100):
                if game.mode() != "wait":
                    break
                await pilot.pause(0.02)
            return game.mode()

    assert asyncio.run(go()) == "grand"
