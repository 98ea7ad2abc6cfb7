"""Actions of a Dou Di Zhu round and their text.

Auction: ``bid 1`` .. ``bid 3`` or ``pass`` (option ``rob``: ``call``, ``rob`` or ``pass``). Play:
``play <cards>`` or ``pass``; with wild cards standing for other ranks, ``play <cards> as <reading>``
(``play 3 5 6 7 8 as 45678``). The text of an action is its ``str``.

>>> from pagoda.doudizhu.actions import BID, PASS, Action
>>> str(Action(BID, 2)), str(PASS)
('bid 2', 'pass')
"""

from typing import NamedTuple

from pagoda.doudizhu.combos import Combo

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
        return f"Action({self})"


PASS = Action(PASS_KIND)
"""The pass, in the auction and in play."""
