"""Rules options as data: a frozen dataclass per game, named presets, and a text form.

A rules value is written as its preset's name followed by the options that differ from that
preset, e.g. ``"standard wish_required=true"``; :func:`parse_rules` reads that back. Every record
names its rules this way, so a record replays under exactly the rules it was played with.
"""

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, TypeVar

from pagoda.core.errors import ParseError


class NamedRules(Protocol):
    """What the helpers need of a game's rules: a frozen dataclass with a preset ``name``."""

    @property
    def name(self) -> str: ...

    __dataclass_fields__: ClassVar[dict[str, Any]]


R = TypeVar("R", bound=NamedRules)


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_value(text: str, current: object, option: str) -> object:
    if isinstance(current, bool):
        if text in ("true", "yes", "1", "on"):
            return True
        if text in ("false", "no", "0", "off"):
            return False
        raise ParseError(f"option {option} takes true or false, not {text!r}")
    if isinstance(current, int):
        try:
            return int(text)
        except ValueError:
            raise ParseError(f"option {option} takes a whole number, not {text!r}") from None
    if isinstance(current, float):
        try:
            return float(text)
        except ValueError:
            raise ParseError(f"option {option} takes a number, not {text!r}") from None
    return text


def format_rules(rules: NamedRules, presets: Mapping[str, R]) -> str:
    """The preset name of ``rules`` and the options in which it differs from that preset."""
    base = presets.get(rules.name)
    parts = [rules.name]
    for field in dataclasses.fields(rules):
        if field.name == "name":
            continue
        value = getattr(rules, field.name)
        if base is None or getattr(base, field.name) != value:
            parts.append(f"{field.name}={_format_value(value)}")
    return " ".join(parts)


def parse_rules(text: str, presets: Mapping[str, R]) -> R:
    """Read ``"preset option=value ..."`` into a rules value; unknown names are errors."""
    words = text.split()
    if not words:
        raise ParseError("empty rules: name a preset, one of " + ", ".join(sorted(presets)))
    name, options = words[0], words[1:]
    if name not in presets:
        raise ParseError(f"unknown preset {name!r}: one of " + ", ".join(sorted(presets)))
    base = presets[name]
    fields = {f.name for f in dataclasses.fields(base)} - {"name"}
    changes: dict[str, object] = {}
    for word in options:
        option, sep, value = word.partition("=")
        if not sep:
            raise ParseError(f"rules option {word!r} is not of the form option=value")
        if option not in fields:
            raise ParseError(f"unknown rules option {option!r}: one of " + ", ".join(sorted(fields)))
        changes[option] = _parse_value(value, getattr(base, option), option)
    return dataclasses.replace(base, **changes)
