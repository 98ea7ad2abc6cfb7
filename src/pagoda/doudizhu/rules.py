"""Rules options of Dou Di Zhu as data: one frozen :class:`Rules` value and named presets.

Presets (see ``docs/doudizhu.md`` for the reading of each option):

- ``classic`` (default): 3 players, 54 cards, 17 each and 3 kept; bidding 1/2/3, redeal when all
  pass; all 14 kinds; kickers as the seed document's footnotes read: the solo kickers may share a
  rank (plane + 99), the two pairs may share a rank (four + 9999); no kicker of the main part's own
  rank; never both jokers among the kickers.
- ``rlcard`` and ``openspiel``: the move sets of those engines (pairs as kickers of distinct ranks, at
  most three kicker cards of a rank; RLCard forbids solo kickers that would lengthen the plane,
  OpenSpiel has no four-with-two, starts no chain on a rank of which the hand holds four, and
  lets any bomb be played on the rocket).
- ``four_player``: two packs, 8 kept (33 and 25 cards), bombs of 4 to 8 ranked by size, the four jokers
  are the rocket, no solo kickers, no four-with-two, 4-card bombs do not double; option
  ``bomb_limits=true``: a peasant who passed or bid 1 may play one bomb in the round, one who bid 2
  two bombs, one who never spoke (a bid of 3 ended the auction first) and the landlord any number.
- ``laizi``: a wild rank, drawn after the landlord is known (``wild=3`` fixes it).

>>> from pagoda.doudizhu.rules import RULES, format_rules, parse_rules
>>> format_rules(parse_rules("classic rob=true"))
'classic rob=true'
>>> parse_rules("laizi wild=3").wild
'3'
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pagoda.core import rules as core_rules
from pagoda.core.errors import ParseError
from pagoda.doudizhu.cards import check_ascii

_WILDS = frozenset(["none", "drawn", *"3456789TJQKA2"])


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rules option of a Dou Di Zhu round; presets are in :data:`RULES`."""

    name: str = "classic"
    players: int = 3
    decks: int = 1
    kitty: int = 3
    rob: bool = False
    max_bid: int = 3
    chain_min: int = 5
    pair_chain_min: int = 3
    plane_min: int = 2
    trio_solo: bool = True
    plane_solo: bool = True
    four_two_solo: bool = True
    four_two_pair: bool = True
    solo_kickers_same_rank: bool = True
    pair_kickers_same_rank: bool = True
    kicker_max_same: int = 4
    kicker_own_rank: bool = False
    kicker_rocket: bool = False
    kickers_extend_plane: bool = True
    bomb_head_chains: bool = True
    bombs_beat_rocket: bool = False
    max_bomb: int = 4
    double_min_bomb: int = 4
    wild: str = "none"
    wild_bomb_top: bool = False
    bomb_limits: bool = False
    rounds: int = 10
    target: int = 0

    def __hash__(self) -> int:
        # the preset and the table: cheap for the caches keyed by rules, and equal rules agree
        return hash((self.name, self.players, self.decks, self.wild, self.rob))

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat before the landlord takes the kitty."""
        return (54 * self.decks - self.kitty) // self.players

    @property
    def rocket_order(self) -> int:
        """The strength of the rocket among bombs: above all, or (``bombs_beat_rocket``) below all."""
        return -1 if self.bombs_beat_rocket else 1 << 12

    @property
    def rocket_count(self) -> int:
        """How many of each joker make the rocket (one per pack)."""
        return self.decks


RULES: dict[str, Rules] = {
    "classic": Rules(),
    "rlcard": Rules(
        name="rlcard", pair_kickers_same_rank=False, kicker_max_same=3, kickers_extend_plane=False
    ),
    "openspiel": Rules(
        name="openspiel",
        four_two_solo=False,
        four_two_pair=False,
        pair_kickers_same_rank=False,
        kicker_max_same=3,
        bomb_head_chains=False,
        bombs_beat_rocket=True,
    ),
    "four_player": Rules(
        name="four_player",
        players=4,
        decks=2,
        kitty=8,
        trio_solo=False,
        plane_solo=False,
        four_two_solo=False,
        four_two_pair=False,
        max_bomb=8,
        double_min_bomb=5,
    ),
    "laizi": Rules(name="laizi", wild="drawn"),
}
"""The named presets; ``RULES["classic"]`` is the default."""
_PRESETS: Mapping[str, Any] = RULES


def format_rules(rules: Rules) -> str:
    """The text form of ``rules``: its preset and the options that differ from it."""
    named: Any = rules
    return core_rules.format_rules(named, _PRESETS)


def parse_rules(text: str) -> Rules:
    """Read ``"preset option=value ..."``; :class:`ParseError` names what is wrong.

    The text is ASCII: ``rounds=\u0663`` is refused, not read as 3.
    """
    check_ascii(text, "rules text")
    rules: Rules = core_rules.parse_rules(text, _PRESETS)
    if rules.wild not in _WILDS:
        raise ParseError(f"option wild takes none, drawn or a rank 3..2, not {rules.wild!r}")
    if rules.bomb_limits and rules.rob:
        raise ParseError("option bomb_limits reads each peasant's bid, and rob=true has no bids")
    return rules
