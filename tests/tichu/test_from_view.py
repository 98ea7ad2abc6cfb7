"""Positions rebuilt from a seat's view and the true hands play on exactly like the round itself."""

import random

import pytest

from pagoda.core import PagodaError
from pagoda.tichu import Round
from pagoda.tichu.round import Phase
from tests.tichu.randomplay import random_step


@pytest.mark.parametrize("seed", range(40))
def test_rebuilt_positions_play_on_like_the_round(seed: int) -> None:
    rng = random.Random(seed)
    r = Round.new(seed)
    checked = 0
    while r.phase is not Phase.OVER:
        if r.phase is Phase.PLAY and rng.random() < 0.3:
            seat = rng.randrange(4)
            again = Round.from_view(r.view(seat), [r.hand_mask(s) for s in range(4)])
            for s in range(4):
                assert [str(a) for a in again.legal_actions(s)] == [str(a) for a in r.legal_actions(s)]
            assert (again.to_move, again.top, again.wish, again.out) == (r.to_move, r.top, r.wish, r.out)
            assert again.is_trick_complete == r.is_trick_complete
            # Both go on identically to the end of the round.
            fork = random.Random(seed * 1000 + checked)
            a, b = r, again
            while a.phase is not Phase.OVER:
                step = random_step(a, fork)
                a, b = a.apply(*step), b.apply(*step)
            assert b.is_over
            assert a.score() == b.score()
            checked += 1
        r = r.apply(*random_step(r, rng))
    assert checked > 0


def test_a_view_with_wrong_hands_is_refused() -> None:
    r = Round.from_hands(
        [
            "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
            "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
            "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
            "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar",
        ]
    ).apply(0, "play Mj")
    hands = [r.hand_mask(s) for s in range(4)]
    view = r.view(1)
    swapped = [hands[0], hands[1], hands[3], hands[2]]
    assert (
        Round.from_view(view, swapped).hand_mask(2) == hands[3]
    )  # other seats' cards may be anything unseen
    with pytest.raises(PagodaError, match="not the view's own hand"):
        Round.from_view(view, [hands[1], hands[0], hands[2], hands[3]])
    mah_jong, two_jade = 1 << 1, 1 << 2  # the Mah Jong is on the table; 2g is still in hand 0
    with pytest.raises(PagodaError, match="already played or held"):
        Round.from_view(view, [hands[0] & ~two_jade | mah_jong, hands[1], hands[2], hands[3]])
    with pytest.raises(PagodaError, match="has 14 cards; the view says 13"):
        Round.from_view(view, [hands[0] | mah_jong, hands[1], hands[2], hands[3]])
    with pytest.raises(PagodaError, match="no deal"):
        _ = Round.from_view(view, hands).record
