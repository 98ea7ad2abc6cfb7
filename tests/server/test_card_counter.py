"""The Dou Di Zhu card counter's data: a view's ``played`` is exactly the cards that have left the
hands by public plays: never the kitty before it is shown, never a card still hidden in a hand."""

import random

import pytest

from pagoda import doudizhu as ddz
from pagoda.doudizhu.cards import format_mask
from pagoda.server.games import GAMES, TableOptions


@pytest.mark.parametrize("preset", ["classic", "four_player", "laizi"])
def test_played_is_what_left_the_hands_by_public_plays(preset: str) -> None:
    game = GAMES["doudizhu"]
    players = ddz.RULES[preset].players
    options = TableOptions("doudizhu", preset, None, 1, 0.0, True, "heuristic", 3)
    rng = random.Random(f"counter/{preset}")
    m = game.new(options)
    steps = 0
    while not m.is_over and steps < 400:
        r = m.current
        if r.landlord >= 0:
            # the landlord's hand holds the kitty once taken: what left the hands is the deal's
            # cards (the kitty with the landlord's) less the hands now
            dealt = sum(r.deals[-1])
            expected = format_mask(dealt - sum(r.hands))
        else:
            expected = ""  # the auction: nothing is played, and the kitty is not counted
        for seat in (*range(players), None):
            assert game.view(m, seat)["played"] == expected, (steps, seat)
        seat = game.awaiting(m)[0]
        m = game.apply(m, seat, str(rng.choice(r.legal_actions(seat))))
        steps += 1
    assert steps > 10
