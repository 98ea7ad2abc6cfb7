"""Actions of a Dou Di Zhu round and their text.

Auction: ``bid 1`` .. ``bid 3`` or ``pass`` (option ``rob``: ``call``, ``rob`` or ``pass``). Play:
``play <cards>`` or ``pass``; with wild cards standing for other ranks, ``play <cards> as <reading>``
(``play 3 5 6 7 8 as 45678``). The text of an action is its ``str``.

>>> from pagoda.doudizhu.actions import BID, PASS, Action
>>> str(Action(BID, 2)), str(PASS)
('bid 2', 'pass')
"""

from typing import NamedTuple

from pagoda.core.errors import ParseError
from pagoda.doudizhu.cards import check_ascii, parse_number
from pagoda.doudizhu.combos import Combo, format_combo, parse_combo

BID = "bid"
PASS_KIND = "pass"
CALL = "call"
ROB = "rob"
PLAY = "play"


class Action(NamedTuple):
    """One action: its kind (bid, pass, call, rob, play), the bid, and the combination played."""

    kind: str
    bid: int = 0
    combo: Combo | None = None

    def __str__(self) -> str:
        if self.kind == PLAY:
            return f"play {self.combo}"
        if self.kind == BID:
            return f"bid {self.bid}"
        return self.kind

    def __repr__(self) -> str:
        return f"Action.from_text({format_action(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> "Action":
        """Read :func:`format_action`'s text back (the repr of an action evaluates to it)."""
        return parse_action(text)


def format_action(action: Action) -> str:
    """The full text of an action: a play names its combination's kind and rank too.

    The text of an action (``str``) reads back in a state, which knows the table; this one reads
    back alone (:func:`parse_action`).

    >>> format_action(PASS), format_action(Action(BID, 3))
    ('pass', 'bid 3')
    >>> parse_action("play pair 3 33")
    Action.from_text('play pair 3 33')
    """
    if action.kind == PLAY and action.combo is not None:
        return f"play {format_combo(action.combo)}"
    return str(action)


def parse_action(text: str) -> Action:
    """Read :func:`format_action`'s text; :class:`ParseError` names the part that is wrong."""
    check_ascii(text, "action text")
    verb, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if verb in (PASS_KIND, CALL, ROB) and not rest:
        return Action(verb)
    if verb == BID:
        return Action(BID, parse_number(rest, "a bid"))
    if verb == PLAY:
        return Action(PLAY, 0, parse_combo(rest))
    raise ParseError(f"cannot read action {text!r} (pass, call, rob, bid N, play KIND RANK CARDS)")


PASS = Action(PASS_KIND)
"""The pass, in the auction and in play."""
