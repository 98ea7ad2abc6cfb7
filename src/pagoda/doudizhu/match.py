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
>>> ddz.Match.replay(str(m.record)) == m
True
"""

import random
from dataclasses import dataclass

from pagoda.core import ParseError, Record, parse_record
from pagoda.core.errors import IllegalAction
from pagoda.doudizhu.actions import Action
from pagoda.doudizhu.cards import check_ascii, parse_number
from pagoda.doudizhu.round import Round
from pagoda.doudizhu.rules import RULES, Rules, format_rules, parse_rules

MATCH_GAME = "doudizhu-match"


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
    #: Every action of the match so far, as ``(seat, text)``.
    actions: tuple[tuple[int, str], ...] = ()

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
            raise IllegalAction("the match is over", "match_over")
        r = self.current.apply(seat, action)
        actions = (*self.actions, (seat, str(action)))
        if not r.is_over:
            return Match(self.rules, self.seed, self.rounds, r, actions)
        rounds = (*self.rounds, r)
        nxt = Round.new(round_seed(self.seed, len(rounds)), self.rules, first=r.winner)
        return Match(self.rules, self.seed, rounds, nxt, actions)

    @property
    def record(self) -> Record:
        """The match record: its rules, its seed and every action; :meth:`replay` reads it back."""
        headers = (("Game", MATCH_GAME), ("Rules", format_rules(self.rules)), ("Seed", str(self.seed)))
        return Record(headers, self.actions)

    @classmethod
    def replay(cls, record: Record | str) -> "Match":
        """The match a match record describes."""
        if isinstance(record, str):
            check_ascii(record, "a Dou Di Zhu match record")
        rec = parse_record(record) if isinstance(record, str) else record
        if rec.get("Game") != MATCH_GAME:
            raise ParseError(f"not a Dou Di Zhu match record: Game is {rec.get('Game')!r}")
        m = cls.new(parse_number(rec.header("Seed"), "the Seed header"), parse_rules(rec.header("Rules")))
        for number, (seat, text) in enumerate(rec.actions, 1):
            try:
                m = m.apply(seat, text)
            except (IllegalAction, ParseError) as e:
                raise type(e)(f"action {number} ({seat} {text}): {e}") from None
        return m
