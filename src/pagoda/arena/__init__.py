"""Arenas: bots against bots on seeded, mirrored deals, with confidence intervals.

:mod:`pagoda.arena.stats` holds the game-free arithmetic; each game has its module
(``pagoda arena tichu``).
"""
