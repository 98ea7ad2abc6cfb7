"""What the server needs of each game, behind one interface.

A :class:`GameAdapter` starts a match from a table's options, applies action texts, says whom
the match waits for, asks a bot for a seat's move, and turns the match into JSON for one
viewer: a seat (its own hand and everything public) or a spectator (everything public, no
hand). Nothing here keeps state: a match is the fold of its actions over the seed, so the
server only ever stores the actions (the record).
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pagoda import doudizhu as ddz
from pagoda import tichu
from pagoda.bots import available, get_bot
from pagoda.core import Decision, IllegalAction, PagodaError, Record, format_record
from pagoda.doudizhu.cards import format_mask, parse_mask
from pagoda.doudizhu.combos import BOMB, ROCKET
from pagoda.tichu.actions import NO_BOMB, TAKE

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The options a table is created with (the seed stays on the server until the end)."""

    game: str
    preset: str
    target: int | None
    rounds: int | None
    turn_timer: float
    open: bool
    bot: str
    seed: int
    #: A rated match changes its players' ratings when it ends; a casual one does not.
    rated: bool = False

    def public(self) -> JSON:
        """The options anyone may see: everything but the seed."""
        return {
            "game": self.game,
            "preset": self.preset,
            "target": self.target,
            "rounds": self.rounds,
            "turn_timer": self.turn_timer,
            "open": self.open,
            "bot": self.bot,
            "rated": self.rated,
        }

    def to_json(self) -> JSON:
        """All options, the seed included (for storage only)."""
        return {**self.public(), "seed": self.seed}

    @classmethod
    def from_json(cls, data: JSON) -> "TableOptions":
        """Read :meth:`to_json` back."""
        return cls(
            game=str(data["game"]),
            preset=str(data["preset"]),
            target=None if data.get("target") is None else int(data["target"]),
            rounds=None if data.get("rounds") is None else int(data["rounds"]),
            turn_timer=float(data["turn_timer"]),
            open=bool(data["open"]),
            bot=str(data["bot"]),
            seed=int(data["seed"]),
            rated=bool(data.get("rated", False)),
        )


class GameAdapter:
    """The interface; :data:`GAMES` holds one per game."""

    name = ""

    #: The preset of a table created without one: the rulings' default reading of the game.
    default_preset = ""

    #: The bot level of a table created without one: the strongest that answers at a table's pace.
    default_bot = "heuristic"

    def presets(self) -> list[str]:
        """The rules presets a table may be created with: the default first, then the others by name."""
        return [self.default_preset, *sorted(p for p in self.known_presets() if p != self.default_preset)]

    def known_presets(self) -> list[str]:
        """Every rules preset of the game."""
        raise NotImplementedError

    def check(self, options: TableOptions) -> None:
        """Raise :class:`PagodaError` if the options do not make a valid match."""
        self.new(options)
        get_bot(self.name, bot_name(self.name, options.bot))

    def seats(self, options: TableOptions) -> int:
        """The number of seats."""
        raise NotImplementedError

    def new(self, options: TableOptions) -> Any:
        """The match at its start."""
        raise NotImplementedError

    def parse(self, match: Any, seat: int, text: str) -> Any:
        """The action ``text`` stands for when ``seat`` sends it now; ParseError says why not.

        Its ``str`` is the action's canonical text: what is stored and shown, never the text as sent.
        """
        raise NotImplementedError

    def apply(self, match: Any, seat: int, action: Any) -> Any:
        """The match after ``seat`` does ``action`` (or its text); :class:`IllegalAction` says why not."""
        raise NotImplementedError

    def is_private(self, text: str) -> bool:
        """Is the action (canonical text) for its own seat's eyes only (a Tichu exchange)?"""
        return False

    def hidden(self, text: str) -> str:
        """What another seat is shown of a private action."""
        return text

    def awaiting(self, match: Any) -> tuple[int, ...]:
        """The seats the match waits for (several in simultaneous phases); none once over."""
        raise NotImplementedError

    def is_over(self, match: Any, options: TableOptions) -> bool:
        """Has the match ended?"""
        raise NotImplementedError

    def rounds_done(self, match: Any) -> int:
        """The number of finished rounds."""
        raise NotImplementedError

    def round_summary(self, match: Any) -> JSON:
        """The summary of the last finished round."""
        raise NotImplementedError

    def match_summary(self, match: Any, options: TableOptions) -> JSON:
        """The final scores and the winner."""
        raise NotImplementedError

    def view(self, match: Any, seat: int | None) -> JSON:
        """The match as ``seat`` may see it; ``None``: as a spectator (no hidden card)."""
        raise NotImplementedError

    def legal(self, match: Any, seat: int) -> JSON:
        """What ``seat`` may send now: ``actions`` (texts) and hints for composed actions."""
        raise NotImplementedError

    def decisions(self, match: Any) -> tuple[Decision[Any], ...]:
        """The rules core's flow: the seats asked now and what each may do (none once over)."""
        raise NotImplementedError

    def window_pending(self, match: Any) -> bool:
        """Is a complete trick waiting for its bomb window to close (then the server takes it)?"""
        return False

    def is_silent(self, text: str) -> bool:
        """Is the action told to nobody (a Tichu no-bomb: being asked tells that a seat holds a bomb)?"""
        return False

    def server_only(self, text: str) -> bool:
        """Is the action the server's alone (a Tichu take, after the bomb window)?"""
        return False

    def server_take(self, match: Any) -> tuple[int, str] | None:
        """The action the server makes once a bomb window has closed (the take), if any."""
        return None

    def bot_inputs(
        self, match: Any, seat: int, decision: Decision[Any] | None = None
    ) -> tuple[Any, Sequence[Any]]:
        """What a bot is shown for ``seat``: its view and the actions it may take (those of
        ``decision`` when the seat is asked out of turn)."""
        raise NotImplementedError

    def bot_move(self, match: Any, seat: int, bot: Any, rng: random.Random) -> str:
        """The action text a bot chooses for awaited ``seat``."""
        view, legal = self.bot_inputs(match, seat)
        return str(bot.decide(view, legal, rng))

    def bot_answer(self, match: Any, decision: Decision[Any], bot: Any, rng: random.Random) -> str:
        """The action text a bot chooses for ``decision`` (a seat asked out of turn)."""
        view, legal = self.bot_inputs(match, decision.seat, decision)
        return str(bot.decide(view, legal, rng))

    def record(self, options: TableOptions, actions: Sequence[tuple[int, str]]) -> Record:
        """The match record."""
        raise NotImplementedError

    def replay(self, options: TableOptions, actions: Sequence[tuple[int, str]]) -> Any:
        """The match after ``actions``."""
        m = self.new(options)
        for seat, text in actions:
            m = self.apply(m, seat, text)
        return m


def bot_name(game: str, wanted: str) -> str:
    """The registered bot closest to ``wanted``: itself, else the strongest below it, else ``random``."""
    names = [s.name for s in available(game)]
    if wanted in names:
        return wanted
    return "heuristic" if "heuristic" in names else "random"


def _bits(flags: Sequence[bool]) -> list[bool]:
    return [bool(f) for f in flags]


class TichuGame(GameAdapter):
    """Tichu: four seats, simultaneous Grand Tichu and exchange, bombs out of turn."""

    name = "tichu"
    default_preset = "standard"
    # club beats the heuristic by 37 points a round on 2,000 held-out deals (docs/strength.md)
    default_bot = "club"

    def known_presets(self) -> list[str]:
        return list(tichu.RULES)

    def rules(self, options: TableOptions) -> tichu.Rules:
        if options.preset not in tichu.RULES:
            raise PagodaError(f"no tichu preset {options.preset!r}; presets: {', '.join(self.presets())}")
        text = options.preset
        if options.target is not None:
            text += f" target_score={options.target}"
        if options.rounds is not None:
            text += f" rounds={options.rounds}"
        return tichu.Rules.parse(text)

    def seats(self, options: TableOptions) -> int:
        return 4

    def new(self, options: TableOptions) -> tichu.Match:
        if options.rounds is not None and options.rounds < 1:
            raise PagodaError("rounds must be at least 1")
        return tichu.Match.new(options.seed, self.rules(options))

    def parse(self, match: Any, seat: int, text: str) -> tichu.Action:
        return tichu.parse_action(text)

    def apply(self, match: Any, seat: int, action: Any) -> tichu.Match:
        m: tichu.Match = match.apply(seat, action)
        return m

    def is_private(self, text: str) -> bool:
        try:
            return tichu.parse_action(text).kind == "exchange"
        except PagodaError:
            return True  # not an action: nobody else is shown it

    def hidden(self, text: str) -> str:
        return "exchange"

    def awaiting(self, match: Any) -> tuple[int, ...]:
        if match.is_over:
            return ()
        return tuple(match.round.awaiting)

    def is_over(self, match: Any, options: TableOptions) -> bool:
        return bool(match.is_over)

    def rounds_done(self, match: Any) -> int:
        return len(match.finished)

    def round_summary(self, match: Any) -> JSON:
        r: tichu.Round = match.finished[-1]
        return {
            "game": "tichu",
            "round": len(match.finished),
            "points": list(r.score()),
            "card_points": list(r.card_points()),
            "out": list(r.out),
            "grand_calls": list(r.grand_calls),
            "tichu_calls": list(r.tichu_calls),
            "scores": list(match.scores),
        }

    def match_summary(self, match: Any, options: TableOptions) -> JSON:
        a, b = match.scores
        return {
            "scores": [a, b],
            "winner": None if a == b else (0 if a > b else 1),
            "rounds": len(match.finished),
        }

    def view(self, match: Any, seat: int | None) -> JSON:
        # Every seat's view shares the public part; it is built once per match state (matches
        # are immutable, so the last one built is reused while the same match is asked about).
        cached = self._public
        if cached is not None and cached[0] is match:
            public = cached[1]
        else:
            public = self._public_view(match)
            self._public = (match, public)
        if seat is None:
            return dict(public)
        v = match.round.view(seat, events=False)
        return {
            **public,
            "hand": [str(c) for c in v.hand_cards],
            "given": None if v.given is None else [str(c) for c in v.given],
            "received": None if v.received is None else [str(c) for c in v.received],
        }

    _public: tuple[Any, JSON] | None = None

    def _public_view(self, match: Any) -> JSON:
        r: tichu.Round = match.round
        v = r.view(0, events=False)
        top = None
        if v.top is not None:
            top = {"seat": v.top_seat, "cards": tichu.format_cards(v.top.mask), "kind": v.top.kind}
        return {
            "game": "tichu",
            "round": match.number,
            "scores": list(match.scores),
            "phase": str(v.phase.value),
            "to_move": v.to_move,
            "awaiting": list(self.awaiting(match)),
            "hand_sizes": list(v.hand_sizes),
            "grand_decided": _bits(v.grand_decided),
            "grand_calls": _bits(v.grand_calls),
            "tichu_calls": _bits(v.tichu_calls),
            "top": top,
            "trick": [{"seat": s, "cards": tichu.format_cards(c.mask), "kind": c.kind} for s, c in v.trick],
            "passed": _bits(v.passed),
            "trick_complete": v.is_trick_complete,
            "wish": v.wish,
            "out": list(v.out),
            "won_points": [tichu.count_points(w) for w in v.won],
            "played": tichu.format_cards(v.played),
        }

    def legal(self, match: Any, seat: int) -> JSON:
        if match.is_over:
            return {"actions": [], "exchange": False}
        r: tichu.Round = match.round
        acts = r.legal_actions(seat)
        if r.phase is tichu.Phase.EXCHANGE:
            exchange = seat in r.awaiting
            texts = ["tichu"] if acts and str(acts[0]) == "tichu" else []
            return {"actions": texts, "exchange": exchange}
        # The server takes a trick and closes a bomb window itself; a player sends neither.
        texts = [str(a) for a in acts if str(a) not in (TAKE, NO_BOMB)]
        return {"actions": texts, "exchange": False}

    def decisions(self, match: Any) -> tuple[Decision[Any], ...]:
        if match.is_over:
            return ()
        return match.round.decisions()  # type: ignore[no-any-return]

    def window_pending(self, match: Any) -> bool:
        r: tichu.Round = match.round
        return not match.is_over and r.phase is tichu.Phase.PLAY and r.is_trick_complete

    def is_silent(self, text: str) -> bool:
        return text == NO_BOMB

    def server_only(self, text: str) -> bool:
        return text == TAKE

    def server_take(self, match: Any) -> tuple[int, str] | None:
        r: tichu.Round = match.round
        if match.is_over or r.phase is not tichu.Phase.PLAY:
            return None
        seat = r.to_move
        return (seat, TAKE) if any(str(a) == TAKE for a in r.legal_actions(seat)) else None

    def bot_inputs(
        self, match: Any, seat: int, decision: Decision[Any] | None = None
    ) -> tuple[Any, Sequence[Any]]:
        r: tichu.Round = match.round
        return r.view(seat), (r.legal_actions(seat) if decision is None else decision.actions)

    def record(self, options: TableOptions, actions: Sequence[tuple[int, str]]) -> Record:
        headers = (("Game", "tichu-match"), ("Rules", str(self.rules(options))), ("Seed", str(options.seed)))
        return Record(headers, tuple(actions))


class DouDiZhuGame(GameAdapter):
    """Dou Di Zhu: three (or four) seats, one to move at a time, every action public."""

    name = "doudizhu"
    default_preset = "classic"

    def known_presets(self) -> list[str]:
        return list(ddz.RULES)

    def rules(self, options: TableOptions) -> ddz.Rules:
        if options.preset not in ddz.RULES:
            raise PagodaError(f"no doudizhu preset {options.preset!r}; presets: {', '.join(self.presets())}")
        text = options.preset
        if options.target is not None:
            text += f" target={options.target}"
        if options.rounds is not None:
            text += f" rounds={options.rounds}"
        return ddz.parse_rules(text)

    def seats(self, options: TableOptions) -> int:
        return self.rules(options).players

    def new(self, options: TableOptions) -> ddz.Match:
        return ddz.Match.new(options.seed, self.rules(options))

    def parse(self, match: Any, seat: int, text: str) -> ddz.Action:
        if match.is_over:
            raise IllegalAction("the match is over", "match_over")
        r: ddz.Round = match.current
        return r.parse_action(text, seat)

    def apply(self, match: Any, seat: int, action: Any) -> ddz.Match:
        m: ddz.Match = match.apply(seat, action)
        return m

    def awaiting(self, match: Any) -> tuple[int, ...]:
        return () if match.is_over else (match.to_move,)

    def is_over(self, match: Any, options: TableOptions) -> bool:
        return bool(match.is_over)

    def rounds_done(self, match: Any) -> int:
        return len(match.rounds)

    def round_summary(self, match: Any) -> JSON:
        r: ddz.Round = match.rounds[-1]
        return {
            "game": "doudizhu",
            "round": len(match.rounds),
            "points": list(r.score()),
            "landlord": r.landlord if r.landlord >= 0 else None,
            "winner": r.winner if r.winner >= 0 else None,
            "spring": r.spring,
            "anti_spring": r.spring and r.winner != r.landlord,
            "bid": r.bid,
            **doublings(r),
            "multiplier": r.multiplier,
            "scores": list(match.totals),
        }

    def match_summary(self, match: Any, options: TableOptions) -> JSON:
        totals = list(match.totals)
        best = max(totals)
        winners = [s for s, t in enumerate(totals) if t == best]
        return {
            "scores": totals,
            "winner": winners[0] if len(winners) == 1 else None,
            "rounds": len(match.rounds),
        }

    def view(self, match: Any, seat: int | None) -> JSON:
        # Once the match is over its last round is what there is to see: the match already holds
        # the next deal, which is never played.
        over = match.is_over and match.rounds
        r: ddz.Round = match.rounds[-1] if over else match.current
        v = r.view(0 if seat is None else seat)
        out: JSON = {
            "game": "doudizhu",
            "round": len(match.rounds) if over else len(match.rounds) + 1,
            "scores": list(match.totals),
            "phase": str(v.phase.value),
            "to_move": v.to_move,
            "awaiting": list(self.awaiting(match)),
            "hand_sizes": list(v.counts),
            "landlord": v.landlord,
            "kitty": None if v.kitty is None else str(v.kitty),
            "bid": v.bid,
            "wild": v.wild,
            "top": None if v.top is None else {"seat": v.top_seat, "cards": str(v.top), "kind": v.top.kind},
            "multiplier": v.multiplier,
            # every card played this round, as the public history shows them (the card counter)
            "played": ddz_played(v.history),
        }
        if seat is not None:
            out["hand"] = str(v.hand)
        return out

    def legal(self, match: Any, seat: int) -> JSON:
        if match.is_over:
            return {"actions": []}
        return {"actions": [str(a) for a in match.current.legal_actions(seat)]}

    def decisions(self, match: Any) -> tuple[Decision[Any], ...]:
        return () if match.is_over else match.current.decisions()

    def bot_inputs(
        self, match: Any, seat: int, decision: Decision[Any] | None = None
    ) -> tuple[Any, Sequence[Any]]:
        # One seat is asked at a time: a decision's actions are the seat's legal actions.
        r: ddz.Round = match.current
        return r.view(seat), r.legal_actions(seat)

    def record(self, options: TableOptions, actions: Sequence[tuple[int, str]]) -> Record:
        headers = (
            ("Game", "doudizhu-match"),
            ("Rules", ddz.format_rules(self.rules(options))),
            ("Seed", str(options.seed)),
        )
        return Record(headers, tuple(actions))


GAMES: dict[str, GameAdapter] = {"tichu": TichuGame(), "doudizhu": DouDiZhuGame()}


def record_text(game: GameAdapter, options: TableOptions, actions: Sequence[tuple[int, str]]) -> str:
    """The record's text form."""
    return format_record(game.record(options, actions))


__all__ = ["GAMES", "JSON", "GameAdapter", "IllegalAction", "TableOptions", "bot_name", "record_text"]


def ddz_played(history: Sequence[tuple[int, str]]) -> str:
    """The cards of the plays in a Dou Di Zhu round's public history (a wild card as itself).

    >>> ddz_played([(0, "bid 3"), (0, "play 33"), (1, "pass"), (2, "play 4445 as 4444")])
    '334445'
    """
    played = 0
    for _, text in history:
        words = text.split()
        if words[0] == "play":
            played += parse_mask(words[1])
    return format_mask(played)


def doublings(r: ddz.Round) -> dict[str, int]:
    """The bombs and rockets of a round that doubled its score (``bombs``, ``rockets``), read from
    its public record: its plays folded again over its deal, each play's combination looked at."""
    state = ddz.replay(Record(r.record.headers, ()))
    bombs = rockets = 0
    for seat, text in r.history:
        action = state.parse_action(text, seat)
        combo = action.combo
        if combo is not None and combo.kind == ROCKET:
            rockets += 1
        elif combo is not None and combo.kind == BOMB and combo.size >= r.rules.double_min_bomb:
            bombs += 1
        state = state.apply(seat, action)
    if bombs + rockets != r.doubles:
        raise PagodaError(f"the record's {bombs} bombs and {rockets} rockets are not the round's {r.doubles}")
    return {"bombs": bombs, "rockets": rockets}
