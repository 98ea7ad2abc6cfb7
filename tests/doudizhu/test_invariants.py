"""Invariants on seeded random rounds of every preset: cards conserved, zero-sum score, the
multiplier is 2 to the bombs and spring, views hide other hands, and the record replays to an equal
state. The loop is plain Python (no hypothesis) so that 10,000 rounds of a preset stay fast."""

import os

import pytest

from pagoda import doudizhu as ddz
from pagoda.doudizhu.cards import parse_mask, size_of
from pagoda.doudizhu.combos import readings
from tests.doudizhu.randomplay import random_round

ROUNDS = int(os.environ.get("DDZ_ROUNDS", "10000"))
PRESETS = {
    "classic": ROUNDS,
    "classic rob=true": ROUNDS // 5,
    "rlcard": ROUNDS,
    "openspiel": ROUNDS,
    "four_player": ROUNDS,
    # every wild play is listed per reading (thousands per position): fewer rounds
    "laizi": ROUNDS // 50,
    "laizi wild=3": ROUNDS // 50,
}


def check(r: ddz.Round, rules: ddz.Rules) -> None:
    """Every invariant of a finished round."""
    n = rules.players
    dealt = sum(r.deals[r.deal_no - 1])
    assert size_of(dealt) == 54 * rules.decks
    played = 0
    bombs = 0
    # every earlier deal ended with each seat passing once
    current = r.history[(r.deal_no - 1) * n :]
    assert all(t == "pass" for _, t in r.history[: (r.deal_no - 1) * n])
    for _, text in current:
        if text.startswith("play "):
            mask = parse_mask(text[5:].partition(" as ")[0])
            played += mask
            kinds = {c.kind for c in readings(mask, rules)}
            if "rocket" in kinds or ("bomb" in kinds and size_of(mask) >= rules.double_min_bomb):
                bombs += 1
            elif " as " in text and size_of(mask) == 4:
                reading = parse_mask(text.partition(" as ")[2])
                bombs += any(c.kind == "bomb" for c in readings(reading, rules))
    assert sum(r.hands) + played == dealt
    score = r.score()
    assert sum(score) == 0
    assert len(score) == n
    peasants_played = any(t.startswith("play") for s, t in current if s != r.landlord)
    landlord_plays = sum(t.startswith("play") for s, t in current if s == r.landlord)
    spring = (r.winner == r.landlord and not peasants_played) or (
        r.winner != r.landlord and landlord_plays == 1
    )
    assert r.multiplier == 2 ** (bombs + spring)
    assert score[r.landlord] == (1 if r.winner == r.landlord else -1) * (n - 1) * r.bid * r.multiplier
    assert r.hands[r.winner] == 0
    for seat in range(n):
        v = r.view(seat)
        assert v.hand.mask == r.hands[seat]
        assert v.counts == tuple(size_of(h) for h in r.hands)
    text = str(r.record)
    again = ddz.replay(text)
    assert again == r
    assert str(again.record) == text


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_rounds(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    rounds = PRESETS[preset]
    seen_redeal = False
    for seed in range(rounds):
        r = random_round(seed, rules)
        check(r, rules)
        seen_redeal = seen_redeal or r.deal_no > 1
    assert seen_redeal or rounds < 1000


def test_same_seed_same_round() -> None:
    for seed in range(20):
        assert random_round(seed, ddz.RULES["classic"]) == random_round(seed, ddz.RULES["classic"])
