"""The Dou Di Zhu endgame solver: hand-worked positions and agreement with a plain minimax."""

import random

import pytest

from pagoda import doudizhu as ddz
from pagoda.bots.doudizhu.solver import Solver, SolverBudget, cards_left, solve
from pagoda.doudizhu.round import Phase


def test_landlord_springs_with_a_pair_nobody_beats() -> None:
    # Landlord (seat 0) holds 33 and 4; the peasants hold a 5 and a 6, no pair. Leading 33 wins
    # the trick, then 4 goes out: a spring (no peasant played), bid 1 x 2 = 2 per peasant, the
    # landlord +4. Leading 4 first would let a peasant beat it with 5 or 6 and go out: worse.
    r = ddz.Round.from_hands(["33 4", "5", "6"], landlord=0)
    assert solve(r, 0) == 4
    assert solve(r, 1) == -2


def test_peasants_win_when_the_landlord_must_lead_a_solo() -> None:
    # Landlord: 3 and 4 (two solos, no way to play both at once). Seat 1: 5, seat 2: 2. Whatever
    # the landlord leads, seat 1 beats it with 5 and is out (it has one card): peasants win, the
    # landlord played only once, an anti-spring: bid 1 x 2 = 2, landlord -4, each peasant +2.
    r = ddz.Round.from_hands(["3 4", "5", "2"], landlord=0)
    assert solve(r, 0) == -4
    assert solve(r, 2) == 2


def test_a_bomb_doubles_the_score() -> None:
    # Landlord: 3333 (a bomb) and 5; seat 1: 44, seat 2: 6. Leading 5 first loses (seat 2 plays
    # 6 and is out). Leading the bomb (x2) wins the trick, nobody can answer, and the lone 5 is
    # led and out: the landlord wins with a spring, 1 x 2 (bomb) x 2 (spring) = 4 a peasant,
    # the landlord +8.
    r = ddz.Round.from_hands(["3333 5", "44", "6"], landlord=0)
    assert solve(r, 0) == 8
    assert solve(r, 1) == -4


def _brute(r: ddz.Round, me: int) -> int:
    """Plain minimax: no pruning, no table."""
    if r.phase is Phase.OVER:
        return r.score()[me]
    seat = r.to_move
    values = [_brute(r.apply(seat, a), me) for a in r.legal_actions(seat)]
    same_side = (seat == r.landlord) == (me == r.landlord)
    return max(values) if same_side else min(values)


_SMALL = "3334445566778899TTJJQQKKAA22BR"


def _random_position(rng: random.Random, cards: int) -> ddz.Round:
    """Three small hands (1-4 cards each, about ``cards`` in all) from a deck rich in pairs."""
    deck = list(_SMALL)
    rng.shuffle(deck)
    sizes = [1, 1, 1]
    for _ in range(cards - 3):
        sizes[rng.randrange(3)] += 1
    hands, at = [], 0
    for n in sizes:
        hands.append("".join(deck[at : at + n]))
        at += n
    return ddz.Round.from_hands(hands, landlord=rng.randrange(3), bid=rng.randint(1, 3))


def test_solver_agrees_with_plain_minimax() -> None:
    rng = random.Random(4)
    for _ in range(150):
        r = _random_position(rng, rng.randint(3, 9))
        me = rng.randrange(3)
        assert solve(r, me) == _brute(r, me), r.hands


def test_table_windows_and_actions_agree_with_plain_minimax() -> None:
    rng = random.Random(5)
    for _ in range(40):
        r = _random_position(rng, 8)
        me = r.landlord
        exact = _brute(r, me)
        solver = Solver(me)
        for lo in (exact - 3, exact + 1, exact - 1, exact - 10, exact + 5):
            v = solver.value(r, lo, lo + 2)
            # fail-soft: at or below the window an upper bound, at or above it a lower bound
            assert exact <= v if v <= lo else exact >= v if v >= lo + 2 else exact == v
        assert solver.value(r) == exact
        for lo in (exact + 3, exact - 5, exact + 1, exact - 3):
            fresh = Solver(me)
            fresh.value(r, lo, lo + 2)  # leaves bounds in the table, to be read as bounds
            assert fresh.value(r) == exact
        legal = r.legal_actions(r.to_move)
        assert solver.values(r, legal) == [_brute(r.apply(r.to_move, a), me) for a in legal]


def test_cards_left_and_node_limit() -> None:
    r = ddz.Round.from_hands(["3456789T", "JQKA2", "33"], landlord=0)
    assert cards_left(r) == 8 + 5 + 2
    with pytest.raises(SolverBudget):
        solve(r, 0, node_limit=3)


def test_search_bot_values_small_samples_with_the_solver() -> None:
    # Crafted positions (hands from the start of play, no history): the bot's samples draw the
    # other hands from all the cards it has not seen, and each is small enough to solve.
    from pagoda.bots.doudizhu.search import SearchBot, determinize, position

    rng = random.Random(8)
    checked = 0
    while checked < 20:
        r = _random_position(rng, 9)
        me = r.to_move
        view = r.view(me)
        legal = r.legal_actions(me)
        if len(legal) < 2:
            continue
        bot = SearchBot(iterations=1, rules=r.rules)
        candidates = bot.candidates(view, legal)
        assert len(candidates) == len(legal)  # every action, not the heuristic's best few
        scored = bot.evaluate(view, candidates, random.Random(7))
        # the same sample again: its exact values, as points per bid unit and +-1 for the result
        start = position(view, determinize(view, random.Random(7)), r.rules)
        exact = Solver(me).values(start, candidates)
        assert [s.mean for s in scored] == [p / start.bid + (1 if p > 0 else -1) for p in exact]
        checked += 1
