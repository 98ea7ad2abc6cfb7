"""Every bot returns only legal actions, in every preset, auction included; bots see only their view."""

import random
from collections.abc import Sequence

import pytest

from pagoda import doudizhu as ddz
from pagoda.bots import get_bot
from pagoda.bots.doudizhu import SearchBot, determinize, play_round
from pagoda.bots.doudizhu.hand import played_cards, unseen
from pagoda.doudizhu import Action, View

PRESETS = ["classic", "rlcard", "openspiel", "four_player", "laizi", "classic rob=true"]


class Checked:
    """Wraps a bot: asserts every answer is legal and that the view hides the other hands."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.decisions = 0

    def decide(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        action: Action = self.bot.decide(view, legal, rng)  # type: ignore[attr-defined]
        assert action in legal, f"{action} is not among the {len(legal)} legal actions"
        self.decisions += 1
        return action


@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_plays_only_legal_actions(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    for seed in range(12):
        bots = [
            Checked(get_bot("doudizhu", "heuristic" if s != 1 else "random")) for s in range(rules.players)
        ]
        r = play_round(ddz.Round.new(seed, rules), bots, seed=seed)
        assert r.is_over
        assert sum(r.score()) == 0


@pytest.mark.parametrize("preset", ["classic", "four_player", "laizi"])
def test_search_plays_only_legal_actions(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    for seed in range(2):
        bots = [Checked(SearchBot(iterations=1, width=3)) for _ in range(rules.players)]
        r = play_round(ddz.Round.new(seed, rules), bots, seed=seed)
        assert r.is_over


@pytest.mark.parametrize("preset", PRESETS)
def test_rlcard_adapter_plays_only_legal_actions(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    for seed in range(10):
        bots = [
            Checked(get_bot("doudizhu", "rlcard-rule" if s != 2 else "heuristic"))
            for s in range(rules.players)
        ]
        r = play_round(ddz.Round.new(seed, rules), bots, seed=seed)
        assert r.is_over


def test_rlcard_adapter_rarely_falls_back_on_its_own_rules() -> None:
    rules = ddz.RULES["rlcard"]
    bot = get_bot("doudizhu", "rlcard-rule")
    for seed in range(10):
        play_round(ddz.Round.from_hands(*_deal(seed, rules), rules=rules), [bot] * 3, seed=seed)
    assert bot.calls > 100
    assert bot.fallbacks == 0


def _deal(seed: int, rules: ddz.Rules) -> tuple[list[ddz.Cards], ddz.Cards]:
    d, _ = ddz.round.deal(seed, 1, rules)
    return [ddz.Cards(m) for m in d[:3]], ddz.Cards(d[3])


@pytest.mark.parametrize("preset", ["classic", "four_player"])
def test_determinization_keeps_every_public_fact(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    rng = random.Random(3)
    bots = [get_bot("doudizhu", "heuristic") for _ in range(rules.players)]
    for seed in range(4):
        r = ddz.Round.new(seed, rules)
        while not r.is_over:
            if r.phase is ddz.Phase.PLAY:
                seat = r.to_move
                view = r.view(seat)
                played = played_cards(view.history)
                for _ in range(3):
                    hands = determinize(view, rng, rules.decks)
                    assert hands[seat] == view.hand.mask  # own hand fixed
                    assert tuple(len(ddz.Cards(h)) for h in hands) == view.counts  # sizes
                    # the cards nobody has shown are exactly the other hands: played ones absent
                    left = unseen(view.hand.mask, sum(played.values()), rules.decks)
                    others = sum(h for s, h in enumerate(hands) if s != seat)
                    assert ddz.Cards(others).counts() == tuple(left)
                    landlord = view.landlord
                    assert landlord is not None
                    assert view.kitty is not None
                    if landlord != seat:  # the landlord keeps the shown kept cards it has not played
                        kept = ddz.Cards(view.kitty.mask).counts()
                        gone = ddz.Cards(played.get(landlord, 0)).counts()
                        held = ddz.Cards(hands[landlord]).counts()
                        assert all(h >= k - g for h, k, g in zip(held, kept, gone, strict=True))
            r = r.apply(r.to_move, bots[r.to_move].decide(r.view(r.to_move), r.legal_actions(), rng))


def test_the_view_never_shows_other_hands() -> None:
    r = ddz.Round.new(11)
    view = r.view(0)
    assert not any(isinstance(v, ddz.Cards) and v != view.hand for v in view if v is not view.kitty)


@pytest.mark.parametrize("name", ["heuristic", "search:iterations=2:width=3"])
def test_decide_is_deterministic_for_a_seed(name: str) -> None:
    r = ddz.Round.new(21)
    bots = [get_bot("doudizhu", "heuristic") for _ in range(3)]
    while r.phase is ddz.Phase.AUCTION:
        r = r.apply(r.to_move, bots[0].decide(r.view(r.to_move), r.legal_actions(), random.Random(0)))
    for _ in range(6):
        if r.is_over:
            break
        view, legal = r.view(r.to_move), r.legal_actions()
        first = get_bot("doudizhu", name).decide(view, legal, random.Random(5))
        again = get_bot("doudizhu", name).decide(view, legal, random.Random(5))
        assert first == again
        r = r.apply(r.to_move, first)
