"""Dou Di Zhu in the terminal client: the auction and the play against bots, any preset.

The bots are any registered for ``doudizhu`` (:func:`pagoda.bots.available`). A match record
is the match's rules and seed and every action in order (``[Game "doudizhu-match"]``);
:func:`replay_match` folds it back into the match.

>>> from pagoda.tui.i18n import Catalog
>>> ui = DoudizhuUI(Catalog("en"), human=0, bots=["random"] * 3, seed=2)
>>> ui.run_bots(); ui.mode(), [c.key for c in ui.choices()]
('auction', ['x', '3'])
"""

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pagoda import doudizhu as ddz
from pagoda.bots import available, get_bot
from pagoda.core import ParseError, Record, parse_record
from pagoda.doudizhu.actions import BID, CALL, PASS_KIND, PLAY, ROB
from pagoda.doudizhu.cards import ONE, RANK_CHARS, format_mask
from pagoda.doudizhu.combos import BOMB, ROCKET
from pagoda.tui.base import CHOICE_KEYS, Cell, Choice, GameUI, SeatPanel, TableModel
from pagoda.tui.i18n import Catalog

MATCH_GAME = ddz.MATCH_GAME


def replay_match(record: Record | str) -> tuple[ddz.Match, list[ddz.Match]]:
    """The match a match record describes, and the match after each of its actions (the first: none).

    >>> m = ddz.Match.new(4)
    >>> m = m.apply(m.to_move, "bid 3")
    >>> replay_match(str(m.record))[0] == m
    True
    """
    rec = parse_record(record) if isinstance(record, str) else record
    if rec.get("Game") != MATCH_GAME:
        raise ParseError(f"not a Dou Di Zhu match record: Game is {rec.get('Game')!r}")
    m = ddz.Match.new(int(rec.header("Seed")), ddz.parse_rules(rec.header("Rules")))
    states = [m]
    for seat, text in rec.actions:
        m = m.apply(seat, text)
        states.append(m)
    return m, states


def rank_label(rank: int) -> str:
    """The letter of a public rank 3..17."""
    return RANK_CHARS[rank - 3]


def card_style(rank: int, wild: int | None) -> str:
    """Jokers and the wild rank stand out."""
    if wild is not None and rank == wild:
        return "bold yellow"
    if rank == 17:
        return "bold red"
    if rank == 16:
        return "bold bright_white"
    return "red" if rank == 15 else "white"


def seat_name(tr: Catalog, seat: int, human: int, players: int) -> str:
    """``You``, ``Right``, ``Left`` (and ``Across`` with four) as seen from ``human``."""
    if human < 0:
        return tr("seat", seat=seat)
    rel = (seat - human) % players
    if rel == 0:
        return tr("you")
    if rel == 1:
        return tr("right")
    if rel == players - 1:
        return tr("left")
    return tr("across")


class DoudizhuUI(GameUI):
    """A Dou Di Zhu match with the human at ``human`` and ``bots[seat]`` (bot specs) elsewhere."""

    game = "doudizhu"

    def __init__(
        self,
        tr: Catalog,
        human: int = 0,
        bots: Sequence[str] = ("random",) * 4,
        seed: int = 0,
        rules: ddz.Rules | None = None,
        record_path: str | Path | None = None,
        hint_budget: float = 0.5,
        hint_iterations: int | None = None,
    ) -> None:
        super().__init__(tr, human, record_path)
        self.hint_budget = hint_budget
        self.hint_iterations = hint_iterations
        self.match = ddz.Match.new(seed, rules or ddz.RULES["classic"])
        self.players = self.match.rules.players
        if not 0 <= human < self.players:
            raise ValueError(f"seat {human} is not a seat of {self.players}")
        self.bot_specs = [bots[s % len(bots)] for s in range(self.players)]
        self.bots: list[Any] = [
            None if s == human else get_bot("doudizhu", self.bot_specs[s]) for s in range(self.players)
        ]
        self.actions: list[tuple[int, str]] = []
        self.summary: ddz.Round | None = None
        self.last: dict[int, str] = {}
        self._new_rngs()

    def _new_rngs(self) -> None:
        seed = self.match.current.seed
        self.rngs = [random.Random(f"doudizhu-bot/{seed}/{s}") for s in range(self.players)]

    @property
    def round(self) -> ddz.Round:
        """The round on the table (the finished one while its summary shows)."""
        return self.summary if self.summary is not None else self.match.current

    def name(self, seat: int) -> str:
        return seat_name(self.tr, seat, self.human, self.players)

    def mode(self) -> str:
        """summary, over, auction, turn or wait."""
        if self.summary is not None:
            return "summary"
        if self.match.is_over:
            return "over"
        r = self.match.current
        if r.to_move != self.human:
            return "wait"
        return "auction" if r.phase is ddz.Phase.AUCTION else "turn"

    def finished(self) -> bool:
        return self.match.is_over and self.summary is None

    def needs_bot(self) -> bool:
        return self.mode() == "wait"

    def _apply(self, seat: int, action: Any) -> None:
        before = len(self.match.rounds)
        self.match = self.match.apply(seat, action)
        self.actions.append((seat, str(action)))
        self.last[seat] = str(action)
        self.log.append(f"{self.name(seat)}: {action}")
        del self.log[:-50]
        if len(self.match.rounds) > before:
            self.summary = self.match.rounds[-1]
            self._new_rngs()

    def bot_step(self) -> None:
        r = self.match.current
        seat = r.to_move
        action = self.bots[seat].decide(r.view(seat), r.legal_actions(seat), self.rngs[seat])
        self._apply(seat, action)

    def do(self, action: Any) -> None:
        if action == "next-round":
            self.summary = None
            self.last = {}
        else:
            self._apply(self.human, action)
        self.after_action()

    # ------------------------------------------------------------ the hand

    def ranks(self) -> list[int]:
        return list(self.round.hand(self.human))

    def cells(self) -> list[Cell]:
        playable = self.playable_mask()
        wild = (
            self.round.wild + 3
            if self.round.wild >= 0 and self.round.phase is not ddz.Phase.AUCTION
            else None
        )
        return [
            Cell(rank_label(r), card_style(r, wild), bool((playable >> (5 * (r - 3))) & 31))
            for r in self.ranks()
        ]

    def mask_of(self, indices: set[int]) -> int:
        ranks = self.ranks()
        return sum(ONE[ranks[i] - 3] for i in indices if 0 <= i < len(ranks))

    def indices_of(self, mask: int) -> set[int]:
        out: set[int] = set()
        for i, rank in enumerate(self.ranks()):
            shift = 5 * (rank - 3)
            if (mask >> shift) & 31:
                out.add(i)
                mask -= 1 << shift
        return out

    def legal_plays(self) -> dict[int, list[Any]]:
        if self.mode() != "turn":
            return {}
        out: dict[int, list[Any]] = {}
        for a in self.match.current.legal_actions(self.human):
            if a.kind == PLAY and a.combo is not None:
                out.setdefault(a.combo.mask, []).append(a)
        return out

    def is_bomb(self, action: Any) -> bool:
        return action.combo is not None and action.combo.kind in (BOMB, ROCKET)

    def variants(self, actions: Sequence[Any]) -> tuple[str, list[Choice]]:
        kinds = {a.combo.kind for a in actions}
        choices = []
        for i, a in enumerate(actions[: len(CHOICE_KEYS)]):
            label = format_mask(a.combo.reading)
            if len(kinds) > 1:
                label += f" {a.combo.kind}"
            choices.append(Choice(CHOICE_KEYS[i], label, a))
        return self.tr("prompt_choose"), choices

    def choices(self) -> list[Choice]:
        if self.pending:
            return self.pending
        mode = self.mode()
        if mode == "summary":
            return [Choice("enter", self.tr("prompt_summary"), "next-round")]
        if mode != "auction":
            return []
        out = []
        for a in self.match.current.legal_actions(self.human):
            if a.kind == PASS_KIND:
                out.append(Choice("x", self.tr("pass"), a))
            elif a.kind == BID:
                out.append(Choice(str(a.bid), str(a), a))
            elif a.kind in (CALL, ROB):
                out.append(Choice(a.kind[0], a.kind, a))
        return out

    def pass_action(self) -> Any | None:
        if self.mode() != "turn":
            return None
        return next((a for a in self.match.current.legal_actions(self.human) if a.kind == PASS_KIND), None)

    def help_line(self) -> str:
        return self.tr("help_ddz")

    # ------------------------------------------------------------ drawing

    def table(self) -> TableModel:
        r = self.round
        view = r.view(self.human)
        rules = self.match.rules
        number = len(self.match.rounds) + (self.summary is None)
        totals = self.match.totals
        status = " · ".join(
            [
                f"Dou Di Zhu {ddz.format_rules(rules)}",
                self.tr("round_n", n=f"{number}/{rules.rounds}" if rules.target <= 0 else number),
                self.tr("scores_seats", points=" ".join(f"{p:+d}" for p in totals)),
            ]
        )
        seats = []
        for k in range(self.players):
            seat = (self.human + k) % self.players
            title = self.name(seat)
            if seat != self.human:
                title += f" ({self.bot_specs[seat]})"
            lines = [self.tr("cards_left", n=view.counts[seat])]
            if view.landlord is not None:
                lines.append(self.tr("landlord" if seat == view.landlord else "peasant"))
            if seat in self.last:
                lines.append(self.last[seat])
            to_move = self.summary is None and not self.match.is_over and seat == r.to_move
            seats.append(SeatPanel(title, lines, to_move, seat == self.human))
        center = self.summary_lines() if self.summary is not None else self._center(view)
        return TableModel(status, seats, center, self.log[-3:])

    def _center(self, view: ddz.View) -> list[str]:
        lines = []
        if view.phase is ddz.Phase.AUCTION:
            lines.append(self.tr("prompt_auction") if view.to_move == self.human else "")
        else:
            lines.append(self.tr("bid_now", bid=view.bid, mult=view.multiplier))
        if view.kitty is not None:
            lines.append(self.tr("kitty", cards=str(view.kitty)))
        if view.wild is not None:
            lines.append(self.tr("wild", rank=rank_label(view.wild)))
        if view.phase is ddz.Phase.PLAY:
            if view.top is None or view.top_seat == view.to_move:
                lines.append(self.tr("table_empty"))
            else:
                assert view.top_seat is not None
                lines.append(f"{self.tr('trick')}: {self.name(view.top_seat)} {view.top} ({view.top.kind})")
        return lines

    def summary_lines(self) -> list[str]:
        """The finished round: landlord, bid and multiplier, who went out, the points."""
        r = self.summary
        assert r is not None
        tr = self.tr
        lines = [tr("summary_title", n=len(self.match.rounds))]
        lines.append(tr("summary_landlord", name=self.name(r.landlord), bid=r.bid, mult=r.multiplier))
        lines.append(tr("summary_winner", name=self.name(r.winner)))
        for seat, points in enumerate(r.score()):
            lines.append(tr("summary_seat_points", name=self.name(seat), points=points))
        if self.match.is_over:
            totals = self.match.totals
            best = max(totals)
            lines.append(tr("match_won" if totals[self.human] == best else "match_lost"))
        return lines

    def prompt(self) -> str:
        mode = self.mode()
        tr = self.tr
        choices = self.choices()
        if self.pending or mode == "auction":
            title = self.choice_title() if self.pending else tr("prompt_auction")
            text = title + "  " + "  ".join(f"[{c.key}] {c.label}" for c in choices)
        elif mode == "wait":
            text = tr("waiting", name=self.name(self.match.current.to_move))
        elif mode == "summary":
            text = tr("prompt_summary") if not self.match.is_over else tr("prompt_over")
        elif mode == "over":
            text = tr("prompt_over")
        else:
            r = self.match.current
            lead = r.top is None or r.top_seat == self.human
            text = tr("prompt_lead" if lead else "prompt_turn")
        second = self.message or self.selection_status()
        return text + ("\n" + second if second else "")

    def play_text(self, action: Any) -> str:
        return f"{action} ({action.combo.kind})"

    def record_text(self) -> str:
        return str(self.match.record)

    def hint(self) -> str:
        """The advice of ``pagoda advise doudizhu`` where it is installed, else a bot's choice."""
        mode = self.mode()
        if mode not in ("auction", "turn"):
            return self.tr("hint_none")
        r = self.match.current
        try:
            from pagoda.advise.doudizhu import advise
        except ImportError:  # the advice needs the search bot
            pass
        else:
            seat, ranked = advise(r, self.hint_budget, self.hint_iterations, seed=len(self.actions))
            if seat == self.human and ranked:
                best = ranked[0]
                if best.samples:
                    return self.tr("hint_value", action=str(best.action), value=best.mean)
                return self.tr("hint", action=str(best.action))
        names = [s.name for s in available("doudizhu")]
        name = "heuristic" if "heuristic" in names else names[-1]
        bot = get_bot("doudizhu", name)
        action = bot.decide(r.view(self.human), r.legal_actions(self.human), random.Random(len(self.actions)))
        return self.tr("hint", action=f"{action} ({name})")
