"""Dou Di Zhu as a sequence of single-seat decisions over a fixed action vocabulary.

The vocabulary of a preset (:func:`vocabulary`, computed from the rules core at first use):
``pass``, ``bid 1`` .. ``bid <max_bid>``, ``call``, ``rob``, then every set of cards that is a
combination under the preset (the leads of a hand holding the whole deck, no larger than the
landlord's hand), ordered by size then card mask. A play's index is the set of cards it stands
for: its cards, or with wild cards (``laizi``) its reading; where several legal plays stand for
the same reading, the representative is the one using the fewest wild cards, then the lowest
card mask. Every decision is the seat to move's: the auction, then the plays.
"""

import copy
import dataclasses
import functools

import numpy as np

from pagoda import doudizhu as ddz
from pagoda.doudizhu.actions import BID, CALL, PASS_KIND, PLAY, ROB
from pagoda.doudizhu.cards import JOKER_B, ONE, counts_of, deck, format_mask, size_of
from pagoda.envs._common import Int8Array, one_hot

AUCTION_WORDS = ("pass", "bid", "call", "rob")


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    """The fixed action vocabulary of one preset."""

    rules: ddz.Rules
    max_bid: int
    plays: tuple[int, ...]  # the packed card set of each play index, from play0 on
    index: dict[int, int]  # packed card set -> action index
    width: int  # card-vector width: 4 per rank and 1 per joker, per pack

    @property
    def bid0(self) -> int:
        return 1

    @property
    def call(self) -> int:
        return 1 + self.max_bid

    @property
    def rob(self) -> int:
        return 2 + self.max_bid

    @property
    def play0(self) -> int:
        return 3 + self.max_bid

    @property
    def size(self) -> int:
        return self.play0 + len(self.plays)

    def text(self, index: int) -> str:
        """The entry ``index`` as action text."""
        if index == 0:
            return "pass"
        if index <= self.max_bid:
            return f"bid {index}"
        if index == self.call:
            return "call"
        if index == self.rob:
            return "rob"
        return f"play {format_mask(self.plays[index - self.play0])}"


@functools.cache
def vocabulary(rules: ddz.Rules) -> Vocabulary:
    """The vocabulary of ``rules``: computed from the core's move generation, once per rules."""
    base = dataclasses.replace(rules, bomb_head_chains=True, wild="none")
    full = sum(ONE[i] for i in deck(rules.decks))
    most = rules.hand_size + rules.kitty
    masks = sorted({c.mask for c in ddz.plays(full, rules=base) if size_of(c.mask) <= most})
    masks.sort(key=lambda m: (size_of(m), m))
    play0 = 3 + rules.max_bid
    return Vocabulary(
        rules=rules,
        max_bid=rules.max_bid,
        plays=tuple(masks),
        index={m: play0 + i for i, m in enumerate(masks)},
        width=(4 * 13 + 2) * rules.decks,
    )


def card_vector(mask: int, decks: int) -> Int8Array:
    """Counts per rank as a thermometer: 4 (8 with two packs) slots per rank, 1 (2) per joker."""
    per = 4 * decks
    out = np.zeros(per * 13 + 2 * decks, dtype=np.int8)
    for i, n in enumerate(counts_of(mask)):
        if n:
            start = per * i if i < JOKER_B else per * 13 + decks * (i - JOKER_B)
            out[start : start + n] = 1
    return out


TYPES = ("pass", "bid", "call", "rob", "play")


class DoudizhuFlow:
    """A Dou Di Zhu round or match as the decisions of the seat to move."""

    def __init__(self, seed: int, rules: ddz.Rules | None = None, episode: str = "round") -> None:
        if episode not in ("round", "match"):
            raise ValueError(f"episode is 'round' or 'match', not {episode!r}")
        self.rules = rules if rules is not None else ddz.RULES["classic"]
        self.vocab = vocabulary(self.rules)
        self.num_players = self.rules.players
        self.num_actions = self.vocab.size
        self.max_cards = self.rules.hand_size + self.rules.kitty
        w = self.vocab.width
        p = self.num_players
        self.obs_parts = (
            ("hand", w),
            ("kitty", w),
            ("top", w),
            ("top_seat", p),
            ("played", p * w),
            ("counts", p * (self.max_cards + 1)),
            ("landlord", p),
            ("bid", 9),
            ("doubles", 8),
            ("wild", 13),
            ("phase", 3),
            ("auction", p * len(AUCTION_WORDS)),
            ("to_move", p),
            ("bias", 1),
        )
        self.obs_size = sum(n for _, n in self.obs_parts)
        self.feature_size = w + len(TYPES) + 4
        self.match: ddz.Match | None = None
        if episode == "match":
            self.match = ddz.Match.new(seed, self.rules)
            self.round = self.match.current
        else:
            self.round = ddz.Round.new(seed, self.rules)
        self.played = [0] * p
        self._returns = [0.0] * p
        self._over = False
        self._decision: tuple[list[int], dict[int, ddz.Action]] | None = None

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def returns(self) -> list[float]:
        return list(self._returns)

    def __deepcopy__(self, memo: dict[int, object]) -> "DoudizhuFlow":
        # The cores' states are immutable, so a copy that shares them is a full copy.
        return self.clone()

    def clone(self) -> "DoudizhuFlow":
        other = copy.copy(self)
        other.played = list(self.played)
        other._returns = list(self._returns)
        return other

    def actor(self) -> int:
        return -1 if self._over else self.round.to_move

    def _decide(self) -> tuple[list[int], dict[int, ddz.Action]]:
        d = self._decision
        if d is not None:
            return d
        groups: dict[int, ddz.Action] = {}
        best: dict[int, tuple[int, int]] = {}
        vocab = self.vocab
        wild = self.round.wild
        for a in self.round.legal_actions():
            kind = a.kind
            if kind == PLAY:
                combo = a.combo
                assert combo is not None
                index = vocab.index[combo.reading]
                if wild < 0:
                    groups[index] = a
                    continue
                rank = ((combo.mask >> (5 * wild)) & 31, combo.mask)
                old = best.get(index)
                if old is None or rank < old:
                    best[index] = rank
                    groups[index] = a
            elif kind == PASS_KIND:
                groups[0] = a
            elif kind == BID:
                groups[a.bid] = a
            elif kind == CALL:
                groups[vocab.call] = a
            elif kind == ROB:
                groups[vocab.rob] = a
        d = self._decision = (sorted(groups), groups)
        return d

    def legal(self) -> list[int]:
        return [] if self._over else self._decide()[0]

    def action(self, index: int) -> ddz.Action | None:
        """The core action ``index`` stands for now."""
        return self._decide()[1].get(index)

    def step(self, index: int) -> list[float]:
        if self._over:
            raise ValueError("the episode is over")
        _indices, acts = self._decide()
        act = acts.get(index)
        if act is None:
            raise ValueError(f"action {index} ({self.vocab.text(index)}) is not legal now")
        seat = self.round.to_move
        self._decision = None
        n = self.num_players
        rewards = [0.0] * n
        if act.kind == PLAY and act.combo is not None:
            self.played[seat] += act.combo.mask
        if self.match is not None:
            before = len(self.match.rounds)
            self.match = self.match.apply(seat, act)
            if len(self.match.rounds) > before:
                rewards = [float(x) for x in self.match.rounds[-1].score()]
                self.played = [0] * n
            self.round = self.match.current
            self._over = self.match.is_over
        else:
            self.round = self.round.apply(seat, act)
            if self.round.is_over:
                rewards = [float(x) for x in self.round.score()]
                self._over = True
        if self.round.phase is ddz.Phase.AUCTION and not self.round.auction:
            self.played = [0] * n  # a redeal
        for s in range(n):
            self._returns[s] += rewards[s]
        return rewards

    def action_text(self, index: int) -> str:
        act = None if self._over else self._decide()[1].get(index)
        return str(act) if act is not None else self.vocab.text(index)

    def features(self, indices: list[int]) -> Int8Array:
        vocab = self.vocab
        w = vocab.width
        acts = {} if self._over else self._decide()[1]
        out = np.zeros((len(indices), self.feature_size), dtype=np.int8)
        wild = self.round.wild
        for row, index in enumerate(indices):
            if index < vocab.play0:
                kind = 0 if index == 0 else 1 if index <= vocab.max_bid else 2 if index == vocab.call else 3
                out[row, w + kind] = 1
                continue
            out[row, :w] = card_vector(vocab.plays[index - vocab.play0], self.rules.decks)
            out[row, w + 4] = 1
            act = acts.get(index)
            if act is not None and act.combo is not None and wild >= 0:
                used = min(4, (act.combo.mask >> (5 * wild)) & 31)
                out[row, w + 5 : w + 5 + used] = 1
        return out

    def observe(self, seat: int) -> Int8Array:
        r = self.round
        v = r.view(seat)
        n = self.num_players
        decks = self.rules.decks
        rel = [(seat + k) % n for k in range(n)]
        parts = [card_vector(v.hand.mask, decks)]
        parts.append(card_vector(v.kitty.mask if v.kitty is not None else 0, decks))
        parts.append(card_vector(v.top.mask if v.top is not None else 0, decks))
        parts.append(one_hot(rel.index(v.top_seat) if v.top_seat is not None else -1, n))
        parts += [card_vector(self.played[s], decks) for s in rel]
        parts += [one_hot(v.counts[s], self.max_cards + 1) for s in rel]
        parts.append(one_hot(rel.index(v.landlord) if v.landlord is not None else -1, n))
        parts.append(one_hot(min(v.bid, 8), 9))
        doubles = v.multiplier.bit_length() - 1
        parts.append(np.array([1 if k < doubles else 0 for k in range(8)], dtype=np.int8))
        parts.append(one_hot(v.wild - 3 if v.wild is not None else -1, 13))
        parts.append(one_hot(list(ddz.Phase).index(v.phase), 3))
        auction = np.zeros(n * len(AUCTION_WORDS), dtype=np.int8)
        for s, text in r.auction:
            word = text.split()[0]
            auction[rel.index(s) * len(AUCTION_WORDS) + AUCTION_WORDS.index(word)] = 1
        parts.append(auction)
        parts.append(one_hot(rel.index(v.to_move) if v.to_move >= 0 else -1, n))
        parts.append(np.ones(1, dtype=np.int8))
        return np.concatenate(parts)

    def text(self) -> str:
        """The round for people."""
        r = self.round
        lines = [f"phase {r.phase.value}, to move: seat {r.to_move}, landlord {r.landlord}"]
        for s in range(self.num_players):
            lines.append(f"  seat {s}: {format_mask(r.hands[s])}")
        if r.top is not None:
            lines.append(f"  table: {r.top} (seat {r.top_seat})")
        return "\n".join(lines)


__all__ = ["DoudizhuFlow", "Vocabulary", "card_vector", "vocabulary"]
