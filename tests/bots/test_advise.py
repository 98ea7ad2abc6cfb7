"""``pagoda advise``: ranked actions with values, for both games (the search bots' Scored lists)."""

import math
import random
from pathlib import Path

import pytest

from pagoda import doudizhu as ddz
from pagoda import tichu
from pagoda.advise.doudizhu import advise as advise_doudizhu
from pagoda.advise.doudizhu import run as run_advice
from pagoda.advise.tichu import advise as advise_tichu
from pagoda.bots import get_bot
from pagoda.bots.doudizhu import HeuristicBot
from pagoda.bots.doudizhu.learned import LearnedBot
from pagoda.bots.tichu import seat_rngs, step
from pagoda.bots.tichu.solver import cards_left
from pagoda.tichu.round import Phase


def test_tichu_advice_in_a_solved_endgame_is_ranked() -> None:
    bots = [get_bot("tichu", "heuristic")] * 4
    found = 0
    for seed in range(30):
        r = tichu.Round.new(seed)
        rngs = seat_rngs(seed)
        while not r.is_over and not (r.phase is Phase.PLAY and cards_left(r) <= 10):
            r = step(r, bots, rngs)
        if r.is_over:
            continue
        again = tichu.replay(r.record)  # advice reads a record
        seat, ranked = advise_tichu(again, iterations=2)
        assert seat == r.to_move
        if ranked[0].samples == 0:  # a lone choice: the heuristic's, unvalued
            assert len(ranked) == 1
            continue
        found += 1
        assert all(s.samples == 2 for s in ranked)
        means = [s.mean for s in ranked]
        assert means == sorted(means, reverse=True)
        legal = again.legal_actions(seat)
        assert all(s.action in legal for s in ranked)
    assert found >= 3


def test_doudizhu_advice_is_ranked() -> None:
    r = ddz.Round.new(3)
    bot = HeuristicBot()
    rng = random.Random(3)
    for _ in range(12):  # the auction, then a few plays
        seat = r.to_move
        r = r.apply(seat, bot.decide(r.view(seat), r.legal_actions(seat), rng))
    assert r.phase is ddz.Phase.PLAY
    seat, ranked = advise_doudizhu(ddz.replay(r.record), iterations=2, width=4)
    assert seat == r.to_move
    means = [s.mean for s in ranked]
    assert means == sorted(means, reverse=True)
    assert all(s.samples == 2 for s in ranked) or len(ranked) == 1


def test_doudizhu_advice_in_the_auction_is_the_search_s_bid_unvalued(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = ddz.Round.new(4, rules=ddz.RULES["classic"])
    heuristic, learned = HeuristicBot(), LearnedBot()
    differs = 0
    while r.phase is ddz.Phase.AUCTION:
        seat, legal = r.to_move, r.legal_actions(r.to_move)
        at, ranked = advise_doudizhu(ddz.replay(r.record), iterations=2)
        view = r.view(seat)
        choice = {
            "heuristic": heuristic.decide(view, legal, random.Random(0)),
            "learned": learned.decide(view, legal, random.Random(0)),
        }
        assert at == seat
        assert [s.action for s in ranked] == [choice["learned"]]  # the search bids as the learned bot
        assert ranked[0].samples == 0
        assert math.isnan(ranked[0].mean)
        differs += choice["learned"] != choice["heuristic"]
        path = tmp_path / "auction.txt"
        path.write_text(str(r.record), encoding="utf-8")
        assert run_advice([str(path), "--iterations", "2"]) == 0
        printed = capsys.readouterr().out
        assert f"the search's bid:\n  {choice['learned']!s:40s}    (not valued)" in printed
        r = r.apply(seat, choice["learned"])
    assert differs >= 1  # on this deal the network bids where the heuristic would not


def test_tichu_advice_outside_the_play_is_clubs_choice_unvalued() -> None:
    # in the Grand Tichu and the exchange the search bot does not search: it plays club's choice
    r = tichu.Round.new(4)
    club = get_bot("tichu", "club")
    phases = set()
    while r.phase is not Phase.PLAY:
        seat, ranked = advise_tichu(tichu.replay(r.record), iterations=2)
        view, legal = r.view(seat), r.legal_actions(seat)
        assert [(s.action, s.samples) for s in ranked] == [(club.decide(view, legal, random.Random(0)), 0)]
        phases.add(r.phase)
        r = r.apply(seat, ranked[0].action)
    assert phases == {Phase.GRAND_TICHU, Phase.EXCHANGE}
