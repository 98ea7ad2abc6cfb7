"""The heuristic's play tactics on crafted positions, with the exact action each one asks for."""

import random

from pagoda import doudizhu as ddz
from pagoda.bots.doudizhu import HeuristicBot

CLASSIC = ddz.RULES["classic"]


def _decide(r: ddz.Round) -> str:
    seat = r.to_move
    return str(HeuristicBot().decide(r.view(seat), r.legal_actions(seat), random.Random(0)))


def _play(r: ddz.Round, *moves: str) -> ddz.Round:
    for move in moves:
        r = r.apply(r.to_move, move)
    return r


def test_the_landlord_contests_a_peasant_solo_at_the_cost_of_a_pair() -> None:
    # the landlord led 4; the peasant after it plays 8 with 9 cards left; the other passes. Beating
    # with a Q breaks the pair QQ (4 combinations before and after) but passing hands the peasants
    # the lead: the landlord plays the Q
    r = ddz.Round.from_hands(["33 55 77 QQ 4", "8 9TJ KKK AA 6", "3456 9TJQK 2"], landlord=0)
    r = _play(r, "play 4", "play 8", "pass")
    assert r.to_move == 0
    assert _decide(r) == "play Q"


def test_a_peasant_lets_the_same_solo_go() -> None:
    # the same hand, as the peasant after the other peasant (not right after the landlord): the
    # landlord's 8 is left to the teammate and the pair QQ kept
    r = ddz.Round.from_hands(["8 9TJ KKK AA 6 4", "3456 9TJQK 2", "33 55 77 QQ"], landlord=0)
    r = _play(r, "play 8", "pass")
    assert r.to_move == 2
    assert _decide(r) == "pass"


def test_a_forced_play_out_leads_the_unbeatable_first() -> None:
    # two of every rank 3..A already played: no bomb is left anywhere and the red joker is here, so
    # the pair 22 and the red joker are unbeatable; leading them first leaves the 4 as the last
    # card (R, 22, 4 wins whatever the peasants hold), where leading the low 4 first, the old
    # habit, gives the lead away: the landlord leads 22 (the pair before the joker: its rank costs less)
    r = ddz.Round.from_hands(["R 22 4", "3456789TJQKA 3", "3456789TJQKA 5"], landlord=0)
    view = r.view(0)
    history = ((1, "play 3456789TJQKA"), (2, "play 3456789TJQKA"))
    view = view._replace(history=history, counts=(4, 9, 9))
    bot = HeuristicBot()
    assert str(bot.decide(view, r.legal_actions(0), random.Random(0))) == "play 22"
    scores = dict(zip(map(str, r.legal_actions(0)), bot.scores(view, r.legal_actions(0)), strict=True))
    assert scores["play R"] > scores["play 4"]
