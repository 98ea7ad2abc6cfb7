"""The Dou Di Zhu round through :class:`pagoda.core.GameState`: the same signatures as Tichu's,
immutable legal actions, one decision at a time, and syntax errors kept apart from rule errors."""

import random

import pytest

import pagoda.doudizhu
from pagoda import doudizhu as ddz
from pagoda.core import Decision, Record
from pagoda.doudizhu.actions import format_action, parse_action
from pagoda.doudizhu.combos import format_combo, parse_combo


def test_new_has_the_protocol_signature() -> None:
    r = ddz.Round.new(3)
    assert r == ddz.Round.new(seed=3, rules=ddz.RULES["classic"])
    assert ddz.Round.new(3, rules=None) == r


def test_new_without_a_seed_draws_one_and_records_it() -> None:
    r = ddz.Round.new()
    assert isinstance(r.seed, int)
    assert r.rules == ddz.RULES["classic"]
    assert r.record.header("Seed") == str(r.seed)
    assert ddz.replay(r.record) == r


def test_legal_actions_are_immutable() -> None:
    r = ddz.Round.from_hands(["33", "4", "5"], landlord=0)
    acts = r.legal_actions(0)
    assert isinstance(acts, tuple)
    assert [str(a) for a in acts] == ["play 3", "play 33"]
    assert r.legal_actions(1) == ()
    auction = ddz.Round.new(5)
    assert auction.legal_actions(auction.to_move) == (ddz.PASS, *(ddz.Action("bid", b) for b in (1, 2, 3)))


def test_decisions() -> None:
    r = ddz.Round.from_hands(["33", "4", "5"], landlord=0)
    assert r.decisions() == (Decision(0, "turn", r.legal_actions(0)),)
    over = r.apply(0, "play 33")
    assert over.is_over
    assert over.decisions() == ()
    auction = ddz.Round.new(5)
    (d,) = auction.decisions()
    assert (d.seat, d.kind, d.actions) == (auction.to_move, "turn", auction.legal_actions(auction.to_move))


SYNTAX = {
    "": "empty action",
    "   ": "empty action",
    "bid x": "a bid is a number in ASCII digits, not 'x'",
    "bid": "a bid is a number in ASCII digits, not ''",
    "bid \u0661": r"action text is ASCII: '\u0661' \(ARABIC-INDIC DIGIT ONE\) at position 4",
    "bid \uff12": r"action text is ASCII: '\uff12' \(FULLWIDTH DIGIT TWO\) at position 4",
    "play \u212a": r"action text is ASCII: '\u212a' \(KELVIN SIGN\) at position 5",
    "play 3X": "cannot read 'X' as a Dou Di Zhu card at position 1 of '3X'",
    "frobnicate": "cannot read action 'frobnicate'",
    "pass now": "cannot read action 'pass now'",
}


@pytest.mark.parametrize("text", list(SYNTAX))
def test_syntax_errors_are_parse_errors(text: str) -> None:
    r = ddz.Round.new(5)
    seat = r.to_move
    with pytest.raises(ddz.ParseError, match=SYNTAX[text]):
        r.apply(seat, text)
    assert r == ddz.Round.new(5)
    play = ddz.Round.from_hands(["33", "4", "5"], landlord=0)
    with pytest.raises(ddz.ParseError):
        play.apply(0, text)


RULE_ERRORS = [
    ("auction", "bid 4", "a bid must be above 0 and at most 3, not 4"),
    ("auction", "play 3", "no play during the auction"),
    ("auction", "call", r"call is not an auction action here \(bid N or pass\)"),
    ("play", "pass", "the leader may not pass"),
    ("play", "play 34", "34 is not a combination under classic"),
    ("play", "play 5", "seat 0 does not hold 5"),
    ("play", "bid 1", r"bid 1 is not a play action \(play CARDS or pass\)"),
]


@pytest.mark.parametrize(("phase", "text", "message"), RULE_ERRORS)
def test_rule_errors_are_illegal_actions(phase: str, text: str, message: str) -> None:
    r = ddz.Round.new(5) if phase == "auction" else ddz.Round.from_hands(["334", "4", "5"], landlord=0)
    seat = r.to_move
    with pytest.raises(ddz.IllegalAction, match=message):
        r.apply(seat, text)


def test_match_replay_keeps_the_kind_of_error() -> None:
    m = ddz.Match.new(7)
    headers = (("Game", "doudizhu-match"), ("Rules", "classic"), ("Seed", "7"))
    with pytest.raises(ddz.ParseError, match=r"action 1 .*ARABIC-INDIC DIGIT ONE"):
        ddz.Match.replay(Record(headers, ((m.to_move, "bid \u0661"),)))
    with pytest.raises(ddz.ParseError, match=r"action 1 \(\d bid x\): a bid is a number"):
        ddz.Match.replay(Record(headers, ((m.to_move, "bid x"),)))
    with pytest.raises(ddz.IllegalAction, match=r"action 1 \(\d bid 4\): a bid must be above 0"):
        ddz.Match.replay(Record(headers, ((m.to_move, "bid 4"),)))


def test_record_seats_are_ascii_numbers() -> None:
    r = ddz.Round.new(5)
    text = str(r.apply(r.to_move, "pass").record).replace(f"\n{r.to_move} pass", "\n\u0660 pass")
    assert "\u0660 pass" in text
    with pytest.raises(ddz.ParseError, match=r"a Dou Di Zhu record is ASCII: .* \(ARABIC-INDIC DIGIT ZERO\)"):
        ddz.replay(text)
    rec = '[Game "doudizhu-match"]\n[Rules "classic"]\n[Seed "7"]\n\n\u0660 pass\n'
    with pytest.raises(ddz.ParseError, match="match record is ASCII"):
        ddz.Match.replay(rec)


def test_rules_text_is_ascii() -> None:
    assert ddz.parse_rules("classic rounds=3").rounds == 3
    with pytest.raises(ddz.ParseError, match=r"rules text is ASCII: '\u0663' \(ARABIC-INDIC DIGIT THREE\)"):
        ddz.parse_rules("classic rounds=\u0663")


def test_record_headers_are_ascii_numbers() -> None:
    text = str(ddz.Round.new(5).record).replace('[Seed "5"]', '[Seed "\u0665"]')
    with pytest.raises(ddz.ParseError, match="ARABIC-INDIC DIGIT FIVE"):
        ddz.replay(text)


@pytest.mark.parametrize("preset", list(ddz.RULES))
def test_reprs_of_actions_and_combos_evaluate_back(preset: str) -> None:
    namespace = vars(pagoda.doudizhu)
    for seed in range(15):
        rng = random.Random(seed)
        r = ddz.Round.new(seed, ddz.RULES[preset])
        while not r.is_over:
            acts = r.legal_actions(r.to_move)
            for a in acts:
                assert eval(repr(a), namespace) == a
                assert parse_action(format_action(a)) == a
                if a.combo is not None:
                    assert eval(repr(a.combo), namespace) == a.combo
                    assert parse_combo(format_combo(a.combo)) == a.combo
            r = r.apply(r.to_move, rng.choice(acts))


COMBO_ERRORS = {
    "pair 3": "a combination is 'KIND RANK CARDS",
    "duo 3 33": "no combination kind 'duo'",
    "pair 1 33": "the rank of a combination is one of 3456789TJQKA2BR, not '1'",
    "pair 4 33": "33 is not a pair of rank 4 under any preset",
    "pair 3 33 as": "'as' needs the cards",
    "bomb 3 3333 order x": "the order of a bomb is a whole number, not 'x'",
    "pair 3 33 extra": "cannot read 'extra' after the cards",
    "pair 3 \uff13\uff13": "a combination's text is ASCII",
}


@pytest.mark.parametrize("text", list(COMBO_ERRORS))
def test_bad_combination_text(text: str) -> None:
    with pytest.raises(ddz.ParseError, match=COMBO_ERRORS[text]):
        parse_combo(text)
