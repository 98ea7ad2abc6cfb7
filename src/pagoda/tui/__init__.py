"""The terminal client: ``pagoda play <game>`` against bots and ``pagoda watch <record>``.

Built on Textual (the ``tui`` extra). The game logic of the client lives in plain classes
(:class:`pagoda.tui.base.GameUI` and one per game) that the Textual apps only draw and feed
keys to, so it is tested without a terminal as well as through Textual's pilot.
"""
