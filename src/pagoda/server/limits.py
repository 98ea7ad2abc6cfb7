"""Rate limits: token buckets, one per client (guest or address) and kind of message.

A socket costs a visitor nothing, so what a client may do is counted per guest and per address,
across all of its sockets: a ``chat`` or ``resync`` is accepted only when both the guest's and the
address's bucket for it have a token.

A process alone counts in a :class:`Limiter`. Several processes behind one Redis count in a
:class:`SharedLimiter`: the same buckets, kept in Redis and taken from atomically by a Lua
script, so that what a client does at one process counts at every other. A shared bucket's key
expires when the bucket would be full again, so the keys of clients gone away do not pile up.
"""

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("pagoda.server.limits")


@dataclass(frozen=True, slots=True)
class Rate:
    """``per_second`` on average, in bursts of up to ``burst``."""

    per_second: float
    burst: int

    def __post_init__(self) -> None:
        if not self.per_second > 0 or self.per_second == float("inf"):
            raise ValueError(f"a rate is a positive number of tokens a second, not {self.per_second!r}")
        if isinstance(self.burst, bool) or not isinstance(self.burst, int) or self.burst < 1:
            raise ValueError(f"a burst is a whole number of tokens from 1, not {self.burst!r}")


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
        # Every bucket is refilled (not only up to the first one short), as the shared script does.
        if min([b.refill() for b in buckets], default=1.0) < 1.0:
            return False
        for b in buckets:
            b.tokens -= 1.0
        return True

    def _prune(self) -> None:
        full = [k for k, b in self.buckets.items() if b.refill() >= b.rate.burst]
        for k in full:
            del self.buckets[k]


#: The prefix of the shared buckets' Redis keys: ``pagoda:limit:<kind>:<client>``.
SHARED_PREFIX = "pagoda:limit"

# Token buckets in Redis, one hash (tokens, stamp) per key of KEYS. ARGV[1] is the time in seconds
# ('' for Redis' own clock, the one every process shares), then each key's rate and burst. Every
# bucket is refilled to now; only when each has a token is one taken from each. A key expires a
# second after its bucket would be full again (a missing key is a full bucket). Numbers are kept
# with 17 digits, so they come back as the very floats they were.
_TAKE = """
local now = tonumber(ARGV[1])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) + tonumber(t[2]) / 1000000
end
local levels = {}
local short = false
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[2 * i])
  local burst = tonumber(ARGV[2 * i + 1])
  local got = redis.call('HMGET', key, 'tokens', 'stamp')
  local level = burst
  if got[1] then
    level = math.min(burst, tonumber(got[1]) + math.max(0, now - tonumber(got[2])) * rate)
  end
  levels[i] = level
  if level < 1 then short = true end
end
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[2 * i])
  local burst = tonumber(ARGV[2 * i + 1])
  local level = levels[i]
  if not short then level = level - 1 end
  redis.call('HSET', key, 'tokens', string.format('%.17g', level), 'stamp', string.format('%.17g', now))
  redis.call('PEXPIRE', key, math.ceil((burst - level) / rate * 1000) + 1000)
end
if short then return 0 end
return 1
"""


class SharedLimiter:
    """A :class:`Limiter` whose buckets live in Redis, shared by every process that uses it.

    ``redis`` is a ``redis.asyncio.Redis``. Without ``clock`` the buckets run on Redis' clock, so
    processes whose clocks differ still agree. When Redis cannot be reached, ``fallback`` (the
    process's own limiter) decides meanwhile, and the failure is logged.
    """

    def __init__(
        self,
        redis: Any,
        fallback: Limiter | None = None,
        clock: Callable[[], float] | None = None,
        prefix: str = SHARED_PREFIX,
    ) -> None:
        self.redis = redis
        self.fallback = fallback if fallback is not None else Limiter()
        self.clock = clock
        self.prefix = prefix
        self.script = redis.register_script(_TAKE)

    def key(self, kind: str, client: str) -> str:
        """The Redis key of the bucket of ``client`` for ``kind``."""
        return f"{self.prefix}:{kind}:{client}"

    async def allow(self, kind: str, clients: Sequence[tuple[str, Rate]]) -> bool:
        """Whether each client has a token for ``kind`` in the shared buckets; only then is one
        taken from each (as :meth:`Limiter.allow`)."""
        if not clients:
            return True
        keys = [self.key(kind, client) for client, _ in clients]
        args: list[str] = ["" if self.clock is None else repr(self.clock())]
        for _, rate in clients:
            args += [repr(float(rate.per_second)), str(int(rate.burst))]
        try:
            return bool(await self.script(keys=keys, args=args))
        except Exception:
            log.exception("shared rate limits: Redis failed; this process's own limits decide meanwhile")
            return self.fallback.allow(kind, clients)
