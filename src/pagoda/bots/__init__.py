"""Bots for the games of pagoda: one interface, one registry, any game.

A bot is any object with ``decide(view, legal_actions, rng) -> action``: it is shown what its
seat may know (the game's ``View``, never another seat's hidden cards), the actions it may take
now, and a :class:`random.Random` it must use for every random choice (so a seeded game
replays exactly). It returns one of ``legal_actions``. Bots are registered per game under a
name with a strength ``level``, so the server, the terminal client and the arena seat any of
them by name. A spec string may carry options: ``"search:budget=0.2"``.

Your own bot plugs in with a few lines:

>>> from pagoda import tichu
>>> from pagoda.bots import get_bot, register
>>> @register("tichu", "first-listed", level=0, replace=True)
... class FirstListed:
...     '''Always takes the first legal action.'''
...     def decide(self, view, legal_actions, rng):
...         return legal_actions[0]
>>> from pagoda.bots.tichu import play_round
>>> bots = [get_bot("tichu", "first-listed"), get_bot("tichu", "heuristic")] * 2
>>> r = play_round(tichu.Round.new(seed=3), bots, seed=3)
>>> r.is_over, sum(r.score()) % 5
(True, 0)
>>> [spec.name for spec in available("tichu") if spec.name in ("first-listed", "random", "heuristic")]
['first-listed', 'random', 'heuristic']
"""

import importlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pagoda.core import PagodaError

V_contra = TypeVar("V_contra", contravariant=True)
A = TypeVar("A")


class Bot(Protocol[V_contra, A]):
    """The interface every bot implements."""

    def decide(self, view: V_contra, legal_actions: Sequence[A], rng: random.Random) -> A:
        """One of ``legal_actions``, chosen from ``view`` (and ``rng`` for any randomness)."""
        ...


@dataclass(frozen=True, slots=True)
class Scored(Generic[A]):
    """An action a search weighed: its mean value, standard error and number of samples."""

    action: A
    mean: float
    stderr: float
    samples: int


class RandomBot:
    """Uniform over the legal actions, for any game.

    >>> RandomBot().decide(None, ["a", "b", "c"], random.Random(1))
    'a'
    """

    def decide(self, view: object, legal_actions: Sequence[A], rng: random.Random) -> A:
        """A uniformly random legal action."""
        return legal_actions[rng.randrange(len(legal_actions))]


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A registered bot: its game, name, strength level (higher is stronger) and factory."""

    game: str
    name: str
    level: int
    factory: Callable[..., Any]
    description: str


_REGISTRY: dict[tuple[str, str], BotSpec] = {}
_LOADED: set[str] = set()

F = TypeVar("F", bound=Callable[..., Any])


def register(
    game: str, name: str, level: int, description: str = "", replace: bool = False
) -> Callable[[F], F]:
    """Register a bot factory (a class or a function taking keyword options) for ``game``."""

    def add(factory: F) -> F:
        key = (game, name)
        if key in _REGISTRY and not replace:
            raise PagodaError(f"a {game} bot named {name!r} is already registered")
        doc = description or (factory.__doc__ or "").strip().splitlines()[0:1]
        text = doc if isinstance(doc, str) else (doc[0] if doc else "")
        _REGISTRY[key] = BotSpec(game, name, level, factory, text)
        return factory

    return add


def _load(game: str) -> None:
    if game not in _LOADED:
        _LOADED.add(game)
        try:
            importlib.import_module(f"pagoda.bots.{game}")
        except ModuleNotFoundError as e:
            if e.name != f"pagoda.bots.{game}":
                raise


def available(game: str) -> list[BotSpec]:
    """The bots registered for ``game``, weakest first."""
    _load(game)
    return sorted((s for s in _REGISTRY.values() if s.game == game), key=lambda s: (s.level, s.name))


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value:key=value"`` into the name and its options.

    >>> parse_spec("search:budget=0.2:seed=3")
    ('search', {'budget': '0.2', 'seed': '3'})
    """
    name, *parts = spec.strip().split(":")
    options: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise PagodaError(f"bot option {part!r} in {spec!r} is not key=value")
        options[key.strip()] = value.strip()
    return name, options


def get_bot(game: str, spec: str, **options: Any) -> Any:
    """A new bot of ``game`` by name (``"heuristic"``) or spec string (``"search:budget=0.1"``).

    Options in the spec string are passed to the factory as text; keyword ``options`` as given.
    """
    _load(game)
    name, text_options = parse_spec(spec)
    found = _REGISTRY.get((game, name))
    if found is None:
        names = ", ".join(s.name for s in available(game)) or "none"
        raise PagodaError(f"no {game} bot named {name!r}; registered: {names}")
    return found.factory(**{**text_options, **options})


register("tichu", "random", level=0, description="uniform over the legal actions")(RandomBot)
register("doudizhu", "random", level=0, description="uniform over the legal actions")(RandomBot)


def number_option(
    bot: str, name: str, value: float | str, least: float, kind: type[float] | type[int] = float
) -> Any:
    """A bot's numeric option read from its text (``kind`` of it, ``least`` or more), else a
    ValueError that names the bot, the option and the value.

    >>> number_option("learned", "width", "3", 1, int)
    3
    >>> number_option("learned", "margin", "wide", 0.0)
    Traceback (most recent call last):
    ...
    ValueError: learned bot option margin must be a number, 0 or more, not wide
    """
    try:
        number = kind(value)
    except ValueError:
        number = math.nan
    if not number >= least:
        raise ValueError(f"{bot} bot option {name} must be a number, {least:g} or more, not {value}")
    return number


__all__ = [
    "Bot",
    "BotSpec",
    "RandomBot",
    "Scored",
    "available",
    "get_bot",
    "number_option",
    "parse_spec",
    "register",
]
