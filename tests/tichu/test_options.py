"""Rules options and presets: their text, and what each one changes in play and scoring."""

import dataclasses

import pytest

from pagoda.tichu import RULES, IllegalAction, ParseError, Round, Rules, parse_action, to_mask
from pagoda.tichu.round import Phase

SEED = 31

# A value different from the default for every option.
OTHER_VALUES: dict[str, object] = {
    "target_score": 500,
    "rounds": 3,
    "last_tricks_to": "opponents",
    "phoenix_choice": True,
    "one_call_per_team": True,
    "wish_required": True,
    "small_tichu_after_exchange_only": True,
}


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def test_every_option_has_a_test_value() -> None:
    names = {f.name for f in dataclasses.fields(Rules)} - {"name"}
    assert names == set(OTHER_VALUES)


@pytest.mark.parametrize("preset", sorted(RULES))
def test_presets_round_trip(preset: str) -> None:
    rules = Rules.parse(preset)
    assert rules == RULES[preset]
    assert str(rules) == preset
    assert Rules.parse(str(rules)) == rules


@pytest.mark.parametrize("preset", sorted(RULES))
@pytest.mark.parametrize("option", sorted(OTHER_VALUES))
def test_every_option_round_trips(preset: str, option: str) -> None:
    base = RULES[preset]
    default = getattr(base, option)
    for value in (OTHER_VALUES[option], default):
        rules = Rules.parse(f"{preset} {option}={_text(value)}")
        assert getattr(rules, option) == value
        assert rules.name == preset
        assert Rules.parse(str(rules)) == rules
        if value == default:
            assert str(rules) == preset
        else:
            assert str(rules) == f"{preset} {option}={_text(value)}"


def test_presets_differ_as_documented() -> None:
    bsw = RULES["bsw"]
    std = RULES["standard"]
    assert (std.last_tricks_to, std.phoenix_choice, std.target_score) == ("first_out", False, 1000)
    assert (bsw.last_tricks_to, bsw.phoenix_choice, bsw.target_score) == ("opponents", True, 1000)
    for rules in (std, bsw):
        assert not rules.one_call_per_team
        assert not rules.wish_required
        assert not rules.small_tichu_after_exchange_only


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("vanilla", "vanilla"),
        ("standard colour=red", "colour"),
        ("standard wish_required=maybe", "maybe"),
        ("standard target_score=lots", "lots"),
        ("standard target_score=0", "0"),
        ("standard last_tricks_to=partner", "partner"),
        ("standard wish_required", "wish_required"),
        ("bsw phoenix_choice=2", "2"),
    ],
)
def test_bad_rules_name_the_problem(text: str, named: str) -> None:
    with pytest.raises(ParseError, match=named):
        Rules.parse(text)


def test_empty_rules_text_is_an_error() -> None:
    with pytest.raises(ParseError):
        Rules.parse("")


# ----------------------------------------------------------------- Tichu call options


def _at_exchange(rules: Rules) -> Round:
    r = Round.new(SEED, rules)
    for s in range(4):
        r = r.apply(s, "no-grand")
    assert r.phase is Phase.EXCHANGE
    return r


def _give_all(r: Round) -> Round:
    for s in range(4):
        if s in r.awaiting:
            hand = r.hand(s)
            r = r.apply(s, f"exchange {hand[0]} {hand[1]} {hand[2]}")
    assert r.phase is Phase.PLAY
    return r


def test_small_tichu_after_exchange_only() -> None:
    rules = Rules.parse("standard small_tichu_after_exchange_only=true")
    r = _at_exchange(rules)
    for s in range(4):
        assert "tichu" not in [str(a) for a in r.legal_actions(s)[:1]]
        with pytest.raises(IllegalAction, match="after the exchange"):
            r.apply(s, "tichu")
    r = _give_all(r)
    for s in range(4):
        assert "tichu" in [str(a) for a in r.legal_actions(s)]
    r = r.apply(1, "tichu").apply(3, "tichu")
    assert r.tichu_calls == (1, 3)
    # Standard rules allow it during the exchange.
    assert _at_exchange(RULES["standard"]).apply(2, "tichu").tichu_calls == (2,)


def test_one_call_per_team_blocks_the_partner_of_a_tichu_caller() -> None:
    rules = Rules.parse("standard one_call_per_team=true")
    r = _at_exchange(rules).apply(0, "tichu")
    assert "tichu" not in [str(a) for a in r.legal_actions(2)[:1]]
    with pytest.raises(IllegalAction, match="one call per team"):
        r.apply(2, "tichu")
    r = r.apply(1, "tichu")  # the other team still may
    assert r.tichu_calls == (0, 1)
    with pytest.raises(IllegalAction):
        r.apply(3, "tichu")
    r = _give_all(r)
    for s in (2, 3):
        assert "tichu" not in [str(a) for a in r.legal_actions(s)]


def test_one_call_per_team_blocks_tichu_after_the_partners_grand() -> None:
    rules = Rules.parse("standard one_call_per_team=true")
    r = Round.new(SEED, rules).apply(0, "grand")
    for s in (1, 2, 3):
        r = r.apply(s, "no-grand")
    with pytest.raises(IllegalAction, match="one call per team"):
        r.apply(2, "tichu")
    assert r.apply(1, "tichu").tichu_calls == (1,)


def test_one_call_per_team_blocks_a_second_grand_tichu_in_a_team() -> None:
    # "At most one Tichu or Grand Tichu call per team and round."
    rules = Rules.parse("standard one_call_per_team=true")
    r = Round.new(SEED, rules).apply(0, "grand")
    assert [str(a) for a in r.legal_actions(2)] == ["no-grand"]
    with pytest.raises(IllegalAction):
        r.apply(2, "grand")
    assert [str(a) for a in r.legal_actions(1)] == ["grand", "no-grand"]


# ----------------------------------------------------------------- bsw: the last seat's tricks

SEAT0 = "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Dr"
SEAT1 = "2k 3b 4k 5b 6k 7b 8k 9b Tk Jb Qk Kb Ak 2r"
SEAT2 = "2b 3k 4b 5k 6b 7k 8b 9k Tb Jk Qb Kk Ab Ph"
SEAT3 = "Dg 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ag Ar"

# Seat 1 goes out first, seat 0 second (its Dragon trick given to seat 1), seat 3 wins a trick
# worth 10 (Kk Ar), then seat 2 goes out third: seat 3 is last, with 25 points in hand.
LINE = [
    (0, "play Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg"),
    (1, "play 2k 3b 4k 5b 6k 7b 8k 9b Tk Jb Qk Kb Ak"),
    (2, "pass"),
    (3, "pass"),
    (0, "pass"),
    (1, "take"),
    (1, "play 2r"),
    (2, "pass"),
    (3, "pass"),
    (0, "pass"),
    (1, "take"),
    (2, "play Ab"),
    (3, "pass"),
    (0, "play Dr"),
    (2, "pass"),
    (3, "pass"),
    (0, "give-dragon 1"),
    (2, "play Kk"),
    (3, "play Ar"),
    (2, "pass"),
    (3, "take"),
    (3, "play Dg"),
    (2, "play 2b 3k 4b 5k 6b 7k 8b 9k Tb Jk Qb Ph"),
]


def _line(rules: Rules) -> Round:
    r = Round.from_hands([SEAT0, SEAT1, SEAT2, SEAT3], rules)
    for seat, action in LINE:
        if action in ("take", "give-dragon 1"):
            for asked in r.window:  # the seats that may still bomb the trick let it go
                r = r.apply(asked, "no-bomb")
        r = r.apply(seat, action)
    assert r.is_over
    assert r.out == (1, 0, 2)
    assert r.won(3) == to_mask("Kk Ar Dg")
    return r


def test_last_seat_tricks_go_to_the_first_out_in_standard() -> None:
    r = _line(RULES["standard"])
    # Team 0: seat 2's last straight (5k Tb Ph: -10) and seat 3's hand (5r Tr Kr: 25).
    # Team 1: seat 1's tricks (50 + 25) and seat 3's tricks (10), seat 1 being first out.
    assert r.card_points() == (15, 85)
    assert r.score() == (15, 85)


def test_last_seat_tricks_go_to_the_opponents_in_bsw() -> None:
    r = _line(RULES["bsw"])
    assert r.card_points() == (25, 75)
    assert r.score() == (25, 75)
    r = _line(Rules.parse("standard last_tricks_to=opponents"))
    assert r.score() == (25, 75)


# ----------------------------------------------------------------- phoenix_choice

CHOICE0 = "Mj Kg Kr Qg Qb Ph 2g 3k 4b 6r 7g 8k 9b Tr"
CHOICE1 = "2k 3b 4r 5g 6k 7b 8r 9g Tk Jb Jr Qk Ak Ab"
CHOICE2 = "2b 3g 4k 5k 6b 7r 8g 9k Tg Jg Qr Kk Ag Dr"
CHOICE3 = "Dg 2r 3r 4g 5b 5r 6g 7k 8b 9r Tb Jk Kb Ar"
FULL_HOUSE = "Kg Kr Qg Qb Ph"


def _choice_round(rules: Rules) -> Round:
    r = Round.from_hands([CHOICE0, CHOICE1, CHOICE2, CHOICE3], rules)
    assert r.to_move == 0
    return r


def test_phoenix_choice_requires_the_reading_to_be_named() -> None:
    r = _choice_round(RULES["bsw"])
    with pytest.raises(IllegalAction, match="as"):
        r.apply(0, f"play {FULL_HOUSE}")
    as_k = r.apply(0, f"play {FULL_HOUSE} as K")
    as_q = r.apply(0, f"play {FULL_HOUSE} as Q")
    assert as_k.top is not None
    assert as_q.top is not None
    assert (as_k.top.kind, as_k.top.rank, as_k.top.phoenix) == ("full_house", 13, 13)
    assert (as_q.top.kind, as_q.top.rank, as_q.top.phoenix) == ("full_house", 12, 12)
    with pytest.raises(IllegalAction, match="Phoenix"):
        r.apply(0, f"play {FULL_HOUSE} as A")
    legal = set(r.legal_actions(0))
    assert parse_action(f"play {FULL_HOUSE} as K") in legal
    assert parse_action(f"play {FULL_HOUSE} as Q") in legal
    assert parse_action(f"play {FULL_HOUSE}") not in legal
    # A play that reads only one way needs no reading.
    assert parse_action("play Kg Kr") in legal
    assert r.apply(0, "play Kg Kr").top is not None


def test_standard_reads_the_phoenix_as_high_as_it_goes() -> None:
    r = _choice_round(RULES["standard"])
    top = r.apply(0, f"play {FULL_HOUSE}").top
    assert top is not None
    assert (top.rank, top.phoenix) == (13, 13)
    assert r.apply(0, f"play {FULL_HOUSE} as K").top == top
    with pytest.raises(IllegalAction, match="highest"):
        r.apply(0, f"play {FULL_HOUSE} as Q")
    legal = set(r.legal_actions(0))
    assert parse_action(f"play {FULL_HOUSE}") in legal
    assert parse_action(f"play {FULL_HOUSE} as Q") not in legal


# ----------------------------------------------------------------- wish_required


def test_wish_required_makes_every_mah_jong_play_wish() -> None:
    rules = Rules.parse("standard wish_required=true")
    r = _choice_round(rules)
    mah_jong = [a for a in r.legal_actions(0) if a.kind == "play" and a.mask & to_mask("Mj")]
    assert mah_jong
    assert all(a.wish for a in mah_jong)
    assert len([a for a in mah_jong if a.mask == to_mask("Mj")]) == 13
    with pytest.raises(IllegalAction, match="wish"):
        r.apply(0, "play Mj")
    with pytest.raises(IllegalAction, match="wish"):
        r.apply(0, "play Mj 2g 3k 4b Ph")
    assert r.apply(0, "play Mj wish 5").wish == 5
    # Plays without the Mah Jong are unaffected.
    assert r.apply(0, "play Kg").top is not None

    std = _choice_round(RULES["standard"])
    assert parse_action("play Mj") in set(std.legal_actions(0))
    assert std.apply(0, "play Mj").wish == 0
