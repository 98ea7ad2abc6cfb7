"""A match: rounds to a target score, its record and replay, and its end."""

import dataclasses
import random

import pytest

from pagoda.tichu import IllegalAction, Match, ParseError, Rules
from pagoda.tichu.round import Phase

RULES_300 = Rules.parse("standard target_score=300")


def _random_match(seed: int, rules: Rules = RULES_300, max_steps: int = 20_000) -> Match:
    rng = random.Random(seed)
    m = Match.new(seed, rules)
    for _ in range(max_steps):
        if m.is_over:
            return m
        seat = m.round.to_move
        actions = m.legal_actions(seat)
        assert actions, f"seat {seat} has nothing to do in {m.round!r}"
        m = m.apply(seat, actions[rng.randrange(len(actions))])
    raise AssertionError(f"match {seed} did not end in {max_steps} steps")


@pytest.fixture(scope="module")
def played() -> Match:
    return _random_match(3)


def test_a_match_starts_at_round_one() -> None:
    m = Match.new(9, RULES_300)
    assert m.number == 1
    assert m.scores == (0, 0)
    assert not m.is_over
    assert m.winner is None
    assert m.finished == ()
    assert m.round.phase is Phase.GRAND_TICHU
    assert m.rules == RULES_300


def test_a_random_match_ends_with_a_team_over_the_target(played: Match) -> None:
    m = played
    a, b = m.scores
    assert m.is_over
    assert max(a, b) >= 300
    assert a != b
    assert m.winner == (0 if a > b else 1)
    # Once over, no further round is dealt: the round shown is the last one played.
    assert m.number == len(m.finished)
    assert m.round is m.finished[-1]
    assert len(m.finished) >= 1
    assert all(r.is_over for r in m.finished)
    assert m.scores == (sum(r.score()[0] for r in m.finished), sum(r.score()[1] for r in m.finished))
    # The match was not over before its last round.
    before = (a - m.finished[-1].score()[0], b - m.finished[-1].score()[1])
    assert max(before) < 300 or before[0] == before[1]
    assert m.legal_actions(0) == []


def test_rounds_are_dealt_differently(played: Match) -> None:
    deals = {tuple(r.record.header("Deal").split("|")) for r in played.finished}
    assert len(deals) == len(played.finished)


def test_a_match_replays_from_its_record(played: Match) -> None:
    again = Match.replay(str(played.record))
    assert again == played
    assert again.scores == played.scores
    assert again.record == played.record
    assert Match.replay(played.record) == played


def test_same_seed_same_match(played: Match) -> None:
    assert _random_match(3) == played
    assert _random_match(3).record == played.record
    assert Match.new(3, RULES_300).round.hand(0) != Match.new(4, RULES_300).round.hand(0)


def test_no_action_after_the_match_is_over(played: Match) -> None:
    for seat in range(4):
        with pytest.raises(IllegalAction, match="over"):
            played.apply(seat, "no-grand")
        with pytest.raises(IllegalAction, match="over"):
            played.apply(seat, "pass")


def test_a_mid_match_state_replays_and_keeps_going() -> None:
    rng = random.Random(1)
    m = Match.new(12, RULES_300)
    for _ in range(150):
        actions = m.legal_actions(m.round.to_move)
        m = m.apply(m.round.to_move, actions[rng.randrange(len(actions))])
    again = Match.replay(str(m.record))
    assert again == m
    assert again.round.legal_actions(again.round.to_move) == m.round.legal_actions(m.round.to_move)


def test_an_illegal_action_leaves_the_match_as_it_was() -> None:
    m = Match.new(4, RULES_300)
    with pytest.raises(IllegalAction):
        m.apply(0, "pass")
    assert m == Match.new(4, RULES_300)
    assert m.record.actions == ()


def test_not_a_match_record() -> None:
    m = Match.new(4, RULES_300).apply(0, "no-grand")
    with pytest.raises(ParseError, match="tichu match"):
        Match.replay(str(m.round.record))


@pytest.mark.parametrize(
    ("scores", "over", "winner"),
    [
        ((300, 300), False, None),  # both at the target and tied: another round
        ((350, 350), False, None),
        ((310, 300), True, 0),
        ((290, 310), True, 1),
        ((-100, 300), True, 1),
        ((299, 250), False, None),
        ((400, 420), True, 1),  # both over: the higher wins
    ],
)
def test_who_wins_at_the_target(scores: tuple[int, int], over: bool, winner: int | None) -> None:
    m = dataclasses.replace(Match.new(0, RULES_300), scores=scores)
    assert m.is_over is over
    assert m.winner == winner


def test_a_round_limit_ends_the_match() -> None:
    rules = Rules.parse("standard rounds=2")
    rng = random.Random(11)
    m = Match.new(seed=11, rules=rules)
    while not m.is_over:
        actions = m.legal_actions(m.round.to_move)
        m = m.apply(m.round.to_move, actions[rng.randrange(len(actions))])
    a, b = m.scores
    # two rounds unless a team passed 1000 first; no round is dealt after the last one played
    assert len(m.finished) == 2 or max(a, b) >= 1000
    assert m.round is m.finished[-1]
    assert m.winner == (None if a == b else 0 if a > b else 1)
    assert Match.replay(str(m.record)) == m


def test_a_match_is_immutable() -> None:
    m = Match.new(3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.scores = (1000, 0)  # type: ignore[misc]
    assert m.scores == (0, 0)
