"""A Tichu bot that thinks for :data:`SLEEP` seconds before it plays: past any short time limit.

Importing this module registers it as ``slow``, and ``crash`` beside it (the server's pool imports
it in every worker).
"""

import os
import random
import time
from collections.abc import Sequence
from typing import Any

from pagoda.bots import register

SLEEP = 2.5


@register("tichu", "slow", level=-1, replace=True)
class SlowBot:
    """Sleeps, then takes the first legal action."""

    def decide(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The first legal action, :data:`SLEEP` seconds late."""
        time.sleep(SLEEP)
        return legal_actions[0]


@register("tichu", "crash", level=-1, replace=True)
class CrashBot:
    """Ends its process at its first decision, as a worker that dies would."""

    def decide(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """Never returns: the process exits."""
        os._exit(3)
