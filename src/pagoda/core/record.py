"""Game records: tagged header lines, then one action per line.

The form borrows from PGN: ``[Tag "value"]`` headers (the game, the rules, the deal, ...) and
then the actions in order as ``<seat> <action text>``. Each game turns a record into a state
by folding its actions over the deal, so a record replays to an equal state.

>>> rec = Record((("Game", "tichu"), ("Rules", "standard")), ((0, "pass"), (1, "play 2g")))
>>> text = format_record(rec)
>>> print(text)
[Game "tichu"]
[Rules "standard"]
<BLANKLINE>
0 pass
1 play 2g
>>> parse_record(text) == rec
True
"""

import re
from dataclasses import dataclass

from pagoda.core.errors import ParseError

_HEADER = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


@dataclass(frozen=True, slots=True)
class Record:
    """A game record: ordered header tags and the actions as ``(seat, text)`` pairs."""

    headers: tuple[tuple[str, str], ...]
    actions: tuple[tuple[int, str], ...]

    def header(self, tag: str) -> str:
        """The value of header ``tag``; :class:`ParseError` if the record lacks it."""
        for key, value in self.headers:
            if key == tag:
                return value
        raise ParseError(f"record has no [{tag} ...] header")

    def get(self, tag: str, default: str | None = None) -> str | None:
        """The value of header ``tag``, or ``default``."""
        for key, value in self.headers:
            if key == tag:
                return value
        return default

    def __str__(self) -> str:
        return format_record(self)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def format_record(record: Record) -> str:
    """The text form of ``record``."""
    lines = [f'[{tag} "{_escape(value)}"]' for tag, value in record.headers]
    lines.append("")
    lines.extend(f"{seat} {action}" for seat, action in record.actions)
    return "\n".join(lines)


def parse_record(text: str) -> Record:
    """Read a record's text form; a line that is neither header nor action is an error."""
    headers: list[tuple[str, str]] = []
    actions: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if actions:
                raise ParseError(f"line {number}: header {line!r} after the first action")
            m = _HEADER.match(line)
            if not m:
                raise ParseError(f'line {number}: malformed header {line!r} (want [Tag "value"])')
            headers.append((m.group(1), _unescape(m.group(2))))
            continue
        seat, _, action = line.partition(" ")
        if not seat.isdigit() or not action.strip():
            raise ParseError(f"line {number}: {line!r} is not '<seat> <action>'")
        actions.append((int(seat), action.strip()))
    return Record(tuple(headers), tuple(actions))
