"""The four_player option bomb_limits: each peasant may play as many bombs as its auction allows."""

import pytest

from pagoda import doudizhu as ddz

RULES = ddz.parse_rules("four_player bomb_limits=true")
# two packs: 8 of each rank 3..2, two of each joker; 25 cards a seat and 8 kept
HANDS = [
    "33333333 44444444 55555555 6",
    "6666666 77777777 88888888 99",
    "999999 TTTTTTTT JJJJJJJJ QQQ",
    "QQQQQ KKKKKKKK AAAAAAAA 2222",
]
KITTY = "2222 BBRR"


def auction(*words: str, first: int = 0) -> ddz.Round:
    r = ddz.Round.from_deal(HANDS, KITTY, rules=RULES, first=first)
    for text in words:
        r = r.apply(r.to_move, text)
    assert r.phase is ddz.Phase.PLAY
    return r


def bombs_in(r: ddz.Round, seat: int) -> list[str]:
    return [str(a) for a in r.legal_actions(seat) if a.combo is not None and a.combo.is_bomb]


def test_limits_follow_each_peasants_bid() -> None:
    # seat 0 bid 1 (one bomb), seat 1 bid 2 (two), seat 2 bid 3 and is landlord, seat 3 never spoke
    r = auction("bid 1", "bid 2", "bid 3")
    assert r.landlord == 2
    assert r.bombs_left == (1, 2, -1, -1)
    # seat 0 passed, seat 1 bid 1, seat 2 passed, seat 3 bid 2 and is landlord: one bomb each
    r = auction("pass", "bid 1", "pass", "bid 2")
    assert r.landlord == 3
    assert r.bombs_left == (1, 1, 1, -1)


def test_off_by_default() -> None:
    r = ddz.Round.from_deal(HANDS, KITTY, rules=ddz.RULES["four_player"])
    for text in ("bid 1", "bid 2", "bid 3"):
        r = r.apply(r.to_move, text)
    assert r.bombs_left == ()
    assert ddz.parse_rules("four_player").bomb_limits is False


def test_a_spent_limit_takes_bombs_away() -> None:
    r = auction("bid 1", "bid 2", "bid 3")
    r = r.apply(2, "play 9")
    r = r.apply(3, "pass")
    r = r.apply(0, "play 3333")  # seat 0's one bomb
    assert r.bombs_left == (0, 2, -1, -1)
    r = r.apply(1, "play 66666")  # seat 1's first of two; a 5-card bomb doubles
    assert r.bombs_left == (0, 1, -1, -1)
    assert r.multiplier == 2
    r = r.apply(2, "pass")
    r = r.apply(3, "pass")
    # seat 0 holds 33334444444455555555 but may no longer bomb: passing is all it has
    assert [str(a) for a in r.legal_actions(0)] == ["pass"]
    with pytest.raises(ddz.IllegalAction, match="all the bombs its auction allows"):
        r.apply(0, "play 44444444")
    r = r.apply(0, "pass")
    # seat 1 leads its second bomb, then none is left to it
    r = r.apply(1, "play 7777")
    assert r.bombs_left == (0, 0, -1, -1)
    for seat in (2, 3, 0):
        r = r.apply(seat, "pass")
    assert bombs_in(r, 1) == []
    with pytest.raises(ddz.IllegalAction, match=r"bid 2\): not 8888"):
        r.apply(1, "play 8888")
    # the landlord and the seat that never spoke keep every bomb
    r = r.apply(1, "play 6")
    r = r.apply(2, "play TTTTTTTT")
    r = r.apply(3, "play KKKKKKKK")
    r = r.apply(0, "pass")
    r = r.apply(1, "pass")
    r = r.apply(2, "pass")
    r = r.apply(3, "play AAAAAAAA")
    assert r.bombs_left == (0, 0, -1, -1)
    assert r.multiplier == 2**4  # 66666 TTTTTTTT KKKKKKKK AAAAAAAA; 3333 and 7777 do not double


def test_replay_keeps_the_limits() -> None:
    r = ddz.Round.new(7, RULES)
    while r.phase is ddz.Phase.AUCTION:
        r = r.apply(r.to_move, r.legal_actions()[-1])
    again = ddz.replay(str(r.record))
    assert again == r
    assert len(again.bombs_left) == 4


def test_rob_has_no_bids_to_read() -> None:
    with pytest.raises(ddz.ParseError, match="bomb_limits"):
        ddz.parse_rules("four_player bomb_limits=true rob=true")
