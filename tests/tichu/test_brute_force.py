"""The move generator and classifier against an independent brute force (every subset, read from the rules).

Seeded random small hands (at most 10 cards, specials often), led and on random tops of every kind; each top
is a card set the brute force reads itself, and the core must read it the same way before it is used.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from tests.tichu.brute_force import (
    DECK,
    RANKS,
    SPECIALS,
    SUITS,
    Reading,
    beats,
    highest_reading,
    legal_plays,
    rank_of,
)

tichu: Any = importlib.import_module("pagoda.tichu")

NATURALS = [c for c in DECK if c not in SPECIALS]


def text(cards: Sequence[str]) -> str:
    """Cards as the space-separated notation."""
    return " ".join(cards)


def tokens(combo: Any) -> frozenset[str]:
    """The card set of a core Combo, as tokens."""
    return frozenset(str(c) for c in combo.cards)


def same_reading(combo: Any, mine: Reading) -> bool:
    """Kind, rank, number of cards and bomb flag agree."""
    return (
        combo.kind == mine.kind
        and float(combo.rank) == float(mine.rank)
        and combo.length == mine.length
        and bool(combo.is_bomb) == mine.is_bomb
    )


def describe(combo: Any) -> str:
    return f"{tichu.format_cards(combo.cards)} ({combo.kind} {combo.rank} len {combo.length})"


def random_hand(rng: random.Random, exclude: set[str], size: int) -> list[str]:
    """A small hand, half the time from a narrow window of ranks (more pairs, runs, straights)."""
    pool = [c for c in DECK if c not in exclude]
    specials = [c for c in SPECIALS if c in pool and rng.random() < 0.4]
    naturals = [c for c in pool if c not in SPECIALS]
    if rng.random() < 0.5:
        width = rng.randint(3, 7)
        low = rng.randint(2, 15 - width)
        window = [c for c in naturals if low <= rank_of(c) < low + width]
        if len(window) >= size:
            naturals = window
    rng.shuffle(naturals)
    hand = specials[:size] + naturals[: max(0, size - len(specials))]
    rng.shuffle(hand)
    return hand


def _of_rank(rng: random.Random, rank: int, k: int) -> list[str]:
    return [RANKS[rank - 2] + s for s in rng.sample(SUITS, k)]


def _maybe_phoenix(rng: random.Random, cards: list[str]) -> list[str]:
    """Replace one natural card by the Phoenix a third of the time."""
    if rng.random() < 1 / 3:
        naturals = [i for i, c in enumerate(cards) if c != "Mj"]
        cards = list(cards)
        cards[rng.choice(naturals)] = "Ph"
    return cards


def _top_single(rng: random.Random) -> tuple[list[str], list[str]]:
    return [rng.choice([*NATURALS, "Mj", "Dr"])], []


def _top_phoenix(rng: random.Random) -> tuple[list[str], list[str]]:
    if rng.random() < 0.2:
        return ["Ph"], []
    return ["Ph"], [rng.choice([*NATURALS, "Mj"])]


def _top_pair(rng: random.Random) -> tuple[list[str], list[str]]:
    return _maybe_phoenix(rng, _of_rank(rng, rng.randint(2, 14), 2)), []


def _top_triple(rng: random.Random) -> tuple[list[str], list[str]]:
    return _maybe_phoenix(rng, _of_rank(rng, rng.randint(2, 14), 3)), []


def _top_full_house(rng: random.Random) -> tuple[list[str], list[str]]:
    a, b = rng.sample(range(2, 15), 2)
    return _maybe_phoenix(rng, _of_rank(rng, a, 3) + _of_rank(rng, b, 2)), []


def _top_pair_run(rng: random.Random) -> tuple[list[str], list[str]]:
    pairs = rng.randint(2, 3)
    low = rng.randint(2, 15 - pairs)
    cards = [c for r in range(low, low + pairs) for c in _of_rank(rng, r, 2)]
    return _maybe_phoenix(rng, cards), []


def _top_straight(rng: random.Random) -> tuple[list[str], list[str]]:
    length = rng.randint(5, 8)
    low = rng.randint(1, 15 - length)
    cards = ["Mj" if r == 1 else RANKS[r - 2] + rng.choice(SUITS) for r in range(low, low + length)]
    return _maybe_phoenix(rng, cards), []


def _top_four(rng: random.Random) -> tuple[list[str], list[str]]:
    return _of_rank(rng, rng.randint(2, 14), 4), []


def _top_straight_flush(rng: random.Random) -> tuple[list[str], list[str]]:
    length = rng.randint(5, 7)
    low = rng.randint(2, 15 - length)
    suit = rng.choice(SUITS)
    return [RANKS[r - 2] + suit for r in range(low, low + length)], []


def _top_dog(rng: random.Random) -> tuple[list[str], list[str]]:
    return ["Dg"], []


TOPS: dict[str, Callable[[random.Random], tuple[list[str], list[str]]]] = {
    "single": _top_single,
    "phoenix": _top_phoenix,
    "pair": _top_pair,
    "triple": _top_triple,
    "full_house": _top_full_house,
    "pair_run": _top_pair_run,
    "straight": _top_straight,
    "four_of_a_kind": _top_four,
    "straight_flush": _top_straight_flush,
    "dog": _top_dog,
}


def compare_plays(hand: list[str], impl_top: Any, my_top: Reading | None, where: str) -> None:
    """tichu.plays against the brute force: the same card sets, each read the same way."""
    expected = legal_plays(hand, my_top)
    got = {tokens(c): c for c in tichu.plays(text(hand), on=impl_top)}
    got_list = list(tichu.plays(text(hand), on=impl_top))
    problems: list[str] = []
    if len(got_list) != len(got):
        problems.append(f"{len(got_list) - len(got)} card sets generated more than once")
    for cards in sorted(expected.keys() - got.keys(), key=sorted):
        problems.append(f"missing {text(sorted(cards))} ({expected[cards]})")
    for cards in sorted(got.keys() - expected.keys(), key=sorted):
        problems.append(f"extra {describe(got[cards])}")
    for cards in sorted(expected.keys() & got.keys(), key=sorted):
        if not same_reading(got[cards], expected[cards]):
            problems.append(f"reading of {describe(got[cards])}, expected {expected[cards]}")
    assert not problems, (
        f"{where}: hand {text(hand)}: expected {len(expected)}, got {len(got_list)}\n" + "\n".join(problems)
    )


@pytest.mark.parametrize("seed", range(300))
def test_plays_when_leading(seed: int) -> None:
    rng = random.Random(f"lead-{seed}")
    hand = random_hand(rng, set(), rng.randint(4, 10))
    compare_plays(hand, None, None, f"seed {seed}, leading")


@pytest.mark.parametrize("seed", range(400))
def test_plays_on_a_top(seed: int) -> None:
    rng = random.Random(f"top-{seed}")
    kind = list(TOPS)[seed % len(TOPS)]
    top_cards, under = TOPS[kind](rng)
    under_mine = highest_reading(under) if under else None
    my_top = highest_reading(top_cards, under_mine)
    assert my_top is not None, (kind, top_cards)
    impl_under = tichu.classify(text(under), on=None) if under else None
    impl_top = tichu.classify(text(top_cards), on=impl_under)
    where = f"seed {seed}, on {text(top_cards)}" + (f" (played on {text(under)})" if under else "")
    assert impl_top is not None, f"{where}: classify gave None, expected {my_top}"
    assert same_reading(impl_top, my_top), f"{where}: top read as {describe(impl_top)}, expected {my_top}"
    hand = random_hand(rng, set(top_cards) | set(under), rng.randint(5, 10))
    compare_plays(hand, impl_top, my_top, where)


@pytest.mark.parametrize("seed", range(60))
def test_classify_random_subsets(seed: int) -> None:
    rng = random.Random(f"classify-{seed}")
    hand = random_hand(rng, set(), 10)
    problems: list[str] = []
    for _ in range(60):
        k = rng.choice([1, 2, 3, 4, 4, 5, 5, 5, 6, 6, 7, 8])
        subset = rng.sample(hand, min(k, len(hand)))
        mine = highest_reading(subset)
        got = tichu.classify(text(subset), on=None)
        if mine is None:
            if got is not None:
                problems.append(f"{text(subset)}: expected no combination, got {describe(got)}")
        elif got is None:
            problems.append(f"{text(subset)}: expected {mine}, got None")
        elif not same_reading(got, mine):
            problems.append(f"{text(subset)}: expected {mine}, got {describe(got)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("seed", range(40))
def test_beats_between_random_combinations(seed: int) -> None:
    rng = random.Random(f"beats-{seed}")
    problems: list[str] = []
    kinds = [k for k in TOPS if k != "phoenix"]
    for _ in range(40):
        top_cards, _u = TOPS[rng.choice(kinds)](rng)
        play_cards: list[str] = []
        while True:
            play_cards, _u = TOPS[rng.choice(kinds)](rng)
            if not set(play_cards) & set(top_cards):
                break
        my_top, my_play = highest_reading(top_cards), highest_reading(play_cards)
        assert my_top is not None
        assert my_play is not None
        impl_top = tichu.classify(text(top_cards), on=None)
        impl_play = tichu.classify(text(play_cards), on=None)
        if impl_top is None or impl_play is None:
            problems.append(f"classify None for {text(top_cards)} or {text(play_cards)}")
            continue
        expected = beats(my_play, my_top)
        got = bool(tichu.beats(impl_play, impl_top))
        if got != expected:
            problems.append(f"{text(play_cards)} on {text(top_cards)}: expected {expected}, got {got}")
    assert not problems, "\n".join(problems)


def test_brute_force_readings_share_a_kind() -> None:
    """Self-check of the reference: no card set has readings of two kinds, so 'highest' is well defined."""
    from tests.tichu.brute_force import readings, subsets

    hand = ["5g", "5k", "6g", "6k", "7g", "Ph", "Mj", "8g", "9g"]
    for subset in subsets(hand):
        assert len({r.kind for r in readings(subset)}) <= 1, subset
