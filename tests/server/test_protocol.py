"""Incoming messages: the models accept exactly what the JSON Schemas generated from them accept."""

import json

import jsonschema
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pagoda.server.protocol import (
    CLIENT,
    ProtocolError,
    check_action_text,
    clean_name,
    clean_text,
    parse_client,
)

# Values near every bound of the schemas: seats 0-7, lengths 1-32/64/200/256/500, the protocol 1,
# and the types JSON Schema tells apart (true is not an integer, 1.0 is).
_VALUES: st.SearchStrategy[object] = st.one_of(
    st.sampled_from([0, 1, 7, 8, -1, 1.0, 1.5, True, False, None, "", [], {}, 2**40, "x" * 64, "x" * 65]),
    st.integers(-3, 10),
    st.text(max_size=3),
    st.integers(0, 600).map(lambda n: "x" * n),
)
_KEYS = st.sampled_from(
    [
        "ref",
        "seat",
        "a",
        "b",
        "level",
        "fill",
        "action",
        "text",
        "since",
        "protocol",
        "name",
        "guest",
        "rejoin",
        "invite",
        "extra",
    ]
)


@settings(max_examples=600, deadline=None)
@given(kind=st.sampled_from(sorted(CLIENT)), fields=st.dictionaries(_KEYS, _VALUES, max_size=4))
@example(kind="sit", fields={"seat": 1.0})  # (the edges, every run: a float where an integer goes,)
@example(kind="ping", fields={"ref": 1.0})
@example(kind="hello", fields={"protocol": 1.0})
@example(kind="hello", fields={"protocol": True})
@example(kind="ping", fields={"ref": "x" * 64})  # (the longest ref, and one longer)
@example(kind="ping", fields={"ref": "x" * 65})
@example(kind="why", fields={"action": "\x1f"})  # (a control in a why: refused by name, as in an act)
def test_a_message_is_accepted_exactly_when_its_schema_accepts_it(
    kind: str, fields: dict[str, object]
) -> None:
    msg = {"type": kind, **fields}
    valid = jsonschema.Draft202012Validator(CLIENT[kind]).is_valid(msg)
    if valid:
        refusal, accepted = _edge(kind, msg)
        if refusal is None:
            assert parse_client(json.dumps(msg), 1 << 20) == accepted
            return
        with pytest.raises(ProtocolError) as e:
            parse_client(json.dumps(msg), 1 << 20)
        assert e.value.code == refusal
        return
    with pytest.raises(ProtocolError) as e:
        parse_client(json.dumps(msg), 1 << 20)
    assert e.value.code == "bad_message"
    assert e.value.message.startswith(f"{kind}: ")


def _takes_integers(schema: dict[str, object]) -> bool:
    """Does a field's schema take integers (its type, one of its ``anyOf``, or an enum of them)?"""
    options = schema.get("anyOf", [schema])
    assert isinstance(options, list)
    return any(o.get("type") == "integer" or any(type(v) is int for v in o.get("enum", ())) for o in options)


def _edge(kind: str, msg: dict[str, object]) -> tuple[str | None, dict[str, object]]:
    """What the edge asks beyond the schema: the code it refuses a schema-valid message with (or
    None) and the message as it is accepted (a name or a chat text normalised)."""
    integers = [k for k, schema in CLIENT[kind]["properties"].items() if _takes_integers(schema)]
    if any(isinstance(msg.get(k), float) for k in integers):
        return "bad_message", msg  # JSON Schema counts 1.0 as an integer; the server does not
    try:
        if kind in ("act", "why"):  # the edge checks both actions' text (check_action_text)
            check_action_text(str(msg["action"]))
        elif kind == "hello" and "name" in msg:
            return None, {**msg, "name": clean_name(str(msg["name"]))}
        elif kind == "chat":
            return None, {**msg, "text": clean_text(str(msg["text"]))}
    except ProtocolError as e:
        return e.code, msg
    return None, msg
