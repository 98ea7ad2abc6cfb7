"""Invariants on seeded random rounds of every preset: cards conserved, zero-sum score, the
multiplier is 2 to the bombs and spring (laizi: a soft bomb has exactly four cards, not four wild
ones), bomb limits kept, views hold only the seat's own hand, and (every 4th round) the record
replays to an equal state. The loop is plain Python (no hypothesis) so that thousands of rounds of a
preset stay fast.

Two volumes: ``test_random_rounds`` plays the first few hundred seeds of each preset (a few
seconds each); ``test_random_rounds_full``, marked ``slow``, plays the rest of the full count
(10,000 rounds for most presets). The whole suite (``make test``, CI) runs both; ``pytest -m "not
slow"`` leaves the second out. The two laizi presets' rest (9,700 rounds each, about two minutes
each on one core) is cut into :data:`LAIZI_SLICES` slices and a run plays the day's one, so that
four days of CI cover it all and a failure names its seeds; ``DDZ_SLICE=all`` (``make volume``)
plays every slice, ``DDZ_SLICE=k`` slice ``k``.
``DDZ_ROUNDS`` (the full count) and ``DDZ_REPLAY_EVERY`` change the volume.

A laizi round lists about six times as many plays as a classic one (one per set of cards and
reading: about 1,900 a round against 300), so its rounds cost about four times a classic
preset's; see docs/benchmarks.md for the measured time of this file."""

import datetime
import os

import pytest

from pagoda import doudizhu as ddz
from pagoda.doudizhu.cards import ONE, parse_mask, size_of
from pagoda.doudizhu.combos import readings
from tests.doudizhu.randomplay import random_round

ROUNDS = int(os.environ.get("DDZ_ROUNDS", "10000"))
# the replay through the record's text costs about as much as the round: every 4th round
REPLAY_EVERY = int(os.environ.get("DDZ_REPLAY_EVERY", "4"))
PRESETS = {
    "classic": ROUNDS,
    "classic rob=true": ROUNDS // 5,
    "rlcard": ROUNDS,
    "openspiel": ROUNDS,
    "four_player": ROUNDS,
    "four_player bomb_limits=true": ROUNDS // 10,
    "laizi": ROUNDS,
    "laizi wild=3": ROUNDS,
}
"""The full count of rounds of each preset: the quick test plays the first seeds, the slow one the rest."""
QUICK = {p: min(full // 2, 300 if p.startswith("laizi") else 1000) for p, full in PRESETS.items()}
"""The seeds the quick test plays (about the same few seconds for every preset)."""
LAIZI_SLICES = 4


def full_seeds(preset: str) -> range:
    """The seeds the slow test plays this run: the rest of the full count (laizi: the day's slice of it).

    >>> full_seeds("classic") == range(1000, ROUNDS)
    True
    """
    rest = range(QUICK[preset], PRESETS[preset])
    if not preset.startswith("laizi"):
        return rest
    chosen = os.environ.get("DDZ_SLICE", "")
    if chosen == "all":
        return rest
    part = int(chosen) if chosen else datetime.date.today().toordinal() % LAIZI_SLICES
    size = -(-len(rest) // LAIZI_SLICES)  # ceiling: the last slice is the shorter
    return rest[part * size : (part + 1) * size]


def check(r: ddz.Round, rules: ddz.Rules, replay: bool = True) -> None:
    """Every invariant of a finished round (the replay through the record's text when ``replay``)."""
    n = rules.players
    dealt = sum(r.deals[r.deal_no - 1])
    assert size_of(dealt) == 54 * rules.decks
    played = 0
    bombs = 0
    seat_bombs = [0] * n
    # every earlier deal ended with each seat passing once
    current = r.history[(r.deal_no - 1) * n :]
    assert all(t == "pass" for _, t in r.history[: (r.deal_no - 1) * n])
    for seat, text in current:
        if text.startswith("play "):
            cards, _, reading_text = text[5:].partition(" as ")
            mask = parse_mask(cards)
            played += mask
            # the kind is the reading's: with wild cards, what the cards stand for
            reading = parse_mask(reading_text) if reading_text else mask
            kinds = {c.kind for c in readings(reading, rules)}
            if reading_text and "bomb" in kinds:
                # a soft bomb: four cards, some of them wild, never four wild cards alone
                assert size_of(mask) == 4
                assert mask != 4 * ONE[r.wild]
            if "rocket" in kinds or ("bomb" in kinds and size_of(mask) >= rules.double_min_bomb):
                bombs += 1
            seat_bombs[seat] += "rocket" in kinds or "bomb" in kinds
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
    if rules.bomb_limits:
        # a peasant plays at most 1 bomb after a pass or bid 1, 2 after bid 2; who never spoke, any
        said = dict(r.auction)
        for seat in range(n):
            if seat != r.landlord and seat in said:
                assert seat_bombs[seat] <= (2 if said[seat] == "bid 2" else 1)
    for seat in range(n):
        v = r.view(seat)
        assert v.hand.mask == r.hands[seat]
        assert v.counts == tuple(size_of(h) for h in r.hands)
    if not replay:
        return
    text = str(r.record)
    again = ddz.replay(text)
    assert again == r
    assert str(again.record) == text


def play_seeds(preset: str, seeds: range) -> bool:
    """Check the random round of every seed in ``seeds``; whether any of them was dealt again."""
    rules = ddz.parse_rules(preset)
    seen_redeal = False
    for seed in seeds:
        r = random_round(seed, rules)
        check(r, rules, replay=seed % REPLAY_EVERY == 0)
        seen_redeal = seen_redeal or r.deal_no > 1
    return seen_redeal


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_rounds(preset: str) -> None:
    # every preset's first seeds include an all-pass auction and its redeal
    assert play_seeds(preset, range(QUICK[preset]))


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_rounds_full(preset: str) -> None:
    seeds = full_seeds(preset)
    seen_redeal = play_seeds(preset, seeds)
    assert seen_redeal or len(seeds) < 1000


def test_laizi_slices_cover_the_rest_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # the default 9,700 seeds (300..9,999) in 4 slices of 2,425: each seed in exactly one slice
    rest = range(QUICK["laizi"], PRESETS["laizi"])
    parts = []
    for k in range(LAIZI_SLICES):
        monkeypatch.setenv("DDZ_SLICE", str(k))
        parts.append(full_seeds("laizi"))
    assert sorted(s for p in parts for s in p) == list(rest)
    if ROUNDS == 10_000:
        assert [len(p) for p in parts] == [2425] * 4
    monkeypatch.setenv("DDZ_SLICE", "all")
    assert full_seeds("laizi wild=3") == rest


def test_same_seed_same_round() -> None:
    for seed in range(20):
        assert random_round(seed, ddz.RULES["classic"]) == random_round(seed, ddz.RULES["classic"])
