"""``pagoda play <game>``: a match in the terminal against bots (see docs/terminal.md)."""

import argparse
import random
from collections.abc import Sequence

from pagoda.core import PagodaError


def parser(game: str, description: str, rules_help: str) -> argparse.ArgumentParser:
    """The options every game's ``play`` command shares."""
    p = argparse.ArgumentParser(prog=f"pagoda play {game}", description=description)
    p.add_argument(
        "--bots",
        default="heuristic",
        help="bot spec for every other seat, or one per seat "
        "separated by commas (default heuristic; e.g. random, search:budget=0.2)",
    )
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--seed", type=int, default=None, help="deal seed of the match (default: random)")
    p.add_argument("--rules", default=None, help=rules_help)
    p.add_argument(
        "--lang", default=None, choices=("en", "ko", "ja"), help="language (default: the locale's)"
    )
    p.add_argument("--record", default=None, help="write the match record to this file as it goes")
    p.add_argument("--delay", type=float, default=0.5, help="seconds between the bots' moves (default 0.5)")
    return p


def bot_specs(text: str, seats: int, human: int) -> list[str]:
    """One bot spec per seat (the human's is kept but unused).

    >>> bot_specs("random", 3, 0)
    ['random', 'random', 'random']
    >>> bot_specs("random,heuristic", 3, 1)
    ['random', 'random', 'heuristic']
    """
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if len(specs) == 1:
        return specs * seats
    others = [s for s in range(seats) if s != human]
    if len(specs) == seats - 1:
        out = ["human"] * seats
        for seat, spec in zip(others, specs, strict=True):
            out[seat] = spec
        out[human] = specs[0]
        return out
    if len(specs) == seats:
        return specs
    raise PagodaError(f"--bots names one bot, one per other seat ({seats - 1}) or one per seat ({seats})")


def seed_of(seed: int | None) -> int:
    """The given seed, or a fresh random one."""
    return seed if seed is not None else random.SystemRandom().randrange(10**9)


def launch(game: object, delay: float, argv: Sequence[str] = ()) -> int:
    """Run the app until the human quits."""
    from pagoda.tui.app import PlayApp
    from pagoda.tui.base import GameUI

    assert isinstance(game, GameUI)
    PlayApp(game, delay=delay).run()
    if game.record_path is not None:
        game.save()
        print(game.tr("record_saved", path=game.record_path))
    return 0
