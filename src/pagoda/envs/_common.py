"""What the environments share: the decision-flow interface and bit helpers.

A *flow* is a game seen as a sequence of single-seat decisions over a fixed action vocabulary:
``actor()`` is the seat that decides (-1 once over), ``legal()`` its legal action indices,
``step(index)`` applies one. The PettingZoo and OpenSpiel adapters are thin wrappers of a flow.
"""

from typing import Protocol

import numpy as np
import numpy.typing as npt

Int8Array = npt.NDArray[np.int8]


class Flow(Protocol):
    """A game as single-seat decisions over a fixed vocabulary of ``num_actions`` indices."""

    num_players: int
    num_actions: int
    obs_size: int
    feature_size: int

    def actor(self) -> int:
        """The seat that decides now; -1 once the episode is over."""
        ...

    def legal(self) -> list[int]:
        """The legal action indices of the actor, ascending."""
        ...

    def step(self, index: int) -> list[float]:
        """Apply action ``index`` of the actor; returns the rewards it produced, one per seat."""
        ...

    def observe(self, seat: int) -> Int8Array:
        """The observation vector of ``seat`` (only what it may know)."""
        ...

    def features(self, indices: list[int]) -> Int8Array:
        """One feature row (the cards the action plays, and its type) per legal index."""
        ...

    def action_text(self, index: int) -> str:
        """The action ``index`` as text, in this state."""
        ...

    def clone(self) -> "Flow":
        """An independent copy."""
        ...

    @property
    def is_over(self) -> bool:
        """Has the episode ended?"""
        ...

    @property
    def returns(self) -> list[float]:
        """The rewards so far, one per seat."""
        ...


def mask_bits(mask: int, width: int) -> Int8Array:
    """Bit ``i`` of ``mask`` as element ``i`` of an int8 vector of ``width``."""
    raw = np.frombuffer(mask.to_bytes((width + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:width].astype(np.int8)


def one_hot(index: int, width: int) -> Int8Array:
    """An int8 vector of ``width`` with a 1 at ``index`` (all zeros when out of range)."""
    out = np.zeros(width, dtype=np.int8)
    if 0 <= index < width:
        out[index] = 1
    return out
