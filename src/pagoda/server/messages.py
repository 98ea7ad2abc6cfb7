"""The table protocol's messages as typed models: the one definition of what goes over the wire.

Each message a client may send and each the server sends is a :class:`msgspec.Struct` tagged by
its ``type``. The server parses a client's frame once, straight into its model
(:data:`CLIENT_DECODER`); the JSON Schemas served at ``/api/protocol`` are generated from the
models (:func:`schemas`), and so are the client's TypeScript types (``pagoda.server.typescript``
writes ``client/src/lib/wire.ts`` in the build). Nothing is copied by hand.

>>> msg = CLIENT_DECODER.decode(b'{"type": "sit", "seat": 2}')
>>> msg
Sit(seat=2, ref=UNSET)
>>> msgspec.to_builtins(msg)
{'type': 'sit', 'seat': 2}
"""

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

PROTOCOL = 1

Ref = Annotated[str, Meta(max_length=64)] | int
Seat = Annotated[int, Meta(ge=0, le=7)]
Seq = Annotated[int, Meta(ge=0)]
Token = Annotated[str, Meta(min_length=1, max_length=256, pattern="^[!-~]+$")]  # printable ASCII
Name = Annotated[str, Meta(min_length=1, max_length=32)]
ActionText = Annotated[str, Meta(min_length=1, max_length=200)]
ChatText = Annotated[str, Meta(min_length=1, max_length=500)]
Params = dict[str, str | int]
GameName = Literal["tichu", "doudizhu"]
#: Every code an ``error`` message (or a ``why`` answer) carries; a test holds it to the codes the
#: server's modules send.
ErrorCode = Literal[
    # a frame the server does not read
    "bad_frame",
    "too_large",
    "bad_json",
    "bad_message",
    "unknown_type",
    "bad_name",
    "bad_text",
    "bad_action",
    "hello_first",
    "already_joined",
    "rate_limited",
    # joining a table
    "no_table",
    "unavailable",
    "table_full",
    "too_many_connections",
    "invite_required",
    "bad_rejoin",
    "replaced",
    # the lobby
    "not_in_lobby",
    "not_owner",
    "bad_seat",
    "seat_taken",
    "not_seated",
    "no_bot",
    "bad_bot",
    "seats_empty",
    # play
    "not_playing",
    "illegal",
    "internal",
]


class _Client(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """A message a client sends: its ``type`` is its tag; ``ref`` is echoed in the answer."""

    ref: Ref | UnsetType = UNSET


class Hello(_Client, tag="hello"):
    """The first message: the protocol version, and who the client is."""

    protocol: Literal[1]
    name: Name | UnsetType = UNSET
    guest: Token | UnsetType = UNSET
    rejoin: Token | UnsetType = UNSET
    invite: Token | UnsetType = UNSET
    since: Seq | UnsetType = UNSET


class Sit(_Client, tag="sit"):
    """Take a seat in the lobby."""

    seat: Seat


class Stand(_Client, tag="stand"):
    """Leave one's seat in the lobby."""


class Swap(_Client, tag="swap"):
    """The owner swaps two seats."""

    a: Seat
    b: Seat


class Bot(_Client, tag="bot"):
    """The owner seats a bot (``level``: a registered bot's name)."""

    seat: Seat
    level: Name | UnsetType = UNSET


class Unbot(_Client, tag="unbot"):
    """The owner takes a bot off its seat."""

    seat: Seat


class Start(_Client, tag="start"):
    """The owner starts the match, ``fill`` naming the bot for empty seats."""

    fill: Name | UnsetType = UNSET


class Act(_Client, tag="act"):
    """A seated player's action, in the game's notation."""

    action: ActionText


class Autoplay(_Client, tag="autoplay"):
    """A seated player lets a bot play for it (on) or takes its seat back (off)."""

    on: bool


class Why(_Client, tag="why"):
    """Would this action be legal now, and if not, why? The answer changes nothing."""

    action: ActionText


class Chat(_Client, tag="chat"):
    """A line of chat."""

    text: ChatText


class Resync(_Client, tag="resync"):
    """Send the events after ``since`` again."""

    since: Seq


class Ping(_Client, tag="ping"):
    """Answered with ``pong``."""


ClientMessage = Hello | Sit | Stand | Swap | Bot | Unbot | Start | Act | Autoplay | Why | Chat | Resync | Ping
CLIENT_TYPES: tuple[type[_Client], ...] = (Hello, Sit, Stand, Swap, Bot, Unbot, Start, Act, Autoplay)
CLIENT_TYPES += (Why, Chat, Resync, Ping)
#: Parses a client's frame into its model in one pass, checking every field.
CLIENT_DECODER = msgspec.json.Decoder(ClientMessage)


# ---------------------------------------------------------------------- shared shapes


class _Shape(msgspec.Struct, omit_defaults=True):
    """A part of a server message."""


class TableOptions(_Shape):
    """How a table was set up, as everyone may see it."""

    game: GameName
    preset: str | None
    target: int | None
    rounds: int | None
    turn_timer: float | None
    open: bool
    bot: str | None
    rated: bool = False  # a rated match changes its players' ratings when it ends


class SeatInfo(_Shape, forbid_unknown_fields=True):
    """Who sits on a seat: a player, a bot or nobody, and whether a stand-in plays for it."""

    player: str | None
    name: str | None
    bot: str | None
    connected: bool
    standin: bool


class SeatTaken(_Shape, forbid_unknown_fields=True):
    """A seat as a ``seats`` event records it."""

    player: str | None
    name: str | None
    bot: str | None


class TableInfo(_Shape, forbid_unknown_fields=True):
    """A table as everyone may see it."""

    id: str
    options: TableOptions
    status: Literal["lobby", "playing", "finished"]
    owner: str
    seats: list[SeatInfo]
    spectators: Annotated[int, Meta(ge=0)]


class You(_Shape, forbid_unknown_fields=True):
    """The connection's own player, its seat and the token that takes the seat back."""

    player: str
    name: str
    seat: int | None
    rejoin: str | None


class Top(_Shape, forbid_unknown_fields=True):
    """A play on the table: who played which cards, of what kind."""

    seat: int
    cards: str
    kind: str


class TichuGame(_Shape, tag_field="game", tag="tichu", forbid_unknown_fields=True):
    """A Tichu match as one seat (or a spectator: no ``hand``) may see it."""

    round: int
    scores: list[int]
    phase: Literal["grand_tichu", "exchange", "play", "over"]
    to_move: int
    awaiting: list[int]
    hand_sizes: list[int]
    top: Top | None
    grand_decided: list[bool]
    grand_calls: list[bool]
    tichu_calls: list[bool]
    trick: list[Top]
    passed: list[bool]
    trick_complete: bool
    wish: int
    out: list[int]
    won_points: list[int]
    played: str
    hand: list[str] | UnsetType = UNSET
    given: list[str] | UnsetType | None = UNSET
    received: list[str] | UnsetType | None = UNSET


class DoudizhuGame(_Shape, tag_field="game", tag="doudizhu", forbid_unknown_fields=True):
    """A Dou Di Zhu match as one seat (or a spectator: no ``hand``) may see it."""

    round: int
    scores: list[int]
    phase: Literal["auction", "play", "over"]
    to_move: int
    awaiting: list[int]
    hand_sizes: list[int]
    top: Top | None
    landlord: int | None
    kitty: str | None
    bid: int
    wild: str | int | None
    multiplier: int
    played: str  # every card played this round (public), for the card counter
    hand: str | UnsetType = UNSET


GameView = TichuGame | DoudizhuGame


class TichuPatch(_Shape, tag_field="game", tag="tichu", forbid_unknown_fields=True):
    """The fields of a seat's (or the spectators') Tichu view that changed, with their new values."""

    round: int | UnsetType = UNSET
    scores: list[int] | UnsetType = UNSET
    phase: Literal["grand_tichu", "exchange", "play", "over"] | UnsetType = UNSET
    to_move: int | UnsetType = UNSET
    awaiting: list[int] | UnsetType = UNSET
    hand_sizes: list[int] | UnsetType = UNSET
    top: Top | UnsetType | None = UNSET
    grand_decided: list[bool] | UnsetType = UNSET
    grand_calls: list[bool] | UnsetType = UNSET
    tichu_calls: list[bool] | UnsetType = UNSET
    trick: list[Top] | UnsetType = UNSET
    passed: list[bool] | UnsetType = UNSET
    trick_complete: bool | UnsetType = UNSET
    wish: int | UnsetType = UNSET
    out: list[int] | UnsetType = UNSET
    won_points: list[int] | UnsetType = UNSET
    played: str | UnsetType = UNSET
    hand: list[str] | UnsetType = UNSET
    given: list[str] | UnsetType | None = UNSET
    received: list[str] | UnsetType | None = UNSET


class DoudizhuPatch(_Shape, tag_field="game", tag="doudizhu", forbid_unknown_fields=True):
    """The fields of a seat's (or the spectators') Dou Di Zhu view that changed, with their new values."""

    round: int | UnsetType = UNSET
    scores: list[int] | UnsetType = UNSET
    phase: Literal["auction", "play", "over"] | UnsetType = UNSET
    to_move: int | UnsetType = UNSET
    awaiting: list[int] | UnsetType = UNSET
    hand_sizes: list[int] | UnsetType = UNSET
    top: Top | UnsetType | None = UNSET
    landlord: int | UnsetType | None = UNSET
    kitty: str | UnsetType | None = UNSET
    bid: int | UnsetType = UNSET
    wild: str | int | UnsetType | None = UNSET
    multiplier: int | UnsetType = UNSET
    played: str | UnsetType = UNSET
    hand: str | UnsetType = UNSET


#: A view's change: the top-level fields that differ from the view the receiver last got.
GamePatch = TichuPatch | DoudizhuPatch
#: Each view model's patch model (the same fields, each optional).
PATCHES: dict[type[msgspec.Struct], type[msgspec.Struct]] = {
    TichuGame: TichuPatch,
    DoudizhuGame: DoudizhuPatch,
}


class Legal(_Shape, forbid_unknown_fields=True):
    """What the viewer may send now (texts), and whether an exchange is to be composed."""

    actions: list[str]
    exchange: bool | UnsetType = UNSET


class Timers(_Shape, forbid_unknown_fields=True):
    """Seconds left: each awaited seat's turn, and the automatic take of a complete trick."""

    turn: dict[str, float]
    take: float | None


class TichuRoundSummary(_Shape, tag_field="game", tag="tichu", forbid_unknown_fields=True):
    """A finished Tichu round: points, card points per team, who went out, who called."""

    round: int
    points: list[int]
    scores: list[int]
    card_points: list[int]
    out: list[int]
    grand_calls: list[int]
    tichu_calls: list[int]


class DoudizhuRoundSummary(_Shape, tag_field="game", tag="doudizhu", forbid_unknown_fields=True):
    """A finished Dou Di Zhu round: points, the landlord, the winner, and what multiplied the bid.

    ``bid`` is the base (with ``rob``: 2 to the number of robs); ``bombs`` and ``rockets`` count
    those that doubled the score; ``spring`` is true for a spring or an anti-spring, and
    ``anti_spring`` says which. ``multiplier`` is 2 to ``bombs + rockets + spring``; the landlord
    gets ± bid × multiplier × (seats − 1), each peasant the opposite of bid × multiplier.
    """

    round: int
    points: list[int]
    scores: list[int]
    landlord: int | None
    winner: int | None
    spring: bool
    anti_spring: bool
    bid: int
    bombs: int
    rockets: int
    multiplier: int


RoundSummary = TichuRoundSummary | DoudizhuRoundSummary


class MatchSummary(_Shape, forbid_unknown_fields=True):
    """A finished match: the final scores and the winner (a team or seat; none on a tie)."""

    scores: list[int]
    winner: int | None
    rounds: int


# ---------------------------------------------------------------------- events


class _Event(msgspec.Struct, tag_field="kind", forbid_unknown_fields=True, omit_defaults=True):
    """Something that happened at the table, numbered by ``seq``."""

    seq: Seq
    time: float


class SeatsEvent(_Event, tag="seats"):
    """The seats changed."""

    seats: list[SeatTaken]


class StartedEvent(_Event, tag="started"):
    """The match started."""


class ActionEvent(_Event, tag="action"):
    """A seat acted. ``visible`` names the seats that see the action as it was (absent:
    everyone); the others see what the game shows of it (a Tichu exchange: ``exchange``)."""

    seat: int
    action: str
    by: Literal["player", "bot", "timer", "server"]
    visible: list[int] | UnsetType = UNSET
    private: bool | UnsetType = UNSET  # (events stored before ``visible``: for the seat alone)


class RoundOverEvent(_Event, tag="round_over"):
    """A round ended."""

    summary: RoundSummary


class MatchOverEvent(_Event, tag="match_over"):
    """The match ended."""

    summary: MatchSummary


class ChatEvent(_Event, tag="chat"):
    """A line of chat."""

    player: str
    name: str
    seat: int | None
    spectator: bool  # sent by a spectator: shown, so that no spectator passes for a player
    text: str


class StandinEvent(_Event, tag="standin"):
    """A stand-in (a bot) began or stopped playing for a seat."""

    seat: int
    on: bool
    # "grace": the grace period of a player who stayed away ran out (in a rated match, one who
    # never comes back abandoned it)
    why: Literal["grace"] | UnsetType = UNSET


GameEvent = (
    SeatsEvent | StartedEvent | ActionEvent | RoundOverEvent | MatchOverEvent | ChatEvent | StandinEvent
)


# ---------------------------------------------------------------------- server messages


class _Server(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """A message the server sends; ``ref`` echoes the client message it answers."""

    ref: Ref | UnsetType = UNSET


class Welcome(_Server, tag="welcome"):
    """The answer to ``hello``: the guest token, who the connection is, the last event's seq."""

    protocol: Literal[1]
    guest: str
    you: You
    seq: Seq


class Snapshot(_Server, tag="snapshot"):
    """The whole table as the viewer may see it."""

    seq: Seq
    table: TableInfo
    you: You
    game: GameView | None
    legal: Legal | None
    timers: Timers


class EventMessage(_Server, tag="event"):
    """One event, as the viewer may see it. The last event of what one command did also carries
    what the viewer needs to go on: the change of its view (``patch``: the fields that changed
    since the view it last got; or the whole view, ``game``, when the match starts, a round begins
    or a patch would be no smaller), what it may do now (``legal``) and the ``timers``. A field
    left out is unchanged; events resent after ``since`` carry none of them."""

    seq: Seq
    event: GameEvent
    game: GameView | UnsetType | None = UNSET
    patch: GamePatch | UnsetType = UNSET
    legal: Legal | UnsetType | None = UNSET
    timers: Timers | UnsetType = UNSET


class StateMessage(_Server, tag="state"):
    """The viewer's whole view and what it may do, after a change that made no event: the server
    closed a bomb window with ``no-bomb`` (told to those seats alone; to everyone when no take
    follows, for the take timer stopped)."""

    seq: Seq
    game: GameView | None
    legal: Legal | None
    timers: Timers


class TableMessage(_Server, tag="table"):
    """The table's seats or status changed."""

    table: TableInfo
    you: You


class WhyAnswer(_Server, tag="why"):
    """Whether an action would be legal now, and if not the rule it breaks."""

    action: str
    legal: bool
    code: ErrorCode | UnsetType = UNSET
    message: str | UnsetType = UNSET
    reason: str | UnsetType = UNSET
    params: Params | UnsetType = UNSET


class ErrorMessage(_Server, tag="error"):
    """A refusal: a stable ``code``, a text saying why; a refused action names its rule."""

    code: ErrorCode
    message: str
    reason: str | UnsetType = UNSET
    params: Params | UnsetType = UNSET


class Pong(_Server, tag="pong"):
    """The answer to ``ping``."""


ServerMessage = (
    Welcome | Snapshot | EventMessage | StateMessage | TableMessage | WhyAnswer | ErrorMessage | Pong
)
SERVER_TYPES: tuple[type[_Server], ...] = (Welcome, Snapshot, EventMessage, StateMessage, TableMessage)
SERVER_TYPES += (WhyAnswer, ErrorMessage, Pong)
#: The unions the client names (beside each direction's messages).
UNIONS: dict[str, Any] = {"GameView": GameView, "GamePatch": GamePatch, "GameEvent": GameEvent}
UNIONS["RoundSummary"] = RoundSummary


def tag(model: type[msgspec.Struct]) -> str:
    """A tagged model's tag (its ``type`` or ``kind``).

    >>> tag(Sit), tag(ActionEvent)
    ('sit', 'action')
    """
    return str(model.__struct_config__.tag)


def _schemas(models: tuple[type[msgspec.Struct], ...]) -> dict[str, Any]:
    """Each model's JSON Schema by its tag, the shapes it uses inlined in ``$defs``."""
    refs, defs = msgspec.json.schema_components(models, ref_template="#/$defs/{name}")
    out: dict[str, Any] = {}
    for model, ref in zip(models, refs, strict=True):
        schema = dict(defs[ref["$ref"].rsplit("/", 1)[1]])
        used = _used(schema, defs)
        if used:
            schema["$defs"] = {name: defs[name] for name in sorted(used)}
        out[tag(model)] = schema
    return out


def _used(schema: Any, defs: dict[str, Any], seen: set[str] | None = None) -> set[str]:
    """The names of the ``$defs`` that ``schema`` refers to, directly or through others."""
    seen = set() if seen is None else seen
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "$ref" and isinstance(value, str):
                name = value.rsplit("/", 1)[1]
                if name not in seen:
                    seen.add(name)
                    _used(defs[name], defs, seen)
            else:
                _used(value, defs, seen)
    elif isinstance(schema, list):
        for value in schema:
            _used(value, defs, seen)
    return seen


#: Each client message's JSON Schema, by type (generated from the models).
CLIENT: dict[str, Any] = _schemas(CLIENT_TYPES)
#: Each server message's JSON Schema, by type (generated from the models).
SERVER: dict[str, Any] = _schemas(SERVER_TYPES)


def schemas() -> dict[str, Any]:
    """Both directions' schemas as one JSON document (served at /api/protocol), and every shape
    they share under ``$defs``, as the TypeScript generator reads them."""
    _, defs = msgspec.json.schema_components((ClientMessage, ServerMessage), ref_template="#/$defs/{name}")
    return {"protocol": PROTOCOL, "client": CLIENT, "server": SERVER, "$defs": defs}
