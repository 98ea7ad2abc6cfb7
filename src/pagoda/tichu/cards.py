"""Tichu cards: 52 suited cards 2..A and four specials, as ints and bit masks.

Notation: rank ``2 3 4 5 6 7 8 9 T J Q K A`` (``10`` is read as ``T``) followed by the suit
``g`` (Jade), ``k`` (Sword), ``b`` (Pagoda), ``r`` (Star); the specials are ``Mj`` (Mah Jong),
``Dg`` (Dog), ``Ph`` (Phoenix) and ``Dr`` (Dragon). A card is an ``int`` 0..55 whose order is
the order a hand is sorted in: Dog, Mah Jong, 2g 2k 2b 2r, 3g, ..., Ar, Phoenix, Dragon. A set
of cards is an ``int`` with bit ``card`` set (python-chess style); :data:`RANK_MASKS` and
:data:`SUIT_MASKS` select the cards of a rank or a suit.

Points: every 5 scores 5, every 10 and King 10, the Dragon 25, the Phoenix -25: 100 in all.
"""

from collections.abc import Iterable

from pagoda.core import ParseError, Tokenizer, iter_bits

SUITS = "gkbr"
RANK_CHARS = "23456789TJQKA"

DOG = 0
MAH_JONG = 1
PHOENIX = 54
DRAGON = 55

DOG_BIT = 1 << DOG
MAH_JONG_BIT = 1 << MAH_JONG
PHOENIX_BIT = 1 << PHOENIX
DRAGON_BIT = 1 << DRAGON
SPECIALS = DOG_BIT | MAH_JONG_BIT | PHOENIX_BIT | DRAGON_BIT
FULL_DECK = (1 << 56) - 1


def card_index(rank: int, suit: int) -> int:
    """The card of ``rank`` (2..14) and ``suit`` (0..3).

    >>> str(Card(card_index(14, 3)))
    'Ar'
    """
    return 2 + (rank - 2) * 4 + suit


def rank_shift(rank: int) -> int:
    """The bit position of the first card (Jade) of ``rank`` 2..14 in a card mask."""
    return 2 + (rank - 2) * 4


#: Mask of the four cards of each rank, indexed by rank 2..14 (0 and 1 are empty).
RANK_MASKS: tuple[int, ...] = (0, 0, *(0xF << rank_shift(r) for r in range(2, 15)))
#: Mask of the thirteen cards of each suit, indexed 0..3 in the order ``g k b r``.
SUIT_MASKS: tuple[int, ...] = tuple(sum(1 << card_index(r, s) for r in range(2, 15)) for s in range(4))
NORMAL_CARDS = FULL_DECK & ~SPECIALS
FIVES = RANK_MASKS[5]
TENS_AND_KINGS = RANK_MASKS[10] | RANK_MASKS[13]

_NAMES: list[str] = ["Dg", "Mj"]
_NAMES += [f"{RANK_CHARS[r - 2]}{s}" for r in range(2, 15) for s in SUITS]
_NAMES += ["Ph", "Dr"]
_RANKS: list[int] = [0, 1] + [r for r in range(2, 15) for _ in SUITS] + [0, 15]
_POINTS: list[int] = [0] * 56
for _card in range(56):
    _r = _RANKS[_card]
    _POINTS[_card] = 5 if _r == 5 and _card not in (DOG, PHOENIX) else 10 if _r in (10, 13) else 0
_POINTS[PHOENIX], _POINTS[DRAGON] = -25, 25


class Card(int):
    """One card, an ``int`` 0..55 whose ``str`` is its notation; its ``repr`` evaluates back.

    >>> c = parse_cards("Kb")[0]
    >>> c.rank, c.suit, c.points, str(c), c
    (13, 'b', 10, 'Kb', Card.parse('Kb'))
    """

    __slots__ = ()

    @property
    def rank(self) -> int:
        """2..14 for suited cards; Mah Jong 1, Dragon 15, Dog and Phoenix 0 (they have none)."""
        return _RANKS[self]

    @property
    def suit(self) -> str:
        """``g``, ``k``, ``b`` or ``r``; empty for the specials."""
        return SUITS[(self - 2) % 4] if 2 <= self < 54 else ""

    @property
    def points(self) -> int:
        """What the card scores in a won trick."""
        return _POINTS[self]

    @property
    def is_special(self) -> bool:
        """True for Mah Jong, Dog, Phoenix and Dragon."""
        return not 2 <= self < 54

    @property
    def bit(self) -> int:
        """The card's bit in a card mask."""
        return 1 << self

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_NAMES[self]!r})"

    @staticmethod
    def parse(text: str) -> "Card":
        """The one card ``text`` names; :class:`~pagoda.core.ParseError` if it names no card or several."""
        cards = parse_cards(text)
        if len(cards) != 1:
            raise ParseError(f"one card, not {len(cards)}: {text!r}")
        return cards[0]


#: Every card, indexed by its number.
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(56))

_TOKENS: dict[str, Card] = {name: CARDS[i] for i, name in enumerate(_NAMES)}
_TOKENS.update({f"10{s}": CARDS[card_index(10, i)] for i, s in enumerate(SUITS)})
_TOKENIZER = Tokenizer(_TOKENS, what="a Tichu card")

CardsLike = str | int | Iterable[int]
"""Cards as text (``"Mj 2g"``), a card mask (``int``), or an iterable of cards."""


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards in the notation, spaces optional; a card named twice is an error.

    >>> parse_cards("Mj2gPh")
    (Card.parse('Mj'), Card.parse('2g'), Card.parse('Ph'))
    >>> parse_cards("10r Tr")
    Traceback (most recent call last):
    ...
    pagoda.core.errors.ParseError: card Tr is named twice in '10r Tr' (again at position 4)
    """
    spans = _TOKENIZER.parse_spans(text)
    cards = tuple(card for card, _ in spans)
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for card, position in spans:
            if card in seen:
                raise ParseError(f"card {card} is named twice in {text!r} (again at position {position})")
            seen.add(card)
    return cards


def format_cards(cards: CardsLike) -> str:
    """The notation of ``cards``: in the given order, or sorted when given as a mask or text.

    >>> format_cards(parse_cards("Mj 2g Ph"))
    'Mj 2g Ph'
    >>> format_cards(to_mask("Dr Ph 2k Dg"))
    'Dg 2k Ph Dr'
    """
    if isinstance(cards, str):
        cards = to_mask(cards)
    if isinstance(cards, int):
        return " ".join(_NAMES[i] for i in iter_bits(cards))
    return " ".join(_NAMES[i] for i in cards)


def to_mask(cards: CardsLike) -> int:
    """The card mask of ``cards`` (text, mask or iterable of cards); duplicates are an error.

    >>> to_mask("Dg Mj") == 0b11
    True
    """
    if isinstance(cards, int):
        if not 0 <= cards <= FULL_DECK:
            raise ParseError(f"{cards} is not a mask of Tichu cards")
        return cards
    if isinstance(cards, str):
        cards = parse_cards(cards)
    mask = 0
    for card in cards:
        if not 0 <= card < 56:
            raise ParseError(f"{card!r} is not a Tichu card")
        bit = 1 << card
        if mask & bit:
            raise ParseError(f"card {CARDS[card]} is named twice")
        mask |= bit
    return mask


def mask_indices(mask: int) -> list[int]:
    """The numbers of the cards in ``mask``, in hand order.

    >>> mask_indices(to_mask("Dg 2g Dr"))
    [0, 2, 55]
    """
    return list(iter_bits(mask))


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of ``mask`` in hand order."""
    return tuple(CARDS[i] for i in iter_bits(mask))


def count_points(mask: int) -> int:
    """The points of the cards in ``mask``.

    >>> count_points(FULL_DECK)
    100
    """
    points = 5 * (mask & FIVES).bit_count() + 10 * (mask & TENS_AND_KINGS).bit_count()
    if mask & DRAGON_BIT:
        points += 25
    if mask & PHOENIX_BIT:
        points -= 25
    return points


def parse_rank(text: str) -> int:
    """A rank ``2``..``A`` (``10`` for ``T`` too) as 2..14, for the wish and Phoenix readings.

    >>> parse_rank("Q"), parse_rank("10")
    (12, 10)
    """
    t = text.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in RANK_CHARS:
        return RANK_CHARS.index(t) + 2
    raise ParseError(f"{text!r} is not a rank: one of 2 3 4 5 6 7 8 9 T J Q K A")


def format_rank(rank: int) -> str:
    """The character of rank 2..14."""
    return RANK_CHARS[rank - 2]
