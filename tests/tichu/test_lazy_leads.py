"""A lead's plays counted at once and built only when read (``lead_plays``, in
``pagoda.tichu.leads``) against the plain per-kind generators beside it (``lead_reference``,
what ``raw_plays`` lists leading, itself checked against a brute force): the same plays in the
same order, and the same count.

Random play reads one play of each lead, so the lazy list must agree with the plain one in its
length and at every index; hands are drawn with and without the Phoenix, the Mah Jong and the
Dog, from a few cards to fourteen, and from decks thinned to runs and pairs where the lazy
counts (pair runs, full houses, straights) have the most to count.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagoda.tichu import Round
from pagoda.tichu.actions import SINGLE_PLAYS, LeadList
from pagoda.tichu.cards import DOG_BIT, MAH_JONG_BIT, PHOENIX_BIT, to_mask
from pagoda.tichu.generators import bomb_plays, five_rank_starts, rank_counts, straight_windows
from pagoda.tichu.leads import count_bombs, lead_parts, lead_reference
from pagoda.tichu.movegen import lead_plays, raw_plays
from tests.tichu.randomplay import no_bombs

_WISHES = tuple(range(2, 15))


def _check(mask: int) -> None:
    plain = lead_reference(mask)
    assert raw_plays(mask, None) == plain
    lazy = lead_plays(mask)
    assert len(lazy) == len(plain)
    assert [lazy[i] for i in range(len(lazy))] == plain
    assert [lazy[i] for i in range(-1, -len(lazy) - 1, -1)] == plain[::-1]
    with pytest.raises(IndexError):
        _ = lazy[len(plain)]
    if mask & MAH_JONG_BIT:
        wished = lead_plays(mask, _WISHES)
        expected = [(p, w) if w else p for p in plain for w in (_WISHES if p[2] & MAH_JONG_BIT else (0,))]
        assert len(wished) == len(expected)
        assert [wished[i] for i in range(len(wished))] == expected


def _hand(rng: random.Random, size: int, ranks: range, specials: int) -> int:
    """``size`` naturals of ``ranks`` plus the ``specials`` bits."""
    deck = [2 + (r - 2) * 4 + s for r in ranks for s in range(4)]
    mask = specials
    for c in rng.sample(deck, min(size, len(deck))):
        mask |= 1 << c
    return mask


@pytest.mark.parametrize("seed", range(40))
def test_lazy_leads_equal_the_plain_list(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        specials = 0
        for bit in (DOG_BIT, MAH_JONG_BIT, PHOENIX_BIT, 1 << 55):
            if rng.random() < 0.35:
                specials |= bit
        lo = rng.randint(2, 10)
        ranks = range(lo, min(15, lo + rng.choice((3, 5, 7, 13))))  # narrow decks: runs, pairs, bombs
        _check(_hand(rng, rng.randint(1, 14 - specials.bit_count()), ranks, specials))


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=55), min_size=1, max_size=14))
def test_lazy_leads_equal_the_plain_list_on_any_hand(cards: set[int]) -> None:
    _check(sum(1 << c for c in cards))


@st.composite
def run_prone_hands(draw: st.DrawFn) -> int:
    """Up to 14 cards of a few neighbouring ranks and any of the specials: pairs, pair runs, full
    houses, straights and bombs are common."""
    lo = draw(st.integers(2, 10))
    ranks = range(lo, min(15, lo + draw(st.sampled_from((3, 5, 7)))))
    specials = draw(st.sets(st.sampled_from((0, 1, 54, 55))))
    deck = [2 + (r - 2) * 4 + s for r in ranks for s in range(4)]
    naturals = draw(st.sets(st.sampled_from(deck), max_size=14 - len(specials)))
    return sum(1 << c for c in specials | naturals)


@settings(max_examples=300, deadline=None)
@given(run_prone_hands())
def test_lazy_leads_equal_the_plain_list_on_run_prone_hands(mask: int) -> None:
    _check(mask)


@settings(max_examples=300, deadline=None)
@given(run_prone_hands(), st.sampled_from(((), _WISHES, (0, *_WISHES))))
def test_each_counted_kind_has_as_many_plays_as_its_generator_makes(
    mask: int, wishes: tuple[int, ...]
) -> None:
    if not mask & MAH_JONG_BIT:
        wishes = ()
    parts = lead_parts(mask, wishes)
    made = [list(make()) for _, make in parts]
    assert [count for count, _ in parts] == [len(plays) for plays in made]
    # After the singles, the parts are the plain list's plays (with their wishes), in its order.
    singles = mask.bit_count() + (len(wishes) - 1 if wishes else 0)
    plain = lead_reference(mask)
    listed = [e for p in plain for e in ([(p, w) for w in wishes] if wishes and p[2] & MAH_JONG_BIT else [p])]
    assert [play for plays in made for play in plays] == listed[singles:]


def test_a_lead_hands_out_the_shared_single_plays() -> None:
    r = Round.from_hands(
        [
            "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
            "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
            "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
            "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar",
        ]
    )
    r = r.apply(0, "play 2g").apply(1, "pass").apply(2, "pass").apply(3, "pass")
    r = no_bombs(r).apply(0, "take")
    actions = r.legal_actions(0)
    assert isinstance(actions, LeadList)
    # Seat 0 holds Mj 3g..Ag: the Mah Jong without a wish and with each of 2..A (14 plays),
    # then 3g, card 2 + 4 x (3 - 2) = 6.
    assert [str(a) for a in actions[:2]] == ["play Mj", "play Mj wish 2"]
    assert str(actions[13]) == "play Mj wish A"
    assert actions[0] is SINGLE_PLAYS[1]
    assert actions[14] is SINGLE_PLAYS[6]
    after = r.apply(0, actions[14])
    assert after.top is SINGLE_PLAYS[6].combo
    assert [str(c) for c in after.hand(0)][:2] == ["Mj", "4g"]


@settings(max_examples=300, deadline=None)
@given(run_prone_hands())
def test_the_counted_lead_shortcuts_agree_with_the_generators(mask: int) -> None:
    # The counted lead looks for straights only where five_rank_starts finds five ranks in a
    # row (without the Mah Jong and the Phoenix), and counts bombs from the card bits.
    naturals = mask & ~(MAH_JONG_BIT | PHOENIX_BIT)
    has_straights = bool(straight_windows(rank_counts(naturals), 0, None))
    assert bool(five_rank_starts(naturals)) == has_straights
    assert count_bombs(mask) == len(bomb_plays(mask, None))


def test_the_counted_lead_finds_long_straight_flushes() -> None:
    mask = to_mask("2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag 2k")
    # One run of 13 in a suit: 9 of five cards, 8 of six, ..., 1 of thirteen = 45.
    assert count_bombs(mask) == 45 == len(bomb_plays(mask, None))
    assert five_rank_starts(to_mask("3k 4k 5b 6r 7g 8b")) == to_mask("3g 4g")  # (from the 3 and the 4)
    assert five_rank_starts(to_mask("3g 4k 5b 6r 8g")) == 0
