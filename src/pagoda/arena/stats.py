"""The arithmetic of an arena: means with normal 95% intervals, rates, and order statistics.

>>> s = summarize([1.0, 2.0, 3.0, 4.0])
>>> s.n, s.mean, round(s.sd, 4), round(s.half_width, 4)
(4, 2.5, 1.291, 1.2652)
>>> [round(x, 4) for x in wilson(3, 3)]
[0.4385, 1.0]
>>> percentile([5.0, 1.0, 3.0], 50), percentile(list(map(float, range(1, 101))), 99)
(3.0, 99.0)
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


@dataclass(frozen=True, slots=True)
class Summary:
    """Sample size, mean, sample standard deviation and the half-width of the 95% interval."""

    n: int
    mean: float
    sd: float
    half_width: float

    @property
    def low(self) -> float:
        """Lower end of the 95% interval."""
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        """Upper end of the 95% interval."""
        return self.mean + self.half_width

    def text(self, digits: int = 1) -> str:
        """``mean ± half-width`` rounded to ``digits``."""
        return f"{self.mean:.{digits}f} ± {self.half_width:.{digits}f}"


def summarize(values: Sequence[float]) -> Summary:
    """Mean and normal 95% interval (z = 1.96, sample sd with n - 1) of independent ``values``."""
    n = len(values)
    if n == 0:
        return Summary(0, math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return Summary(1, mean, math.nan, math.inf)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return Summary(n, mean, sd, Z95 * sd / math.sqrt(n))


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a rate: ``successes`` of ``trials`` (low, high).

    Unlike the normal interval it stays inside 0..1 and is not zero-wide for a handful of calls
    that all went one way: 3 of 3 made is 44%–100%, not "100% ± 0%". No trials: (0, 1).
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile by the nearest-rank method (``q`` in 0..100)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]
