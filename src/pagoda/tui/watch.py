"""``pagoda watch <record>``: step through a stored game, every hand face up.

A record is folded into the state after each of its actions once, up front; stepping forward
and back only moves an index. Round records and match records of both games are read: the
``[Game ...]`` header says which (``tichu``, ``tichu-match``, ``doudizhu``, ``doudizhu-match``).

>>> from pagoda import tichu
>>> r = tichu.Round.new(seed=1).apply(0, "no-grand")
>>> w = Replay(Catalog("en"), str(r.record))
>>> w.total, w.table(1).log
(1, ['Seat 0: no-grand'])
"""

from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

from pagoda import doudizhu as ddz
from pagoda import tichu
from pagoda.core import ParseError, Record, parse_record
from pagoda.tichu.cards import format_rank
from pagoda.tui.app import CSS, key_command, render_table
from pagoda.tui.base import SeatPanel, TableModel
from pagoda.tui.doudizhu import MATCH_GAME, replay_match
from pagoda.tui.i18n import Catalog

GAMES = {"tichu": "tichu", "tichu-match": "tichu", "doudizhu": "doudizhu", MATCH_GAME: "doudizhu"}


def game_of(text: str) -> str:
    """The game (``tichu`` or ``doudizhu``) of a record's text, from its ``[Game ...]`` header."""
    game = parse_record(text).get("Game")
    if game not in GAMES:
        raise ParseError(f"unknown game {game!r} in the record: one of {', '.join(GAMES)}")
    return GAMES[game]


class Replay:
    """A record's states, one per action, and the table at each."""

    def __init__(self, tr: Catalog, text: str) -> None:
        self.tr = tr
        rec = parse_record(text)
        self.kind = rec.get("Game") or ""
        self.actions = rec.actions
        empty = Record(rec.headers, ())
        states: list[Any] = []
        if self.kind == "tichu":
            state: Any = tichu.replay(empty)
        elif self.kind == "tichu-match":
            state = tichu.Match.replay(empty)
        elif self.kind == "doudizhu":
            state = ddz.replay(empty)
        elif self.kind == MATCH_GAME:
            state = replay_match(empty)[0]
        else:
            raise ParseError(f"unknown game {self.kind!r} in the record: one of {', '.join(GAMES)}")
        states.append(state)
        for seat, action in self.actions:
            state = state.apply(seat, action)
            states.append(state)
        self.states = states
        self.total = len(self.actions)

    def _round(self, step: int) -> Any:
        """The round to show after ``step`` actions (a round just finished shows its end)."""
        state = self.states[step]
        if self.kind == "tichu-match":
            before = self.states[step - 1] if step else state
            return state.finished[-1] if len(state.finished) > len(before.finished) else state.round
        if self.kind == MATCH_GAME:
            before = self.states[step - 1] if step else state
            return state.rounds[-1] if len(state.rounds) > len(before.rounds) else state.current
        return state

    def table(self, step: int) -> TableModel:
        """Every hand, the table and the last actions after ``step`` actions."""
        r = self._round(step)
        tr = self.tr
        log = [
            tr("watch_action", name=tr("seat", seat=s), action=a)
            for s, a in self.actions[max(0, step - 3) : step]
        ]
        status = tr("watch_step", step=step, total=self.total)
        state = self.states[step]
        if self.kind.startswith("tichu"):
            seats, center = self._tichu(r)
            if self.kind == "tichu-match":
                a, b = state.scores
                status += f" · {tr('round_n', n=len(state.finished) + 1)} · 0+2 {a} : {b} 1+3"
        else:
            seats, center = self._doudizhu(r)
            if self.kind == MATCH_GAME:
                status += " · " + tr("scores_seats", points=" ".join(f"{p:+d}" for p in state.totals))
        return TableModel(status, seats, center or [tr("watch_start")], log)

    def _tichu(self, r: tichu.Round) -> tuple[list[SeatPanel], list[str]]:
        tr = self.tr
        seats = []
        for seat in range(4):
            lines = [tichu.format_cards(r.hand_mask(seat))]
            tags = []
            if seat in r.grand_calls:
                tags.append(tr("grand_call"))
            if seat in r.tichu_calls:
                tags.append(tr("tichu_call"))
            if seat in r.out:
                tags.append(tr("out_nth", n=r.out.index(seat) + 1))
            if tags:
                lines.append(" ".join(tags))
            to_move = seat in r.awaiting[:1]
            seats.append(SeatPanel(tr("seat", seat=seat), lines, to_move))
        center = [f"  {tr('seat', seat=s)}: {tichu.format_cards(c.mask)}" for s, c in r.trick[-4:]]
        if center:
            center.insert(0, tr("trick") + ":")
        if r.wish:
            center.append(tr("wish_open", rank=format_rank(r.wish)))
        if r.is_over:
            center.append(f"{tr('summary_out', order=' '.join(map(str, r.out)))}  {r.score()}")
        return seats, center

    def _doudizhu(self, r: ddz.Round) -> tuple[list[SeatPanel], list[str]]:
        tr = self.tr
        n = r.rules.players
        seats = []
        for seat in range(n):
            lines = [str(r.hand(seat)) or "-"]
            if r.landlord >= 0:
                lines.append(tr("landlord" if seat == r.landlord else "peasant"))
            seats.append(SeatPanel(tr("seat", seat=seat), lines, not r.is_over and seat == r.to_move))
        center = []
        if r.landlord >= 0:
            center.append(tr("bid_now", bid=r.bid, mult=r.multiplier))
            center.append(tr("kitty", cards=ddz.format_cards(r.kitty)))
        if r.wild >= 0 and r.phase is not ddz.Phase.AUCTION:
            center.append(tr("wild", rank=ddz.format_cards(1 << (5 * r.wild))))
        if r.top is not None and r.top_seat >= 0:
            center.append(f"{tr('trick')}: {tr('seat', seat=r.top_seat)} {r.top} ({r.top.kind})")
        if r.is_over:
            center.append(" ".join(f"{p:+d}" for p in r.score()))
        return seats, center


class WatchApp(App[None]):
    """Steps through a :class:`Replay`."""

    CSS = CSS
    TITLE = "pagoda watch"

    def __init__(self, replay: Replay, step: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.step = max(0, min(step, replay.total))

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="table")
        yield Static(id="log")
        yield Static(id="prompt")
        yield Static(self.replay.tr("help_watch"), id="help")

    def on_mount(self) -> None:
        self.refresh_view()

    def refresh_view(self) -> None:
        """Draw the table after ``self.step`` actions."""
        model = self.replay.table(self.step)
        self.query_one("#status", Static).update(Text(model.status, overflow="ellipsis", no_wrap=True))
        self.query_one("#table", Static).update(render_table(model))
        self.query_one("#log", Static).update(Text("\n".join(model.log[-2:])))
        nxt = self.replay.actions[self.step] if self.step < self.replay.total else None
        shown = "" if nxt is None else "→ " + self.replay.tr("watch_action", name=nxt[0], action=nxt[1])
        self.query_one("#prompt", Static).update(Text(shown))

    def on_key(self, event: events.Key) -> None:
        command = key_command(event)
        event.stop()
        moves = {"right": 1, "space": 1, "n": 1, "enter": 1, "left": -1, "p": -1, "backspace": -1}
        moves |= {"pagedown": 10, "pageup": -10, "home": -self.replay.total, "end": self.replay.total}
        if command == "q":
            self.exit()
            return
        if command in moves:
            self.step = max(0, min(self.replay.total, self.step + moves[command]))
            self.refresh_view()
