"""The load script against a real ``pagoda serve``: a short run with no errors, and its bounds."""

import asyncio
import os
from pathlib import Path

import pytest

from pagoda.server.load import Options, check_loopback, main, percentiles, process_cpu, run_load

from .test_restart import free_port, server


def test_a_short_run_answers_every_action(tmp_path: Path) -> None:
    port = free_port()
    with server(tmp_path / "pagoda.sqlite3", port) as proc:
        options = Options(
            urls=[f"http://127.0.0.1:{port}"],
            tables=3,
            duration=4.0,
            think=0.1,
            ramp=0.3,
            server_pids=[proc.pid],
        )
        report = asyncio.run(run_load(options))
    assert report.errors == []
    assert (report.tables, report.sockets) == (3, 12)
    assert report.actions > 20
    # Every action is seen once on the actor's socket and once on each of the 3 other sockets.
    assert len(report.own) == report.actions
    assert len(report.others) == 3 * report.actions
    assert report.events >= 4 * report.actions
    # The server's CPU time over the 4 s window: some, and at most the 2 cores' 8 s.
    assert report.server_cpu is not None
    assert 0 < report.server_cpu <= 8.0
    summary = report.summary()
    assert summary["server_cpu_ms_per_action"] == round(1000 * report.server_cpu / report.actions, 3)


def test_fewer_sockets_than_seats_leave_the_rest_to_bots(tmp_path: Path) -> None:
    port = free_port()
    with server(tmp_path / "pagoda.sqlite3", port):
        options = Options(urls=[f"http://127.0.0.1:{port}"], tables=2, sockets=3, duration=2.0, think=0.1)
        report = asyncio.run(run_load(options))
    # Table 0 has seats 0-1 played by clients, table 1 seat 0; the bots' actions are not measured.
    assert report.errors == []
    assert report.sockets == 3
    assert len(report.own) == report.actions > 0


def test_bot_tables_play_beside_the_measured_ones(tmp_path: Path) -> None:
    port = free_port()
    with server(tmp_path / "pagoda.sqlite3", port):
        options = Options(
            urls=[f"http://127.0.0.1:{port}"],
            tables=1,
            duration=2.0,
            think=0.1,
            bot_tables=2,
            bot_level="heuristic",
        )
        report = asyncio.run(run_load(options))
    assert report.errors == []
    assert report.sockets == 4  # the bot tables' watchers are not clients of the measured tables
    assert report.bot_actions > 10
    assert len(report.own) == report.actions > 0
    assert report.summary()["bot_table_actions"] == report.bot_actions


@pytest.mark.parametrize(
    "url", ["http://10.0.0.1:8000", "http://example.org", "ws://127.0.0.1:8000", "http://0.0.0.0:8000"]
)
def test_only_loopback_servers(url: str) -> None:
    with pytest.raises(ValueError, match=r"loopback|http://"):
        check_loopback(url)
    assert check_loopback("http://[::1]:8000") == "::1"
    assert check_loopback("http://localhost:8000") == "localhost"


def test_bounds_are_checked() -> None:
    with pytest.raises(ValueError, match="--tables must be 1 to 1000, not 1001"):
        Options(urls=["http://127.0.0.1:1"], tables=1001).check()
    with pytest.raises(ValueError, match="--sockets"):
        Options(urls=["http://127.0.0.1:1"], tables=2, sockets=9).check()
    with pytest.raises(ValueError, match="--bot-tables must be 0 to 1000, not -1"):
        Options(urls=["http://127.0.0.1:1"], bot_tables=-1).check()
    with pytest.raises(ValueError, match="--duration"):
        Options(urls=["http://127.0.0.1:1"], duration=7200).check()
    with pytest.raises(SystemExit):
        main(["--url", "http://192.168.1.2:8000"])


def test_percentiles_are_nearest_rank() -> None:
    # 100 samples of 1..100 ms: p50 is the 50th, p90 the 90th, p99 the 99th.
    got = percentiles([i / 1000 for i in range(1, 101)])
    assert got == {"count": 100, "p50": 50.0, "p90": 90.0, "p99": 99.0, "max": 100.0}
    assert percentiles([]) == {"count": 0}


def test_server_pid_must_be_a_process() -> None:
    assert process_cpu(os.getpid()) > 0
    with pytest.raises(ValueError, match=r"--server-pid 0: no such process"):
        Options(urls=["http://127.0.0.1:8000"], server_pids=[0]).check()
