"""Each refusal names its rule: a code and the parameters a client says it with (docs/protocol.md)."""

import pytest

from pagoda import doudizhu as ddz
from pagoda.core import IllegalAction
from pagoda.tichu import Round

HANDS = [
    "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
    "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
    "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
    "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar",
]


def refusal(state: object, seat: int, action: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        state.apply(seat, action)  # type: ignore[attr-defined]
    return refused.value


def test_a_two_on_an_ace_does_not_beat_it() -> None:
    r = Round.from_hands(HANDS).apply(0, "play Ag")
    e = refusal(r, 1, "play 2k")
    assert (e.reason, e.params) == ("does_not_beat", {"play": "2k", "top": "Ag"})


def test_the_wish_obliges_with_its_rank_and_an_example() -> None:
    r = Round.from_hands(HANDS).apply(0, "play Mj wish 7")
    e = refusal(r, 1, "pass")
    assert (e.reason, e.params) == ("wish_obliges", {"rank": 7, "seat": 1, "example": "7k"})
    e = refusal(r, 1, "play 8k")
    assert (e.reason, e.params["rank"]) == ("wish_obliges", 7)


def test_turn_holding_and_dragon_refusals_name_the_seats() -> None:
    r = Round.from_hands(HANDS).apply(0, "play Ag")
    assert (refusal(r, 2, "play 3b").reason, refusal(r, 2, "play 3b").params) == ("out_of_turn", {"seat": 1})
    assert (refusal(r, 1, "play 2b").reason, refusal(r, 1, "play 2b").params) == (
        "not_held",
        {"seat": 1, "cards": "2b"},
    )
    assert refusal(r, 1, "play 2k 3k").reason == "not_a_combination"
    assert refusal(Round.from_hands(HANDS), 0, "pass").reason == "leader_cannot_pass"


def test_a_replayed_record_keeps_the_code_of_its_bad_action() -> None:
    from pagoda.tichu import replay

    record = Round.from_hands(HANDS).apply(0, "play Ag").record
    bad = record.__class__(record.headers, (*record.actions, (1, "play 2k")))
    with pytest.raises(IllegalAction) as refused:
        replay(bad)
    assert str(refused.value).startswith("action 2 (1 play 2k): ")
    assert refused.value.reason == "does_not_beat"


def test_dou_di_zhu_refusals_name_their_rule() -> None:
    r = ddz.Round.from_hands(["3345", "66", "7"], landlord=0).apply(0, "play 33")
    e = refusal(r, 1, "play 6")
    assert (e.reason, e.params) == ("does_not_beat", {"play": "6", "top": "33"})
    e = refusal(r, 2, "play 7")
    assert (e.reason, e.params) == ("not_your_turn", {"seat": 1})
    e = refusal(r, 1, "play 77")
    assert (e.reason, e.params) == ("not_held", {"seat": 1, "cards": "77"})
    assert (
        refusal(ddz.Round.from_hands(["33", "4", "5"], landlord=0), 0, "pass").reason == "leader_cannot_pass"
    )


@pytest.mark.parametrize("seat", [0.0, False, "0", None])
def test_a_seat_is_an_int_in_both_games(seat: object) -> None:
    # 0.0 and False equal 0: once they were recorded as the seat that acted
    tichu_round = Round.new(seed=3)
    assert refusal_by(tichu_round, seat, "no-grand").reason == "not_a_seat"
    ddz_round = ddz.Round.new(3)
    assert refusal_by(ddz_round, seat, "pass").reason == "not_a_seat"


def refusal_by(state: object, seat: object, action: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        state.apply(seat, action)  # type: ignore[attr-defined]
    return refused.value
