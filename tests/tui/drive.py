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
        keys = []
        for slot, position in enumerate(rng.sample(range(len(game.cells())), 3)):
            keys += ["home"] + ["right"] * position + [str(slot + 1)]
        return [*keys, "enter"]
    plays = game.legal_plays()
    if choices and (not plays or rng.random() < 0.7):
        return [rng.choice(choices).key]
    may_pass = game.pass_action() is not None
    if plays and (not may_pass or rng.random() < 0.6):
        # cycle to one of the legal plays with the arrow keys, or select it card by card
        n = rng.randrange(min(len(plays), 8))
        if rng.random() < 0.5:
            return [*["down"] * (n + 1), "enter"]
        mask = list(plays)[n]
        keys = ["escape"]
        for i in sorted(game.indices_of(mask)):
            keys += ["home"] + ["right"] * i + ["space"]
        return [*keys, "enter"]
    if may_pass:
        return ["x"]
    return ["enter"]


def answer_pending(game: GameUI) -> list[str]:
    """A key answering an open choice (a wish, a reading) that a play opened."""
    return [game.pending[0].key] if game.pending else []
