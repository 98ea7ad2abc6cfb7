"""Alpha-beta search with a transposition table: the part the games' exact endgame solvers share.

A game's solver says what a finished position is worth (:meth:`TableSearch._leaf`), what the rest
of a position depends on (:meth:`TableSearch._key`) and which side moves to which positions
(:meth:`TableSearch._moves`); this class does the rest: the table's bounds, the node budget, and
trying first the move that caused a cut-off when the position was last searched.

Values are *fail-soft*: searched with a window ``alpha < beta``, a value at or below ``alpha`` is
an upper bound of the true one, at or above ``beta`` a lower bound, else exact.
"""

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

P = TypeVar("P")

_EXACT, _LOWER, _UPPER = 0, 1, 2


class SolverBudget(RuntimeError):
    """The solver visited more positions than its ``node_limit`` allowed."""


class TableSearch(ABC, Generic[P]):
    """Alpha-beta over positions of type ``P`` with a transposition table and a node budget."""

    #: Above every value a position can have.
    inf: float = float("inf")

    def __init__(self, node_limit: int) -> None:
        self.node_limit = node_limit
        self.nodes = 0
        self._table: dict[Hashable, tuple[float, int, int]] = {}

    @abstractmethod
    def _leaf(self, pos: P) -> float | None:
        """The value of a finished position; None while play goes on."""

    @abstractmethod
    def _key(self, pos: P) -> Hashable:
        """What the rest of the game from ``pos`` depends on (positions with one key share a value)."""

    @abstractmethod
    def _moves(self, pos: P) -> tuple[bool, int, Callable[[int], P]]:
        """Whether the side to move maximizes, how many moves it has, and the position after the
        i-th (made only when the search reaches it: a cut-off spares the rest)."""

    def _search(self, pos: P, alpha: float, beta: float) -> float:
        leaf = self._leaf(pos)
        if leaf is not None:
            return leaf
        key = self._key(pos)
        hit = self._table.get(key)
        first = 0
        if hit is not None:
            v, flag, first = hit
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                return v
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SolverBudget(f"more than {self.node_limit} positions")
        maximize, n, child = self._moves(pos)
        order = list(range(n))
        if 0 < first < n:
            order.insert(0, order.pop(first))
        a0, b0 = alpha, beta
        best = -self.inf if maximize else self.inf
        best_i = 0
        for i in order:
            v = self._search(child(i), alpha, beta)
            if maximize:
                if v > best:
                    best, best_i = v, i
                    alpha = max(alpha, v)
            elif v < best:
                best, best_i = v, i
                beta = min(beta, v)
            if alpha >= beta:
                break
        flag = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
        self._table[key] = (best, flag, best_i)
        return best
