"""One conformance suite for every game and preset, through the one protocol (pagoda.core.GameState).

On seeded random playouts that step through each state's own flow (``decisions()``):
- the state satisfies the protocol, and the same seed gives the same game;
- what a state offers cannot be changed by its caller (immutable sequences), nor can the state
  itself (its fields refuse assignment), and it pickles to an equal state;
- every action offered applies, and an action not offered raises ``IllegalAction`` with a reason
  (a message, and the code of the rule it breaks);
- ``apply`` applies exactly what ``legal_actions`` offers (a decision's actions are among them);
- the position round-trips: ``from_position(position())`` has the same position, the same
  decisions, and the same positions after the same action; the repr evaluates back;
- the record replays to an equal state, also for a state made from a position;
- no view shows another seat's hidden cards.

The volume per preset is CONFORMANCE_ROUNDS (default 5 rounds); the ``slow`` variant runs 150.
"""

import os
import pickle
import random
from collections.abc import Sequence
from typing import Any

import pytest

from pagoda import doudizhu as ddz
from pagoda import tichu
from pagoda.core import Decision, GameState, IllegalAction
from tests.games import CASES, GAMES, new, playout

ROUNDS = int(os.environ.get("CONFORMANCE_ROUNDS", "5"))
SLOW_ROUNDS = 150
#: At most this many of a decision's actions are applied at each step (spread over the list).
APPLY_EACH = 12


def _spread(actions: Sequence[Any], k: int) -> list[Any]:
    n = len(actions)
    if n <= k:
        return list(actions)
    return [actions[i * n // k] for i in range(k)]


def _decisions(state: GameState) -> list[tuple[int, str, list[str]]]:
    return [(d.seat, d.kind, [str(a) for a in d.actions]) for d in state.decisions()]


def _namespace(game: str) -> dict[str, Any]:
    return dict(vars(tichu if game == "tichu" else ddz))


DDZ_VIEW_FIELDS = {
    *("seat", "rules", "phase", "to", "hand", "counts", "landlord", "kitty"),
    *("bid", "wild", "top", "by", "multiplier", "history"),
}


def _hidden_tichu(state: Any, viewer: int) -> set[str]:
    """The cards in other seats' hands that ``viewer`` has not given them."""
    given = state.view(viewer).given
    mine = set() if given is None else {str(c) for c in given}
    return {str(c) for s in range(4) if s != viewer for c in state.hand(s)} - mine


def _check_views(game: str, state: Any) -> None:
    if game == "tichu":
        for seat in range(4):
            text = repr(state.view(seat))
            words = set(text.replace("'", " ").replace('"', " ").replace(",", " ").split())
            leaked = _hidden_tichu(state, seat) & words
            assert not leaked, f"seat {seat}'s view shows {sorted(leaked)}"
    else:
        for seat in range(state.rules.players):
            v = state.view(seat)
            assert v.hand == state.hand(seat)
            fields = dict(part.split(" ", 1) for part in repr(v)[len("View.from_text('") : -2].split("; "))
            # one hand, its own; of the others only their sizes (counts) and what they played (history)
            assert set(fields) <= DDZ_VIEW_FIELDS, set(fields) - DDZ_VIEW_FIELDS
            assert fields["hand"] == (str(state.hand(seat)) or "-")
            if state.landlord < 0:
                assert fields["kitty"] == "-", "the kitty is hidden until the landlord takes it"


def _check_step(game: str, state: GameState, rng: random.Random, offered: list[tuple[int, Any]]) -> None:
    assert isinstance(state, GameState)
    decisions = state.decisions()
    assert decisions, "a live state asks someone"
    for d in decisions:
        assert isinstance(d, Decision)
        legal = state.legal_actions(d.seat)
        assert isinstance(legal, Sequence)
        assert not hasattr(legal, "append")
        assert not hasattr(legal, "__setitem__")
        assert not hasattr(d.actions, "append")
        legal_texts = {str(a) for a in _spread(legal, 400)} if len(legal) > 400 else {str(a) for a in legal}
        for action in _spread(d.actions, APPLY_EACH):
            assert len(legal) > 400 or str(action) in legal_texts
            after = state.apply(d.seat, action)  # every action offered applies
            assert after is not state
            assert state.apply(d.seat, str(action)).position() == after.position()
    # an action offered elsewhere (another seat, an earlier state) that this seat is not offered
    for seat, action in rng.sample(offered, min(len(offered), 8)):
        if action in state.legal_actions(seat):
            continue
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, action)
        assert str(refused.value), "a refusal says why"
        assert refused.value.reason != "illegal", f"a refusal names its rule: {refused.value}"
    # the state cannot be changed, and pickles to an equal state with the same offers
    with pytest.raises(AttributeError):
        state.to_move = 0  # type: ignore[misc]
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state
    assert _decisions(copy) == _decisions(state)
    # the position round-trips
    text = state.position()
    assert "\n" not in text
    back = type(state).from_position(text)
    assert back.position() == text
    assert _decisions(back) == _decisions(state)
    d = decisions[rng.randrange(len(decisions))]
    a = d.actions[rng.randrange(len(d.actions))]
    assert back.apply(d.seat, a).position() == state.apply(d.seat, a).position()
    assert eval(repr(state), _namespace(game)).position() == text
    _check_views(game, state)


def _conform(game: str, preset: str, rounds: int) -> None:
    g = GAMES[game]
    for k in range(rounds):
        seed = 1000 + k
        rng = random.Random(f"conformance/{game}/{preset}/{seed}")
        offered: list[tuple[int, Any]] = []
        state = new(game, preset, seed)
        assert new(game, preset, seed).position() == state.position()  # same seed, same deal
        midway: GameState | None = None
        for steps, (before, seat, action) in enumerate(playout(state, rng)):
            if steps % 7 == 0:
                _check_step(game, before, rng, offered)
            if steps == 20:
                midway = before
            offered.extend((d.seat, x) for d in before.decisions() for x in _spread(d.actions, 3))
            del offered[:-60]
            state = before.apply(seat, action)
        assert state.is_over
        assert state.decisions() == ()
        assert g.replay(state.record) == state
        assert all(isinstance(p, int) for p in state.score())
        if midway is not None:
            # a state read from a position has a record that replays from that position
            start = type(midway).from_position(midway.position())
            seat, action = next(iter(playout(start, rng)))[1:]
            after = start.apply(seat, action)
            assert g.replay(after.record).position() == after.position()


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_every_game_and_preset_conforms(game: str, preset: str) -> None:
    _conform(game, preset, ROUNDS)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "preset"), CASES)
def test_every_game_and_preset_conforms_on_many_rounds(game: str, preset: str) -> None:
    _conform(game, preset, SLOW_ROUNDS)
