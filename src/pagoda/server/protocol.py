"""The WebSocket protocol at the edge: JSON messages, one per text frame, parsed into their models.

Every message is an object with a ``type``; :mod:`pagoda.server.messages` defines each as a
typed model, and :data:`CLIENT` / :data:`SERVER` hold the JSON Schemas generated from them.
:func:`parse_client` turns a frame into a checked message or raises :class:`ProtocolError` with
a code and a reason the client is told; names, chat texts and action texts are then cleaned
here. docs/protocol.md describes the exchange.
"""

import json
import re
import unicodedata
from typing import Any

import msgspec

from pagoda.server.messages import (
    CLIENT,
    CLIENT_DECODER,
    PROTOCOL,
    SERVER,
    ClientMessage,
    ServerMessage,
    schemas,
)

__all__ = ["CLIENT", "PROTOCOL", "SERVER", "ProtocolError", "check_server", "error", "parse_client"]
__all__ += ["apply_patch", "schemas", "view_patch"]

JSON = dict[str, Any]


class ProtocolError(Exception):
    """A message the server refuses: ``code`` is stable, the text says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


_WHERE = re.compile(r"^(?P<what>.*?)(?: - at `\$\.?(?P<where>[^`]*)`)?$", re.S)


def _explain(kind: str, e: msgspec.ValidationError) -> str:
    """The model's refusal worded for the client: ``sit: seat: Expected `int` >= 0``."""
    found = _WHERE.match(str(e))
    what, where = (found["what"], found["where"]) if found else (str(e), None)
    return f"{kind}: {where}: {what}" if where else f"{kind}: {what}"


def parse_client(text: str | bytes, max_bytes: int) -> JSON:
    """The checked client message in ``text`` (as a dict, the fields it gave); :class:`ProtocolError`
    if it is not one. The frame is parsed once, into its model
    (:data:`~pagoda.server.messages.CLIENT_DECODER`); only a refused one is read again, to say why."""
    if isinstance(text, bytes):
        raise ProtocolError("bad_frame", "send JSON in text frames, not binary")
    data = text.encode()
    if len(data) > max_bytes:
        raise ProtocolError("too_large", f"a message may be at most {max_bytes} bytes")
    try:
        msg: JSON = msgspec.to_builtins(CLIENT_DECODER.decode(data))
    except msgspec.ValidationError as e:  # (JSON, but not a message: a kind of DecodeError)
        raise _refusal(text, e) from None
    except msgspec.DecodeError as e:
        msg = _read_strictly(text, e)
    if msg["type"] in ("act", "why"):
        check_action_text(msg["action"])
    elif msg["type"] == "hello" and "name" in msg:
        msg["name"] = clean_name(msg["name"])
    elif msg["type"] == "chat":
        msg["text"] = clean_text(msg["text"])
    return msg


def _read_strictly(text: str, e: msgspec.DecodeError) -> JSON:
    """A frame the fast parser refused that is JSON all the same (a string with a lone surrogate
    escaped, which the name and text checks then refuse by name), or ``bad_json``."""
    try:
        loaded = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", f"not JSON: {e}") from None
    try:
        built: JSON = msgspec.to_builtins(msgspec.convert(loaded, ClientMessage))
    except msgspec.ValidationError as refused:
        raise _refusal(text, refused) from None
    return built


def _refusal(text: str, e: msgspec.ValidationError) -> ProtocolError:
    """Why a frame that is JSON is not a client message."""
    try:
        msg = json.loads(text)
    except RecursionError:
        return ProtocolError("bad_json", "not JSON the server reads: nested too deep")
    except ValueError as bad:  # (valid to the model's parser, which reads more than json does)
        return ProtocolError("bad_json", f"not JSON: {bad}")
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return ProtocolError("bad_message", "a message is a JSON object with a string 'type'")
    if msg["type"] not in CLIENT:
        known = ", ".join(CLIENT)
        return ProtocolError("unknown_type", f"unknown message type {msg['type']!r}; known: {known}")
    return ProtocolError("bad_message", _explain(msg["type"], e))


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
    try:
        msgspec.convert(msg, ServerMessage)
    except msgspec.ValidationError as e:
        raise ValueError(_explain(str(msg.get("type")), e)) from None


def view_patch(old: JSON | None, new: JSON) -> JSON | None:
    """The change from the view ``old`` to ``new``: ``game`` (the view's tag) and each top-level field
    whose value differs; None when ``new`` goes whole instead: there is no ``old``, it is another
    game's or another round's (a new deal changes nearly everything), its fields are others, or
    every field changed (a patch would be no smaller).

    >>> old = {"game": "doudizhu", "round": 1, "bid": 0, "to_move": 1}
    >>> view_patch(old, {**old, "bid": 2})
    {'game': 'doudizhu', 'bid': 2}
    >>> view_patch(old, {**old, "round": 2}) is None
    True
    """
    if old is None or old.keys() != new.keys() or old["game"] != new["game"] or old["round"] != new["round"]:
        return None
    changed = {key: value for key, value in new.items() if old[key] != value}
    if len(changed) >= len(new) - 2:  # (all but ``game`` and ``round``, which are the same)
        return None
    return {"game": new["game"], **changed}


def apply_patch(view: JSON, patch: JSON) -> JSON:
    """The view ``view`` with the fields of ``patch`` (from :func:`view_patch`) set: what a client does.

    >>> apply_patch({"game": "doudizhu", "round": 1, "bid": 0}, {"game": "doudizhu", "bid": 2})
    {'game': 'doudizhu', 'round': 1, 'bid': 2}
    """
    if patch["game"] != view["game"]:
        raise ValueError(f"a {patch['game']} patch cannot change a {view['game']} view")
    return {**view, **patch}


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
