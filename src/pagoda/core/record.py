"""Game records: tagged header lines, then one action per line.

The form borrows from PGN: ``[Tag "value"]`` headers (the game, the rules, the deal, ...) and
then the actions in order as ``<seat> <action text>``. Each game turns a record into a state
by folding its actions over the deal, so a record replays to an equal state.

A line is what ends at ``\n``, for the writer and the reader alike (never the other breaks
``str.splitlines`` knows, such as U+2028): a record whose header value or action text holds a
character that could break or blur a line (any control or line or paragraph separator) is
refused when it is made, so that every record written reads back to itself.

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
import unicodedata
from dataclasses import dataclass

from pagoda.core.errors import ParseError

_HEADER = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


@dataclass(frozen=True, slots=True)
class Record:
    """A game record: ordered header tags and the actions as ``(seat, text)`` pairs."""

    headers: tuple[tuple[str, str], ...]
    actions: tuple[tuple[int, str], ...]

    def __post_init__(self) -> None:
        for tag, value in self.headers:
            if not re.fullmatch(r"\w+", tag, flags=re.ASCII):
                raise ParseError(f"a header tag is letters, digits and _, not {tag!r}")
            _check_text(value, f"header {tag}")
        for seat, action in self.actions:
            if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
                raise ParseError(f"a seat is a number from 0, not {seat!r}")
            if not action or action != action.strip() or " " * 2 in action:
                raise ParseError(f"an action is words with single spaces between them, not {action!r}")
            _check_text(action, "an action")

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


def _check_text(text: str, what: str) -> None:
    """Refuse text that could break or blur a record line: controls, separators, format characters."""
    for ch in text:
        if ch != " " and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp", "Zs"):
            raise ParseError(f"{what} may not hold the character U+{ord(ch):04X}: {text!r}")


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
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip(" \t\r")
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
        # (an action's text is stripped of any white space at its ends, as the games read it)
        if not (seat.isascii() and seat.isdigit()) or not action.strip():
            raise ParseError(f"line {number}: {line!r} is not '<seat> <action>'")
        actions.append((int(seat), action.strip()))
    try:
        return Record(tuple(headers), tuple(actions))
    except ParseError as e:
        raise ParseError(f"record: {e}") from None
