"""Alembic environment: runs the migrations over the async engine of the configured URL."""

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from pagoda.server.store import metadata

target_metadata = metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def _online() -> None:
    url = context.config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = create_async_engine(url)
    async with engine.connect() as conn:
        await conn.run_sync(_run)
        await conn.commit()
    await engine.dispose()


def _main() -> None:
    if context.is_offline_mode():
        context.configure(
            url=context.config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata
        )
        with context.begin_transaction():
            context.run_migrations()
    else:
        asyncio.run(_online())


def _under_alembic() -> bool:
    """Only Alembic runs this module; importing it elsewhere (doctest collection) does nothing."""
    try:
        context.config  # noqa: B018
    except (NameError, AttributeError):
        return False
    return True


if _under_alembic():
    _main()
