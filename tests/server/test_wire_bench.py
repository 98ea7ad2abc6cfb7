"""The bytes a seeded Tichu round sends per action (docs/benchmarks.md, "Message bytes per action")."""

import asyncio
import json

import pytest

from pagoda.bench.wire import main, measure


def test_a_seeded_round_sends_one_message_of_a_few_hundred_bytes_per_action() -> None:
    got = asyncio.run(measure(1))
    assert got["actions"] == 138  # the same round every run: the figures in the docs are this one's
    assert got["bytes_per_action"]["seat_0"] < 400  # (a whole state after every event: 887)
    assert got["bytes_per_action"]["spectator"] < 350  # (745)
    assert got["messages_per_action_seat_0"] < 1.1  # (2.01: an event and a state)


def test_the_command_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seed", "3"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert (printed["seed"], printed["actions"]) == (3, 138)
    assert set(printed["bytes_per_action"]) == {"seat_0", "all_seats", "spectator"}
