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

Each kind's rule is one short function (``_pair`` ... ``_straight``); :func:`readings` asks
each of them, :func:`classify` takes the highest reading, and :func:`beats` compares.
"""

from typing import NamedTuple

from pagoda.core import ParseError
from pagoda.tichu.cards import (
    CARDS,
    DOG_BIT,
    DRAGON_BIT,
    MAH_JONG_BIT,
    PHOENIX_BIT,
    RANK_MASKS,
    SUIT_MASKS,
    Card,
    CardsLike,
    format_cards,
    format_rank,
    mask_cards,
    parse_rank,
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


class Combo(NamedTuple):
    """A combination: its ``kind``, ``rank``, ``length`` (number of cards) and ``cards``.

    ``phoenix`` is the rank the Phoenix stands for in a multi-card combination (0 when it is
    not in one). Combos are immutable values (named tuples: single plays share theirs between
    rounds, so nobody may change one) and compare by all of these.

    >>> c = classify("Ak Ar Kg Kr Ph")
    >>> c.kind, c.rank, c.length, c.phoenix, c.is_bomb
    ('full_house', 14, 5, 14, False)
    """

    kind: str
    rank: float
    mask: int
    phoenix: int = 0

    @property
    def length(self) -> int:
        """The number of cards."""
        return self.mask.bit_count()

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

    def text(self) -> str:
        """The combination as notation: its kind, its rank, its cards, and the Phoenix's rank if
        it stands in for one (``full_house A Kg Kr Ak Ar Ph phoenix A``); :meth:`parse` reads it."""
        rank = format_rank_any(self.rank)
        phoenix = f" phoenix {format_rank_any(self.phoenix)}" if self.phoenix else ""
        return f"{self.kind} {rank} {self}{phoenix}"

    @classmethod
    def parse(cls, text: str) -> "Combo":
        """Read :meth:`text` back; :class:`~pagoda.core.ParseError` if it is no reading of its cards.

        >>> Combo.parse("pair A Ak Ar") == classify("Ak Ar")
        True
        """
        words = text.split()
        phoenix = 0
        if len(words) >= 2 and words[-2] == "phoenix":
            phoenix = int(_parse_rank_any(words[-1], text))
            words = words[:-2]
        if len(words) < 3:
            raise ParseError(f"a combination is '<kind> <rank> <cards>', not {text!r}")
        kind, rank = words[0], _parse_rank_any(words[1], text)
        combo = cls(kind, rank, to_mask(" ".join(words[2:])), phoenix)
        if combo.mask == PHOENIX_BIT and kind == SINGLE and rank * 2 % 2 == 1 and 1.5 <= rank <= 14.5:
            return combo  # a single Phoenix: half above what it was played on
        if combo not in readings(combo.mask):
            raise ParseError(f"{text!r} is not a reading of its cards")
        return combo

    def __repr__(self) -> str:
        return f"Combo.parse({self.text()!r})"


def _parse_rank_any(word: str, text: str) -> float:
    """The inverse of :func:`format_rank_any`."""
    if word in ("0", "1"):
        return int(word)
    if word == "Dr":
        return 15
    if "." in word:
        try:
            return float(word)
        except ValueError:
            raise ParseError(f"{word!r} is not a rank in {text!r}") from None
    return parse_rank(word)


def format_rank_any(rank: float) -> str:
    """A rank for people: ``2``..``A``, ``1`` for the Mah Jong, ``Dr`` 15, halves as numbers."""
    if rank != int(rank):
        return str(rank)
    r = int(rank)
    return format_rank(r) if 2 <= r <= 14 else {0: "0", 1: "1", 15: "Dr"}[r]


class _Cards(NamedTuple):
    """A set of two or more cards as the rules read it (no Dog, no Dragon)."""

    mask: int
    size: int  # the number of cards
    counts: list[int]  # the naturals of each rank 0..14, the Mah Jong as rank 1
    ranks: list[int]  # the ranks 1..14 present, lowest first
    phoenix: int  # 1 with the Phoenix

    @classmethod
    def of(cls, mask: int) -> "_Cards":
        counts = [
            0,
            1 if mask & MAH_JONG_BIT else 0,
            *((mask & RANK_MASKS[r]).bit_count() for r in range(2, 15)),
        ]
        ranks = [r for r in range(1, 15) if counts[r]]
        return cls(mask, mask.bit_count(), counts, ranks, 1 if mask & PHOENIX_BIT else 0)


def _single(mask: int, on: Combo | None) -> Combo:
    """One card: its rank; the Phoenix's half above ``on`` (1.5 when led); the Dog, a kind of its own."""
    if mask == PHOENIX_BIT:
        return Combo(SINGLE, 1.5 if on is None or on.kind != SINGLE else on.rank + 0.5, mask)
    if mask == DOG_BIT:
        return Combo(DOG_KIND, 0, mask)
    return Combo(SINGLE, CARDS[mask.bit_length() - 1].rank, mask)


def _of_one_rank(cards: _Cards, size: int, kind: str) -> list[Combo]:
    """``size`` cards of one rank, the Phoenix standing for one of them."""
    if cards.size != size or len(cards.ranks) != 1 or cards.ranks[0] < 2:
        return []
    rank = cards.ranks[0]
    return [Combo(kind, rank, cards.mask, rank if cards.phoenix else 0)]


def _pair(cards: _Cards) -> list[Combo]:
    """Two cards of one rank."""
    return _of_one_rank(cards, 2, PAIR)


def _triple(cards: _Cards) -> list[Combo]:
    """Three cards of one rank."""
    return _of_one_rank(cards, 3, TRIPLE)


def _four_of_a_kind(cards: _Cards) -> list[Combo]:
    """The four cards of one rank (a bomb: no Phoenix)."""
    return [] if cards.phoenix else _of_one_rank(cards, 4, FOUR_OF_A_KIND)


def _full_house(cards: _Cards) -> list[Combo]:
    """Three cards of one rank and two of another, the Phoenix standing for one; ranked by the
    triple, the higher first where either rank can be it."""
    if cards.size != 5 or len(cards.ranks) != 2 or cards.ranks[0] < 2:
        return []
    low, high = cards.ranks
    out = []
    for triple, pair in ((high, low), (low, high)):
        t, p = cards.counts[triple], cards.counts[pair]
        if t <= 3 and p <= 2 and (3 - t) + (2 - p) == cards.phoenix:
            out.append(
                Combo(FULL_HOUSE, triple, cards.mask, (triple if t < 3 else pair) if cards.phoenix else 0)
            )
    return out


def _pair_run(cards: _Cards) -> list[Combo]:
    """Two or more pairs of consecutive ranks, the Phoenix standing for one card of one of them;
    ranked by the highest."""
    if cards.size < 4 or cards.size % 2 or cards.ranks[0] < 2:
        return []
    lo, hi = cards.ranks[0], cards.ranks[-1]
    if hi - lo + 1 != cards.size // 2 or any(cards.counts[r] > 2 for r in cards.ranks):
        return []
    short = [r for r in range(lo, hi + 1) if cards.counts[r] < 2]
    if not cards.phoenix and not short:
        return [Combo(PAIR_RUN, hi, cards.mask)]
    if cards.phoenix and len(short) == 1 and cards.counts[short[0]] == 1:
        return [Combo(PAIR_RUN, hi, cards.mask, short[0])]
    return []


def _straight(cards: _Cards) -> list[Combo]:
    """Five or more consecutive ranks, from the Mah Jong's 1 up, the Phoenix standing for one
    (never the Mah Jong); all of one suit without them, a straight flush (a bomb). The Phoenix
    at either end reads both ways, the higher first."""
    if cards.size < 5 or len(cards.ranks) + cards.phoenix != cards.size:
        return []  # (fewer than five, or a rank twice)
    lo, hi = cards.ranks[0], cards.ranks[-1]
    gaps = [r for r in range(lo, hi + 1) if not cards.counts[r]]
    if not cards.phoenix:
        if gaps:
            return []
        flush = not cards.mask & MAH_JONG_BIT and any(cards.mask & ~suit == 0 for suit in SUIT_MASKS)
        return [Combo(STRAIGHT_FLUSH if flush else STRAIGHT, hi, cards.mask)]
    if len(gaps) > 1:
        return []
    if gaps:
        return [Combo(STRAIGHT, hi, cards.mask, gaps[0])]
    out = []
    if hi < 14:
        out.append(Combo(STRAIGHT, hi + 1, cards.mask, hi + 1))
    if lo > 2:
        out.append(Combo(STRAIGHT, hi, cards.mask, lo - 1))
    return out


#: The rule of each kind of two or more cards.
_RULES = (_pair, _triple, _four_of_a_kind, _full_house, _pair_run, _straight)


def readings(cards: CardsLike, on: Combo | None = None) -> list[Combo]:
    """Every way to read ``cards`` as a combination, highest first (empty if none).

    A single Phoenix is read against ``on``: half above it, 1.5 when led. The Dog and the
    Dragon are played alone, the Mah Jong alone or in a straight.

    >>> [(c.kind, c.rank) for c in readings("Kg Kr Qg Qb Ph")]
    [('full_house', 13), ('full_house', 12)]
    >>> [c.rank for c in readings("3g 4k 5b 6r Ph")]
    [7, 6]
    """
    mask = to_mask(cards)
    if mask == 0:
        return []
    if mask.bit_count() == 1:
        return [_single(mask, on)]
    if mask & (DOG_BIT | DRAGON_BIT):
        return []
    found = _Cards.of(mask)
    return [combo for rule in _RULES for combo in rule(found)]


def classify(cards: CardsLike, on: Combo | None = None) -> Combo | None:
    """The combination ``cards`` form (its highest reading), or None if they form none.

    ``on`` is the combination on the table, which only matters for a single Phoenix.

    >>> classify("Mj 2g 3k 4b Ph")
    Combo.parse('straight 5 Mj 2g 3k 4b Ph phoenix 5')
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
