"""Tichu as a sequence of single-seat decisions over a fixed action vocabulary.

The vocabulary (computed here: :data:`NUM_ACTIONS` = 1,589 indices for every preset) has four blocks:

- 8 simple actions: ``grand``, ``no-grand``, ``tichu``, ``pass``, ``take``, ``give-dragon next``,
  ``give-dragon previous`` (the opponent after / before the giver) and ``no-bomb``;
- 14 wishes: ``no-wish``, ``wish 2`` .. ``wish A`` (asked right after a play with the Mah Jong);
- 56 exchange picks: one card (0..55); an exchange is three picks in a row: to the next seat, to
  the partner, to the previous seat;
- 1,511 play *shapes*: (kind, rank, length, Phoenix reading), plus the suit for straight flushes.
  A shape stands for every legal play of the same shape; the exact cards are its *canonical
  representative*: among the legal plays of that shape, the one using the fewest cards that
  belong to a bomb of the hand (four of a kind or straight flush), then the lowest card mask
  (lowest suits: Jade, Sword, Pagoda, Star). Bombs are exact: four of a kind by rank, straight
  flush by (top, length, suit).

Decision points (``actor``):

- Grand Tichu: seats 0, 1, 2, 3 in order, ``grand`` or ``no-grand``.
- Exchange: seats 0..3 in order, three picks each (``tichu`` may be called at each pick while
  the rules allow it, which keeps the decision with the seat).
- Play: the round's own flow (:meth:`~pagoda.tichu.Round.decisions`), its first decision each
  time: each seat of the bomb window (opened whenever the table changes: after every play, and
  once more when the trick becomes complete; every seat holding a bomb that beats the table but
  the seat to move, in play order after the seat that acted, so the last player itself last) is
  asked for one of its bombs or ``no-bomb`` (or ``tichu``); then the seat to move (plays,
  ``pass``, ``take``, ``give-dragon``, ``tichu`` while allowed; after a Mah Jong play, its wish).
  A seat that declines is asked again only when the window opens again; a bomb changes the table.
"""

import copy
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pagoda import tichu
from pagoda.envs._common import Int8Array, mask_bits, one_hot
from pagoda.tichu.actions import EXCHANGE, GIVE_DRAGON, GRAND, NO_BOMB, NO_GRAND, PASS, PLAY, TAKE, TICHU
from pagoda.tichu.cards import (
    CARDS,
    DRAGON_BIT,
    MAH_JONG_BIT,
    PHOENIX_BIT,
    RANK_MASKS,
    SUIT_MASKS,
    format_cards,
    format_rank,
)
from pagoda.tichu.combos import (
    DOG_KIND,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    PAIR,
    PAIR_RUN,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPLE,
)
from pagoda.tichu.movegen import has_bomb

Key = tuple[str, int, int, int]

SIMPLE = ("grand", "no-grand", "tichu", "pass", "take", "give-dragon next", "give-dragon previous", "no-bomb")
A_GRAND, A_NO_GRAND, A_TICHU, A_PASS, A_TAKE, A_GIVE_NEXT, A_GIVE_PREV, A_NO_BOMB = range(8)
WISH0 = 8  # WISH0: no wish; WISH0 + r - 1: wish rank r (2..14)
EXCHANGE0 = WISH0 + 14
PLAY0 = EXCHANGE0 + 56


def _play_keys() -> list[Key]:
    keys: list[Key] = [("single", r, 0, 0) for r in range(2, 15)]
    keys += [("mahjong", 1, 0, 0), ("phoenix", 0, 0, 0), ("dragon", 15, 0, 0), ("dog", 0, 0, 0)]
    for kind in (PAIR, TRIPLE):
        keys += [(kind, r, ph, 0) for r in range(2, 15) for ph in (0, r)]
    keys += [(FULL_HOUSE, t, p, ph) for t in range(2, 15) for p in range(2, 15) if p != t for ph in (0, t, p)]
    for n in range(2, 8):
        for hi in range(n + 1, 15):
            keys += [(PAIR_RUN, hi, n, ph) for ph in (0, *range(hi - n + 1, hi + 1))]
    for length in range(5, 15):
        for hi in range(length, 15):
            lo = hi - length + 1
            keys += [(STRAIGHT, hi, length, ph) for ph in (0, *range(max(lo, 2), hi + 1))]
    keys += [(FOUR_OF_A_KIND, r, 4, 0) for r in range(2, 15)]
    for length in range(5, 14):
        for hi in range(length + 1, 15):
            keys += [(STRAIGHT_FLUSH, hi, length, suit) for suit in range(4)]
    return keys


PLAY_KEYS: tuple[Key, ...] = tuple(_play_keys())
PLAY_INDEX: dict[Key, int] = {key: PLAY0 + i for i, key in enumerate(PLAY_KEYS)}
NUM_ACTIONS = PLAY0 + len(PLAY_KEYS)


def play_key(combo: tichu.Combo) -> Key:
    """The shape of a combination: its vocabulary key (suits left out, but for straight flushes)."""
    kind, mask = combo.kind, combo.mask
    if kind == SINGLE:
        if mask == MAH_JONG_BIT:
            return ("mahjong", 1, 0, 0)
        if mask == PHOENIX_BIT:
            return ("phoenix", 0, 0, 0)
        if mask == DRAGON_BIT:
            return ("dragon", 15, 0, 0)
        return ("single", int(combo.rank), 0, 0)
    if kind == DOG_KIND:
        return ("dog", 0, 0, 0)
    rank = int(combo.rank)
    if kind in (PAIR, TRIPLE):
        return (kind, rank, combo.phoenix, 0)
    if kind == FULL_HOUSE:
        other = next(r for r in range(2, 15) if r != rank and mask & RANK_MASKS[r])
        return (kind, rank, other, combo.phoenix)
    if kind == PAIR_RUN:
        return (kind, rank, combo.length // 2, combo.phoenix)
    if kind == STRAIGHT:
        return (kind, rank, combo.length, combo.phoenix)
    if kind == FOUR_OF_A_KIND:
        return (kind, rank, 4, 0)
    suit = next(s for s in range(4) if mask & ~SUIT_MASKS[s] == 0)
    return (STRAIGHT_FLUSH, rank, combo.length, suit)


def describe(index: int) -> str:
    """The vocabulary entry ``index`` in words (state-free)."""
    if index < WISH0:
        return SIMPLE[index]
    if index < EXCHANGE0:
        return "no-wish" if index == WISH0 else f"wish {format_rank(index - WISH0 + 1)}"
    if index < PLAY0:
        return f"pick {CARDS[index - EXCHANGE0]}"
    kind, a, b, c = PLAY_KEYS[index - PLAY0]
    return f"{kind} {a} {b} {c}"


# Feature rows: 56 card bits, 14 wish bits, then the type of the action.
TYPES = ("play", "pass", "take", "give-dragon", "grand", "no-grand", "tichu", "no-bomb", "pick", "wish")
FEATURE_SIZE = 56 + 14 + len(TYPES)
_SIMPLE_TYPE = {
    A_GRAND: 4,
    A_NO_GRAND: 5,
    A_TICHU: 6,
    A_PASS: 1,
    A_TAKE: 2,
    A_GIVE_NEXT: 3,
    A_GIVE_PREV: 3,
    A_NO_BOMB: 7,
}

# Decision types, for the observation.
D_GRAND, D_EXCHANGE, D_TURN, D_POLL, D_WISH, D_OVER = range(6)
OBS_PARTS = (
    ("hand", 56),
    ("played", 56),
    ("top", 56),
    ("won", 4 * 56),
    ("hand_sizes", 4 * 15),
    ("grand_decided", 4),
    ("grand_calls", 4),
    ("tichu_calls", 4),
    ("passed", 4),
    ("out", 4 * 3),
    ("top_seat", 4),
    ("trick_complete", 1),
    ("to_move", 4),
    ("wish", 13),
    ("phase", 4),
    ("given", 3 * 56),
    ("received", 3 * 56),
    ("decision", 6),
    ("picked", 56),
    ("pick_number", 3),
    ("pending_play", 56),
    ("bias", 1),
)
OBS_SIZE = sum(n for _, n in OBS_PARTS)
_PHASES = (tichu.Phase.GRAND_TICHU, tichu.Phase.EXCHANGE, tichu.Phase.PLAY, tichu.Phase.OVER)


@dataclass
class _Decision:
    seat: int
    kind: int
    indices: list[int]
    actions: dict[int, tichu.Action]


class TichuFlow:
    """A Tichu round or match as single-seat decisions (see the module's docstring)."""

    num_players = 4
    num_actions = NUM_ACTIONS
    obs_size = OBS_SIZE
    feature_size = FEATURE_SIZE

    def __init__(self, seed: int, rules: tichu.Rules | None = None, episode: str = "round") -> None:
        if episode not in ("round", "match"):
            raise ValueError(f"episode is 'round' or 'match', not {episode!r}")
        self.rules = rules if rules is not None else tichu.RULES["standard"]
        self.match: tichu.Match | None = None
        if episode == "match":
            self.match = tichu.Match.new(seed, self.rules)
            self.round = self.match.round
        else:
            self.round = tichu.Round.new(seed, self.rules)
        self.picks: list[int] = []
        self.wish_play: tichu.Action | None = None
        self._returns = [0.0] * 4
        self._over = False
        self._decision: _Decision | None = None

    @classmethod
    def from_round(cls, round: tichu.Round) -> "TichuFlow":
        """A flow over a given round (crafted positions, e.g. ``Round.from_hands``)."""
        flow = cls(0, round.rules)
        flow.round = round
        return flow

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def returns(self) -> list[float]:
        return list(self._returns)

    def __deepcopy__(self, memo: dict[int, object]) -> "TichuFlow":
        # The cores' states are immutable, so a copy that shares them is a full copy.
        return self.clone()

    def clone(self) -> "TichuFlow":
        other = copy.copy(self)
        other.picks = list(self.picks)
        other._returns = list(self._returns)
        return other

    def actor(self) -> int:
        return -1 if self._over else self._decide().seat

    def legal(self) -> list[int]:
        return [] if self._over else self._decide().indices

    def action(self, index: int) -> tichu.Action | None:
        """The core action a play, pass, take or gift index stands for now (None for the rest)."""
        return self._decide().actions.get(index)

    def _decide(self) -> _Decision:
        d = self._decision
        if d is None:
            d = self._decision = self._compute()
        return d

    def _compute(self) -> _Decision:
        r = self.round
        phase = r.phase
        if phase is tichu.Phase.GRAND_TICHU:
            seat = r.to_move
            acts = r.legal_actions(seat)
            indices = [A_GRAND, A_NO_GRAND] if any(a.kind == GRAND for a in acts) else [A_NO_GRAND]
            return _Decision(seat, D_GRAND, indices, {})
        if phase is tichu.Phase.EXCHANGE:
            seat = r.awaiting[0]
            acts = r.legal_actions(seat)
            indices = [A_TICHU] if len(acts) and acts[0].kind == TICHU else []
            hand = r.hand_mask(seat)
            indices += [EXCHANGE0 + c for c in range(56) if hand >> c & 1 and c not in self.picks]
            return _Decision(seat, D_EXCHANGE, indices, {})
        if self.wish_play is not None:
            seat = r.to_move
            first = WISH0 + 1 if self.rules.wish_required else WISH0
            return _Decision(seat, D_WISH, list(range(first, WISH0 + 14)), {})
        decision = r.decisions()[0]
        return self._map(decision.seat, decision.actions, D_POLL if decision.kind == "bomb" else D_TURN)

    def _map(self, seat: int, acts: Sequence[tichu.Action], kind: int) -> _Decision:
        groups: dict[int, tichu.Action] = {}
        best: dict[int, tuple[int, int, int]] = {}
        bomb_cards = -1
        hand = self.round.hand_mask(seat)
        for a in acts:
            k = a.kind
            if k == PLAY:
                combo = a.combo
                if combo is None:
                    combo = tichu.classify(a.mask, self.round.top)
                    assert combo is not None
                index = PLAY_INDEX[play_key(combo)]
                if bomb_cards < 0:
                    bomb_cards = 0
                    if has_bomb(hand):
                        for b in tichu.bombs(hand):
                            bomb_cards |= b.mask
                rank = ((a.mask & bomb_cards).bit_count(), a.mask, a.wish)
                old = best.get(index)
                if old is None or rank < old:
                    best[index] = rank
                    groups[index] = a
                continue
            if k == PASS:
                groups[A_PASS] = a
            elif k == TAKE:
                groups[A_TAKE] = a
            elif k == GIVE_DRAGON:
                groups[A_GIVE_NEXT if (a.target - seat) % 4 == 1 else A_GIVE_PREV] = a
            elif k == TICHU:
                groups[A_TICHU] = a
            elif k == NO_BOMB:
                groups[A_NO_BOMB] = a
        return _Decision(seat, kind, sorted(groups), groups)

    # ------------------------------------------------------------------ transitions

    def step(self, index: int) -> list[float]:
        if self._over:
            raise ValueError("the episode is over")
        d = self._decide()
        if index not in d.indices:
            raise ValueError(f"action {index} ({describe(index)}) is not legal for seat {d.seat} now")
        seat = d.seat
        self._decision = None
        if index == A_TICHU:
            return self._apply(seat, tichu.Action(TICHU))
        if d.kind == D_GRAND:
            return self._apply(seat, tichu.Action(GRAND if index == A_GRAND else NO_GRAND))
        if d.kind == D_EXCHANGE:
            self.picks.append(index - EXCHANGE0)
            if len(self.picks) < 3:
                return [0.0] * 4
            a, b, c = self.picks
            self.picks = []
            return self._apply(seat, tichu.Action(EXCHANGE, gifts=(CARDS[a], CARDS[b], CARDS[c])))
        if d.kind == D_WISH:
            play = self.wish_play
            assert play is not None
            self.wish_play = None
            wish = 0 if index == WISH0 else index - WISH0 + 1
            return self._apply(seat, tichu.Action(PLAY, play.mask, wish, play.reading))
        act = d.actions[index]
        if act.kind == PLAY and act.mask & MAH_JONG_BIT:
            self.wish_play = act
            return [0.0] * 4
        return self._apply(seat, act)

    def _apply(self, seat: int, act: tichu.Action) -> list[float]:
        rewards = [0.0] * 4
        if self.match is not None:
            before = len(self.match.finished)
            self.match = self.match.apply(seat, act)
            if len(self.match.finished) > before:
                a, b = self.match.finished[-1].score()
                rewards = [float(a), float(b), float(a), float(b)]
            self.round = self.match.round
            self._over = self.match.is_over
        else:
            self.round = self.round.apply(seat, act)
            if self.round.is_over:
                a, b = self.round.score()
                rewards = [float(a), float(b), float(a), float(b)]
                self._over = True
        for s in range(4):
            self._returns[s] += rewards[s]
        return rewards

    # ------------------------------------------------------------------ encodings

    def action_text(self, index: int) -> str:
        if index < WISH0 or index >= PLAY0:
            act = None if self._over else self._decide().actions.get(index)
            if act is not None:
                return str(act)
            return describe(index)
        return describe(index)

    def features(self, indices: list[int]) -> Int8Array:
        d = None if self._over else self._decide()
        out = np.zeros((len(indices), FEATURE_SIZE), dtype=np.int8)
        for row, index in enumerate(indices):
            if index < WISH0:
                out[row, 70 + _SIMPLE_TYPE[index]] = 1
                continue
            if index < EXCHANGE0:
                out[row, 56 + index - WISH0] = 1
                out[row, 70 + 9] = 1
                if self.wish_play is not None:
                    out[row, :56] = mask_bits(self.wish_play.mask, 56)
                continue
            if index < PLAY0:
                out[row, index - EXCHANGE0] = 1
                out[row, 70 + 8] = 1
                continue
            out[row, 70] = 1
            act = d.actions.get(index) if d is not None else None
            if act is not None:
                out[row, :56] = mask_bits(act.mask, 56)
        return out

    def observe(self, seat: int) -> Int8Array:
        r = self.round
        v = r.view(seat)
        rel = [(seat + k) % 4 for k in range(4)]  # me, next, partner, previous
        parts: list[Int8Array] = [mask_bits(v.hand, 56), mask_bits(v.played, 56)]
        parts.append(mask_bits(v.top.mask if v.top is not None else 0, 56))
        parts += [mask_bits(v.won[s], 56) for s in rel]
        parts += [one_hot(v.hand_sizes[s], 15) for s in rel]
        for flags in (v.grand_decided, v.grand_calls, v.tichu_calls, v.passed):
            parts.append(np.array([flags[s] for s in rel], dtype=np.int8))
        out = np.zeros(12, dtype=np.int8)
        for place, s in enumerate(v.out[:3]):
            out[rel.index(s) * 3 + place] = 1
        parts.append(out)
        parts.append(one_hot(rel.index(v.top_seat) if v.top_seat >= 0 else -1, 4))
        parts.append(np.array([v.is_trick_complete], dtype=np.int8))
        parts.append(one_hot(rel.index(v.to_move) if v.to_move >= 0 else -1, 4))
        parts.append(one_hot(v.wish - 2, 13))
        parts.append(one_hot(_PHASES.index(v.phase), 4))
        for cards in (v.given, v.received):
            for k in range(3):
                parts.append(one_hot(cards[k] if cards is not None else -1, 56))
        d = None if self._over else self._decide()
        parts.append(one_hot(d.kind if d is not None else D_OVER, 6))
        mine = d is not None and d.seat == seat
        picks = self.picks if mine and d is not None and d.kind == D_EXCHANGE else []
        parts.append(mask_bits(sum(1 << c for c in picks), 56))
        parts.append(one_hot(len(picks) if mine and d is not None and d.kind == D_EXCHANGE else -1, 3))
        pending = self.wish_play.mask if mine and self.wish_play is not None else 0
        parts.append(mask_bits(pending, 56))
        parts.append(np.ones(1, dtype=np.int8))
        return np.concatenate(parts)

    def text(self) -> str:
        """The round for people: hands, table and whose decision it is."""
        r = self.round
        lines = [f"phase {r.phase}, decision: seat {self.actor()}"]
        for s in range(4):
            lines.append(f"  seat {s}: {format_cards(r.hand_mask(s))}")
        if r.top is not None:
            lines.append(f"  table: {r.top} (seat {r.top_seat})")
        if self.wish_play is not None:
            lines.append(f"  wish to name after: play {format_cards(self.wish_play.mask)}")
        return "\n".join(lines)


__all__ = ["NUM_ACTIONS", "PLAY_INDEX", "PLAY_KEYS", "TichuFlow", "describe", "play_key"]
