"""The one shape both rules cores have: a game state, its decisions, and its position notation.

:class:`GameState` is the protocol that :class:`pagoda.tichu.Round` and
:class:`pagoda.doudizhu.Round` both satisfy, with the same signatures, so that the arena, the
server, the environments and the conformance tests are written once for both games.

:class:`Decision` is one entry of a state's *flow*: a seat that may act now and what it may do.
A state's :meth:`GameState.decisions` lists every seat that is asked now, in the order a
sequential driver (the arena, an environment) asks them; a real-time driver (the server) may
take their answers in any order. Nothing outside the core decides who may act.
"""

from collections.abc import Sequence
from typing import Any, Generic, Literal, NamedTuple, Protocol, Self, TypeVar, runtime_checkable

from pagoda.core.record import Record

A = TypeVar("A")

#: Why a seat is asked: its turn; an out-of-turn bomb it may play on a live trick (Tichu);
#: a call every seat makes at once (Tichu's Grand Tichu and exchange).
DecisionKind = Literal["turn", "bomb", "simultaneous"]


class Decision(NamedTuple, Generic[A]):
    """A seat that may act now, why it is asked, and the actions it may take (immutable).

    A named tuple: as immutable as a frozen dataclass, and made at a tuple's cost on every
    decision of a round.
    """

    seat: int
    kind: DecisionKind
    actions: Sequence[A]


@runtime_checkable
class GameState(Protocol):
    """What every rules core's state offers (both ``Round`` classes satisfy it)."""

    @classmethod
    def new(cls, seed: int | None = None, rules: Any = None) -> Self:
        """A fresh round dealt from ``seed`` (random when None) under ``rules`` (the default preset)."""
        ...

    def apply(self, seat: int, action: Any) -> Self:
        """The state after ``seat`` does ``action`` (an action or its text)."""
        ...

    def legal_actions(self, seat: int) -> Sequence[Any]:
        """Everything ``seat`` may do now (immutable)."""
        ...

    def decisions(self) -> tuple[Decision[Any], ...]:
        """The seats asked now and what each may do, in the order a sequential driver asks."""
        ...

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        ...

    def view(self, seat: int) -> Any:
        """What ``seat`` may know: its own hand and everything public."""
        ...

    @property
    def is_over(self) -> bool:
        """Has the round ended?"""
        ...

    def score(self) -> tuple[int, ...]:
        """The points of the round (per team in Tichu, per seat in Dou Di Zhu)."""
        ...

    @property
    def record(self) -> Record:
        """The record that replays to this state."""
        ...

    def position(self) -> str:
        """The state as one line of text that :meth:`from_position` reads back to an equal state."""
        ...

    @classmethod
    def from_position(cls, text: str) -> Self:
        """Read :meth:`position` back."""
        ...
