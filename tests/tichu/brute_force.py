"""A deliberately simple, independent Tichu combination enumerator for small hands.

It shares nothing with :mod:`pagoda.tichu`: cards are plain text tokens ("5g", "Mj", "Ph"), every
subset of a hand is tried, and each subset is read from first principles, straight from the rules
(RULINGS.md, Tichu, `standard`):

- single: any one card. Mah Jong 1, 2..A = 2..14, Dragon 15; the Phoenix alone is the rank it is played
  on + 1/2 (1.5 when led) and cannot be played on the Dragon; the Dog is its own kind, only ever led.
- pair, triple: 2 or 3 cards of one rank; full house: a triple and a pair of another rank, ranked by the
  triple; pair run: 2 or more pairs of consecutive ranks, ranked by the top; straight: 5 or more
  consecutive ranks (the Mah Jong may be the 1), ranked by the top. Dog and Dragon are never part of
  these, the Mah Jong only of a straight.
- the Phoenix stands for any rank 2..A inside those (never for the Mah Jong, Dog or Dragon); where
  several readings exist the highest one counts.
- bombs: four natural cards of one rank; 5 or more natural cards of one suit in consecutive ranks (a
  straight flush, never also a straight). No Phoenix and no Mah Jong in a bomb.
- beating: nothing beats the Dog; a bomb beats every other combination, and a bomb beats a bomb when it
  is a straight flush against four of a kind, a longer straight flush, or else the same shape with a
  higher top; otherwise the same kind and the same number of cards with a higher rank.

>>> len(legal_plays(["2g", "2k", "Ph"], None))
7
>>> highest_reading(("Ak", "Ar", "Kg", "Kr", "Ph"))
Reading(kind='full_house', rank=14, length=5)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

RANKS = "23456789TJQKA"
SUITS = "gkbr"
SPECIALS = ("Mj", "Dg", "Ph", "Dr")
RANK_OF = {r: i + 2 for i, r in enumerate(RANKS)}
BOMB_KINDS = ("four_of_a_kind", "straight_flush")
DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS) + SPECIALS


@dataclass(frozen=True, order=True)
class Reading:
    """One way to read a card set: its kind, rank (float for a Phoenix single) and number of cards."""

    kind: str
    rank: float
    length: int

    @property
    def is_bomb(self) -> bool:
        """Four of a kind or straight flush."""
        return self.kind in BOMB_KINDS


def is_natural(card: str) -> bool:
    """A suited card 2..A."""
    return card not in SPECIALS


def rank_of(card: str) -> int:
    """Rank value of a natural card."""
    return RANK_OF[card[0]]


def suit_of(card: str) -> str:
    """Suit letter of a natural card."""
    return card[1]


def consecutive(values: Sequence[int]) -> bool:
    """Sorted, distinct and each one more than the one before."""
    return all(b == a + 1 for a, b in itertools.pairwise(values))


def phoenix_single_rank(top: Reading | None) -> float:
    """The Phoenix alone: 1.5 when led, else the rank of the single it is played on + 1/2."""
    if top is None or top.kind != "single":
        return 1.5
    return top.rank + 0.5


def _shape_readings(values: list[int]) -> list[Reading]:
    """Non-bomb readings of a multiset of rank values (1 = Mah Jong), all naturals already substituted."""
    n = len(values)
    vals = sorted(values)
    counts = Counter(vals)
    out: list[Reading] = []
    no_one = 1 not in counts
    if n == 2 and no_one and len(counts) == 1:
        out.append(Reading("pair", vals[0], 2))
    if n == 3 and no_one and len(counts) == 1:
        out.append(Reading("triple", vals[0], 3))
    if n == 5 and no_one and sorted(counts.values()) == [2, 3]:
        triple = next(v for v, c in counts.items() if c == 3)
        out.append(Reading("full_house", triple, 5))
    if n >= 4 and n % 2 == 0 and no_one and all(c == 2 for c in counts.values()):
        distinct = sorted(counts)
        if consecutive(distinct):
            out.append(Reading("pair_run", distinct[-1], n))
    if n >= 5 and len(counts) == n and consecutive(vals):
        out.append(Reading("straight", vals[-1], n))
    return out


def readings(cards: Sequence[str], top: Reading | None = None) -> list[Reading]:
    """Every reading of the card set (empty: no combination); `top` only matters for a lone Phoenix."""
    n = len(cards)
    if n == 0:
        return []
    if n == 1:
        card = cards[0]
        if card == "Dg":
            return [Reading("dog", 0, 1)]
        if card == "Dr":
            return [Reading("single", 15, 1)]
        if card == "Mj":
            return [Reading("single", 1, 1)]
        if card == "Ph":
            return [Reading("single", phoenix_single_rank(top), 1)]
        return [Reading("single", rank_of(card), 1)]
    if "Dg" in cards or "Dr" in cards:
        return []
    if len(set(cards)) != n:
        return []
    naturals = [c for c in cards if is_natural(c)]
    has_phoenix = "Ph" in cards
    has_mahjong = "Mj" in cards
    if not has_phoenix and not has_mahjong:
        nat_values = sorted(rank_of(c) for c in naturals)
        if n == 4 and len(set(nat_values)) == 1:
            return [Reading("four_of_a_kind", nat_values[0], 4)]
        if n >= 5 and len({suit_of(c) for c in naturals}) == 1 and consecutive(nat_values):
            return [Reading("straight_flush", nat_values[-1], n)]
    base = [rank_of(c) for c in naturals] + ([1] if has_mahjong else [])
    options = [[*base, v] for v in range(2, 15)] if has_phoenix else [base]
    found: set[Reading] = set()
    for values in options:
        found.update(_shape_readings(values))
    return sorted(found)


def highest_reading(cards: Sequence[str], top: Reading | None = None) -> Reading | None:
    """The reading that counts: the highest rank (all readings of one set share a kind)."""
    rs = readings(cards, top)
    if not rs:
        return None
    return max(rs, key=lambda r: r.rank)


def _bomb_key(r: Reading) -> tuple[int, int, float]:
    if r.kind == "straight_flush":
        return (1, r.length, r.rank)
    return (0, 4, r.rank)


def beats(play: Reading, top: Reading | None) -> bool:
    """May `play` be played on `top` (None = leading)?"""
    if top is None:
        return True
    if top.kind == "dog" or play.kind == "dog":
        return False
    if play.is_bomb:
        return not top.is_bomb or _bomb_key(play) > _bomb_key(top)
    if top.is_bomb:
        return False
    if play.kind != top.kind or play.length != top.length:
        return False
    if play.kind == "single" and top.rank == 15:
        return False  # nothing but a bomb beats the Dragon (and the Phoenix may not be played on it)
    return play.rank > top.rank


def subsets(hand: Sequence[str]) -> Iterable[tuple[str, ...]]:
    """Every non-empty subset, in a fixed order."""
    for k in range(1, len(hand) + 1):
        yield from itertools.combinations(hand, k)


def legal_plays(hand: Sequence[str], top: Reading | None) -> dict[frozenset[str], Reading]:
    """Every card set from `hand` that may be played on `top`, with the reading it is played as."""
    out: dict[frozenset[str], Reading] = {}
    for subset in subsets(hand):
        r = highest_reading(subset, top)
        if r is not None and beats(r, top):
            out[frozenset(subset)] = r
    return out
