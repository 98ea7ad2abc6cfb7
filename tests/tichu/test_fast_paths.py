"""The rules core's fast paths against its plain ones: dealing, listing legal actions, trusting them.

``Round.new`` shuffles with its own copy of ``random.shuffle``; the seat to move on a single, a
complete trick and out-of-turn bombs have written-out listings; a lead lists its straights and
the Mah Jong's wishes lazily; a round applies its own listed actions without checking them again.
Each must agree with the general route (``plays``, itself checked against a brute force).
"""

import random

import pytest

from pagoda.core import IllegalAction
from pagoda.tichu import Round, bombs, format_cards, plays
from pagoda.tichu.actions import PASS, PLAY, TAKE, TICHU, Action, PlayList
from pagoda.tichu.cards import CARDS, RANK_MASKS, format_rank
from pagoda.tichu.round import Phase
from tests.tichu.randomplay import no_bombs, random_step


@pytest.mark.parametrize("seed", [0, 1, 2, 7, 99, 12345, 2**40 + 3])
def test_new_deals_what_random_shuffle_deals(seed: int) -> None:
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    deal = " | ".join(format_cards(deck[14 * s : 14 * s + 14]) for s in range(4))
    assert Round.new(seed).record.header("Deal") == deal


def _expected(r: Round, seat: int) -> list[str]:
    """The legal actions of ``seat`` in play, from the move generator and the rules text alone."""
    hand, top = r.hand_mask(seat), r.top
    # Standard rules: Tichu is called before one's first card, and not after a call of one's own.
    called = seat in r.grand_calls or seat in r.tichu_calls
    tichu = [TICHU] if hand.bit_count() == 14 and not called else []
    # A seat in the bomb window may also answer no-bomb; take and the Dragon's gift wait for it.
    asked = ["no-bomb"] if seat in r.window else []
    if seat != r.to_move:
        live = top is not None and top.kind != "dog" and len(r.out) < 3
        return [f"play {c}" for c in bombs(hand, top)] * live + asked + tichu
    if top is not None and r.is_trick_complete:
        gifts = [f"give-dragon {(seat + 1) % 4}", f"give-dragon {(seat + 3) % 4}"]
        first = [] if r.window else [TAKE] if top.mask != 1 << 55 else gifts
        return first + [f"play {c}" for c in bombs(hand, top)] + asked + tichu
    # A play of the Mah Jong comes without a wish, then with each wish 2..A.
    wishes = [""] + [f" wish {format_rank(w)}" for w in range(2, 15)]
    found = [f"play {c}{w}" for c in plays(hand, top) for w in (wishes if c.mask & 2 else [""])]
    if r.wish and hand & RANK_MASKS[r.wish]:
        wished = [f"play {c}" for c in plays(hand, top) if c.mask & RANK_MASKS[r.wish]]
        if wished:
            return wished + tichu
    return found + [PASS] * (top is not None) + tichu


@pytest.mark.parametrize("seed", range(12))
def test_legal_actions_in_play_match_the_move_generator(seed: int) -> None:
    rng = random.Random(seed)
    r = Round.new(seed)
    checked = 0
    while not r.is_over:
        if r.phase is Phase.PLAY:
            for seat in range(4):
                assert [str(a) for a in r.legal_actions(seat)] == _expected(r, seat), (seat, repr(r))
                checked += 1
        seat, action = random_step(r, rng)
        r = r.apply(seat, action)
    assert checked > 50


def test_a_listed_action_is_applied_and_an_equal_copy_is_checked() -> None:
    r = Round.from_hands(
        [
            "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
            "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
            "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
            "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar",
        ]
    )
    r = r.apply(0, "play Mj")
    listed = r.legal_actions(1)
    # 13 singles above the Mah Jong + pass (the straight flush 2k..Ak is a bomb: 9 bombs of 5 to
    # 13 cards: 9 + 8 + ... + 1 = 45) + tichu: 13 + 45 + 1 + 1 = 60
    assert len(listed) == 60
    played = r.apply(1, listed[0])
    copy = Action(PLAY, listed[0].mask)
    assert copy == listed[0]
    assert copy is not listed[0]
    assert r.apply(1, copy) == played
    with pytest.raises(IllegalAction, match="does not beat"):
        played.apply(2, Action(PLAY, 1 << 4))  # 2b on the 2k


def test_play_list_reads_like_a_list() -> None:
    r = Round.from_hands(
        [
            "Dg 2g 2k 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg",
            "Mj 2b 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
            "Ph Ag 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
            "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar",
        ]
    )
    r = r.apply(1, "play Mj 2b 3k 4k 5k").apply(2, "pass").apply(3, "pass").apply(0, "pass")
    r = no_bombs(r).apply(1, "take")
    led = r.apply(1, "play 6k").apply(2, "play Ab").apply(3, "pass").apply(0, "pass").apply(1, "pass")
    led = no_bombs(led).apply(2, "take")
    actions = led.legal_actions(2)
    assert isinstance(actions, PlayList)
    everything = list(actions)
    assert len(everything) == len(actions)
    assert actions[-1] is everything[-1]
    assert actions[0] is everything[0]
    assert actions[1:3] == everything[1:3]
    with pytest.raises(IndexError):
        _ = actions[len(actions)]
    with pytest.raises(IndexError):
        _ = actions[-len(actions) - 1]
