"""Slow clients: an HTTP connection must finish its request's headers within a time limit.

uvicorn's ``timeout_keep_alive`` closes a connection that stays idle between requests, but not
one that opens and then sends its headers a byte at a time (or never finishes them). The
protocol here is uvicorn's own (httptools when installed, else h11) with one timer more: armed
when the connection is made and after each response, it closes the connection unless a new
request's headers have arrived (or the connection has become a WebSocket) by then. A body that
never arrives is the application's to refuse (``pagoda.server.app`` gives it 10 s).
"""

import asyncio
from typing import Any

#: Seconds a connection has to send a request's headers.
HEADER_TIMEOUT = 10.0


def guarded(header_timeout: float = HEADER_TIMEOUT) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol closing connections that take over ``header_timeout`` seconds to
    send a request's headers (pass it as ``uvicorn.run(..., http=guarded())``)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol  # imported with the server only

    base: Any = AutoHTTPProtocol

    class Guarded(base):  # type: ignore[misc]
        """uvicorn's protocol with a deadline on each request's headers."""

        _deadline: asyncio.TimerHandle | None = None
        _waiting_since: Any = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._waiting_since = self.cycle  # the request before the one awaited
            self._deadline = self.loop.call_later(header_timeout, self._late)

        def _late(self) -> None:
            self._deadline = None
            transport = self.transport
            if transport is None or transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or a WebSocket now
            cycle = self.cycle
            served = cycle is None or cycle.response_complete  # no request being answered
            if cycle is self._waiting_since and served:  # and no new request's headers came
                transport.close()

    return Guarded
