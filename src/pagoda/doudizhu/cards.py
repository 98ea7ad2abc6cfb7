"""Cards of Dou Di Zhu: ranks only, suits never matter.

The order is ``3 4 5 6 7 8 9 T J Q K A 2 B R`` (``B`` the black joker, ``R`` the red one); ``10``
may be written for ``T``. A set of cards is a multiset of ranks, held as an ``int`` with one 5-bit
count per rank (rank index ``i`` at bit ``5 * i``), wrapped in the small value type :class:`Cards`.
Public ranks are the numbers ``3..17``: ``A`` = 14, ``2`` = 15, ``B`` = 16, ``R`` = 17.

>>> hand = parse_cards("333 44 BR")
>>> len(hand), str(hand), hand.count(3)
(7, '33344BR', 3)
>>> parse_cards("10 J Q K A") == parse_cards("TJQKA")
True
"""

import unicodedata
from collections.abc import Iterable, Iterator
from functools import lru_cache

from pagoda.core.errors import ParseError
from pagoda.core.notation import Tokenizer

RANK_CHARS = "3456789TJQKA2BR"
"""The rank letters, lowest first; index ``i`` is public rank ``i + 3``."""
NUM_RANKS = 15
JOKER_B = 13
JOKER_R = 14
TWO = 12
ACE = 11
SHIFT = 5
FIELD = 31
ONE = tuple(1 << (SHIFT * i) for i in range(NUM_RANKS))
"""``ONE[i]``: the packed form of one card of rank index ``i``."""
GUARD = sum(16 << (SHIFT * i) for i in range(NUM_RANKS))

_TOKENS: dict[str, int] = {ch: i for i, ch in enumerate(RANK_CHARS)}
_TOKENS["10"] = 7
_TOKENIZER = Tokenizer(_TOKENS, "a Dou Di Zhu card")


_SHIFTS = tuple(SHIFT * i for i in range(NUM_RANKS))


def counts_of(mask: int) -> list[int]:
    """The count of each rank index in a packed set of cards."""
    return [(mask >> s) & 31 for s in _SHIFTS]


def pack(counts: Iterable[int]) -> int:
    """The packed form of a count per rank index."""
    mask = 0
    for i, n in enumerate(counts):
        mask |= n << (SHIFT * i)
    return mask


def size_of(mask: int) -> int:
    """How many cards a packed set holds."""
    total = 0
    while mask:
        total += mask & FIELD
        mask >>= SHIFT
    return total


def is_subset(part: int, whole: int) -> bool:
    """Whether every rank count of ``part`` is at most that of ``whole`` (counts below 16)."""
    return ((whole | GUARD) - part) & GUARD == GUARD


@lru_cache(maxsize=1 << 16)
def format_mask(mask: int) -> str:
    """The notation of a packed set, lowest rank first."""
    out = []
    i = 0
    while mask:
        n = mask & FIELD
        if n:
            out.append(RANK_CHARS[i] * n)
        mask >>= SHIFT
        i += 1
    return "".join(out)


def check_ascii(text: str, what: str) -> None:
    """Raise :class:`ParseError` naming the first character of ``text`` that is not ASCII.

    The notation is ASCII: ``str.isdigit`` and ``int`` accept any Unicode digit (``"\u0661"`` would
    read as 1), and case folding maps some letters onto ASCII ones (the Kelvin sign onto ``k``).

    >>> check_ascii("bid 2", "action text")
    >>> check_ascii("bid \u0661", "action text")
    Traceback (most recent call last):
    ...
    pagoda.core.errors.ParseError: action text is ASCII: '\u0661' (ARABIC-INDIC DIGIT ONE) at position 4...
    """
    if text.isascii():
        return
    i, ch = next((i, ch) for i, ch in enumerate(text) if not ch.isascii())
    name = unicodedata.name(ch, f"U+{ord(ch):04X}")
    raise ParseError(f"{what} is ASCII: {ch!r} ({name}) at position {i} of {text!r}")


def parse_number(text: str, what: str) -> int:
    """Read a whole number written in ASCII digits (a bid, a seat, a count, a seed).

    >>> parse_number("12", "a seat")
    12
    >>> parse_number("-1", "a seat")
    Traceback (most recent call last):
    ...
    pagoda.core.errors.ParseError: a seat is a number in ASCII digits, not '-1'
    """
    check_ascii(text, what)
    if not text.isdigit():
        raise ParseError(f"{what} is a number in ASCII digits, not {text!r}")
    return int(text)


_FAST = {ch: ONE[i] for ch, i in _TOKENS.items() if len(ch) == 1}
_FAST.update({ch.lower(): v for ch, v in _FAST.items()})


def parse_mask(text: str) -> int:
    """Read card notation into a packed set (:class:`ParseError` if it is not notation)."""
    mask = 0
    try:
        for ch in text:
            mask += _FAST[ch]
    except KeyError:
        # spaces, "10", or an error: the shared tokenizer reads it and says where it fails
        check_ascii(text, "card notation")
        mask = 0
        for i in _TOKENIZER.parse(text):
            mask += ONE[i]
    return mask


class Cards:
    """An immutable multiset of Dou Di Zhu cards (ranks only); ``str`` is its notation.

    >>> a = parse_cards("3345")
    >>> parse_cards("34") <= a, str(a - parse_cards("3")), list(parse_cards("2B"))
    (True, '345', [15, 16])
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, mask: int = 0) -> None:
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Cards is immutable")

    def __reduce__(self) -> tuple[type["Cards"], tuple[int]]:
        # pickled as its mask (a bot's question to a worker process carries a seat's cards)
        return (Cards, (self.mask,))

    def __len__(self) -> int:
        return size_of(self.mask)

    def __iter__(self) -> Iterator[int]:
        for i, n in enumerate(counts_of(self.mask)):
            for _ in range(n):
                yield i + 3

    def __contains__(self, rank: object) -> bool:
        return isinstance(rank, int) and 3 <= rank <= 17 and (self.mask >> (SHIFT * (rank - 3))) & FIELD > 0

    def count(self, rank: int) -> int:
        """How many cards of public rank ``rank`` (3..17) this holds."""
        return (self.mask >> (SHIFT * (rank - 3))) & FIELD

    def counts(self) -> tuple[int, ...]:
        """The count per rank, lowest rank first (15 numbers)."""
        return tuple(counts_of(self.mask))

    def __le__(self, other: "Cards") -> bool:
        return is_subset(self.mask, other.mask)

    def __ge__(self, other: "Cards") -> bool:
        return is_subset(other.mask, self.mask)

    def __add__(self, other: "Cards") -> "Cards":
        return Cards(self.mask + other.mask)

    def __sub__(self, other: "Cards") -> "Cards":
        if not is_subset(other.mask, self.mask):
            raise ValueError(f"{other} is not part of {self}")
        return Cards(self.mask - other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cards) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("Cards", self.mask))

    def __bool__(self) -> bool:
        return self.mask != 0

    def __str__(self) -> str:
        return format_mask(self.mask)

    def __repr__(self) -> str:
        return f"Cards({format_mask(self.mask)!r})"


def parse_cards(text: str) -> Cards:
    """Read card notation, spaces optional (``"33344BR"``, ``"10 J Q K A"``)."""
    return Cards(parse_mask(text))


def format_cards(cards: Cards | int) -> str:
    """The notation of ``cards``, lowest rank first.

    >>> format_cards(parse_cards("R B 2 10 3"))
    '3T2BR'
    """
    return format_mask(cards if isinstance(cards, int) else cards.mask)


def deck(decks: int = 1) -> list[int]:
    """The rank indices of ``decks`` full packs: four of each rank 3..2 and one of each joker per pack."""
    out: list[int] = []
    for _ in range(decks):
        for i in range(NUM_RANKS):
            out.extend([i] * (1 if i >= JOKER_B else 4))
    return out
