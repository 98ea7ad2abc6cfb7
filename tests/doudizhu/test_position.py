"""The position notation: one line of text that reads back to an equal round, everywhere in random
play of every preset; the reprs that evaluate back; a record that starts from a position; and
bad text refused with the part that is wrong."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pagoda.doudizhu
from pagoda import doudizhu as ddz
from pagoda.core import GameState

PRESETS = [*ddz.RULES, "classic rob=true", "four_player bomb_limits=true", "laizi wild=3"]
NAMESPACE = vars(pagoda.doudizhu)


def test_round_satisfies_the_protocol() -> None:
    assert isinstance(ddz.Round.new(3), GameState)
    assert isinstance(ddz.Round.from_hands(["33", "4", "5"]), GameState)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(PRESETS))
def test_positions_round_trip_through_random_play(seed: int, preset: str) -> None:
    rules = ddz.parse_rules(preset)
    rng = random.Random(seed)
    r = ddz.Round.new(seed, rules)
    q = ddz.Round.from_position(r.position())
    while True:
        text = r.position()
        assert "\n" not in text
        assert q.position() == text
        assert ddz.Round.from_position(text).position() == text
        assert q == r
        assert hash(q) == hash(r)
        assert repr(r) == f"Round.from_position({text!r})"
        assert eval(repr(r), NAMESPACE) == r
        assert q.decisions() == r.decisions()
        for seat in range(rules.players):
            assert q.legal_actions(seat) == r.legal_actions(seat)
        assert (q.is_over, q.score(), q.multiplier, q.spring) == (
            r.is_over,
            r.score(),
            r.multiplier,
            r.spring,
        )
        for seat in range(rules.players):
            v = r.view(seat)
            assert "\n" not in str(v)
            assert ddz.View.from_text(str(v)) == v
            assert eval(repr(v), NAMESPACE) == v
            assert q.view(seat)[:-2] == v[:-2]  # all but the history (q's starts at the position)
        # the record of a state made from a position starts from it, and replays
        again = ddz.replay(str(q.record))
        assert again == q
        assert str(again.record) == str(q.record)
        if r.is_over:
            break
        action = rng.choice(r.legal_actions(r.to_move))
        r = r.apply(r.to_move, action)
        q = q.apply(q.to_move, str(action))


def test_a_record_from_a_position() -> None:
    start = ddz.Round.from_hands(["334", "4", "5"], landlord=0)
    r = ddz.Round.from_position(start.position()).apply(0, "play 33")
    assert str(r.record) == "\n".join(
        [
            '[Game "doudizhu"]',
            '[Rules "classic"]',
            f'[Position "{start.position()}"]',
            "",
            "0 play 33",
        ]
    )
    assert ddz.replay(r.record) == r == start.apply(0, "play 33")


def test_a_redeal_from_a_position_is_the_seed_s_next_deal() -> None:
    r = ddz.Round.new(2)  # seed 2: everyone passes, deal 2 follows
    q = ddz.Round.from_position(r.position())
    for _ in range(3):
        r = r.apply(r.to_move, "pass")
        q = q.apply(q.to_move, "pass")
    assert r.deal_no == q.deal_no == 2
    assert q == r
    assert ddz.replay(q.record) == q


EXAMPLE = ddz.Round.from_hands(["334", "4", "5"], landlord=0).position()


def test_a_view_is_one_line() -> None:
    r = ddz.Round.new(5, ddz.RULES["laizi"])
    v = r.view(1)
    assert str(v).startswith("seat 1; rules laizi; phase auction; to ")
    assert v.kitty is None
    assert ddz.View.from_text(str(v)) == v
    with pytest.raises(ddz.ParseError, match="a view has 14 fields"):
        ddz.View.from_text("seat 1")


BAD = [
    (EXAMPLE.replace("; to 0", ""), "a position has 19 fields separated by ';', not 18"),
    (
        EXAMPLE.replace("phase play", "phase bidding"),
        "position field phase is auction, play or over, not 'bidding'",
    ),
    (EXAMPLE.replace("rules classic", "rules chess"), "position field rules: "),
    (
        EXAMPLE.replace("hands 334/4/5", "hands 334/4"),
        r"position field hands has 2 entries, not one per seat \(3\)",
    ),
    (EXAMPLE.replace("hands 334/4/5", "hands 33X/4/5"), "position field hands: cannot read 'X'"),
    (EXAMPLE.replace("hands 334/4/5", "hands 33333/4/5"), "position field hands: 5 cards of rank 3"),
    (EXAMPLE.replace("; to 0", "; to 3"), "position field to: classic has seats 0..2, not 3"),
    (EXAMPLE.replace("; to 0", "; to \u0661"), "position is ASCII: '\u0661' .ARABIC-INDIC DIGIT ONE."),
    (EXAMPLE.replace("passes 0", "passes x"), "position field passes is a number in ASCII digits, not 'x'"),
    (EXAMPLE.replace("top -", "top pair 3 33"), "position fields top and by: a top play has a seat"),
    (EXAMPLE.replace("top -", "top pair 4 33"), "position field top: 33 is not a pair of rank 4"),
    (EXAMPLE.replace("wild -", "wild B"), "position field wild is a rank 3..2 or -, not 'B'"),
    (EXAMPLE.replace("landlord 0", "landlord -"), "position field landlord: the play phase has none"),
    (EXAMPLE.replace("auction -", "auction 0 shout"), "position field auction: '0 shout' is not"),
    (EXAMPLE.replace("deal 1;", "deal 0;"), "position field deal: deals are numbered from 1"),
    (
        EXAMPLE.replace("deal 1; first 0", "first 0; deal 1"),
        "position field 4 is 'first 0', not 'deal VALUE'",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_positions_name_the_bad_part(text: str, message: str) -> None:
    with pytest.raises(ddz.ParseError, match=message):
        ddz.Round.from_position(text)
