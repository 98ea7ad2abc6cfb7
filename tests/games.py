"""Both rules cores behind the one protocol (:class:`pagoda.core.GameState`), for the tests that
hold every game and preset to the same promises: the conformance suite and the playthroughs.

A random playout steps through the state's own flow (:meth:`decisions`) and nothing else: a
seeded generator picks one of the decisions and one of its actions.
"""

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pagoda import doudizhu as ddz
from pagoda import tichu
from pagoda.core import GameState, Record


@dataclass(frozen=True)
class Game:
    """A rules core as the shared tests see it."""

    name: str
    state: type[Any]
    presets: tuple[str, ...]
    rules: Callable[[str], Any]
    replay: Callable[[Record | str], Any]


GAMES = {
    "tichu": Game("tichu", tichu.Round, tuple(sorted(tichu.RULES)), tichu.RULES.__getitem__, tichu.replay),
    "doudizhu": Game("doudizhu", ddz.Round, tuple(sorted(ddz.RULES)), ddz.RULES.__getitem__, ddz.replay),
}

#: Every (game, preset) pair, as pytest ids.
CASES = [(g, p) for g in GAMES for p in GAMES[g].presets]


def new(game: str, preset: str, seed: int) -> GameState:
    """A fresh round of ``game`` under ``preset``."""
    g = GAMES[game]
    state: GameState = g.state.new(seed=seed, rules=g.rules(preset))
    return state


def pick(state: GameState, rng: random.Random) -> tuple[int, Any]:
    """A seat asked now and one of its actions, chosen by ``rng``."""
    decisions = state.decisions()
    d = decisions[rng.randrange(len(decisions))]
    return d.seat, d.actions[rng.randrange(len(d.actions))]


def playout(state: GameState, rng: random.Random, limit: int = 3000) -> Iterator[tuple[GameState, int, Any]]:
    """Each state of a random playout with the seat and action taken from it, to the end."""
    for _ in range(limit):
        if state.is_over:
            return
        seat, action = pick(state, rng)
        yield state, seat, action
        state = state.apply(seat, action)
    raise AssertionError(f"no end in {limit} actions")


def final(state: GameState, rng: random.Random) -> GameState:
    """The last state of a random playout."""
    for before, seat, action in playout(state, rng):
        state = before.apply(seat, action)
    return state
