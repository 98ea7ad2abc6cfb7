"""The game server: lobby, tables and a JSON WebSocket protocol (docs/server.md, docs/protocol.md).

Needs the ``server`` extra. :mod:`~pagoda.server.games` adapts each game, :mod:`~pagoda.server.table`
runs one actor per table, :mod:`~pagoda.server.protocol` checks messages, :mod:`~pagoda.server.store`
keeps records and event logs, :mod:`~pagoda.server.app` serves it all over HTTP and WebSocket.
"""
