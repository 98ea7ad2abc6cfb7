"""Rate limits: token buckets, one per client (guest or address) and kind of message.

A socket costs a visitor nothing, so what a client may do is counted per guest and per address,
across all of its sockets: a ``chat`` or ``resync`` is accepted only when both the guest's and the
address's bucket for it have a token.
"""

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rate:
    """``per_second`` on average, in bursts of up to ``burst``."""

    per_second: float
    burst: int


#: The server's per-client rates (``Settings`` fields of the same names, in lower case).
CHAT_PER_GUEST = Rate(1.0, 5)
CHAT_PER_ADDRESS = Rate(4.0, 20)
RESYNC_PER_GUEST = Rate(0.2, 3)
RESYNC_PER_ADDRESS = Rate(1.0, 10)
#: Login and password-change attempts per client address and per account name; registrations per address.
LOGIN_PER_ADDRESS = Rate(0.2, 10)
LOGIN_PER_NAME = Rate(1 / 60, 5)
REGISTER_PER_ADDRESS = Rate(1 / 60, 5)


class Bucket:
    """A token bucket at ``rate``; ``strikes`` counts the refusals."""

    __slots__ = ("clock", "rate", "stamp", "strikes", "tokens")

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self.tokens = float(rate.burst)
        self.stamp = clock()
        self.strikes = 0

    def refill(self) -> float:
        """The tokens there are now."""
        now = self.clock()
        self.tokens = min(float(self.rate.burst), self.tokens + (now - self.stamp) * self.rate.per_second)
        self.stamp = now
        return self.tokens

    def take(self) -> bool:
        """Take a token if there is one; a refusal is a strike."""
        if self.refill() >= 1.0:
            self.tokens -= 1.0
            return True
        self.strikes += 1
        return False


class Limiter:
    """Buckets by (kind, client); the full ones are dropped when there are more than ``keep``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, keep: int = 10_000) -> None:
        self.clock = clock
        self.keep = keep
        self.buckets: dict[tuple[str, str], Bucket] = {}

    def allow(self, kind: str, clients: Sequence[tuple[str, Rate]]) -> bool:
        """Whether each client (a key such as ``guest:<id>`` or ``ip:<address>``, with its rate)
        has a token for ``kind``; only then is one taken from each."""
        buckets = []
        for key, rate in clients:
            bucket = self.buckets.get((kind, key))
            if bucket is None:
                if len(self.buckets) >= self.keep:
                    self._prune()
                bucket = self.buckets[(kind, key)] = Bucket(rate, self.clock)
            buckets.append(bucket)
        if any(b.refill() < 1.0 for b in buckets):
            return False
        for b in buckets:
            b.tokens -= 1.0
        return True

    def _prune(self) -> None:
        full = [k for k, b in self.buckets.items() if b.refill() >= b.rate.burst]
        for k in full:
            del self.buckets[k]
