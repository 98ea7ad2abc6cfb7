"""What the terminal client shows and how a key changes it, for any game, without Textual.

A :class:`GameUI` holds a match, the human's seat, the bots of the other seats, and the state of
the interface: the cursor in the hand, the selected cards, an open choice (a wish, a Phoenix
reading, a bid...), the last message. The Textual app only turns keys into :meth:`GameUI.command`
calls and draws :meth:`GameUI.table`, :meth:`GameUI.cells` and :meth:`GameUI.prompt`, so all the
logic is testable as plain Python.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagoda.tui.i18n import Catalog

#: Keys given to choices that have no natural key of their own.
CHOICE_KEYS = "123456789abcdefghijklmnopqrstuvwyz"


@dataclass(frozen=True, slots=True)
class Cell:
    """One card of the hand as drawn: its label, a style, and whether a legal play uses it."""

    label: str
    style: str
    playable: bool


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer to an open question: the key that picks it, its label, and what it does."""

    key: str
    label: str
    action: Any


@dataclass(slots=True)
class SeatPanel:
    """One seat at the table: a title and a few lines (cards left, calls, last action)."""

    title: str
    lines: list[str] = field(default_factory=list)
    to_move: bool = False
    human: bool = False


@dataclass(slots=True)
class TableModel:
    """The whole table: a status line, the seats (bottom first, then play order), the centre."""

    status: str
    seats: list[SeatPanel]
    center: list[str]
    log: list[str]


class GameUI:
    """The game-independent part: cursor, selection, legal plays, choices, pacing of the bots."""

    game = ""

    def __init__(self, tr: Catalog, human: int, record_path: str | Path | None = None) -> None:
        self.tr = tr
        self.human = human
        self.record_path = Path(record_path) if record_path is not None else None
        self.cursor = 0
        self.selected: set[int] = set()
        self.pending: list[Choice] | None = None
        self.pending_title = ""
        self.message = ""
        self.log: list[str] = []
        self._cycle = -1

    # ------------------------------------------------------------ what each game provides

    def cells(self) -> list[Cell]:
        """The human's hand, sorted, as drawn."""
        raise NotImplementedError

    def mask_of(self, indices: set[int]) -> int:
        """The card set (the game's mask) of the hand positions ``indices``."""
        raise NotImplementedError

    def indices_of(self, mask: int) -> set[int]:
        """Hand positions holding the card set ``mask``."""
        raise NotImplementedError

    def legal_plays(self) -> dict[int, list[Any]]:
        """The plays the human may make now, grouped by the cards they use."""
        raise NotImplementedError

    def is_bomb(self, action: Any) -> bool:
        """Is this play a bomb (or rocket)?"""
        raise NotImplementedError

    def play_text(self, action: Any) -> str:
        """The text shown for a play (its notation)."""
        return str(action)

    def choices(self) -> list[Choice]:
        """The open choices: those a play opened, else the ones the game asks for now."""
        return self.pending or []

    def choice_title(self) -> str:
        """What the open choices answer."""
        return self.pending_title or self.tr("prompt_choose")

    def variants(self, actions: Sequence[Any]) -> tuple[str, list[Choice]]:
        """The choices between several plays of the same cards (a wish, a reading, a kind)."""
        return self.tr("prompt_choose"), [
            Choice(CHOICE_KEYS[i], str(a), a) for i, a in enumerate(actions[: len(CHOICE_KEYS)])
        ]

    def pass_action(self) -> Any | None:
        """The pass (or its equivalent) if the human may pass now."""
        raise NotImplementedError

    def enter_action(self) -> Any | None:
        """What Enter does with nothing selected (take the trick, next round...)."""
        return None

    def special(self, command: str) -> bool:
        """Game-specific keys; True when handled."""
        return False

    def do(self, action: Any) -> None:
        """Apply the human's action."""
        raise NotImplementedError

    def needs_bot(self) -> bool:
        """Must a bot act before the human can?"""
        raise NotImplementedError

    def bot_step(self) -> None:
        """Let the next bot make one decision."""
        raise NotImplementedError

    def table(self) -> TableModel:
        """The table as drawn."""
        raise NotImplementedError

    def prompt(self) -> str:
        """What the human is asked now (one or two lines)."""
        raise NotImplementedError

    def help_line(self) -> str:
        """The keys."""
        return self.tr("help_play")

    def record_text(self) -> str:
        """The match record so far."""
        raise NotImplementedError

    def hint(self) -> str:
        """A suggestion for the human's decision (may take a moment)."""
        return self.tr("hint_none")

    def finished(self) -> bool:
        """Is the match over?"""
        raise NotImplementedError

    # ------------------------------------------------------------ shared behaviour

    def run_bots(self, limit: int = 100_000) -> None:
        """Let the bots act until the human must decide (or the match pauses or ends)."""
        for _ in range(limit):
            if not self.needs_bot():
                self.save()
                return
            self.bot_step()
        raise RuntimeError("the bots did not stop")

    def save(self) -> None:
        """Write the record file, if one was asked for."""
        if self.record_path is not None:
            self.record_path.write_text(self.record_text() + "\n", encoding="utf-8")

    def after_action(self) -> None:
        """Forget the selection and open choices once an action is applied."""
        self.selected = set()
        self.pending = None
        self.pending_title = ""
        self._cycle = -1
        n = len(self.cells())
        self.cursor = min(self.cursor, max(n - 1, 0))
        self.save()

    def selection_status(self) -> str:
        """A line on what the selection would play."""
        if not self.selected:
            return ""
        plays = self.legal_plays()
        if not plays:
            return ""
        mask = self.mask_of(self.selected)
        found = plays.get(mask)
        if found:
            return self.tr("selection_legal", play=self.play_text(found[0]))
        cells = self.cells()
        cards = " ".join(cells[i].label for i in sorted(self.selected))
        return self.tr("selection_illegal", cards=cards)

    def playable_mask(self) -> int:
        """Every card some legal play uses (0 when there are no plays now)."""
        total = 0
        for mask in self.legal_plays():
            total |= mask
        return total

    def _ordered_plays(self, bombs_only: bool = False) -> list[int]:
        plays = self.legal_plays()
        return [m for m, acts in plays.items() if not bombs_only or any(self.is_bomb(a) for a in acts)]

    def _cycle_plays(self, step: int, bombs_only: bool = False) -> None:
        masks = self._ordered_plays(bombs_only)
        if not masks:
            self.message = self.tr("no_bombs" if bombs_only else "nothing_selected")
            return
        current = self.mask_of(self.selected) if self.selected else None
        if current in masks:
            index = (masks.index(current) + step) % len(masks)
        else:
            index = 0 if step > 0 else len(masks) - 1
        self.selected = self.indices_of(masks[index])
        if self.selected:
            self.cursor = min(self.selected)

    def _play_selection(self) -> None:
        plays = self.legal_plays()
        if not self.selected:
            action = self.enter_action()
            if action is not None:
                self.do(action)
            else:
                self.message = self.tr("nothing_selected")
            return
        found = plays.get(self.mask_of(self.selected))
        if not found:
            self.message = self.selection_status() or self.tr("nothing_selected")
            return
        if len(found) == 1:
            self.do(found[0])
            return
        self.pending_title, self.pending = self.variants(found)

    def command(self, key: str) -> None:
        """Handle one key (Textual's key name, or the character typed)."""
        self.message = ""
        choices = self.choices()
        if key == "escape":
            self.pending = None
            self.pending_title = ""
            self.selected = set()
            return
        for c in choices:
            if key == c.key:
                self.do(c.action)
                return
        if self.special(key):
            return
        n = len(self.cells())
        if key in ("left", "h") and n:
            self.cursor = (self.cursor - 1) % n
        elif key in ("right", "l") and n:
            self.cursor = (self.cursor + 1) % n
        elif key == "home":
            self.cursor = 0
        elif key == "end":
            self.cursor = max(n - 1, 0)
        elif key == "space" and n:
            self.selected ^= {self.cursor}
            self.pending = None
        elif key == "down":
            self._cycle_plays(1)
        elif key == "up":
            self._cycle_plays(-1)
        elif key == "b":
            self._cycle_plays(1, bombs_only=True)
        elif key == "enter":
            self._play_selection()
        elif key == "x":
            action = self.pass_action()
            if action is None:
                self.message = self.tr("no_pass")
            else:
                self.do(action)

    def click(self, index: int) -> None:
        """A mouse click on the card at hand position ``index``."""
        if 0 <= index < len(self.cells()):
            self.cursor = index
            self.selected ^= {index}
            self.pending = None
