"""The Dou Di Zhu round summary: the winning side and every multiplier of the score, read from
the round's public record (docs/protocol.md, ``round_over``)."""

import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from pagoda import doudizhu as ddz
from pagoda.doudizhu.match import Match
from pagoda.server.games import GAMES
from pagoda.server.messages import DoudizhuRoundSummary

ADAPTER = GAMES["doudizhu"]


def _played(hands: list[str], actions: list[str], bid: int = 1, preset: str = "classic") -> Match:
    """A match whose one finished round is ``actions`` played from ``hands`` (seat 0 the landlord)."""
    r = ddz.Round.from_hands(hands, landlord=0, bid=bid, rules=ddz.RULES[preset])
    for a in actions:
        r = r.apply(r.to_move, a)
    assert r.is_over
    return Match(r.rules, 0, (r,), r)


def _summary(match: Match) -> dict[str, Any]:
    out = ADAPTER.round_summary(match)
    msgspec.convert(out, DoudizhuRoundSummary)  # the shape the protocol promises
    return out


def test_a_spring_with_a_bomb_and_the_rocket_shows_each_multiplier() -> None:
    match = _played(
        ["3333BR4", "55", "66"], ["play 3333", "pass", "pass", "play BR", "pass", "pass", "play 4"], bid=2
    )
    assert _summary(match) == {
        "game": "doudizhu",
        "round": 1,
        "points": [32, -16, -16],
        "scores": [32, -16, -16],
        "landlord": 0,
        "winner": 0,
        "spring": True,
        "anti_spring": False,
        "bid": 2,
        "bombs": 1,
        "rockets": 1,
        "multiplier": 8,
    }


def test_an_anti_spring_the_peasants_win_after_the_landlords_one_play() -> None:
    # the landlord leads a 3 and never plays again: seat 1 beats it and goes out with its pair
    match = _played(["3KK", "4QQ", "56"], ["play 3", "play 4", "pass", "pass", "play QQ"], bid=3)
    assert _summary(match) == {
        "game": "doudizhu",
        "round": 1,
        "points": [-12, 6, 6],
        "scores": [-12, 6, 6],
        "landlord": 0,
        "winner": 1,
        "spring": True,
        "anti_spring": True,
        "bid": 3,
        "bombs": 0,
        "rockets": 0,
        "multiplier": 2,
    }


def test_two_bombs_without_a_spring() -> None:
    match = _played(
        ["333389", "5555K7", "6"],
        ["play 3333", "play 5555", "pass", "pass", "play 7", "pass", "play 8", "play K"],
    )
    s = _summary(match)
    assert (s["bombs"], s["rockets"], s["spring"], s["anti_spring"], s["multiplier"]) == (
        2,
        0,
        False,
        False,
        4,
    )
    assert (s["winner"], s["points"], s["bid"]) == (1, [-8, 4, 4], 1)


def test_a_four_card_bomb_does_not_double_with_two_packs() -> None:
    match = _played(
        ["3333444445", "6", "7", "8"],
        ["play 3333", "pass", "pass", "pass", "play 44444", "pass", "pass", "pass", "play 5"],
        preset="four_player",
    )
    s = _summary(match)
    assert (s["bombs"], s["rockets"], s["spring"], s["anti_spring"], s["multiplier"]) == (
        1,
        0,
        True,
        False,
        4,
    )
    assert s["points"] == [12, -4, -4, -4]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from(["classic", "rlcard", "openspiel"]))
def test_the_multipliers_multiply_up_to_the_points(seed: int, preset: str) -> None:
    """Random play of a seeded round: the bombs are the four-of-a-kind plays, the rockets the
    jokers, and bid × 2^(bombs + rockets + spring) × seats−1 is the landlord's score."""
    rng = random.Random(seed)
    match = Match.new(seed, ddz.RULES[preset])
    while not match.rounds:
        legal = match.current.legal_actions(match.to_move)
        match = match.apply(match.to_move, rng.choice(legal))
    s = _summary(match)
    r = match.rounds[0]
    plays = [text.split()[1] for _, text in r.history if text.startswith("play ")]
    assert s["rockets"] == sum(p == "BR" for p in plays)
    assert s["bombs"] == sum(len(p) == 4 and len(set(p)) == 1 for p in plays)
    assert s["multiplier"] == 2 ** (s["bombs"] + s["rockets"] + s["spring"])
    assert s["anti_spring"] == (s["spring"] and s["winner"] != s["landlord"])
    landlord = s["landlord"]
    if landlord is None:
        assert s["points"] == [0, 0, 0]
        return
    sign = 1 if s["winner"] == landlord else -1
    assert s["points"][landlord] == sign * s["bid"] * s["multiplier"] * 2
    assert s["bid"] in (1, 2, 3)
