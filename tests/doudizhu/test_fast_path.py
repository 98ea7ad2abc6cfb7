"""What ``Round.apply`` is given: an action the state's own ``legal_actions`` offered, an equal
copy, its text or another state's action all give equal states when legal, and are refused with
the same message when not, leaving the state as it was; what a state offers cannot be changed."""

import copy
import dataclasses
import pickle
import random

import pytest

import pagoda.doudizhu
from pagoda import doudizhu as ddz
from pagoda.doudizhu.actions import PLAY, Action

PRESETS = ["classic", "classic rob=true", "openspiel", "four_player bomb_limits=true", "laizi"]


def _copy(a: ddz.Action) -> ddz.Action:
    """An equal action that is not the offered object."""
    return Action(a.kind, a.bid, a.combo)


@pytest.mark.parametrize("preset", PRESETS)
def test_offered_copy_and_text_give_equal_states(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    for seed in range(40):
        rng = random.Random(seed)
        r = ddz.Round.new(seed, rules)
        while not r.is_over:
            seat = r.to_move
            acts = r.legal_actions(seat)
            a = rng.choice(acts)
            fast = r.apply(seat, a)
            slow = r.apply(seat, _copy(a))
            text = r.apply(seat, str(a))
            assert fast == slow == text
            assert fast.history == slow.history == text.history
            assert hash(fast) == hash(slow)
            r = fast
        assert ddz.replay(r.record) == r


def _messages(r: ddz.Round, seat: int, action: ddz.Action | str) -> str:
    with pytest.raises(ddz.IllegalAction) as e:
        r.apply(seat, action)
    return str(e.value)


def test_other_states_actions_are_checked() -> None:
    # seat 0 leads; its actions are not legal for seat 1 (wrong turn), nor after the lead (must beat it)
    r = ddz.Round.from_hands(["3 4 5", "6 7", "8 9"], landlord=0)
    lead = r.legal_actions(0)
    low = next(a for a in lead if str(a) == "play 3")
    high = next(a for a in lead if str(a) == "play 5")
    after = r.apply(0, high)
    assert after.legal_actions(1)  # offers its own list
    before = (after, after.history, after.legal_actions(1))
    msg = _messages(after, 1, low)
    assert msg == "seat 1 does not hold 3"
    assert (after, after.history, after.legal_actions(1)) == before
    # the same action from seat 0's next lead: seat 0 holds 3, but 3 does not beat the 5 on the table
    r2 = after.apply(1, ddz.PASS).apply(2, ddz.PASS)
    assert r2.to_move == 0
    assert r2.top is None
    r3 = r2.apply(0, "play 4")
    assert _messages(r3, 1, low) == _messages(r3, 1, _copy(low)) == "seat 1 does not hold 3"


def test_the_offered_actions_cannot_be_changed_and_a_forged_one_is_not_trusted() -> None:
    r = ddz.Round.from_hands(["3 4 5", "6 7", "8 9"], landlord=0)
    acts = r.legal_actions(0)
    forged = Action(PLAY, 0, ddz.classify("66", r.rules))
    assert isinstance(acts, tuple)
    with pytest.raises(AttributeError):
        acts.append(forged)  # type: ignore[attr-defined]
    assert _messages(r, 0, forged) == "seat 0 does not hold 66"
    # the state still offers (and trusts) its own actions
    assert [str(a) for a in r.legal_actions(0)] == ["play 3", "play 4", "play 5"]


def test_refusals_say_the_same_for_a_copy_and_the_text() -> None:
    rules = ddz.RULES["classic"]
    r = ddz.Round.from_hands(["3 3 4 4 5 5", "6 6 7", "8 9"], landlord=0).apply(0, "play 33")
    r = r.apply(1, "play 66")
    # seat 2 may not play 8 on a pair; seat 0 may not pass as leader later
    solo = ddz.classify("8", rules)
    assert solo is not None
    assert _messages(r, 2, Action(PLAY, 0, solo)) == "8 (solo) does not beat 66 (pair)"
    assert _messages(r, 2, "play 8") == "8 does not beat 66 (pair)"
    not_a_reading = ddz.Combo("pair", 9, 1, solo.mask, solo.mask)
    assert _messages(r, 2, Action(PLAY, 0, not_a_reading)) == "8 is not a pair of rank 9 under classic"
    leader = r.apply(2, ddz.PASS).apply(0, ddz.PASS)
    assert leader.to_move == 1
    assert leader.top is None
    assert _messages(leader, 1, ddz.PASS) == "the leader may not pass"
    assert _messages(leader, 1, "pass") == "the leader may not pass"
    assert ddz.PASS not in leader.legal_actions(1)


def test_a_false_reading_is_refused_even_when_the_cards_are_offered() -> None:
    rules = ddz.RULES["classic"]
    r = ddz.Round.from_hands(["3 3 3 4", "6 7", "8 9"], landlord=0)
    offered = {str(a): a for a in r.legal_actions(0)}
    real = offered["play 3334"].combo
    assert real is not None
    assert real.kind == "trio_solo"
    fake = real._replace(rank=14)  # the same cards, claimed as a trio of aces with a kicker
    msg = _messages(r, 0, Action(PLAY, 0, fake))
    assert msg == f"{fake} is not a trio_solo of rank 14 under {rules.name}"


def test_state_is_frozen_equal_and_picklable() -> None:
    r = ddz.Round.new(3)
    r = r.apply(r.to_move, r.legal_actions()[-1])
    while r.phase is not ddz.Phase.PLAY:
        r = r.apply(r.to_move, r.legal_actions()[-1])
    r = r.apply(r.to_move, r.legal_actions()[0])
    with pytest.raises(AttributeError):
        r.to_move = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        r.history = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.setup.bid = 3  # type: ignore[misc]
    assert not hasattr(r, "__dict__")
    assert not hasattr(r.setup, "__dict__")
    for other in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r), copy.copy(r), ddz.replay(r.record)):
        assert other == r
        assert hash(other) == hash(r)
        assert other.history == r.history
        assert [str(a) for a in other.legal_actions()] == [str(a) for a in r.legal_actions()]
    assert repr(r) == f"Round.from_position({r.position()!r})"
    assert eval(repr(r), vars(pagoda.doudizhu)) == r


def test_a_deal_is_random_shuffle_of_the_pack() -> None:
    from pagoda.doudizhu.cards import ONE, deck
    from pagoda.doudizhu.round import deal

    for rules in (ddz.RULES["classic"], ddz.RULES["four_player"]):
        for seed in range(50):
            rng = random.Random(f"doudizhu {seed} 2")
            cards = [ONE[i] for i in deck(rules.decks)]
            rng.shuffle(cards)
            n = rules.hand_size
            hands = tuple(sum(cards[s * n : (s + 1) * n]) for s in range(rules.players))
            face_up = rng.randrange(rules.players * n)
            assert deal(seed, 2, rules) == ((*hands, sum(cards[rules.players * n :])), face_up // n)


def test_the_constructor_takes_every_field_by_name() -> None:
    names = ddz.Round._fields
    rules = ddz.parse_rules("four_player bomb_limits=true")
    for seed in range(5):
        r = ddz.Round.new(seed, rules)
        rng = random.Random(seed)
        while not r.is_over:
            again = ddz.Round(**{name: getattr(r, name) for name in names})
            assert again == r
            assert again.legal_actions() == r.legal_actions()
            r = r.apply(r.to_move, rng.choice(r.legal_actions()))


@pytest.mark.parametrize(
    "preset", ["classic", "rlcard", "openspiel", "four_player", "classic kicker_own_rank=true"]
)
def test_follows_from_tables_equal_the_generators(preset: str) -> None:
    """legal_plays answers a solo, pair, trio, trio with kickers and runs from the packed hand;
    natural_plays runs the generator of the kind: the same plays in the same order."""
    from pagoda.doudizhu.cards import counts_of, deck
    from pagoda.doudizhu.movegen import legal_plays, natural_plays

    rules = ddz.parse_rules(preset)
    rng = random.Random(preset)
    cards = deck(rules.decks)
    checked = set()
    for _ in range(1500):
        rng.shuffle(cards)
        size = rng.randrange(1, 34 if rules.decks == 2 else 21)
        hand = sum(1 << (5 * i) for i in cards[:size])
        other = sum(1 << (5 * i) for i in cards[size : size + rng.randrange(1, 21)])
        for on in ddz.plays(other, rules=rules):
            found = legal_plays(hand, on, rules)
            assert found == natural_plays(counts_of(hand), rules, on), (hand, on)
            checked.add(on.kind)
    assert {"solo", "pair", "trio", "trio_pair", "chain", "pair_chain", "plane", "bomb"} <= checked


@pytest.mark.parametrize("preset", ["classic", "rlcard", "four_player", "classic trio_solo=false"])
def test_counted_leads_equal_the_generators(preset: str) -> None:
    """A lead is listed from the tables of the ranks holding one, two or three cards (the fast
    path); natural_plays runs the generator of every kind and keeps the preferred reading of each
    set of cards: the same plays."""
    from pagoda.doudizhu.cards import counts_of, deck
    from pagoda.doudizhu.movegen import legal_plays, natural_plays

    rules = ddz.parse_rules(preset)
    rng = random.Random(preset)
    cards = deck(rules.decks)
    for _ in range(400):
        rng.shuffle(cards)
        hand = sum(1 << (5 * i) for i in cards[: rng.randrange(1, 34 if rules.decks == 2 else 21)])
        found = legal_plays(hand, None, rules)
        assert sorted(found) == sorted(natural_plays(counts_of(hand), rules, None)), hand
