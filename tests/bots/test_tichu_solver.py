"""The Tichu endgame solver: hand-worked positions and agreement with a plain minimax."""

import random

import pytest

from pagoda.bots import get_bot
from pagoda.bots.tichu import seat_rngs, step
from pagoda.bots.tichu.solver import Solver, SolverBudget, cards_left, round_value, solve, turn_actions
from pagoda.tichu import Round, View, to_mask
from pagoda.tichu.actions import TICHU
from pagoda.tichu.cards import FULL_DECK
from pagoda.tichu.round import Phase
from pagoda.tichu.rules import RULES


def endgame(
    hands: list[str],
    to_move: int,
    won: list[str],
    out: tuple[int, ...] = (),
    tichu: tuple[bool, bool, bool, bool] = (False,) * 4,
) -> Round:
    """A play position with these hands, no live trick, ``won`` piles; every card not in a hand
    or a pile is put in the pile of the first seat out (or seat 0)."""
    masks = [to_mask(h) for h in hands]
    piles = [to_mask(w) for w in won]
    rest = FULL_DECK & ~(sum(masks) | sum(piles))
    piles[out[0] if out else 0] |= rest
    played = FULL_DECK & ~sum(masks)
    sizes = tuple(m.bit_count() for m in masks)
    view = View(
        seat=to_move,
        phase=Phase.PLAY,
        rules=RULES["standard"],
        hand=masks[to_move],
        hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        grand_decided=(True,) * 4,
        grand_calls=(False,) * 4,
        tichu_calls=tichu,
        given=None,
        received=None,
        to_move=to_move,
        top=None,
        top_seat=-1,
        trick=(),
        passed=(False,) * 4,
        is_trick_complete=False,
        wish=0,
        out=out,
        won=(piles[0], piles[1], piles[2], piles[3]),
        played=played,
        events=(),
    )
    return Round.from_view(view, masks)


def test_lone_dragon_goes_out_first() -> None:
    # Seat 0: Dragon; seat 1: 2g 3g; seats 2 and 3 out (3 first, then 2). Seat 0 leads the
    # Dragon (nothing beats it), every seat passes, seat 0 is out third: the round ends, seat 1
    # last. The Dragon trick is still live when seat 0 goes out; it is seat 0's to give away
    # (to seat 1 or 3). Seat 1's hand (2g 3g, no points) goes to seat 0's team; seat 1's pile goes
    # to the first out (seat 3). Points: team 1 holds 3's pile; the Dragon trick's 25 go to
    # whichever opponent receives it: team 1 either way. Everything else (all 100 minus the
    # Dragon's 25, in seat 3's pile) is team 1's: team 0 scores 0, team 1 100: value -100.
    r = endgame(["Dr", "2g 3g", "", ""], 0, ["", "", "", ""], out=(3, 2))
    assert solve(r, 0) == -100


def test_one_two_beats_points() -> None:
    # Seats 0 and 2 hold a single each, seat 1 and 3 hold low cards, seat 0 leads. Seat 0: Ak,
    # seat 2: Ag, seat 1: 2g 3g, seat 3: 4g 5g; all points already in seat 1's pile.
    # Seat 0 leads Ak and is out (1 card); the trick goes on: seat 1 cannot beat, seat 2 may
    # pass... but seat 2 then leads nothing: once the trick is taken by seat 0 (out), the lead
    # passes to the next seat in, seat 1, who leads 2g; seat 2 plays Ag and is out second: a
    # one-two, +200 for team 0, whatever seat 1 does (it holds only a 2 and a 3: it cannot stop
    # Ag). Value 200.
    r = endgame(["Ak", "2g 3g", "Ag", "4g 5g"], 0, ["", "Dr Ph 5g 5k 5b 5r", "", ""])
    assert solve(r, 0) == 200


def test_the_other_team_stops_the_one_two_with_a_bomb() -> None:
    # Seat 0: Ak (the Ace of Swords), seat 1: 3g 4g, seat 2: Ag, seat 3: four 2s (a bomb); seat
    # 1's pile holds Dr Ph and the four 5s (25 - 25 + 20 = 20 points), seat 0's pile the rest of
    # the deck (80 points). Seat 0 leads Ak and is out. Without a bomb, seat 1 must sooner or
    # later lead a single and seat 2 goes out second on it with Ag: a one-two, +200. The best
    # for team 1: nobody can beat Ak, seat 0 takes it and the lead passes to seat 1, who leads
    # 3g; before seat 2's turn seat 3 is offered its bomb, bombs and is out second. Play goes on
    # after the bomber with seat 1 (seat 0 is out): seats 1 and 2 pass, seat 3 takes the trick,
    # and the lead is seat 1's again: 4g, out third. Seat 2 is last: its Ag (0 points) goes to
    # team 1, its empty pile to seat 0. Team 0 80, team 1 20 (seat 1's pile): value 60 for team
    # 0. (Bombing Ak at once is worse for team 1: seat 1 then leads a single, seat 2 goes out
    # on it third and seat 1's pile goes to seat 0: 100 - 0.)
    r = endgame(["Ak", "3g 4g", "Ag", "2g 2k 2b 2r"], 0, ["", "Dr Ph 5g 5k 5b 5r", "", ""])
    assert solve(r, 0) == 60
    assert solve(r, 1) == -60


def test_a_tichu_call_counts() -> None:
    # Seat 1 called Tichu and holds the Dragon alone; seat 0 holds Ak Aa... seat 0 leads a pair of
    # aces: seat 1 cannot beat a pair, seat 0 is out first and seat 1's Tichu fails (-100).
    # Seat 1 then leads the Dragon and is out second (no one-two: they are opponents), seats 2
    # and 3 hold 2g / 3g: the Dragon trick (25) is seat 1's to give to seat 0 or 2 (team 0).
    # Seat 2 (3g) and seat 3 (2g) play on: seat 2 leads... rather than follow every line, the
    # points: 100 in all, seat 1's pile holds the rest of the deck (75 with the Phoenix's -25
    # counted) plus it goes to ... the solver's value is checked against the plain minimax in
    # the property test; here the exact figure: team 0 scores its Tichu-free 100 - x, ...
    r = endgame(["Ak Ar", "Dr", "3g", "2g"], 0, ["", "", "", ""], tichu=(False, True, False, False))
    # Seat 0 out first (Tichu of seat 1: -100 for team 1). Then seat 1 leads Dr, out second;
    # the Dragon trick goes to seat 0 or 2 (team 0, +25). Seat 2 leads 3g (out third): seat 3
    # is last; its hand (2g, 0 points) goes to team 0, its pile (nothing) to seat 0. Every other
    # card (75 points net) lay in seat 0's pile (the first out). Team 0: 75 + 25 = 100; team 1:
    # 0 - 100 = -100. Value 200.
    assert solve(r, 0) == 200


def _brute(r: Round, team: int) -> float:
    """Plain minimax over the round's own flow: no pruning, no table, every wish."""
    if r.phase is Phase.OVER:
        return float(round_value(r, team))
    decision = r.decisions()[0]
    seat = decision.seat
    values = [_brute(r.apply(seat, a), team) for a in decision.actions if a.kind != TICHU]
    return max(values) if seat & 1 == team else min(values)


def _endgames(seeds: range, cards: int) -> list[Round]:
    """The first position with at most ``cards`` cards left of heuristic rounds of each seed."""
    bots = [get_bot("tichu", "heuristic")] * 4
    out = []
    for seed in seeds:
        r = Round.new(seed)
        rngs = seat_rngs(seed)
        while not r.is_over and not (r.phase is Phase.PLAY and cards_left(r) <= cards):
            r = step(r, bots, rngs)
        if not r.is_over:
            out.append(r)
    return out


_SMALL_DECK = "Dg Mj Ph Dr 2g 2k 2b 2r 3g 3k 4g 5g 5k 5b 5r 6g Tg Tk Kg Kk Ag Ak".split()  # noqa: SIM905


def _random_endgame(rng: random.Random) -> Round:
    """Two to four seats still in holding 2-7 cards of a deck rich in pairs, bombs and specials;
    the seats out in a random order (never a one-two), the other cards in random piles."""
    while True:
        seats_in = rng.sample(range(4), rng.choice((2, 3, 3, 4)))
        out = [s for s in rng.sample(range(4), 4) if s not in seats_in]
        if len(out) == 2 and (out[0] - out[1]) % 2 == 0:
            continue
        cards = rng.sample(_SMALL_DECK, rng.randint(len(seats_in), 7))
        hands = [""] * 4
        for k, seat in enumerate(seats_in):  # one card each, the rest anywhere among them
            hands[seat] = cards[k]
        for card in cards[len(seats_in) :]:
            seat = rng.choice(seats_in)
            hands[seat] = f"{hands[seat]} {card}".strip()
        piles = [""] * 4
        for card in ["Tb", "Tr", "Kb", "Kr", "9g"]:
            piles[rng.randrange(4)] += f" {card}"
        tichu = tuple(rng.random() < 0.15 for _ in range(4))
        return endgame(hands, rng.choice(seats_in), piles, tuple(out), tichu)  # type: ignore[arg-type]


def test_solver_agrees_with_plain_minimax() -> None:
    rng = random.Random(11)
    positions = [_random_endgame(rng) for _ in range(100)] + _endgames(range(60), 8)
    assert len(positions) >= 110  # 100 random ones and at least 10 from played rounds
    for r in positions:
        team = r.decisions()[0].seat & 1
        assert solve(r, team) == _brute(r, team), repr(r)


def test_solver_tables_and_windows_agree_with_plain_minimax() -> None:
    rng = random.Random(12)
    for _ in range(60):
        r = _random_endgame(rng)
        decision = r.decisions()[0]
        seat = decision.seat
        team = 1 - (seat & 1)  # the other team this time: it minimizes at the root
        # one solver, one table, for every action (entries found with other windows reused)
        solver = Solver(team)
        for a in decision.actions:
            if a.kind == TICHU:
                continue
            assert solver.value_after(r, seat, a) == _brute(r.apply(seat, a), team)
        exact = _brute(r, team)
        assert solver.value(r) == exact, repr(r)
        # narrow windows on a fresh table: bounds on the true value, then the value itself
        windowed = Solver(team)
        for lo in (exact - 30, exact - 5, exact + 5, exact - 200, exact + 40):
            v = windowed.value(r, lo, lo + 20)
            # fail-soft: at or below the window an upper bound, at or above it a lower bound
            assert exact <= v if v <= lo else exact >= v if v >= lo + 20 else exact == v
        assert windowed.value(r) == exact


class _Forgetful(dict[object, object]):
    """A transposition table that stores nothing: the solver becomes plain alpha-beta."""

    def __setitem__(self, key: object, value: object) -> None:
        pass


def test_table_bounds_on_bigger_endgames() -> None:
    # Plain alpha-beta (checked against the minimax above) is the reference here: positions of
    # up to 10 cards from played rounds, where the table's bounds are found and used often.
    for r in _endgames(range(300, 330), 10):
        seat = r.decisions()[0].seat
        team = seat & 1
        plain = Solver(team)
        plain._table = _Forgetful()  # type: ignore[assignment]
        exact = plain.value(r)
        solver = Solver(team)
        for lo in (exact - 30, exact + 5, exact - 5, exact - 200, exact + 40, exact - 15):
            v = solver.value(r, lo, lo + 20)
            assert exact <= v if v <= lo else exact >= v if v >= lo + 20 else exact == v
        assert solver.value(r) == exact, repr(r)
        for lo in (exact + 40, exact - 60, exact + 1, exact - 21):
            fresh = Solver(team)
            fresh.value(r, lo, lo + 20)  # leaves bounds in the table, to be read as bounds
            assert fresh.value(r) == exact, repr(r)
        for a in turn_actions(r):
            assert solver.value_after(r, seat, a) == plain.value_after(r, seat, a)


def test_values_of_actions_match_the_position() -> None:
    for r in _endgames(range(40, 60), 9):
        decision = r.decisions()[0]
        seat = decision.seat
        solver = Solver(seat & 1)
        actions = [a for a in decision.actions if a.kind != TICHU]
        values = solver.values(r, seat, actions)
        assert max(values) == solver.value(r)  # the seat to move's team maximizes
        # zero-sum: the other team's values are the negatives
        assert Solver(1 - (seat & 1)).values(r, seat, actions) == [-v for v in values]


def test_node_limit() -> None:
    r = _endgames(range(1), 20)[0]
    with pytest.raises(SolverBudget):
        solve(r, 0, node_limit=10)


def test_search_bot_uses_the_solver_in_small_endgames() -> None:
    # Seats 2 and 3 are out, so seat 0 sees the only hidden hand (seat 1's: the unseen cards):
    # every determinization is the true position, and the search bot's values are the solver's
    # exact ones, with no spread.
    r = endgame(["Ak 2g 2k 9b", "3g 3k Kb", "", ""], 0, ["", "", "", ""], out=(3, 2))
    bot = get_bot("tichu", "search:iterations=3")
    view = r.view(0)
    legal = r.legal_actions(0)
    candidates = bot.candidates(view, legal)
    assert {a.mask for a in candidates} == {a.mask for a in legal if a.kind != TICHU}  # all, unsliced
    scored = bot.evaluate(view, candidates, random.Random(1))
    solver = Solver(0)
    for s in scored:
        assert s.samples == 3
        assert s.mean == solver.value_after(r, 0, s.action)
        assert s.stderr == 0.0
