"""The WebSocket protocol: JSON messages, one per text frame, checked against JSON Schemas.

Every message is an object with a ``type``. :data:`CLIENT` holds the schema of each message a
client may send, :data:`SERVER` of each the server sends; :func:`parse_client` turns a frame
into a checked message or raises :class:`ProtocolError` with a code and a reason the client is
told. docs/protocol.md describes the exchange.
"""

import json
import unicodedata
from typing import Any

import fastjsonschema
import jsonschema

PROTOCOL = 1
JSON = dict[str, Any]

_REF = {"type": ["string", "integer"], "maxLength": 64}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 7}
_SEQ = {"type": "integer", "minimum": 0}
_TOKEN = {"type": "string", "minLength": 1, "maxLength": 256, "pattern": "^[!-~]+$"}  # printable ASCII
_NAME = {"type": "string", "minLength": 1, "maxLength": 32}


def _msg(kind: str, props: JSON | None = None, required: tuple[str, ...] = ()) -> JSON:
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, "ref": _REF, **(props or {})},
        "required": ["type", *required],
        "additionalProperties": False,
    }


CLIENT: dict[str, JSON] = {
    "hello": _msg(
        "hello",
        {
            "protocol": {"const": PROTOCOL},
            "name": _NAME,
            "guest": _TOKEN,
            "rejoin": _TOKEN,
            "invite": _TOKEN,
            "since": _SEQ,
        },
        ("protocol",),
    ),
    "sit": _msg("sit", {"seat": _SEAT}, ("seat",)),
    "stand": _msg("stand"),
    "swap": _msg("swap", {"a": _SEAT, "b": _SEAT}, ("a", "b")),
    "bot": _msg("bot", {"seat": _SEAT, "level": _NAME}, ("seat",)),
    "unbot": _msg("unbot", {"seat": _SEAT}, ("seat",)),
    "start": _msg("start", {"fill": _NAME}),
    "act": _msg("act", {"action": {"type": "string", "minLength": 1, "maxLength": 200}}, ("action",)),
    # A seated player lets a bot play for it (on) or takes its seat back (off).
    "autoplay": _msg("autoplay", {"on": {"type": "boolean"}}, ("on",)),
    # Would this action be legal now, and if not, why? The answer (``why``) changes nothing.
    "why": _msg("why", {"action": {"type": "string", "minLength": 1, "maxLength": 200}}, ("action",)),
    "chat": _msg("chat", {"text": {"type": "string", "minLength": 1, "maxLength": 500}}, ("text",)),
    "resync": _msg("resync", {"since": _SEQ}, ("since",)),
    "ping": _msg("ping"),
}

_SEAT_INFO = {
    "type": "object",
    "properties": {
        "player": {"type": ["string", "null"]},
        "name": {"type": ["string", "null"]},
        "bot": {"type": ["string", "null"]},
        "connected": {"type": "boolean"},
        "standin": {"type": "boolean"},
    },
    "required": ["player", "name", "bot", "connected", "standin"],
    "additionalProperties": False,
}
_TABLE = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "options": {"type": "object"},
        "status": {"enum": ["lobby", "playing", "finished"]},
        "owner": {"type": "string"},
        "seats": {"type": "array", "items": _SEAT_INFO},
        "spectators": {"type": "integer", "minimum": 0},
    },
    "required": ["id", "options", "status", "owner", "seats", "spectators"],
    "additionalProperties": False,
}
_YOU = {
    "type": "object",
    "properties": {
        "player": {"type": "string"},
        "name": {"type": "string"},
        "seat": {"type": ["integer", "null"]},
        "rejoin": {"type": ["string", "null"]},
    },
    "required": ["player", "name", "seat", "rejoin"],
    "additionalProperties": False,
}
_GAME = {
    "type": ["object", "null"],
    "properties": {
        "game": {"enum": ["tichu", "doudizhu"]},
        "phase": {"type": "string"},
        "to_move": {"type": "integer"},
        "awaiting": {"type": "array", "items": {"type": "integer"}},
        "hand_sizes": {"type": "array", "items": {"type": "integer"}},
        "scores": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["game", "phase", "to_move", "awaiting", "hand_sizes", "scores"],
}
_LEGAL = {
    "type": ["object", "null"],
    "properties": {
        "actions": {"type": "array", "items": {"type": "string"}},
        "exchange": {"type": "boolean"},
    },
    "required": ["actions"],
    "additionalProperties": False,
}
_TIMERS = {
    "type": "object",
    "properties": {
        "turn": {"type": "object", "additionalProperties": {"type": "number"}},
        "take": {"type": ["number", "null"]},
    },
    "required": ["turn", "take"],
    "additionalProperties": False,
}
_EVENT = {
    "type": "object",
    "properties": {
        "seq": _SEQ,
        "kind": {"enum": ["seats", "started", "action", "round_over", "match_over", "chat", "standin"]},
        "time": {"type": "number"},
    },
    "required": ["seq", "kind", "time"],
}

SERVER: dict[str, JSON] = {
    "welcome": _msg(
        "welcome",
        {"protocol": {"const": PROTOCOL}, "guest": {"type": "string"}, "you": _YOU, "seq": _SEQ},
        ("protocol", "guest", "you", "seq"),
    ),
    "snapshot": _msg(
        "snapshot",
        {"seq": _SEQ, "table": _TABLE, "you": _YOU, "game": _GAME, "legal": _LEGAL, "timers": _TIMERS},
        ("seq", "table", "you", "game", "legal", "timers"),
    ),
    "event": _msg("event", {"seq": _SEQ, "event": _EVENT}, ("seq", "event")),
    "state": _msg(
        "state",
        {"seq": _SEQ, "game": _GAME, "legal": _LEGAL, "timers": _TIMERS},
        ("seq", "game", "legal", "timers"),
    ),
    "table": _msg("table", {"table": _TABLE, "you": _YOU}, ("table", "you")),
    "why": _msg(
        "why",
        {
            "action": {"type": "string"},
            "legal": {"type": "boolean"},
            "code": {"type": "string"},
            "message": {"type": "string"},
            "reason": {"type": "string"},
            "params": {"type": "object", "additionalProperties": {"type": ["string", "integer"]}},
        },
        ("action", "legal"),
    ),
    "error": _msg(
        "error",
        {
            "code": {"type": "string"},
            "message": {"type": "string"},
            "reason": {"type": "string"},
            "params": {"type": "object", "additionalProperties": {"type": ["string", "integer"]}},
        },
        ("code", "message"),
    ),
    "pong": _msg("pong"),
}

_CLIENT_V = {k: jsonschema.Draft202012Validator(v) for k, v in CLIENT.items()}
# Compiled once: they accept a valid message in microseconds; a message one of them refuses is
# judged again by ``jsonschema``, which stays the authority and words the error.
_CLIENT_FAST = {k: fastjsonschema.compile(v) for k, v in CLIENT.items()}
_SERVER_V = {k: jsonschema.Draft202012Validator(v) for k, v in SERVER.items()}


def _integer_fields(schema: JSON) -> tuple[str, ...]:
    out = []
    for key, prop in schema["properties"].items():
        kinds = prop.get("type", ())
        kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
        if "integer" in kinds and "number" not in kinds:
            out.append(key)
    return tuple(out)


#: Per client message, its integer fields (where a float such as 2.0 is refused).
_INTEGERS = {k: _integer_fields(v) for k, v in CLIENT.items()}


class ProtocolError(Exception):
    """A message the server refuses: ``code`` is stable, the text says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _first_error(validator: jsonschema.Draft202012Validator, msg: Any) -> str | None:
    errors = sorted(validator.iter_errors(msg), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    where = "/".join(str(p) for p in e.absolute_path)
    return f"{where}: {e.message}" if where else e.message


def parse_client(text: str | bytes, max_bytes: int) -> JSON:
    """The checked client message in ``text``; :class:`ProtocolError` if it is not one."""
    if isinstance(text, bytes):
        raise ProtocolError("bad_frame", "send JSON in text frames, not binary")
    if len(text.encode()) > max_bytes:
        raise ProtocolError("too_large", f"a message may be at most {max_bytes} bytes")
    try:
        msg = json.loads(text)
    except ValueError as e:
        raise ProtocolError("bad_json", f"not JSON: {e}") from None
    except RecursionError:
        raise ProtocolError("bad_json", "not JSON the server reads: nested too deep") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError("bad_message", "a message is a JSON object with a string 'type'")
    validator = _CLIENT_V.get(msg["type"])
    if validator is None:
        raise ProtocolError(
            "unknown_type", f"unknown message type {msg['type']!r}; known: {', '.join(CLIENT)}"
        )
    try:
        _CLIENT_FAST[msg["type"]](msg)
    except fastjsonschema.JsonSchemaException:
        try:
            problem = _first_error(validator, msg)
        except RecursionError:
            problem = "nested too deep"
        if problem is not None:
            raise ProtocolError("bad_message", f"{msg['type']}: {problem}") from None
    except RecursionError:
        raise ProtocolError("bad_message", f"{msg['type']}: nested too deep") from None
    for key in _INTEGERS[msg["type"]]:
        if isinstance(msg.get(key), float):  # JSON Schema counts 2.0 as an integer; Python does not
            raise ProtocolError("bad_message", f"{msg['type']}: {key}: {msg[key]!r} is not an integer")
    if msg["type"] in ("act", "why"):
        check_action_text(msg["action"])
    elif msg["type"] == "hello" and "name" in msg:
        msg["name"] = clean_name(msg["name"])
    elif msg["type"] == "chat":
        msg["text"] = clean_text(msg["text"])
    return msg


#: Characters that show nothing although Unicode counts them as letters or symbols (Hangul
#: fillers, the blank Braille pattern, the Mongolian vowel separator).
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
#: Bidirectional embeddings, overrides and isolates: they reorder the text around them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
NAME_LENGTH = 32


def _visible(c: str) -> bool:
    return c not in INVISIBLE and unicodedata.category(c)[0] not in "ZCM"


def clean_name(name: str) -> str:
    """A player's name NFKC-normalised with its runs of spaces made one; :class:`ProtocolError`
    (``bad_name``) for a control, format or surrogate character or a name with nothing visible.

    >>> clean_name("  Ａｎｎ   Lee ")
    'Ann Lee'
    """
    for c in name:
        if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            raise ProtocolError("bad_name", f"a name may not contain the character U+{ord(c):04X}")
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not any(_visible(c) for c in name):
        raise ProtocolError("bad_name", "a name needs at least one visible character")
    if len(name) > NAME_LENGTH:
        raise ProtocolError("bad_name", f"a name may be at most {NAME_LENGTH} characters")
    return name


def clean_text(text: str) -> str:
    """A chat text NFC-normalised; :class:`ProtocolError` (``bad_text``) for a control character
    other than a line break or tab, a surrogate, a bidirectional override, or nothing visible."""
    for c in text:
        cat = unicodedata.category(c)
        if (cat == "Cc" and c not in "\n\t") or cat == "Cs" or c in BIDI_CONTROLS:
            raise ProtocolError("bad_text", f"a chat text may not contain the character U+{ord(c):04X}")
    text = unicodedata.normalize("NFC", text).strip()
    if not any(_visible(c) for c in text):
        raise ProtocolError("bad_text", "a chat text needs at least one visible character")
    return text


def check_action_text(text: str) -> None:
    """Refuse action text that is not the notation's printable ASCII (a control, a line break, ...).

    The table then reads the action and stores its canonical text, so that no spelling of an
    action (case, spaces) reaches a record, an event or another player.

    >>> check_action_text("play 5g 5r")
    >>> check_action_text("\u2028no-grand")
    Traceback (most recent call last):
    ...
    pagoda.server.protocol.ProtocolError: act: an action is written in printable ASCII; U+2028 at 0 is not
    """
    for i, ch in enumerate(text):
        if not (" " <= ch <= "~"):
            raise ProtocolError(
                "bad_action", f"act: an action is written in printable ASCII; U+{ord(ch):04X} at {i} is not"
            )


def check_server(msg: JSON) -> None:
    """Raise ``ValueError`` if ``msg`` is not a valid server message (used by tests and strict mode)."""
    validator = _SERVER_V.get(str(msg.get("type")))
    if validator is None:
        raise ValueError(f"unknown server message type {msg.get('type')!r}")
    problem = _first_error(validator, msg)
    if problem is not None:
        raise ValueError(f"{msg['type']}: {problem}")


def error(
    code: str,
    message: str,
    ref: Any = None,
    reason: str | None = None,
    params: dict[str, int | str] | None = None,
) -> JSON:
    """An error message, echoing the client's ``ref``; a refused action (``illegal``) also names
    the rule it breaks (``reason``, ``params``: see :class:`pagoda.core.IllegalAction`)."""
    out: JSON = {"type": "error", "code": code, "message": message}
    if reason is not None:
        out["reason"] = reason
        out["params"] = dict(params or {})
    if ref is not None:
        out["ref"] = ref
    return out


def schemas() -> JSON:
    """Both directions' schemas as one JSON document (served at /api/protocol)."""
    return {"protocol": PROTOCOL, "client": CLIENT, "server": SERVER}
