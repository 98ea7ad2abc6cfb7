"""The combinations of Dou Di Zhu, how to read a set of cards as one, and which beats which.

Kinds: ``solo``; ``pair``; ``trio``; ``trio_solo`` (trio + one card); ``trio_pair`` (trio + a pair);
``chain`` (at least 5 consecutive solos); ``pair_chain`` (at least 3 consecutive pairs); ``plane``
(at least 2 consecutive trios); ``plane_solo`` / ``plane_pair`` (a plane + as many solos / pairs as
it has trios); ``bomb`` (four of a kind; 4 to 8 with two packs); ``four_two_solo`` / ``four_two_pair``
(four + two solos / two pairs); ``rocket`` (the jokers). Chains run 3..A: no 2, no joker.

Each kind's rule is one short reader (``read_solo`` ... ``read_plane_pair``, listed in
:data:`READERS`); :func:`readings` asks every one of them.

A combination of the same kind and length beats another when its main rank is higher. A bomb beats
every non-bomb and every weaker bomb (bigger first, then natural before soft, then higher rank); the
rocket beats everything. ``rank`` is the rank of the main part's highest card (3..17).

>>> from pagoda.doudizhu.rules import RULES
>>> c = classify("33344", RULES["classic"])
>>> c.kind, c.rank, c.length
('trio_pair', 3, 1)
>>> classify("34567", RULES["classic"]).rank
7
>>> beats(classify("4444", RULES["classic"]), classify("34567", RULES["classic"]))
True
>>> classify("3345", RULES["classic"]) is None
True
"""

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from pagoda.core.errors import ParseError
from pagoda.doudizhu.cards import (
    ACE,
    FIELD,
    JOKER_B,
    JOKER_R,
    NUM_RANKS,
    ONE,
    RANK_CHARS,
    SHIFT,
    Cards,
    check_ascii,
    counts_of,
    format_mask,
    parse_mask,
)
from pagoda.doudizhu.rules import Rules

SOLO = "solo"
PAIR = "pair"
TRIO = "trio"
TRIO_SOLO = "trio_solo"
TRIO_PAIR = "trio_pair"
CHAIN = "chain"
PAIR_CHAIN = "pair_chain"
PLANE = "plane"
PLANE_SOLO = "plane_solo"
PLANE_PAIR = "plane_pair"
BOMB = "bomb"
FOUR_TWO_SOLO = "four_two_solo"
FOUR_TWO_PAIR = "four_two_pair"
ROCKET = "rocket"

KINDS = (
    SOLO,
    PAIR,
    TRIO,
    TRIO_SOLO,
    TRIO_PAIR,
    CHAIN,
    PAIR_CHAIN,
    PLANE,
    PLANE_SOLO,
    PLANE_PAIR,
    BOMB,
    FOUR_TWO_SOLO,
    FOUR_TWO_PAIR,
    ROCKET,
)
"""The 14 kinds, in the order of the rules."""

PREFERENCE = {
    ROCKET: 0,
    BOMB: 1,
    CHAIN: 2,
    PAIR_CHAIN: 3,
    PLANE: 4,
    SOLO: 5,
    PAIR: 5,
    TRIO: 5,
    FOUR_TWO_PAIR: 6,
    FOUR_TWO_SOLO: 7,
    PLANE_PAIR: 8,
    PLANE_SOLO: 9,
    TRIO_PAIR: 10,
    TRIO_SOLO: 11,
}
"""Which reading a led set of cards takes when it has several: lowest first, then the highest rank."""


def bomb_order(size: int, rank_index: int, hard: bool = True, top: bool = False) -> int:
    """The strength of a bomb: by size, then a top wild bomb, then natural before soft, then rank."""
    return (((size * 2 + top) * 2 + hard) << 5) + rank_index


class Combo(NamedTuple):
    """One combination as played: its kind, main rank (3..17), length, cards and reading.

    ``mask`` is the cards played and ``reading`` the cards they stand for (the same unless wild
    cards stand in); ``order`` ranks bombs and rockets (0 for the other kinds). ``str`` is the play
    text: the cards, and ``as <reading>`` when wild cards stand for other ranks.
    """

    kind: str
    rank: int
    length: int
    mask: int
    reading: int
    order: int = 0

    @property
    def cards(self) -> Cards:
        """The cards played."""
        return Cards(self.mask)

    @property
    def size(self) -> int:
        """How many cards the combination holds."""
        total, m = 0, self.mask
        while m:
            total += m & FIELD
            m >>= SHIFT
        return total

    @property
    def is_bomb(self) -> bool:
        """Whether this is a bomb or the rocket."""
        return self.kind == BOMB or self.kind == ROCKET

    @property
    def soft(self) -> bool:
        """Whether wild cards stand in for other ranks."""
        return self.mask != self.reading

    def __str__(self) -> str:
        text = format_mask(self.mask)
        if self.reading != self.mask:
            return f"{text} as {format_mask(self.reading)}"
        return text

    def __repr__(self) -> str:
        return f"Combo.from_text({format_combo(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> "Combo":
        """Read :func:`format_combo`'s text back (the repr of a combination evaluates to it)."""
        return parse_combo(text)


_UNITS = {CHAIN: 1, PAIR_CHAIN: 2, PLANE: 3, PLANE_SOLO: 4, PLANE_PAIR: 5}
"""Cards per step of the kinds whose length is their number of steps (the others have length 1)."""


def _default_order(kind: str, rank: int, mask: int, reading: int) -> int:
    if kind == ROCKET:
        return 1 << 12
    if kind == BOMB:
        return bomb_order(sum(counts_of(mask)), rank - 3, hard=mask == reading)
    return 0


def format_combo(combo: Combo) -> str:
    """The full text of a combination: kind, main rank, cards (and reading), and any unusual order.

    A play's text (``str``) is its cards; this names the reading too, so that it reads back alone.

    >>> from pagoda.doudizhu.rules import RULES
    >>> format_combo(classify("333444555666", RULES["classic"]))
    'plane 6 333444555666'
    >>> parse_combo("plane_solo 5 333444555666")
    Combo.from_text('plane_solo 5 333444555666')
    """
    text = f"{combo.kind} {RANK_CHARS[combo.rank - 3]} {combo}"
    if combo.order != _default_order(combo.kind, combo.rank, combo.mask, combo.reading):
        text += f" order {combo.order}"
    return text


def parse_combo(text: str) -> Combo:
    """Read :func:`format_combo`'s text; :class:`ParseError` names the part that is wrong."""
    check_ascii(text, "a combination's text")
    words = text.split()
    if len(words) < 3:
        raise ParseError(f"a combination is 'KIND RANK CARDS [as READING] [order N]', not {text!r}")
    kind, rank_text, cards, *rest = words
    if kind not in KINDS:
        raise ParseError(f"no combination kind {kind!r} (kinds: {', '.join(KINDS)})")
    if len(rank_text) != 1 or rank_text.upper() not in RANK_CHARS:
        raise ParseError(f"the rank of a combination is one of {RANK_CHARS}, not {rank_text!r}")
    rank = RANK_CHARS.index(rank_text.upper()) + 3
    mask = parse_mask(cards)
    reading = mask
    if rest[:1] == ["as"]:
        if len(rest) < 2:
            raise ParseError(f"'as' needs the cards the play stands for: {text!r}")
        reading = parse_mask(rest[1])
        rest = rest[2:]
    order = _default_order(kind, rank, mask, reading)
    if rest[:1] == ["order"] and len(rest) == 2:
        if not rest[1].lstrip("-").isdigit():
            raise ParseError(f"the order of a bomb is a whole number, not {rest[1]!r}")
        order = int(rest[1])
        rest = []
    if rest:
        raise ParseError(f"cannot read {' '.join(rest)!r} after the cards of {text!r}")
    size = sum(counts_of(mask))
    unit = _UNITS.get(kind, 0)
    length = size // unit if unit else 1
    combo = Combo(kind, rank, length, mask, reading, order)
    if sum(counts_of(reading)) != size or not any(
        (c.kind, c.rank, c.length) == (kind, rank, length) for c in _readings_anywhere(reading)
    ):
        raise ParseError(f"{format_mask(reading)} is not a {kind} of rank {rank_text} under any preset")
    return combo


def beats(combo: Combo, on: Combo | None) -> bool:
    """Whether ``combo`` may be played on ``on`` (``None``: an empty table, anything goes)."""
    if on is None:
        return True
    kind = combo.kind
    if kind == ROCKET:
        return on.kind != ROCKET or combo.order > on.order
    if kind == BOMB:
        return (on.kind != BOMB and on.kind != ROCKET) or combo.order > on.order
    return kind == on.kind and combo.length == on.length and combo.rank > on.rank


def solo_kickers_ok(rest: list[int], lo: int, hi: int, rules: Rules, plane: bool) -> bool:
    """Whether the cards ``rest`` are allowed as solo kickers of a main part on ranks ``lo..hi``."""
    for k in range(NUM_RANKS):
        n = rest[k]
        if not n:
            continue
        if lo <= k <= hi and not rules.kicker_own_rank:
            return False
        if n > 1 and not rules.solo_kickers_same_rank:
            return False
        if n > rules.kicker_max_same:
            return False
        if plane and n >= 3 and not rules.kickers_extend_plane and (k == lo - 1 or k == hi + 1) and k <= ACE:
            return False
    return not (rest[JOKER_B] and rest[JOKER_R] and not rules.kicker_rocket)


def pair_kickers_ok(rest: list[int], lo: int, hi: int, rules: Rules) -> bool:
    """Whether the cards ``rest`` are allowed as pair kickers of a main part on ranks ``lo..hi``."""
    for k in range(NUM_RANKS):
        n = rest[k]
        if not n:
            continue
        if n & 1:
            return False
        if lo <= k <= hi and not rules.kicker_own_rank:
            return False
        if n > 2 and not rules.pair_kickers_same_rank:
            return False
        if n > rules.kicker_max_same:
            return False
    return not (rest[JOKER_B] and rest[JOKER_R] and not rules.kicker_rocket)


def _run(c: list[int], lo: int, length: int, at_least: int) -> bool:
    if lo + length - 1 > ACE:
        return False
    return all(c[i] >= at_least for i in range(lo, lo + length))


def _one_rank(c: list[int], n: int) -> int:
    """The rank index of a set of ``n`` cards that are all of one rank (-1: not so)."""
    for i, k in enumerate(c):
        if k:
            return i if k == n else -1
    return -1


Reader = Callable[[int, list[int], int, Rules], list[Combo]]
"""The rule of one kind: the readings of a set of cards (packed ``mask``, counts ``c``, ``n`` cards)
as that kind under ``rules``; :data:`READERS` lists one per kind."""


def read_rocket(mask: int, c: list[int], n: int, rules: Rules) -> list[Combo]:
    """The rocket: every joker of the packs (two with one pack, four with two), nothing else."""
    d = rules.rocket_count
    if n == 2 * d and c[JOKER_B] == d and c[JOKER_R] == d:
        return [Combo(ROCKET, 17, 1, mask, mask, rules.rocket_order)]
    return []


def _read_of_a_kind(kind: str, size: int) -> Reader:
    def read(mask: int, c: list[int], n: int, rules: Rules) -> list[Combo]:
        r = _one_rank(c, n)
        return [Combo(kind, r + 3, 1, mask, mask)] if n == size and r >= 0 else []

    read.__doc__ = f"A {kind}: {size} card(s) of one rank."
    return read


read_solo = _read_of_a_kind(SOLO, 1)
read_pair = _read_of_a_kind(PAIR, 2)
read_trio = _read_of_a_kind(TRIO, 3)


def read_bomb(mask: int, c: list[int], n: int, rules: Rules) -> list[Combo]:
    """A bomb: 4 to ``max_bomb`` cards of one rank, no joker."""
    r = _one_rank(c, n)
    if 4 <= n <= rules.max_bomb and 0 <= r < JOKER_B:
        return [Combo(BOMB, r + 3, 1, mask, mask, bomb_order(n, r))]
    return []


def _read_run(kind: str, per: int, least: str) -> Reader:
    def read(mask: int, c: list[int], n: int, rules: Rules) -> list[Combo]:
        present = [i for i in range(NUM_RANKS) if c[i]]
        lo, hi = present[0], present[-1]
        span = hi - lo + 1
        if span != len(present) or hi > ACE or any(c[i] != per for i in present):
            return []
        return [Combo(kind, hi + 3, span, mask, mask)] if span >= getattr(rules, least) else []

    read.__doc__ = f"A {kind}: at least ``{least}`` consecutive ranks 3..A of {per} card(s) each."
    return read


read_chain = _read_run(CHAIN, 1, "chain_min")
read_pair_chain = _read_run(PAIR_CHAIN, 2, "pair_chain_min")
read_plane = _read_run(PLANE, 3, "plane_min")


def read_trio_solo(mask: int, c: list[int], n: int, rules: Rules) -> list[Combo]:
    """A trio and one solo kicker (option ``trio_solo``)."""
    if n != 4 or not rules.trio_solo:
        return []
    return [Combo(TRIO_SOLO, t + 3, 1, mask, mask) for t in _mains(c, 3, 1, rules, solo_kickers_ok)]


def read_trio_pair(mask: int, c: list[int], n: int, rules: Rules) -> list[Combo]:
    """A trio and a pair."""
    if n != 5:
        return []
    return [Combo(TRIO_PAIR, t + 3, 1, mask, mask) for t in _mains(c, 3, 1, rules, _pairs_ok)]


def read_four_two_solo(mask: int, c: list[int], n: int, rules: Rules) -> list[Combo]:
    """Four of a kind and two solo kickers (option ``four_two_solo``)."""
    if n != 6 or not rules.four_two_solo:
        return []
    return [Combo(FOUR_TWO_SOLO, f + 3, 1, mask, mask) for f in _mains(c, 4, 1, rules, solo_kickers_ok)]


def read_four_two_pair(mask: int, c: list[int], n: int, rules: Rules) -> list[Combo]:
    """Four of a kind and two pairs (option ``four_two_pair``)."""
    if n != 8 or not rules.four_two_pair:
        return []
    return [Combo(FOUR_TWO_PAIR, f + 3, 1, mask, mask) for f in _mains(c, 4, 1, rules, _pairs_ok)]


def read_plane_solo(mask: int, c: list[int], n: int, rules: Rules) -> list[Combo]:
    """A plane and as many solo kickers as it has trios (option ``plane_solo``)."""
    if n % 4 or n // 4 < rules.plane_min or not rules.plane_solo:
        return []
    length = n // 4
    return [
        Combo(PLANE_SOLO, s + length + 2, length, mask, mask)
        for s in _mains(c, 3, length, rules, solo_kickers_ok)
    ]


def read_plane_pair(mask: int, c: list[int], n: int, rules: Rules) -> list[Combo]:
    """A plane and as many pairs as it has trios."""
    if n % 5 or n // 5 < rules.plane_min:
        return []
    length = n // 5
    return [
        Combo(PLANE_PAIR, s + length + 2, length, mask, mask) for s in _mains(c, 3, length, rules, _pairs_ok)
    ]


KickersOk = Callable[[list[int], int, int, Rules, bool], bool]
"""Whether the cards left over are allowed kickers of a main part on ranks lo..hi (plane or not)."""


def _pairs_ok(rest: list[int], lo: int, hi: int, rules: Rules, plane: bool) -> bool:
    return pair_kickers_ok(rest, lo, hi, rules)


def _mains(c: list[int], per: int, length: int, rules: Rules, kickers_ok: KickersOk) -> list[int]:
    """The lowest rank index of each run of ``length`` ranks of ``per`` cards (no joker) that the
    cards hold, such that the other cards are allowed kickers of it."""
    found = []
    for s in range(JOKER_B - length + 1):
        if length > 1 and not _run(c, s, length, per):
            continue
        if length == 1 and c[s] < per:
            continue
        rest = c.copy()
        for i in range(s, s + length):
            rest[i] -= per
        if kickers_ok(rest, s, s + length - 1, rules, length > 1):
            found.append(s)
    return found


READERS: tuple[Reader, ...] = (
    read_rocket,
    read_solo,
    read_pair,
    read_trio,
    read_bomb,
    read_chain,
    read_pair_chain,
    read_plane,
    read_trio_solo,
    read_trio_pair,
    read_four_two_solo,
    read_four_two_pair,
    read_plane_solo,
    read_plane_pair,
)
"""The reader of each kind, in the order their readings are listed."""


@lru_cache(maxsize=1 << 16)
def readings(mask: int, rules: Rules) -> tuple[Combo, ...]:
    """Every way to read the cards ``mask`` (all of them, as their own ranks) as one combination."""
    c = counts_of(mask)
    n = sum(c)
    if not n:
        return ()
    return tuple(combo for read in READERS for combo in read(mask, c, n, rules))


_LOOSE_ONE = Rules(name="loose", max_bomb=8, kicker_own_rank=True, kicker_rocket=True, chain_min=1)
_LOOSE_TWO = Rules(
    name="loose", players=4, decks=2, kitty=8, max_bomb=8, kicker_own_rank=True, kicker_rocket=True
)
_LOOSE = (_LOOSE_ONE, _LOOSE_TWO)
"""The loosest rules of one and of two packs: every reading any rules allow is one of theirs."""


@lru_cache(maxsize=4096)
def _readings_anywhere(mask: int) -> tuple[Combo, ...]:
    """The readings of ``mask`` under the loosest rules: what a combination's text may name."""
    return tuple(c for rules in _LOOSE for c in readings(mask, rules))


_SIMPLE = {SOLO: 1, PAIR: 2, TRIO: 3}
_RUN_PER = {CHAIN: 1, PAIR_CHAIN: 2, PLANE: 3}
_RUN_LEAST = {CHAIN: "chain_min", PAIR_CHAIN: "pair_chain_min", PLANE: "plane_min"}


def is_reading(combo: Combo, rules: Rules) -> bool:
    """Whether ``combo`` (without wild cards) is a true reading of its cards: a quick check per kind."""
    kind, top, length, mask = combo.kind, combo.rank - 3, combo.length, combo.mask
    if mask != combo.reading or not 0 <= top < NUM_RANKS or length < 1:
        return False
    per = _SIMPLE.get(kind)
    if per is not None:
        return length == 1 and combo.order == 0 and mask == per * ONE[top] and (per < 3 or top < JOKER_B)
    per = _RUN_PER.get(kind)
    if per is not None:
        if top > ACE or length < getattr(rules, _RUN_LEAST[kind]) or top - length + 1 < 0 or combo.order:
            return False
        return mask == sum(per * ONE[i] for i in range(top - length + 1, top + 1))
    return combo in readings(mask, rules)


def best_reading(options: Sequence[Combo], on: Combo | None) -> Combo | None:
    """The reading a play takes: on a table, the highest that beats it; led, the preferred kind."""
    if on is not None:
        fitting = [c for c in options if beats(c, on)]
        return max(fitting, key=lambda c: (not c.is_bomb, c.rank)) if fitting else None
    if not options:
        return None
    return min(options, key=lambda c: (PREFERENCE[c.kind], -c.rank))


def classify(cards: str | Cards | int, rules: Rules, on: Combo | None = None) -> Combo | None:
    """The combination the cards form (``None`` if none); with ``on``, the reading that beats it.

    Cards with several readings (``333444555666``: a plane of four, or a plane of three with
    solos) are read on an empty table as the preferred kind (:data:`PREFERENCE`), then the highest
    rank; on a table, as the highest reading that beats it.

    >>> from pagoda.doudizhu.rules import RULES
    >>> classify("333444555666", RULES["classic"]).kind
    'plane'
    >>> on = classify("333444555777", RULES["classic"])
    >>> classify("444555666333", RULES["classic"], on=on)
    Combo.from_text('plane_solo 6 333444555666')
    """
    mask = cards if isinstance(cards, int) else cards.mask if isinstance(cards, Cards) else parse_mask(cards)
    return best_reading(readings(mask, rules), on)
