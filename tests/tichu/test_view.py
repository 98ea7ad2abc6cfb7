"""A seat's view shows its own hand and what is public, never another seat's unplayed cards."""

import dataclasses
import enum
import random
import re

import pytest

from pagoda.tichu import CARDS, Card, Combo, Round, View, parse_cards
from pagoda.tichu.round import Phase

_MASK_FIELDS = {"hand", "played", "won"}
_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[gkbr](?![A-Za-z0-9])|\b(?:Mj|Dg|Ph|Dr)\b")


def _mask_cards(mask: int) -> set[int]:
    return {c for c in range(56) if mask >> c & 1}


def _mentioned(value: object, name: str = "") -> set[int]:
    """Every card ``value`` mentions, walking tuples, dataclasses, combos and text."""
    if isinstance(value, Card):
        return {int(value)}
    if isinstance(value, bool | enum.Enum | float) or value is None:
        return set()
    if isinstance(value, int):
        return _mask_cards(value) if name in _MASK_FIELDS else set()
    if isinstance(value, str):
        return {int(parse_cards(token)[0]) for token in _CARD_TOKEN.findall(value)}
    if isinstance(value, Combo):
        return _mask_cards(value.mask)
    if isinstance(value, tuple | list):
        found: set[int] = set()
        for item in value:
            found |= _mentioned(item, name)
        return found
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found = set()
        for field in dataclasses.fields(value):
            found |= _mentioned(getattr(value, field.name), field.name)
        return found
    raise AssertionError(f"a view field of unknown type: {name} = {value!r}")


def test_the_walker_finds_cards_everywhere() -> None:
    assert _mentioned("play 5g 5r wish 3") == {int(c) for c in parse_cards("5g 5r")}
    assert _mentioned("exchange 10g Dr Mj") == {int(c) for c in parse_cards("Tg Dr Mj")}
    assert _mentioned("give-dragon 1") == set()
    assert _mentioned((1, "exchange")) == set()
    assert _mentioned(0b11, "hand") == {0, 1}
    assert _mentioned(0b11, "seat") == set()


def _check_views(r: Round) -> None:
    gave: list[set[int]] = []
    for seat in range(4):
        given = r.view(seat).given
        gave.append({int(c) for c in given} if given else set())
    for seat in range(4):
        v = r.view(seat)
        assert isinstance(v, View)
        assert v.seat == seat
        assert v.hand == r.hand_mask(seat)
        assert v.hand_cards == r.hand(seat)
        assert v.hand_sizes == tuple(len(r.hand(s)) for s in range(4))
        assert v.phase is r.phase
        assert v.to_move == r.to_move
        secret: set[int] = set()
        for other in range(4):
            if other != seat:
                secret |= _mask_cards(r.hand_mask(other))
        # The cards this seat gave are known to it, wherever they are now.
        secret -= gave[seat]
        # In the exchange, cards given by others and not yet received are secret too.
        if r.phase is Phase.EXCHANGE:
            for other in range(4):
                if other != seat:
                    secret |= gave[other]
        leaked = _mentioned(v) & secret
        assert not leaked, f"seat {seat} sees {[str(CARDS[c]) for c in sorted(leaked)]} in {v}"
        for actor, text in v.events:
            if text.startswith("exchange") and actor != seat:
                assert text == "exchange"
            if actor == seat and text.startswith("exchange"):
                assert len(parse_cards(text.removeprefix("exchange"))) == 3
        if r.phase is Phase.EXCHANGE:
            assert v.received is None
        for other in range(4):
            if other != seat:
                assert r.view(other).given is None or r.view(other).given != v.given


def _walk(seed: int, steps: int) -> int:
    rng = random.Random(seed)
    r = Round.new(seed)
    done = 0
    exchanges_seen = 0
    while done < steps:
        if r.is_over:
            r = Round.new(rng.randrange(1 << 30))
        _check_views(r)
        seat = r.decisions()[0].seat
        if rng.random() < 0.2:
            others = [s for s in range(4) if s != seat and r.legal_actions(s)]
            if others:
                seat = rng.choice(others)
        actions = r.legal_actions(seat)
        action = actions[rng.randrange(len(actions))]
        exchanges_seen += action.kind == "exchange"
        r = r.apply(seat, action)
        done += 1
    _check_views(r)
    return exchanges_seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_views_keep_other_hands_secret(seed: int) -> None:
    assert _walk(seed, 300) >= 4


def test_view_after_the_exchange_shows_own_gifts_and_receipts_only() -> None:
    r = Round.new(17)
    for s in range(4):
        r = r.apply(s, "no-grand")
    gifts = []
    for s in range(4):
        hand = r.hand(s)
        gifts.append((hand[1], hand[2], hand[3]))
        r = r.apply(s, f"exchange {hand[1]} {hand[2]} {hand[3]}")
    for s in range(4):
        v = r.view(s)
        assert v.given == gifts[s]
        assert v.received == (gifts[(s + 3) % 4][0], gifts[(s + 2) % 4][1], gifts[(s + 1) % 4][2])
        texts = [t for a, t in v.events if a != s and t.startswith("exchange")]
        assert texts == ["exchange"] * 3
        own = [t for a, t in v.events if a == s and t.startswith("exchange")]
        assert own == ["exchange " + " ".join(str(c) for c in gifts[s])]
    _check_views(r)


def test_views_of_a_position_from_hands_have_no_exchange() -> None:
    r = Round.from_hands(
        [
            "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Dg",
            "2k 3b 4k 5b 6k 7b 8k 9b Tk Jb Qk Kb Ak Dr",
            "2b 3k 4b 5k 6b 7k 8b 9k Tb Jk Qb Kk Ab Ph",
            "2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ag Ar",
        ]
    )
    r = r.apply(0, "play 5g")
    for s in range(4):
        v = r.view(s)
        assert v.given is None
        assert v.received is None
        assert v.played == 1 << int(parse_cards("5g")[0])
        assert v.events == ((0, "play 5g"),)
    _check_views(r)
