"""Properties: notation round trips, classification agrees with generation, and generation agrees
with an independent brute-force enumerator (every sub-multiset of a small hand, classified)."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from pagoda import doudizhu as ddz
from pagoda.doudizhu.cards import JOKER_B, NUM_RANKS, RANK_CHARS, counts_of, format_mask, pack
from pagoda.doudizhu.combos import readings
from pagoda.doudizhu.wild import hand_allows, wild_readings

PRESETS = ["classic", "rlcard", "openspiel", "four_player"]


@st.composite
def hands(draw: st.DrawFn, most: int = 20, decks: int = 1) -> int:
    """A packed hand of at most ``most`` cards drawn from ``decks`` packs."""
    pool = [i for i in range(NUM_RANKS) for _ in range(decks * (1 if i >= JOKER_B else 4))]
    picked = draw(st.lists(st.sampled_from(range(len(pool))), max_size=most, unique=True))
    counts = [0] * NUM_RANKS
    for j in picked:
        counts[pool[j]] += 1
    return pack(counts)


@given(hands(), st.randoms())
def test_notation_round_trip(mask: int, rnd: object) -> None:
    text = format_mask(mask)
    assert ddz.parse_cards(text).mask == mask
    spaced = " ".join(text).replace("T", "10")
    assert ddz.parse_cards(spaced).mask == mask
    assert str(ddz.parse_cards(spaced)) == text
    assert ddz.format_cards(ddz.Cards(mask)) == text


@settings(max_examples=150, deadline=None)
@given(hands(most=14), st.sampled_from(PRESETS))
def test_classify_returns_generated_combo(mask: int, preset: str) -> None:
    rules = ddz.RULES[preset]
    leads = ddz.plays(mask, None, rules)
    for p in leads:
        assert ddz.classify(p.mask, rules) == p
        assert ddz.beats(p, None)
    for on in leads[:: max(1, len(leads) // 6)]:
        for p in ddz.plays(mask, on, rules):
            assert ddz.beats(p, on)
            assert not ddz.beats(on, p)
            if not p.is_bomb:
                assert ddz.classify(p.mask, rules, on=on) == p


def brute_force(mask: int, rules: ddz.Rules) -> set[int]:
    """Every sub-multiset of the hand that reads as some combination the hand may lead."""
    counts = counts_of(mask)
    found = set()
    for pick in itertools.product(*(range(n + 1) for n in counts)):
        sub = pack(pick)
        if sub and any(hand_allows(c, counts, rules) is None for c in readings(sub, rules)):
            found.add(sub)
    return found


@settings(max_examples=120, deadline=None)
@given(hands(most=12, decks=2), st.sampled_from(PRESETS))
def test_leads_equal_brute_force(mask: int, preset: str) -> None:
    rules = ddz.RULES[preset]
    if rules.decks == 1 and any(n > (1 if i >= JOKER_B else 4) for i, n in enumerate(counts_of(mask))):
        return
    generated = {p.mask for p in ddz.plays(mask, None, rules)}
    assert generated == brute_force(mask, rules)


@settings(max_examples=60, deadline=None)
@given(hands(most=7), st.integers(0, JOKER_B - 1))
def test_wild_plays_read_back(mask: int, wild: int) -> None:
    rules = ddz.parse_rules(f"laizi wild={RANK_CHARS[wild]}")
    found = ddz.legal_plays(mask, None, rules, wild)
    for p in found:
        assert p in wild_readings(p.mask, p.reading, rules, wild)
    # brute force: every (cards, reading) pair of the hand's sub-multisets
    counts = counts_of(mask)
    expected = set()
    for pick in itertools.product(*(range(n + 1) for n in counts)):
        sub = pack(pick)
        if sub:
            expected |= {(c.mask, c.reading) for c in wild_readings(sub, None, rules, wild)}
    assert {(p.mask, p.reading) for p in found} == expected
