"""Properties: notation round trips, classification agrees with generation, generation agrees
with an independent brute-force enumerator (every sub-multiset of a small hand, classified), and the
laizi generator agrees with its reference on whole hands."""

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pagoda import doudizhu as ddz
from pagoda.doudizhu.cards import JOKER_B, NUM_RANKS, RANK_CHARS, counts_of, format_mask, pack
from pagoda.doudizhu.combos import readings
from pagoda.doudizhu.movegen import wild_plays, wild_plays_reference
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


def engine_plays(engine: str, mask: int, rules: ddz.Rules, wild: int = -1) -> list[ddz.Combo]:
    """The leads of ``mask`` listed by ``engine`` (the Python reference or the native core)."""
    if engine == "python":
        return ddz.legal_plays(mask, None, rules, wild)
    from pagoda.doudizhu import native

    return [a.combo for a in native.legal_plays(mask, None, rules, wild) if a.combo is not None]


@settings(max_examples=120, deadline=None)
@given(hands(most=12, decks=2), st.sampled_from(PRESETS), st.sampled_from(["python", "native"]))
def test_leads_equal_brute_force(mask: int, preset: str, engine: str) -> None:
    rules = ddz.RULES[preset]
    if rules.decks == 1 and any(n > (1 if i >= JOKER_B else 4) for i, n in enumerate(counts_of(mask))):
        return
    generated = {p.mask for p in engine_plays(engine, mask, rules)}
    assert generated == brute_force(mask, rules)


@settings(max_examples=60, deadline=None)
@given(hands(most=7), st.integers(0, JOKER_B - 1), st.sampled_from(["python", "native"]))
def test_wild_plays_read_back(mask: int, wild: int, engine: str) -> None:
    rules = ddz.parse_rules(f"laizi wild={RANK_CHARS[wild]}")
    found = engine_plays(engine, mask, rules, wild)
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


WILD_PRESETS = [
    "laizi",
    "laizi wild_bomb_top=true",
    "laizi pair_kickers_same_rank=false kicker_max_same=3 kickers_extend_plane=false",
    "laizi trio_solo=false four_two_solo=false",
    "four_player",
]


def _play_keys(found: list[ddz.Combo]) -> list[tuple[int, int, str, int, int, int]]:
    return sorted((p.mask, p.reading, p.kind, p.rank, p.length, p.order) for p in found)


@settings(max_examples=30, deadline=None)
@given(
    hands(most=17),
    st.integers(0, JOKER_B - 1),
    st.integers(1, 4),
    st.sampled_from(WILD_PRESETS),
    st.randoms(use_true_random=False),
)
def test_wild_generator_equals_reference(mask: int, wild: int, wilds: int, preset: str, rnd: Any) -> None:
    # the generator that works from rank counts lists exactly the (cards, reading, kind, rank) plays
    # of the reference one that reads a relaxed hand and filters it, on a lead and on plays to beat
    rules = ddz.parse_rules(preset)
    counts = counts_of(mask)
    counts[wild] = max(counts[wild], wilds)
    mask = pack(counts)
    leads = wild_plays_reference(mask, None, rules, wild)
    assert _play_keys(wild_plays(mask, None, rules, wild)) == _play_keys(leads)
    others = ddz.plays(pack([4 - n if i < JOKER_B else 1 - n for i, n in enumerate(counts)]), None, rules)
    for on in [rnd.choice(leads), *rnd.sample(others, min(3, len(others)))]:
        reference = wild_plays_reference(mask, on, rules, wild)
        assert _play_keys(wild_plays(mask, on, rules, wild)) == _play_keys(reference)
