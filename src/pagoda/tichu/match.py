"""A Tichu match: rounds until a team reaches the target score (1000).

When a round ends its score is added and the next round is dealt from a seed derived from the
match's seed and the round's number, so a match, like a round, is a fold over its actions. The
match ends when a team has reached the target after a round, with more points than the
other (a tie goes on with another round), or after the rules' last round (``rounds``, when
set), where a tie is a draw.
"""

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass

from pagoda.core import IllegalAction, ParseError, Record, parse_record
from pagoda.tichu.actions import Action
from pagoda.tichu.round import Round
from pagoda.tichu.rules import RULES, Rules


def round_seed(seed: int, number: int) -> int:
    """The shuffle seed of round ``number`` (1, 2, ...) of the match seeded with ``seed``."""
    return random.Random(f"tichu-match/{seed}/{number}").getrandbits(63)


@dataclass(frozen=True, slots=True, eq=False)
class Match:
    """An immutable match; :meth:`apply` returns the next match state.

    >>> m = Match.new(seed=5)
    >>> m.number, m.scores, m.is_over
    (1, (0, 0), False)
    """

    rules: Rules
    seed: int
    round: Round
    finished: tuple[Round, ...] = ()
    scores: tuple[int, int] = (0, 0)
    _history: tuple[tuple[int, str], ...] = ()

    @classmethod
    def new(cls, seed: int = 0, rules: Rules | None = None) -> "Match":
        """A match whose rounds are dealt from ``seed``."""
        rules = rules if rules is not None else RULES["standard"]
        return cls(rules, seed, Round.new(round_seed(seed, 1), rules))

    @property
    def number(self) -> int:
        """The number of the round in play (1 for the first; the last one once the match is over)."""
        return len(self.finished) + (0 if self.is_over else 1)

    @property
    def is_over(self) -> bool:
        """Has a team reached the target with more points, or the rules' last round been played?"""
        a, b = self.scores
        limit = self.rules.rounds
        if limit > 0 and len(self.finished) >= limit:
            return True
        return max(a, b) >= self.rules.target_score and a != b

    @property
    def winner(self) -> int | None:
        """The winning team (0: seats 0 and 2, 1: seats 1 and 3); None while it goes on or if drawn."""
        if not self.is_over or self.scores[0] == self.scores[1]:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """What ``seat`` may do in the round in play (nothing once the match is over)."""
        return [] if self.is_over else self.round.legal_actions(seat)

    def apply(self, seat: int, action: Action | str) -> "Match":
        """The match after ``seat`` does ``action`` in the round in play."""
        if self.is_over:
            raise IllegalAction("the match is over", "match_over")
        nxt = self.round.apply(seat, action)
        history = (*self._history, (seat, str(action)))
        if not nxt.is_over:
            return dataclasses.replace(self, round=nxt, _history=history)
        a, b = nxt.score()
        ended = dataclasses.replace(
            self,
            round=nxt,
            finished=(*self.finished, nxt),
            scores=(self.scores[0] + a, self.scores[1] + b),
            _history=history,
        )
        if ended.is_over:  # at the match's end ``round`` stays the last one
            return ended
        return dataclasses.replace(
            ended, round=Round.new(round_seed(self.seed, len(ended.finished) + 1), self.rules)
        )

    @property
    def record(self) -> Record:
        """The match record: rules, seed and every action; :meth:`replay` reads it back."""
        headers = (("Game", "tichu-match"), ("Rules", str(self.rules)), ("Seed", str(self.seed)))
        return Record(headers, self._history)

    @classmethod
    def replay(cls, record: Record | str) -> "Match":
        """The match a match record describes."""
        if isinstance(record, str):
            record = parse_record(record)
        if record.get("Game") != "tichu-match":
            raise ParseError(f"not a tichu match record: Game is {record.get('Game')!r}")
        m = cls.new(int(record.header("Seed")), Rules.parse(record.header("Rules")))
        for number, (seat, text) in enumerate(record.actions, 1):
            try:
                m = m.apply(seat, text)
            except IllegalAction as e:
                raise e.again(f"action {number} ({seat} {text}): {e}") from None
        return m

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return (self.rules, self.seed, self.scores, self.finished, self.round) == (
            other.rules,
            other.seed,
            other.scores,
            other.finished,
            other.round,
        )

    def __hash__(self) -> int:
        return hash((self.seed, self.scores, len(self.finished)))

    def __repr__(self) -> str:
        return f"<Match round {self.number} scores {self.scores[0]}:{self.scores[1]}>"
