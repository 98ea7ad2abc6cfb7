"""Card notation shared by the games: a table of tokens, read with spaces optional.

Each game names its tokens (``"2g"``, ``"Mj"`` in Tichu; ``"3"``, ``"B"`` in Dou Di Zhu); the
tokenizer reads a text of them with or without spaces, longest token first, case-insensitively,
and says exactly where it fails.
"""

from collections.abc import Mapping
from typing import Generic, TypeVar

from pagoda.core.errors import ParseError

T = TypeVar("T")


class Tokenizer(Generic[T]):
    """Reads concatenated tokens into values.

    >>> t = Tokenizer({"a": 1, "ab": 2, "b": 3})
    >>> t.parse("ab a b")
    (2, 1, 3)
    >>> t.parse("aab")
    (1, 2)
    >>> t.parse("ax")
    Traceback (most recent call last):
    ...
    pagoda.core.errors.ParseError: cannot read 'x' at position 1 of 'ax'
    """

    __slots__ = ("_by_length", "_lengths", "what")

    def __init__(self, tokens: Mapping[str, T], what: str = "") -> None:
        self.what = what
        by_length: dict[int, dict[str, T]] = {}
        for token, value in tokens.items():
            by_length.setdefault(len(token), {})[token.lower()] = value
        self._lengths = sorted(by_length, reverse=True)
        self._by_length = by_length

    def parse(self, text: str) -> tuple[T, ...]:
        """All the tokens of ``text``, in order; spaces and commas between them are ignored."""
        return tuple(value for value, _ in self.parse_spans(text))

    def parse_spans(self, text: str) -> list[tuple[T, int]]:
        """Each token of ``text`` with the position it starts at.

        >>> Tokenizer({"a": 1, "b": 2}).parse_spans("a  b")
        [(1, 0), (2, 3)]
        """
        out: list[tuple[T, int]] = []
        low = text.lower()
        i, n = 0, len(low)
        while i < n:
            ch = low[i]
            if ch in " ,\t\n":
                i += 1
                continue
            for length in self._lengths:
                value = self._by_length[length].get(low[i : i + length])
                if value is not None:
                    out.append((value, i))
                    i += length
                    break
            else:
                end = i + 1
                while end < n and low[end] not in " ,\t\n":
                    end += 1
                what = f" as {self.what}" if self.what else ""
                raise ParseError(f"cannot read {text[i:end]!r}{what} at position {i} of {text!r}")
        return out
