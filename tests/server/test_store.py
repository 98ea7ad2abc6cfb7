"""The store's grouped appends: committed together, a failing append refused alone and rolled back."""

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from pagoda.server.store import SqlStore, default_url

from .helpers import check_grouped_appends, run


@pytest.mark.parametrize("writer", ["sqlite3 thread", "async engine"])
def test_grouped_appends_commit_together_and_fail_alone(tmp_path: Path, writer: str) -> None:
    async def body() -> None:
        folder = tmp_path / "data dir"  # a space in the path: the writer opens the file SQLAlchemy names
        folder.mkdir()
        store = await SqlStore.open(default_url(str(folder)))
        assert store._sqlite is not None  # a SQLite file: the appends go to the writer thread
        if writer == "async engine":
            store._sqlite = None  # the path every other database takes
        await check_grouped_appends(store, (sqlite3.IntegrityError, IntegrityError))
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
