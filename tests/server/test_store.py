"""The store's grouped appends: committed together, a failing append refused alone and rolled back."""

import asyncio
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from pagoda.server.store import SqlStore, default_url

from .helpers import run


@pytest.mark.parametrize("writer", ["sqlite3 thread", "async engine"])
def test_grouped_appends_commit_together_and_fail_alone(tmp_path: Path, writer: str) -> None:
    async def body() -> None:
        folder = tmp_path / "data dir"  # a space in the path: the writer opens the file SQLAlchemy names
        folder.mkdir()
        store = await SqlStore.open(default_url(str(folder)))
        assert store._sqlite is not None  # a SQLite file: the appends go to the writer thread
        if writer == "async engine":
            store._sqlite = None  # the path every other database takes
        for t in ("a", "b", "c"):
            await store.create(t, "tichu", {"seed": 1}, "owner", "inv")
        await store.append("b", [{"seq": 1, "kind": "started", "time": 0.0}], "playing", "rec 0")
        # Three appends arrive together: b's repeats its seq 1, which the unique (table, seq) refuses.
        results = await asyncio.gather(
            store.append("a", [{"seq": 1, "kind": "started", "time": 1.0}], "playing", "rec a"),
            store.append("b", [{"seq": 1, "kind": "chat", "time": 2.0}], "finished", "rec b"),
            store.append(
                "c",
                [{"seq": 1, "kind": "started", "time": 3.0}, {"seq": 2, "kind": "chat", "time": 4.0}],
                "playing",
                None,
            ),
            return_exceptions=True,
        )
        assert results[0] is None
        assert results[2] is None
        assert isinstance(results[1], (sqlite3.IntegrityError, IntegrityError))
        assert [e["kind"] for e in await store.events("a")] == ["started"]
        assert [e["kind"] for e in await store.events("b")] == ["started"]  # b's failed append left nothing
        assert [(e["seq"], e["kind"]) for e in await store.events("c")] == [(1, "started"), (2, "chat")]
        got = {t: await store.get(t) for t in "abc"}
        assert {t: (s.status, s.record) for t, s in got.items() if s is not None} == {
            "a": ("playing", "rec a"),
            "b": ("playing", "rec 0"),  # neither status nor record changed by the refused append
            "c": ("playing", None),
        }
        await store.close()
        await store.close()  # a second close does nothing

    run(body)


def test_only_a_plain_sqlite_file_gets_the_writer_thread(tmp_path: Path) -> None:
    async def body() -> None:
        for url, threaded in [
            (default_url(str(tmp_path)), True),
            ("sqlite+aiosqlite://", False),
            ("sqlite+aiosqlite:///:memory:", False),
            (f"sqlite+aiosqlite:///{tmp_path}/x.sqlite3?timeout=5", False),
        ]:
            store = SqlStore(url)
            assert (store._sqlite is not None) is threaded, url
            await store.close()

    run(body)
