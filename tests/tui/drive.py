"""A test player that decides through the interface: it reads what the client asks and presses
the keys a person would (cursor, selection, legal-play cycling, Enter, x, the choice keys)."""

import random
from collections.abc import Awaitable, Callable

from pagoda.tui.base import GameUI

Press = Callable[..., Awaitable[None]]


def next_keys(game: GameUI, rng: random.Random) -> list[str]:
    """The keys for one decision of the human in ``game`` (empty when it has none)."""
    choices = game.choices()
    mode = getattr(game, "mode", lambda: "")()
    if mode == "exchange":
        keys: list[str] = []
        cursor = game.cursor
        for slot, position in enumerate(rng.sample(range(len(game.cells())), 3)):
            keys += [*_moves(cursor, position), str(slot + 1)]
            cursor = position
        return [*keys, "enter"]
    plays = game.legal_plays()
    if choices and (not plays or rng.random() < 0.7):
        return [rng.choice(choices).key]
    may_pass = game.pass_action() is not None
    if plays and (not may_pass or rng.random() < 0.6):
        # cycle to one of the legal plays with the arrow keys, or select it card by card
        n = rng.randrange(min(len(plays), 4))
        if rng.random() < 0.7:
            return [*["down"] * (n + 1), "enter"]
        mask = list(plays)[n]
        keys = ["escape"] if game.selected else []
        cursor = game.cursor
        for i in sorted(game.indices_of(mask)):
            keys += [*_moves(cursor, i), "space"]
            cursor = i
        return [*keys, "enter"]
    if may_pass:
        return ["x"]
    return ["enter"]


def _moves(cursor: int, to: int) -> list[str]:
    return ["right"] * (to - cursor) if to >= cursor else ["left"] * (cursor - to)


def answer_pending(game: GameUI) -> list[str]:
    """A key answering an open choice (a wish, a reading) that a play opened."""
    return [game.pending[0].key] if game.pending else []
