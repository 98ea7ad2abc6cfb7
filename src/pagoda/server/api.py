"""The lobby's HTTP JSON as typed models: the account requests' bodies and the endpoints' answers.

A POST's body is parsed once, straight into its model (:func:`parse_body`): unknown fields are
refused, and a refused body is read again only to say what is wrong with it, by a code the client
says in the player's language. Each answer goes out through its model (``app._answer``), so no
endpoint sends a field its model lacks. Their JSON Schemas join the WebSocket messages' in one
document (:func:`schemas`, served at ``/api/protocol``), from which ``pagoda.server.typescript``
writes the client's types: nothing is copied by hand.

>>> parse_body(b'{"name": "ada", "password": "correct horse"}', Login)
Login(name='ada', password='correct horse')
>>> parse_body(b'{"name": 17, "password": "correct horse"}', Register)
Traceback (most recent call last):
...
pagoda.server.api.BadBody: name is a string, not an integer
>>> parse_body(b'{"name": "ada", "pass": "x"}', Login)
Traceback (most recent call last):
...
pagoda.server.api.BadBody: unknown field 'pass'; the fields are name, password
"""

import json
from typing import Any, ClassVar, Literal, TypeVar

import msgspec
from msgspec import UNSET, UnsetType

from pagoda.server import messages
from pagoda.server.messages import GameName, Params, TableInfo, TableOptions

#: Every code an HTTP refusal (:class:`Failure`) carries; a test holds it to the codes the
#: endpoints and :mod:`pagoda.server.accounts` use.
ApiErrorCode = Literal[
    # a request the server does not read
    "bad_json",
    "bad_request",
    "bad_origin",
    "too_large",
    "timeout",
    # tables
    "bad_options",
    "too_many_tables",
    "tables_per_owner",
    "tables_per_address",
    "no_table",
    "invite_required",
    "not_finished",
    "broken",
    # ratings and profiles
    "no_game",
    "no_player",
    # accounts
    "logged_in",
    "login_required",
    "too_many_attempts",
    "name_missing",
    "name_length",
    "name_chars",
    "name_start",
    "name_reserved",
    "name_taken",
    "already_registered",
    "password_missing",
    "password_length",
    "password_chars",
    "password_is_name",
    "bad_login",
    "wrong_password",
]


class BadBody(ValueError):
    """A request body the server refuses (400): a stable ``code`` and a text that says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# ---------------------------------------------------------------------- request bodies


class Body(msgspec.Struct, forbid_unknown_fields=True):
    """A request's JSON body: an object with these fields and no other."""

    #: The code a missing or mistyped field is refused with (``bad_request`` for the others).
    codes: ClassVar[dict[str, str]] = {}


class Register(Body):
    """``POST /api/register``: the new account's name and password."""

    name: str
    password: str
    codes = {"name": "name_missing", "password": "password_missing"}


class Login(Body):
    """``POST /api/login``: an account's name and password."""

    name: str
    password: str


class Logout(Body):
    """``POST /api/logout``: no field (an empty body is this too)."""


class PasswordChange(Body):
    """``POST /api/password``: the current password and the new one."""

    old: str
    new: str


class CreateTable(Body):
    """``POST /api/tables``: the new table's options, each optional but the game. The lobby checks
    each field's value and range itself (:meth:`pagoda.server.lobby.Lobby.options`, refusing with
    ``bad_options`` and a sentence that names the field); the fields it reads are these."""

    game: GameName
    preset: str | None = None
    target: int | None = None
    rounds: int | None = None
    turn_timer: float = 0.0
    open: bool = True
    bot: str | None = None
    seed: int | None = None
    rated: bool = False


B = TypeVar("B", bound=Body)
_KINDS = {str: "a string", int: "an integer", float: "a number", bool: "a boolean", type(None): "null"}
_KINDS |= {list: "an array", dict: "an object"}


def _kind(value: Any) -> str:
    return _KINDS.get(type(value), type(value).__name__)


def parse_body(body: bytes, model: type[B]) -> B:
    """The body (empty reads as ``{}``) as ``model``; :class:`BadBody` says what is wrong with it.

    The body is decoded once, into the model; only a refused one is read again, to say why.
    """
    body = body or b"{}"
    try:
        return msgspec.json.decode(body, type=model)
    except msgspec.ValidationError as e:  # (JSON, but not this body: a kind of DecodeError)
        raise _refusal(body, model, e) from None
    except msgspec.DecodeError:
        raise BadBody("bad_json", "the body is not JSON") from None


def _refusal(body: bytes, model: type[Body], e: msgspec.ValidationError) -> BadBody:
    """Why a body that is JSON is not ``model``: the first thing wrong with it, by field."""
    try:
        data = json.loads(body)
    except RecursionError:
        return BadBody("bad_json", "the body is nested too deep")
    except ValueError:  # (valid to the model's parser, which reads more than json does)
        return BadBody("bad_json", "the body is not JSON")
    if not isinstance(data, dict):
        return BadBody("bad_request", "the body is a JSON object")
    fields = msgspec.structs.fields(model)
    names = [f.encode_name for f in fields]
    unknown = sorted(str(k) for k in data if k not in names)
    if unknown:
        listed = ", ".join(names) if names else "none"
        return BadBody("bad_request", f"unknown field {unknown[0]!r}; the fields are {listed}")
    for f in fields:
        code = model.codes.get(f.encode_name, "bad_request")
        if f.encode_name not in data:
            return BadBody(code, f"{f.encode_name} is missing")
        try:
            msgspec.convert(data[f.encode_name], f.type)
        except msgspec.ValidationError:
            want = _KINDS.get(f.type, str(f.type))
            return BadBody(code, f"{f.encode_name} is {want}, not {_kind(data[f.encode_name])}")
    return BadBody("bad_request", str(e))


# ---------------------------------------------------------------------- answers


class _Answer(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """An endpoint's JSON answer."""


class Failure(_Answer):
    """A refusal (any 4xx): a stable ``error`` code, the server's reason in English (for logs), and
    the ``params`` the client's text for the code names (a limit, the name taken, seconds to wait)."""

    error: ApiErrorCode
    message: str
    params: Params | UnsetType = UNSET


class AccountInfo(_Answer):
    """What anyone may see of an account: its name and when it was made (Unix seconds)."""

    name: str
    created: float


class Me(_Answer):
    """``GET /api/me`` (and a registration's, a login's and a password change's answer): the caller's
    player id, its guest token (null for an account, whose session is a cookie) and its account."""

    player: str
    guest: str | None
    account: AccountInfo | None


class LoggedOut(_Answer):
    """``POST /api/logout``: the session is ended."""

    account: None


class Rating(_Answer):
    """A rating in one game: the ordinal shown (``mu - 3 sigma``), its parts, games and wins."""

    rating: float
    mu: float
    sigma: float
    games: int
    wins: int


class Ranked(Rating, kw_only=True):
    """A leaderboard's row: a rating with its rank and the account's name."""

    rank: int
    name: str


class Leaderboard(_Answer):
    """``GET /api/leaderboard/{game}``: one page of the accounts rated in a game, the best first."""

    game: GameName
    limit: int
    offset: int
    players: list[Ranked]


class ResultSeat(_Answer):
    """A seat of a finished match: who sat there (the account's name, else the name played under,
    or a bot), its team, its score, and whether it won or abandoned the match."""

    seat: int
    name: str | None
    account: str | None
    bot: str | None
    team: int
    score: int
    won: bool
    abandoned: bool


class MatchResult(_Answer):
    """A finished match's result: who sat where, the scores (per team or seat) and the winner (none
    on a tie)."""

    id: str
    game: GameName
    rated: bool
    finished: float
    scores: list[int]
    winner: int | None
    seats: list[ResultSeat]


class RatingChange(_Answer):
    """What a rated match did to a player's rating."""

    before: float
    after: float


class SeenMatch(MatchResult, kw_only=True):
    """A match as one of its players saw it: its seat, partners, opponents, score, and whether it
    won; a profile's matches also carry the rating ``change`` (null in a casual match)."""

    seat: int
    partners: list[str | None]
    opponents: list[str | None]
    score: int
    won: bool
    abandoned: bool
    change: RatingChange | UnsetType | None = UNSET


class Profile(_Answer):
    """``GET /api/players/{name}``: an account, its rating per game and its latest matches."""

    name: str
    created: float
    ratings: dict[str, Rating]
    recent: list[SeenMatch]


class MyTables(_Answer):
    """``GET /api/my/tables``: the caller's live tables and its latest finished matches."""

    live: list[TableInfo]
    finished: list[SeenMatch]


class Finished(_Answer):
    """A finished table as ``GET /api/history`` lists it, with its result (null until written)."""

    id: str
    options: TableOptions
    created: float
    result: MatchResult | None


class History(_Answer):
    """``GET /api/history``: finished open tables, the latest first."""

    tables: list[Finished]


class BotInfo(_Answer):
    """A bot a table may seat: its name, its level and what it does."""

    name: str
    level: str | int
    description: str


class GameInfo(_Answer):
    """A game's presets (the default first) and bots, and the bot level a table gets when its
    creator names none."""

    presets: list[str]
    bots: list[BotInfo]
    default_bot: str


class GamesInfo(_Answer):
    """``GET /api/games``: each game's presets and bots."""

    tichu: GameInfo
    doudizhu: GameInfo


class Created(_Answer):
    """``POST /api/tables``: the new table, its invite, its WebSocket path and the caller's guest
    token (null for an account)."""

    id: str
    invite: str
    ws: str
    guest: str | None
    table: TableInfo


#: Each endpoint's request body (None: it takes none) and answer.
ENDPOINTS: dict[str, tuple[type[Body] | None, type[_Answer]]] = {
    "GET /api/me": (None, Me),
    "POST /api/register": (Register, Me),
    "POST /api/login": (Login, Me),
    "POST /api/logout": (Logout, LoggedOut),
    "POST /api/password": (PasswordChange, Me),
    "GET /api/leaderboard/{game}": (None, Leaderboard),
    "GET /api/players/{name}": (None, Profile),
    "GET /api/my/tables": (None, MyTables),
    "GET /api/history": (None, History),
    "GET /api/games": (None, GamesInfo),
    "POST /api/tables": (CreateTable, Created),
}


def schemas() -> dict[str, Any]:
    """The protocol's whole schema document (served at /api/protocol): the WebSocket messages of
    both directions (:func:`pagoda.server.messages.schemas`), each HTTP endpoint's ``request`` and
    ``answer`` and the ``refusal`` they all give, every shape under one ``$defs``."""
    models: list[type[msgspec.Struct]] = [Failure]
    for request, answer in ENDPOINTS.values():
        models += [m for m in (request, answer) if m is not None and m not in models]
    both = (messages.ClientMessage, messages.ServerMessage)
    refs, defs = msgspec.json.schema_components((*both, *models), ref_template="#/$defs/{name}")
    ref = dict(zip(models, refs[len(both) :], strict=True))
    http: dict[str, Any] = {}
    for endpoint, (request, answer) in ENDPOINTS.items():
        http[endpoint] = (
            {"answer": ref[answer]} if request is None else {"request": ref[request], "answer": ref[answer]}
        )
    return {**messages.schemas(), "http": http, "refusal": ref[Failure], "$defs": defs}
