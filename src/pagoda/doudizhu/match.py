"""A match: several rounds of Dou Di Zhu, a fixed number (``rules.rounds``, default 10) or until a
seat reaches ``rules.target`` points (when it is above 0).

Each round is dealt from a seed derived from the match seed and the round number. The first round's
first bidder is the holder of the face-up card; after that, the winner of the previous round (the
seat that played out) bids first.

>>> from pagoda import doudizhu as ddz
>>> m = ddz.Match.new(seed=7, rules=ddz.parse_rules("classic rounds=2"))
>>> while not m.is_over:
...     m = m.apply(m.to_move, m.current.legal_actions()[-1])
>>> len(m.rounds), sum(m.totals)
(2, 0)
"""

import random
from dataclasses import dataclass

from pagoda.core.errors import IllegalAction
from pagoda.doudizhu.actions import Action
from pagoda.doudizhu.round import Round
from pagoda.doudizhu.rules import RULES, Rules


def round_seed(seed: int, number: int) -> int:
    """The seed of round ``number`` (0, 1, ...) of the match with ``seed``."""
    return random.Random(f"doudizhu match {seed} {number}").getrandbits(48)


@dataclass(frozen=True, slots=True)
class Match:
    """An immutable match: the finished rounds, the round in play and the points so far."""

    rules: Rules
    seed: int
    rounds: tuple[Round, ...]
    current: Round

    @classmethod
    def new(cls, seed: int, rules: Rules = RULES["classic"]) -> "Match":
        """A match whose first round is about to be bid on."""
        return cls(rules, seed, (), Round.new(round_seed(seed, 0), rules))

    @property
    def totals(self) -> tuple[int, ...]:
        """Points per seat over the finished rounds."""
        out = [0] * self.rules.players
        for r in self.rounds:
            for seat, points in enumerate(r.score()):
                out[seat] += points
        return tuple(out)

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (all rounds played, or a seat reached the target)."""
        if self.rules.target > 0:
            return max(self.totals) >= self.rules.target
        return len(self.rounds) >= self.rules.rounds

    @property
    def to_move(self) -> int:
        """The seat to act in the current round."""
        return self.current.to_move

    def apply(self, seat: int, action: Action | str) -> "Match":
        """The match after ``seat`` acts in the current round (the next round starts when it ends)."""
        if self.is_over:
            raise IllegalAction("the match is over")
        r = self.current.apply(seat, action)
        if not r.is_over:
            return Match(self.rules, self.seed, self.rounds, r)
        rounds = (*self.rounds, r)
        nxt = Round.new(round_seed(self.seed, len(rounds)), self.rules, first=r.winner)
        return Match(self.rules, self.seed, rounds, nxt)
