"""Tichu in the terminal client: a match against bots, with the human's prompts.

Who is asked what is the round's own flow (:meth:`~pagoda.tichu.Round.decisions`), as for the
bots' driver: in the Grand Tichu and the exchange the seats the round awaits decide in seat
order; in play each seat of the bomb window first (the human included: it answers with a bomb
or ``x``, ``no-bomb``), then the seat to move. A trick the human must take is taken at once
unless the human could bomb instead.

>>> from pagoda.tui.i18n import Catalog
>>> ui = TichuUI(Catalog("en"), human=0, bots=["random"] * 4, seed=1)
>>> ui.run_bots(); ui.mode()
'grand'
>>> ui.command("n"); ui.run_bots(); ui.mode()
'exchange'
"""

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pagoda.bots import get_bot
from pagoda.bots.tichu.driver import NO_BOMB, seat_rngs
from pagoda.tichu import Action, Match, Round, Rules, format_cards, parse_action
from pagoda.tichu.actions import EXCHANGE, GIVE_DRAGON, GRAND, NO_GRAND, PASS, PLAY, TAKE, TICHU
from pagoda.tichu.cards import format_rank, mask_cards
from pagoda.tui.base import Cell, Choice, GameUI, SeatPanel, TableModel
from pagoda.tui.i18n import Catalog

SUIT_STYLES = {"g": "green", "k": "white", "b": "cyan", "r": "red"}
SPECIAL_STYLES = {"Mj": "bold yellow", "Dg": "magenta", "Ph": "bold bright_red", "Dr": "bold bright_yellow"}


def card_style(text: str) -> str:
    """The colour of a card by its suit (specials have their own)."""
    return SPECIAL_STYLES.get(text) or SUIT_STYLES.get(text[-1], "white")


def seat_name(tr: Catalog, seat: int, human: int, bots: Sequence[str] | None = None) -> str:
    """``You``, ``Partner``, ``Left`` or ``Right`` as seen from ``human`` (seat numbers in watch)."""
    if human < 0:
        return tr("seat", seat=seat)
    rel = (seat - human) % 4
    return [tr("you"), tr("right"), tr("partner"), tr("left")][rel]


class TichuUI(GameUI):
    """A Tichu match with the human at ``human`` and ``bots[seat]`` (a bot spec) elsewhere."""

    game = "tichu"

    def __init__(
        self,
        tr: Catalog,
        human: int = 0,
        bots: Sequence[str] = ("heuristic",) * 4,
        seed: int = 0,
        rules: Rules | None = None,
        record_path: str | Path | None = None,
        hint_budget: float = 0.5,
        hint_iterations: int | None = None,
    ) -> None:
        super().__init__(tr, human, record_path)
        self.match = Match.new(seed, rules)
        self.bot_specs = list(bots)
        self.bots: list[Any] = [None if s == human else get_bot("tichu", bots[s]) for s in range(4)]
        self.rngs = seat_rngs(self.match.round.seed or 0)
        self.summary: Round | None = None
        self.slots: list[int | None] = [None, None, None]  # hand positions for left, partner, right
        self.hint_budget = hint_budget
        self.hint_iterations = hint_iterations
        self.last: dict[int, str] = {}

    # ------------------------------------------------------------ state

    @property
    def round(self) -> Round:
        """The round on the table (the finished one while its summary shows)."""
        return self.summary if self.summary is not None else self.match.round

    def name(self, seat: int) -> str:
        return seat_name(self.tr, seat, self.human)

    def decider(self) -> int:
        """The seat whose decision the client waits for (-1: none, a summary or the end)."""
        if self.summary is not None or self.match.is_over:
            return -1
        decisions = self.match.round.decisions()
        return decisions[0].seat if decisions else -1

    def mode(self) -> str:
        """What the human is doing: summary, over, bomb_offer, grand, exchange, turn or wait."""
        if self.summary is not None:
            return "summary"
        if self.match.is_over:
            return "over"
        if self.decider() != self.human:
            return "wait"
        if self.match.round.decisions()[0].kind == "bomb":
            return "bomb_offer"
        phase = self.match.round.phase.value
        if phase == "grand_tichu":
            return "grand"
        if phase == "exchange":
            return "exchange"
        return "turn"

    def finished(self) -> bool:
        return self.match.is_over and self.summary is None

    def needs_bot(self) -> bool:
        d = self.decider()
        return d >= 0 and d != self.human

    def legal(self) -> Sequence[Action]:
        return self.match.round.legal_actions(self.human)

    # ------------------------------------------------------------ applying actions

    def _apply(self, seat: int, action: Action) -> None:
        before = len(self.match.finished)
        self.match = self.match.apply(seat, action)
        shown = "exchange" if action.kind == EXCHANGE and seat != self.human else str(action)
        self.last[seat] = shown
        self.log.append(f"{self.name(seat)}: {shown}")
        del self.log[:-50]
        if len(self.match.finished) > before:
            self.summary = self.match.finished[-1]
            self.rngs = seat_rngs(self.match.round.seed or 0)
        self._settle()

    def _settle(self) -> None:
        """Take a trick for the human when nothing else is open to it."""
        if self.mode() != "turn":
            return
        legal = [a for a in self.legal() if a.kind != TICHU]
        if len(legal) == 1 and legal[0].kind == TAKE:
            self._apply(self.human, legal[0])

    def bot_step(self) -> None:
        r = self.match.round
        decision = r.decisions()[0]
        seat = decision.seat
        action: Action = self.bots[seat].decide(r.view(seat), decision.actions, self.rngs[seat])
        self._apply(seat, action)

    def do(self, action: Any) -> None:
        if action == "next-round":
            self.summary = None
            self._settle()
        else:
            self._apply(self.human, action)
            if action.kind == TICHU:
                self.message = self.tr("called_tichu")
        if action != "next-round" and getattr(action, "kind", "") == EXCHANGE:
            self.slots = [None, None, None]
        self.after_action()

    # ------------------------------------------------------------ the hand

    def hand_cards(self) -> tuple[Any, ...]:
        return mask_cards(self.round.hand_mask(self.human))

    def cells(self) -> list[Cell]:
        playable = self.playable_mask()
        return [Cell(str(c), card_style(str(c)), bool(playable >> int(c) & 1)) for c in self.hand_cards()]

    def mask_of(self, indices: set[int]) -> int:
        cards = self.hand_cards()
        mask = 0
        for i in indices:
            if 0 <= i < len(cards):
                mask |= 1 << int(cards[i])
        return mask

    def indices_of(self, mask: int) -> set[int]:
        return {i for i, c in enumerate(self.hand_cards()) if mask >> int(c) & 1}

    def legal_plays(self) -> dict[int, list[Any]]:
        mode = self.mode()
        if mode == "turn":
            actions: Sequence[Action] = self.legal()
        elif mode == "bomb_offer":
            actions = self.match.round.decisions()[0].actions
        else:
            return {}
        out: dict[int, list[Any]] = {}
        for a in actions:
            if a.kind == PLAY:
                out.setdefault(a.mask, []).append(a)
        return out

    def is_bomb(self, action: Any) -> bool:
        combo = getattr(action, "combo", None)
        return bool(combo is not None and combo.is_bomb)

    def variants(self, actions: Sequence[Any]) -> tuple[str, list[Choice]]:
        wishes = {a.wish for a in actions}
        readings = {a.reading for a in actions}
        if len(readings) == 1 and len(wishes) == len(actions):
            choices = [
                Choice(format_rank(a.wish).lower() if a.wish else "0", format_rank(a.wish), a)
                if a.wish
                else Choice("0", self.tr("no_wish"), a)
                for a in actions
            ]
            return self.tr("prompt_wish"), choices
        if len(wishes) == 1 and len(readings) == len(actions):
            return self.tr("prompt_reading"), [
                Choice(format_rank(a.reading).lower(), format_rank(a.reading), a) for a in actions
            ]
        return super().variants(actions)

    def choices(self) -> list[Choice]:
        if self.pending:
            return self.pending
        mode = self.mode()
        if mode == "grand":
            legal = self.legal()
            out = [Choice("n", NO_GRAND, next(a for a in legal if a.kind == NO_GRAND))]
            out += [Choice("g", GRAND, a) for a in legal if a.kind == GRAND]
            return out
        if mode == "turn":
            gifts = [a for a in self.legal() if a.kind == GIVE_DRAGON]
            return [
                Choice(str(k + 1), self.tr("give_to", name=self.name(a.target)), a)
                for k, a in enumerate(sorted(gifts, key=lambda a: (a.target - self.human) % 4, reverse=True))
            ]
        if mode == "bomb_offer":
            return [Choice("x", self.tr("no_bomb"), NO_BOMB)]
        if mode == "summary":
            return [Choice("enter", self.tr("prompt_summary"), "next-round")]
        return []

    def pass_action(self) -> Any | None:
        return next((a for a in self.legal() if a.kind == PASS), None) if self.mode() == "turn" else None

    def enter_action(self) -> Any | None:
        if self.mode() == "turn":
            return next((a for a in self.legal() if a.kind == TAKE), None)
        return None

    def special(self, command: str) -> bool:
        mode = self.mode()
        if command == "t":
            if mode in ("turn", "exchange", "bomb_offer", "wait") and any(
                a.kind == TICHU for a in self.match.round.legal_actions(self.human)
            ):
                self.do(Action(TICHU))
            else:
                self.message = self.tr("no_tichu")
            return True
        if mode != "exchange" or not any(a.kind == EXCHANGE for a in self.legal()[:2]):
            return False
        if command in ("1", "2", "3"):
            slot = int(command) - 1
            self.slots = [None if s == self.cursor else s for s in self.slots]
            self.slots[slot] = self.cursor
            return True
        if command == "enter":
            if any(s is None for s in self.slots):
                self.message = self.tr("exchange_incomplete")
                return True
            cards = self.hand_cards()
            left, partner, right = (cards[s] for s in self.slots if s is not None)
            self.do(parse_action(f"exchange {right} {partner} {left}"))
            return True
        return False

    # ------------------------------------------------------------ drawing

    def table(self) -> TableModel:
        r = self.round
        view = r.view(self.human)
        a, b = self.match.scores
        us, them = (a, b) if self.human % 2 == 0 else (b, a)
        status = " · ".join(
            [
                f"Tichu {r.rules}",
                self.tr("round_n", n=self.match.number - (self.summary is not None)),
                self.tr("scores_team", us=us, them=them),
            ]
        )
        seats = []
        for k in range(4):
            seat = (self.human + k) & 3
            title = self.name(seat)
            if seat != self.human:
                title += f" ({self.bot_specs[seat]})"
            lines = [self.tr("cards_left", n=view.hand_sizes[seat])]
            tags = []
            if view.grand_calls[seat]:
                tags.append(self.tr("grand_call"))
            if view.tichu_calls[seat]:
                tags.append(self.tr("tichu_call"))
            if seat in view.out:
                tags.append(self.tr("out_nth", n=view.out.index(seat) + 1))
            if tags:
                lines.append(" ".join(tags))
            if seat in self.last:
                lines.append(self.last[seat])
            seats.append(SeatPanel(title, lines, seat == self.decider(), seat == self.human))
        if self.summary is not None:
            center = self.summary_lines()
        else:
            center = self._center(view)
        return TableModel(status, seats, center, self.log[-3:])

    def _center(self, view: Any) -> list[str]:
        lines = []
        if view.phase.value == "exchange" and self.mode() == "exchange":
            cards = self.hand_cards()
            names = [str(cards[s]) if s is not None else self.tr("slot_empty") for s in self.slots]
            lines.append(self.tr("slots", left=names[0], partner=names[1], right=names[2]))
        if not view.trick:
            if view.phase.value == "play":
                lines.append(self.tr("table_empty"))
        else:
            lines.append(self.tr("trick") + ":")
            for seat, combo in view.trick[-4:]:
                lines.append(f"  {self.name(seat)}: {format_cards(combo.mask)}")
        if view.wish:
            lines.append(self.tr("wish_open", rank=format_rank(view.wish)))
        if view.received and view.phase.value == "play" and view.hand_sizes[self.human] == 14:
            given = [
                f"{self.name((self.human + k) & 3)} {c}"
                for k, c in zip((3, 2, 1), view.received, strict=True)
            ]
            lines.append("← " + ", ".join(given))
        return lines

    def summary_lines(self) -> list[str]:
        """The finished round: who went out, card points, calls, the round's and the match's score."""
        r = self.summary
        assert r is not None
        tr = self.tr
        n = len(self.match.finished)
        lines = [tr("summary_title", n=n)]
        lines.append(tr("summary_out", order=", ".join(self.name(s) for s in r.out)))
        a, b = r.score()
        flip = self.human % 2 == 1
        if (r.out[0] - r.out[1]) % 2 == 0:
            lines.append(tr("summary_onetwo", name=self.name(r.out[0])))
        else:
            pa, pb = r.card_points()
            lines.append(tr("summary_points", us=pb if flip else pa, them=pa if flip else pb))
        for seat in (*r.grand_calls, *r.tichu_calls):
            call = tr("grand_call") if seat in r.grand_calls else tr("tichu_call")
            result = tr("call_won" if r.out[0] == seat else "call_lost")
            lines.append(tr("summary_call", name=self.name(seat), call=call, result=result))
        lines.append(tr("summary_round", us=b if flip else a, them=a if flip else b))
        ta, tb = self.match.scores
        lines.append(tr("summary_total", us=tb if flip else ta, them=ta if flip else tb))
        if self.match.is_over:
            won = self.match.winner == self.human % 2
            lines.append(tr("match_won" if won else "match_lost"))
        return lines

    def prompt(self) -> str:
        mode = self.mode()
        tr = self.tr
        if self.pending:
            text = self.choice_title() + "  " + "  ".join(f"[{c.key}] {c.label}" for c in self.pending)
        elif mode == "wait":
            text = tr("waiting", name=self.name(self.decider()))
        elif mode == "summary":
            text = tr("prompt_summary") if not self.match.is_over else tr("prompt_over")
        elif mode == "over":
            text = tr("prompt_over")
        elif mode == "grand":
            text = tr("prompt_grand")
        elif mode == "exchange":
            text = tr("prompt_exchange")
        elif mode == "bomb_offer":
            text = tr("prompt_bomb_offer")
        else:
            choices = self.choices()
            r = self.match.round
            if choices:
                labels = "  ".join(f"[{c.key}] {c.label}" for c in choices)
                text = f"{tr('prompt_dragon')}  {labels}"
            elif r.is_trick_complete:
                text = tr("prompt_take")
            elif r.top is None:
                text = tr("prompt_lead")
            else:
                text = tr("prompt_turn")
        second = self.message or self.selection_status()
        return text + ("\n" + second if second else "")

    def record_text(self) -> str:
        return str(self.match.record)

    def hint(self) -> str:
        from pagoda.advise.tichu import advise

        mode = self.mode()
        if mode not in ("grand", "exchange", "turn"):
            return self.tr("hint_none")
        r = self.match.round
        seat, ranked = advise(r, budget=self.hint_budget, iterations=self.hint_iterations, seed=len(self.log))
        if seat != self.human or not ranked:
            return self.tr("hint_none")
        best = ranked[0]
        text = str(best.action)
        if best.samples:
            return self.tr("hint_value", action=text, value=best.mean)
        return self.tr("hint", action=text)
