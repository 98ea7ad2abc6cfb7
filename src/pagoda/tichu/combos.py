"""Tichu combinations: what a set of cards is, and what beats what.

Kinds: ``single``; ``pair``; ``triple``; ``full_house`` (a triple and a pair, ranked by the
triple); ``pair_run`` (two or more consecutive pairs); ``straight`` (five or more consecutive
ranks, the Mah Jong may be its 1); the bombs ``four_of_a_kind`` and ``straight_flush`` (five or
more consecutive of one suit); and the ``dog``, which is only led, alone.

The Phoenix is wild in pairs, triples, full houses, pair runs and straights, but never in a bomb
and never stands for a special card. Where a set of cards can be read in several ways, its
highest reading counts (``Ak Ar Kg Kr Ph`` is Aces full of Kings); rules with ``phoenix_choice``
let the player name another (:func:`readings` lists them). A single Phoenix ranks half above the
card it is played on (1.5 when led) and cannot be played on the Dragon. The Dragon (15) beats
every single. Nothing is played on the Dog.

To beat a combination, play one of the same kind and length with a higher rank, or a bomb: any
straight flush beats any four of a kind, a longer straight flush a shorter one, and otherwise
the higher top card wins. Bombs beat everything but the Dog.
"""

from pagoda.tichu.cards import (
    CARDS,
    DOG_BIT,
    DRAGON_BIT,
    MAH_JONG_BIT,
    PHOENIX_BIT,
    SUIT_MASKS,
    Card,
    CardsLike,
    format_cards,
    format_rank,
    mask_cards,
    rank_shift,
    to_mask,
)

SINGLE = "single"
PAIR = "pair"
TRIPLE = "triple"
FULL_HOUSE = "full_house"
PAIR_RUN = "pair_run"
STRAIGHT = "straight"
FOUR_OF_A_KIND = "four_of_a_kind"
STRAIGHT_FLUSH = "straight_flush"
DOG_KIND = "dog"
KINDS = (SINGLE, PAIR, TRIPLE, FULL_HOUSE, PAIR_RUN, STRAIGHT, FOUR_OF_A_KIND, STRAIGHT_FLUSH, DOG_KIND)
BOMBS = frozenset((FOUR_OF_A_KIND, STRAIGHT_FLUSH))


class Combo:
    """A combination: its ``kind``, ``rank``, ``length`` (number of cards) and ``cards``.

    ``phoenix`` is the rank the Phoenix stands for in a multi-card combination (0 when it is
    not in one). Combos are immutable values and compare by all of these.

    >>> c = classify("Ak Ar Kg Kr Ph")
    >>> c.kind, c.rank, c.length, c.phoenix, c.is_bomb
    ('full_house', 14, 5, 14, False)
    """

    __slots__ = ("kind", "length", "mask", "phoenix", "rank")

    kind: str
    rank: float
    length: int
    mask: int
    phoenix: int

    def __init__(self, kind: str, rank: float, mask: int, phoenix: int = 0) -> None:
        self.kind = kind
        self.rank = rank
        self.mask = mask
        self.length = mask.bit_count()
        self.phoenix = phoenix

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, in hand order."""
        return mask_cards(self.mask)

    @property
    def is_bomb(self) -> bool:
        """Four of a kind or a straight flush."""
        return self.kind in BOMBS

    @property
    def bomb_key(self) -> tuple[int, int, float]:
        """Orders bombs: straight flushes above fours of a kind, then by length, then rank."""
        return (self.kind == STRAIGHT_FLUSH, self.length, self.rank)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Combo):
            return NotImplemented
        return (
            self.mask == other.mask
            and self.kind == other.kind
            and self.rank == other.rank
            and self.phoenix == other.phoenix
        )

    def __hash__(self) -> int:
        return hash((self.mask, self.kind, self.rank, self.phoenix))

    def __str__(self) -> str:
        return format_cards(self.mask)

    def __repr__(self) -> str:
        rank = self.rank if isinstance(self.rank, float) else format_rank_any(self.rank)
        return f"<Combo {self.kind} {rank}: {self}>"


def format_rank_any(rank: float) -> str:
    """A rank for people: ``2``..``A``, ``1`` for the Mah Jong, ``Dr`` 15, halves as numbers."""
    if rank != int(rank):
        return str(rank)
    r = int(rank)
    return format_rank(r) if 2 <= r <= 14 else {0: "0", 1: "1", 15: "Dr"}[r]


def _counts(mask: int) -> list[int]:
    """Cards per rank 0..15 of the naturals in ``mask`` (Mah Jong counted as rank 1)."""
    counts = [0] * 16
    for r in range(2, 15):
        counts[r] = (mask >> rank_shift(r) & 0xF).bit_count()
    counts[1] = 1 if mask & MAH_JONG_BIT else 0
    return counts


def _is_flush(mask: int) -> bool:
    return any(mask & ~s == 0 for s in SUIT_MASKS)


def readings(cards: CardsLike, on: Combo | None = None) -> list[Combo]:
    """Every way to read ``cards`` as a combination, highest first (empty if none).

    A single Phoenix is read against ``on``: half above it, 1.5 when led.

    >>> [(c.kind, c.rank) for c in readings("Kg Kr Qg Qb Ph")]
    [('full_house', 13), ('full_house', 12)]
    >>> [c.rank for c in readings("3g 4k 5b 6r Ph")]
    [7, 6]
    """
    mask = to_mask(cards)
    n = mask.bit_count()
    if n == 0:
        return []
    if n == 1:
        return [_single(mask, on)]
    if mask & (DOG_BIT | DRAGON_BIT):
        return []
    phoenix = bool(mask & PHOENIX_BIT)
    counts = _counts(mask)
    naturals = n - phoenix
    if mask & MAH_JONG_BIT:
        return _straights(mask, counts, n, phoenix)
    ranks = [r for r in range(2, 15) if counts[r]]
    out: list[Combo] = []
    if len(ranks) == 1:
        r = ranks[0]
        if n in (2, 3):
            out.append(Combo(PAIR if n == 2 else TRIPLE, r, mask, r if phoenix else 0))
        elif n == 4 and not phoenix:
            out.append(Combo(FOUR_OF_A_KIND, r, mask))
        return out
    if n == 5 and len(ranks) == 2:
        a, b = ranks  # a < b
        for t, p in ((b, a), (a, b)):
            fits = counts[t] <= 3 and counts[p] <= 2 and counts[t] + counts[p] == naturals
            if fits and (3 - counts[t]) + (2 - counts[p]) == int(phoenix):
                out.append(Combo(FULL_HOUSE, t, mask, (t if counts[t] < 3 else p) if phoenix else 0))
        return out
    if n >= 4 and n % 2 == 0 and all(counts[r] <= 2 for r in ranks):
        lo, hi = ranks[0], ranks[-1]
        if hi - lo + 1 == n // 2:
            short = [r for r in range(lo, hi + 1) if counts[r] < 2]
            if (not phoenix and not short) or (phoenix and len(short) == 1 and counts[short[0]] == 1):
                out.append(Combo(PAIR_RUN, hi, mask, short[0] if phoenix else 0))
                return out
    if n >= 5:
        out.extend(_straights(mask, counts, n, phoenix))
    return out


def _single(mask: int, on: Combo | None) -> Combo:
    card = mask.bit_length() - 1
    if mask == PHOENIX_BIT:
        rank = 1.5 if on is None or on.kind != SINGLE else on.rank + 0.5
        return Combo(SINGLE, rank, mask)
    if mask == DOG_BIT:
        return Combo(DOG_KIND, 0, mask)
    return Combo(SINGLE, CARDS[card].rank, mask)


def _straights(mask: int, counts: list[int], n: int, phoenix: bool) -> list[Combo]:
    """Straight readings of ``n`` cards: distinct consecutive ranks from 1 (Mah Jong) to 14."""
    ranks = [r for r in range(1, 15) if counts[r]]
    if n < 5 or any(counts[r] > 1 for r in ranks) or len(ranks) + phoenix != n:
        return []
    lo, hi = ranks[0], ranks[-1]
    gaps = [r for r in range(lo, hi + 1) if not counts[r]]
    if not phoenix:
        if gaps:
            return []
        naturals_only = mask & ~MAH_JONG_BIT == mask
        kind = STRAIGHT_FLUSH if naturals_only and _is_flush(mask) else STRAIGHT
        return [Combo(kind, hi, mask)]
    if len(gaps) > 1:
        return []
    if gaps:
        return [Combo(STRAIGHT, hi, mask, gaps[0])]
    out = []
    if hi < 14:
        out.append(Combo(STRAIGHT, hi + 1, mask, hi + 1))
    if lo > 2:
        out.append(Combo(STRAIGHT, hi, mask, lo - 1))
    return out


def classify(cards: CardsLike, on: Combo | None = None) -> Combo | None:
    """The combination ``cards`` form (its highest reading), or None if they form none.

    ``on`` is the combination on the table, which only matters for a single Phoenix.

    >>> classify("Mj 2g 3k 4b Ph")
    <Combo straight 5: Mj 2g 3k 4b Ph>
    >>> classify("Ph", on=classify("9g")).rank
    9.5
    >>> classify("2g 3g 4g 5g 6g").kind, classify("2g 3g 4g 5g Ph").kind
    ('straight_flush', 'straight')
    >>> classify("2g 2k 3b") is None
    True
    """
    found = readings(cards, on)
    return found[0] if found else None


def beats(combo: Combo, on: Combo | None) -> bool:
    """May ``combo`` be played on ``on`` (``None``: leading)?

    >>> beats(classify("Ph"), classify("Ar")), beats(classify("Ph"), classify("Dr"))
    (True, False)
    >>> beats(classify("2g 2k 2b 2r"), classify("Dr"))
    True
    """
    if on is None:
        return True
    kind = combo.kind
    on_kind = on.kind
    if on_kind == DOG_KIND or kind == DOG_KIND:
        return False
    if kind in BOMBS:
        return on_kind not in BOMBS or combo.bomb_key > on.bomb_key
    if kind != on_kind or combo.length != on.length:
        return False
    if kind == SINGLE and combo.mask == PHOENIX_BIT:
        return on.mask != DRAGON_BIT
    return combo.rank > on.rank
