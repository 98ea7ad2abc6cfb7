"""Hand analysis for the Dou Di Zhu bots: the fewest combinations a hand plays out in, and what is unseen.

:func:`partition` splits a hand into the fewest combinations: chains, pair chains and planes are
searched exhaustively (memoized on the packed hand), the rest is read off the counts (rocket,
bombs, trios, pairs, solos) and trios and planes take kickers from the lowest left-over solos or
pairs, as the rules allow. Bombs and the rocket are kept whole, never spent as four-with-two or
split for kickers: they are worth more than the plays they would save.

>>> from pagoda import doudizhu as ddz
>>> rules = ddz.RULES["classic"]
>>> [str(g) for g in partition(ddz.parse_cards("34567 999 J 22").mask, rules)]
['34567', '999J', '22']
>>> min_plays(ddz.parse_cards("3 5 7 9 J").mask, rules)
5
"""

from collections.abc import Iterable
from typing import NamedTuple

from pagoda.doudizhu.cards import (
    ACE,
    JOKER_B,
    JOKER_R,
    NUM_RANKS,
    ONE,
    TWO,
    counts_of,
    format_mask,
    parse_mask,
)
from pagoda.doudizhu.rules import Rules

SOLO, PAIR, TRIO, BOMB, ROCKET = "solo", "pair", "trio", "bomb", "rocket"
CHAIN, PAIR_CHAIN, PLANE = "chain", "pair_chain", "plane"
TRIO_SOLO, TRIO_PAIR, PLANE_SOLO, PLANE_PAIR = "trio_solo", "trio_pair", "plane_solo", "plane_pair"


class Group(NamedTuple):
    """One combination of a partition: its kind, main rank (3..17, as ``Combo.rank``) and cards."""

    kind: str
    rank: int
    mask: int

    def __str__(self) -> str:
        return format_mask(self.mask)


Plan = tuple[Group, ...]

#: the options of the rules a partition reads, for the memo's key
RulesKey = tuple[int, int, int, int, bool, bool, bool]
_MEMO: dict[tuple[int, RulesKey], Plan] = {}
_MEMO_MAX = 1 << 18
_RUN_KINDS = {1: CHAIN, 2: PAIR_CHAIN, 3: PLANE}


def _cost(plan: Plan) -> tuple[int, int]:
    # fewest plays first; then fewest solos below an ace (the weak cards a hand must get rid of)
    return len(plan), sum(1 for g in plan if g.kind == SOLO and g.rank - 3 < ACE)


def _rules_key(rules: Rules) -> RulesKey:
    # the options themselves, not the object's id: CPython hands a freed object's id to a new
    # one, and a memo keyed by id served partitions made under other rules (two packs for one)
    return (
        rules.decks,
        rules.chain_min,
        rules.pair_chain_min,
        rules.plane_min,
        rules.trio_solo,
        rules.plane_solo,
        rules.kicker_rocket,
    )


def partition(mask: int, rules: Rules) -> Plan:
    """The fewest combinations the packed hand ``mask`` plays out in (bombs kept whole)."""
    key = (mask, _rules_key(rules))
    found = _MEMO.get(key)
    if found is not None:
        return found
    c = counts_of(mask)
    best = _leaf(c, rules)
    best_cost = _cost(best)
    if best_cost[0] > 1:
        for per, start, length in _runs(c, rules):
            run_mask = sum(per * ONE[i] for i in range(start, start + length))
            rest = mask - run_mask
            kind = _RUN_KINDS[per]
            options: list[tuple[Group, int]] = [(Group(kind, start + length + 2, run_mask), rest)]
            if per == 3:
                options += _plane_kickers(run_mask, rest, start, length, rules)
            for group, left in options:
                plan = (group, *partition(left, rules))
                cost = _cost(plan)
                if cost < best_cost:
                    best, best_cost = plan, cost
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.clear()
    _MEMO[key] = best
    return best


def min_plays(mask: int, rules: Rules) -> int:
    """How many combinations the packed hand ``mask`` needs at least (see :func:`partition`)."""
    return len(partition(mask, rules))


def _runs(c: list[int], rules: Rules) -> Iterable[tuple[int, int, int]]:
    """Every chain, pair chain and plane the counts hold: (cards per rank, first rank index, length)."""
    least = {1: rules.chain_min, 2: rules.pair_chain_min, 3: rules.plane_min}
    for per in (3, 2, 1):
        m = least[per]
        for start in range(ACE + 1):
            end = start
            while end <= ACE and c[end] >= per:
                end += 1
            for stop in range(start + m, end + 1):
                yield per, start, stop - start


def _plane_kickers(
    run_mask: int, rest: int, start: int, length: int, rules: Rules
) -> list[tuple[Group, int]]:
    """The plane with the lowest ``length`` left-over solos, or pairs, as its kickers."""
    c = counts_of(rest)
    out: list[tuple[Group, int]] = []
    rank = start + length + 2
    outside = [i for i in range(NUM_RANKS) if not start <= i < start + length]
    if rules.plane_solo:
        solos = [i for i in outside if c[i] == 1]
        if c[JOKER_B] == 1 and c[JOKER_R] == 1 and not rules.kicker_rocket:
            solos = [i for i in solos if i != JOKER_R]
        if len(solos) >= length:
            kick = sum(ONE[i] for i in solos[:length])
            out.append((Group(PLANE_SOLO, rank, run_mask + kick), rest - kick))
    pairs = [i for i in outside if c[i] == 2]
    if len(pairs) >= length:
        kick = sum(2 * ONE[i] for i in pairs[:length])
        out.append((Group(PLANE_PAIR, rank, run_mask + kick), rest - kick))
    return out


def _leaf(c: list[int], rules: Rules) -> Plan:
    """The plan without runs: rocket, bombs, trios (with kickers), pairs, solos."""
    c = c.copy()
    groups: list[Group] = []
    d = rules.decks
    if c[JOKER_B] == d and c[JOKER_R] == d:
        groups.append(Group(ROCKET, 17, d * (ONE[JOKER_B] + ONE[JOKER_R])))
        c[JOKER_B] = c[JOKER_R] = 0
    trios: list[int] = []
    pairs: list[int] = []
    solos: list[int] = []
    for i in range(NUM_RANKS):
        n = c[i]
        if n >= 4 and i < JOKER_B:
            groups.append(Group(BOMB, i + 3, n * ONE[i]))
        elif n == 3:
            trios.append(i)
        elif n == 2:
            pairs.append(i)
        elif n == 1:
            solos.append(i)
    for t in trios:
        kick = -1
        # the lowest solo below an ace first (a useless single), else the lowest pair, else any solo
        if rules.trio_solo and solos and solos[0] < ACE:
            kick = solos.pop(0)
            groups.append(Group(TRIO_SOLO, t + 3, 3 * ONE[t] + ONE[kick]))
        elif pairs and pairs[0] < TWO:
            kick = pairs.pop(0)
            groups.append(Group(TRIO_PAIR, t + 3, 3 * ONE[t] + 2 * ONE[kick]))
        elif rules.trio_solo and solos:
            kick = solos.pop(0)
            groups.append(Group(TRIO_SOLO, t + 3, 3 * ONE[t] + ONE[kick]))
        elif pairs:
            kick = pairs.pop(0)
            groups.append(Group(TRIO_PAIR, t + 3, 3 * ONE[t] + 2 * ONE[kick]))
        else:
            groups.append(Group(TRIO, t + 3, 3 * ONE[t]))
    groups += [Group(PAIR, i + 3, 2 * ONE[i]) for i in pairs]
    groups += [Group(SOLO, i + 3, ONE[i]) for i in solos]
    return tuple(groups)


def unseen(hand: int, played: int, decks: int = 1) -> list[int]:
    """The count per rank index of the cards nobody has shown: the packs less ``hand`` and ``played``."""
    mine = counts_of(hand + played)
    return [(decks if i >= JOKER_B else 4 * decks) - mine[i] for i in range(NUM_RANKS)]


def played_cards(history: Iterable[tuple[int, str]]) -> dict[int, int]:
    """The cards each seat has played so far, packed, from a round's public history."""
    out: dict[int, int] = {}
    for seat, text in history:
        if text.startswith("play "):
            cards = text[5:].partition(" as ")[0]
            out[seat] = out.get(seat, 0) + parse_mask(cards)
    return out


__all__ = ["Group", "Plan", "min_plays", "partition", "played_cards", "unseen"]
