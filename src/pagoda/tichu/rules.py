"""Tichu rules options as data, and the named presets.

``standard`` is how pagoda reads the seeds (see the project's rulings); ``bsw`` follows the
BrettspielWelt table: the last seat's tricks go to the opposing team with its hand, and the
player names the rank the Phoenix stands for. Every other option real players use is a field.
"""

from dataclasses import dataclass

from pagoda.core import ParseError, format_rules, parse_rules


@dataclass(frozen=True, slots=True)
class Rules:
    """One reading of the Tichu rules; compare presets in :data:`RULES`."""

    name: str = "standard"
    #: The score a team must reach to win a match.
    target_score: int = 1000
    #: Play at most this many rounds (0: no limit); the higher score then wins, a tie goes on.
    rounds: int = 0
    #: Whose are the tricks the last seat won: ``first_out`` (the first seat out) or ``opponents``.
    last_tricks_to: str = "first_out"
    #: The player names the Phoenix's rank where a play reads several ways (``play ... as K``).
    phoenix_choice: bool = False
    #: At most one Tichu or Grand Tichu call per team and round.
    one_call_per_team: bool = False
    #: The Mah Jong must be played with a wish.
    wish_required: bool = False
    #: Small Tichu may be called only once the exchange is over.
    small_tichu_after_exchange_only: bool = False

    def __post_init__(self) -> None:
        if self.last_tricks_to not in ("first_out", "opponents"):
            raise ParseError(f"last_tricks_to must be first_out or opponents, not {self.last_tricks_to!r}")
        if self.target_score <= 0:
            raise ParseError(f"target_score must be positive, not {self.target_score}")
        if self.rounds < 0:
            raise ParseError(f"rounds must be 0 (no limit) or more, not {self.rounds}")

    def __str__(self) -> str:
        return format_rules(self, RULES)

    @staticmethod
    def parse(text: str) -> "Rules":
        """Read ``"preset option=value ..."``.

        >>> Rules.parse("standard wish_required=true").wish_required
        True
        >>> str(Rules.parse("bsw"))
        'bsw'
        """
        return parse_rules(text, RULES)


#: The named presets.
RULES: dict[str, Rules] = {
    "standard": Rules(),
    "bsw": Rules(name="bsw", last_tricks_to="opponents", phoenix_choice=True),
}
