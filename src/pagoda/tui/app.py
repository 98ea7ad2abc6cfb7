"""The Textual app of ``pagoda play``: the table, the hand, the prompt, the keys.

The app holds no game logic: every key goes to :meth:`GameUI.command` (a click on a card to
:meth:`GameUI.click`), then the bots act (at once, or one every ``delay`` seconds so their
moves can be followed) and everything is redrawn from the game's state. Designed for 80×24.
"""

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from pagoda.tui.base import GameUI, SeatPanel, TableModel

NAMED_KEYS = {"left", "right", "up", "down", "space", "enter", "escape", "home", "end", "pageup", "pagedown"}

CSS = """
Screen { layout: vertical; }
#status { height: 1; background: $primary-darken-2; color: $text; }
#table { height: 1fr; }
#log { height: 2; color: $text-muted; }
HandView { height: 3; }
#prompt { height: 2; color: $warning; }
#help { height: 1; color: $text-muted; background: $panel; }
"""


def key_command(event: events.Key) -> str:
    """The command name of a key: named keys by name, the rest by the (lower-case) character."""
    if event.key in NAMED_KEYS:
        return event.key
    if event.character and event.character.isprintable():
        return event.character.lower()
    return event.key


def _panel(seat: SeatPanel) -> Text:
    text = Text()
    style = "bold reverse" if seat.to_move else "bold"
    text.append(seat.title + (" ◀" if seat.to_move else ""), style=style)
    for line in seat.lines:
        text.append("\n" + line)
    return text


def render_table(model: TableModel) -> RenderableType:
    """The seats around the centre: bottom is the viewer; then the seats in play order."""
    seats = model.seats
    center = Text("\n".join(model.center))
    grid = Table.grid(expand=True, padding=(0, 1))
    grid.add_column(ratio=1)
    grid.add_column(ratio=2)
    grid.add_column(ratio=1, justify="right")
    if len(seats) == 4:
        grid.add_row(Text(), _panel(seats[2]), Text())
        grid.add_row(_panel(seats[3]), center, _panel(seats[1]))
    elif len(seats) == 3:
        grid.add_row(_panel(seats[2]), center, _panel(seats[1]))
    else:
        grid.add_row(Text(), center, Text())
    grid.add_row(Text(), _panel(seats[0]), Text())
    return grid


class HandView(Widget):
    """The human's hand: the cursor in brackets, selected cards reversed, unplayable ones dim."""

    def __init__(self, game: GameUI) -> None:
        super().__init__()
        self.game = game
        self.hits: list[tuple[int, int, int, int]] = []  # (line, x0, x1, index)

    def render(self) -> RenderableType:
        game = self.game
        cells = game.cells()
        any_plays = any(c.playable for c in cells)
        width = max(self.size.width, 20)
        text = Text()
        self.hits = []
        x = y = 0
        for i, cell in enumerate(cells):
            w = len(cell.label) + 2
            if x + w > width:
                text.append("\n")
                x, y = 0, y + 1
            style = cell.style
            if any_plays:
                style += " bold" if cell.playable else " dim"
            if i in game.selected:
                style += " reverse"
            left, right = ("[", "]") if i == game.cursor else (" ", " ")
            text.append(left, style="bold")
            text.append(cell.label, style=style)
            text.append(right, style="bold")
            self.hits.append((y, x, x + w, i))
            x += w
        return text

    def on_click(self, event: events.Click) -> None:
        for line, x0, x1, index in self.hits:
            if event.y == line and x0 <= event.x < x1:
                self.game.click(index)
                app: Any = self.app
                app.refresh_view()
                return


class PlayApp(App[None]):
    """A match against bots in the terminal."""

    CSS = CSS
    TITLE = "pagoda"

    def __init__(self, game: GameUI, delay: float = 0.0) -> None:
        super().__init__()
        self.game = game
        self.delay = delay
        self._ticking = False

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="table")
        yield Static(id="log")
        yield HandView(self.game)
        yield Static(id="prompt")
        yield Static(self.game.help_line(), id="help")

    def on_mount(self) -> None:
        self.pump()

    def pump(self) -> None:
        """Let the bots act: all at once, or the next one after ``delay`` seconds."""
        if self.delay <= 0:
            self.game.run_bots()
        elif self.game.needs_bot():
            if not self._ticking:
                self._ticking = True
                self.set_timer(self.delay, self._tick)
        else:
            self.game.save()
        self.refresh_view()

    def _tick(self) -> None:
        self._ticking = False
        if self.game.needs_bot():
            self.game.bot_step()
        self.pump()

    def refresh_view(self) -> None:
        """Redraw everything from the game's state."""
        model = self.game.table()
        self.query_one("#status", Static).update(Text(model.status, overflow="ellipsis", no_wrap=True))
        self.query_one("#table", Static).update(render_table(model))
        self.query_one("#log", Static).update(Text("\n".join(model.log[-2:]), overflow="ellipsis"))
        self.query_one(HandView).refresh()
        self.query_one("#prompt", Static).update(Group(Text(self.game.prompt())))

    def on_key(self, event: events.Key) -> None:
        command = key_command(event)
        event.stop()
        if command == "q":
            self.exit()
            return
        if command == "?":
            self.game.message = self.game.tr("hint_thinking")
            self.refresh_view()
            self.run_worker(self._hint, thread=True, exclusive=True)
            return
        self.game.command(command)
        self.pump()

    def _hint(self) -> None:
        text = self.game.hint()
        self.call_from_thread(self._show_hint, text)

    def _show_hint(self, text: str) -> None:
        self.game.message = text
        self.refresh_view()
