"""Bit-set helpers: a set of cards is an ``int`` whose bit ``i`` stands for card ``i``."""

from collections.abc import Iterator


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first.

    >>> list(iter_bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest_bits(mask: int, n: int) -> int:
    """The ``n`` lowest set bits of ``mask`` (all of them when it has fewer).

    >>> bin(lowest_bits(0b101101, 2))
    '0b101'
    """
    out = 0
    while mask and n > 0:
        low = mask & -mask
        out |= low
        mask ^= low
        n -= 1
    return out
