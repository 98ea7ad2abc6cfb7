"""The count files in counts/: positions, the number of legal plays or actions, with the arithmetic by hand.

Combination files are also checked against the independent brute force, so a wrong hand count shows up even
before the core exists. The format of each file is documented at its top.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.tichu.brute_force import DECK, Reading, beats, highest_reading, legal_plays

COUNTS = Path(__file__).parent / "counts"
COMBO_FILES = sorted(p for p in COUNTS.glob("*.txt") if p.name != "rounds.txt")
ROUNDS_FILE = COUNTS / "rounds.txt"


@dataclass
class Block:
    """One case of a combination file: its keys, the comment above it and where it starts."""

    where: str
    keys: dict[str, str]
    comment: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return self.where


def read_combo_blocks(path: Path) -> list[Block]:
    blocks: list[Block] = []
    comment: list[str] = []
    keys: dict[str, str] = {}
    start = 0
    for number, raw in enumerate([*path.read_text().splitlines(), ""], start=1):
        line = raw.strip()
        if not line:
            if keys:
                blocks.append(Block(f"{path.name}:{start}", keys, comment))
            keys, comment = {}, []
            continue
        if line.startswith("#"):
            comment.append(line)
            continue
        key, sep, value = line.partition(":")
        assert sep, f"{path.name}:{number}: expected `key: value`, got {line!r}"
        if not keys:
            start = number
        assert key not in keys, f"{path.name}:{number}: duplicate key {key}"
        keys[key.strip()] = value.strip()
    return blocks


COMBO_BLOCKS = [b for p in COMBO_FILES for b in read_combo_blocks(p)]


def cards_of(text: str) -> list[str]:
    """Card tokens of a text whose tokens are space-separated (the form used in these files)."""
    return text.split()


def my_top(on: str) -> Reading | None:
    """The brute force's reading of an `on:` value."""
    if on == "lead":
        return None
    if " on " in on:
        top, under = on.split(" on ")
        return highest_reading(cards_of(top), highest_reading(cards_of(under)))
    return highest_reading(cards_of(on))


def parse_kinds(text: str) -> dict[str, int]:
    return {k: int(v) for k, v in (item.split("=") for item in text.split())}


def parse_expect(text: str) -> tuple[str, float] | None:
    if text == "none":
        return None
    kind, rank = text.split()
    return kind, float(rank)


@pytest.mark.parametrize("block", COMBO_BLOCKS, ids=str)
def test_hand_counts_agree_with_brute_force(block: Block) -> None:
    """Self-check: the arithmetic in the files and the brute force tell the same story."""
    k = block.keys
    if "hand" in k:
        plays = legal_plays(cards_of(k["hand"]), my_top(k["on"]))
        assert len(plays) == int(k["count"]), f"{block}: brute force finds {len(plays)}"
        if "kinds" in k:
            assert dict(Counter(r.kind for r in plays.values())) == parse_kinds(k["kinds"]), block
    elif "classify" in k:
        under = my_top(k["on"]) if "on" in k else None
        r = highest_reading(cards_of(k["classify"]), under)
        got = None if r is None else (r.kind, float(r.rank))
        assert got == parse_expect(k["expect"]), f"{block}: brute force reads {r}"
    else:
        play, top = highest_reading(cards_of(k["play"]), my_top(k["on"])), my_top(k["on"])
        assert play is not None, block
        assert beats(play, top) == (k["beats"] == "yes"), block


# ---------------------------------------------------------------- against the core


def core() -> Any:
    """The rules core under test."""
    return importlib.import_module("pagoda.tichu")


def core_top(on: str) -> Any:
    """The core's Combo for an `on:` value."""
    tichu = core()
    if on == "lead":
        return None
    if " on " in on:
        top, under = on.split(" on ")
        return tichu.classify(top, on=tichu.classify(under, on=None))
    return tichu.classify(on, on=None)


def show(combo: Any) -> str:
    return f"{core().format_cards(combo.cards)} ({combo.kind} {combo.rank})"


@pytest.mark.parametrize("block", COMBO_BLOCKS, ids=str)
def test_combination_counts(block: Block) -> None:
    tichu = core()
    k = block.keys
    why = "\n".join(block.comment)
    if "hand" in k:
        top = core_top(k["on"])
        assert k["on"] == "lead" or top is not None, f"{block}: the core does not read {k['on']!r}"
        plays = list(tichu.plays(k["hand"], on=top))
        listing = "\n  ".join(show(c) for c in plays)
        message = (
            f"{block}: hand {k['hand']} on {k['on']}: expected {k['count']}, got {len(plays)}\n{why}\n"
            f"plays:\n  {listing}"
        )
        assert len(plays) == int(k["count"]), message
        if "kinds" in k:
            assert dict(Counter(c.kind for c in plays)) == parse_kinds(k["kinds"]), message
    elif "classify" in k:
        under = core_top(k["on"]) if "on" in k else None
        combo = tichu.classify(k["classify"], on=under)
        got = None if combo is None else (combo.kind, float(combo.rank))
        assert got == parse_expect(k["expect"]), (
            f"{block}: classify {k['classify']}: expected {k['expect']}, got {got}\n{why}"
        )
    else:
        top = core_top(k["on"])
        play = tichu.classify(k["play"], on=top)
        assert play is not None, f"{block}: the core does not read {k['play']!r}"
        does_beat = bool(tichu.beats(play, top))
        assert does_beat == (k["beats"] == "yes"), (
            f"{block}: {k['play']} on {k['on']}: expected {k['beats']}\n{why}"
        )


# ---------------------------------------------------------------- rounds


@dataclass
class RoundCase:
    """A [case] of rounds.txt: its deal and its lines (number, text) in order."""

    title: str
    line: int
    deal: str = ""
    steps: list[tuple[int, str]] = field(default_factory=list)

    def __str__(self) -> str:
        return f"rounds.txt:{self.line} {self.title}"


def read_rounds(path: Path) -> tuple[dict[str, list[str]], list[RoundCase]]:
    deals: dict[str, list[str]] = {}
    cases: list[RoundCase] = []
    current_deal: str | None = None
    current_case: RoundCase | None = None
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        header = re.fullmatch(r"\[(deal|case) (.+)\]", line)
        if header:
            current_deal = current_case = None
            if header[1] == "deal":
                current_deal = header[2]
                deals[current_deal] = ["", "", "", ""]
            else:
                current_case = RoundCase(header[2], number)
                cases.append(current_case)
            continue
        if current_deal is not None:
            seat, _, hand = line.partition(":")
            deals[current_deal][int(seat)] = hand.strip()
        elif current_case is not None:
            if line.startswith("deal:"):
                current_case.deal = line.partition(":")[2].strip()
            else:
                current_case.steps.append((number, line))
        else:
            raise AssertionError(f"rounds.txt:{number}: line outside a [deal] or [case]")
    return deals, cases


DEALS, ROUND_CASES = read_rounds(ROUNDS_FILE)


def test_deals_are_whole_decks() -> None:
    for name, hands in DEALS.items():
        cards = [c for h in hands for c in cards_of(h)]
        assert [len(cards_of(h)) for h in hands] == [14] * 4, name
        assert sorted(cards) == sorted(DECK), name


def action_texts(state: Any, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def run_step(state: Any, text: str) -> tuple[Any, str | None]:
    """Apply or check one line; returns the new state and a failure message (None when it holds)."""
    if text.startswith(">"):
        mover, _, action = text[1:].strip().partition(" ")
        try:
            return state.apply(int(mover), action), None
        except ValueError as exc:
            legal = action_texts(state, int(mover))
            raise AssertionError(f"`{text}` was refused: {exc}\n  legal for {mover}: {legal}") from exc
    key, _, value = text.partition(":")
    value = value.strip()
    if key.startswith("legal "):
        seat = int(key.split()[1])
        acts = [a for a in action_texts(state, seat) if a != "tichu"]
        if len(acts) != int(value):
            return state, f"legal {seat}: expected {value}, got {len(acts)}: {acts}"
    elif key.startswith("tichu "):
        seat = int(key.split()[1])
        has = "tichu" in action_texts(state, seat)
        if has != (value == "yes"):
            return state, f"tichu {seat}: expected {value}, got {'yes' if has else 'no'}"
    elif key == "window":
        expected_window = tuple(int(x) for x in value.split()) if value != "-" else ()
        if tuple(state.window) != expected_window:
            return state, f"window: expected {expected_window}, got {tuple(state.window)}"
    elif key == "to_move":
        if state.to_move != int(value):
            return state, f"to_move: expected {value}, got {state.to_move}"
    elif key == "illegal":
        mover, _, action = value.partition(" ")
        try:
            state.apply(int(mover), action)
        except core().IllegalAction:
            return state, None
        return state, f"`{value}` was accepted, expected IllegalAction"
    elif key == "over":
        if bool(state.is_over) != (value == "yes"):
            return state, f"over: expected {value}, got {state.is_over}"
    elif key == "score":
        expected = tuple(int(x) for x in value.split())
        got = tuple(state.score())
        if got != expected:
            return state, f"score: expected {expected}, got {got}"
    else:
        raise AssertionError(f"unknown line {text!r}")
    return state, None


@pytest.mark.parametrize("case", ROUND_CASES, ids=str)
def test_round_positions(case: RoundCase) -> None:
    state = core().Round.from_hands(DEALS[case.deal])
    failures: list[str] = []
    for number, text in case.steps:
        try:
            state, failure = run_step(state, text)
        except AssertionError as exc:
            failures.append(f"rounds.txt:{number}: {exc}")
            break
        if failure:
            failures.append(f"rounds.txt:{number}: {failure}")
    assert not failures, f"{case}\n" + "\n".join(failures)
