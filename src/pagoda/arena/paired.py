"""Two arena runs on the same deals, compared deal by deal (``pagoda arena GAME --compare X Y``).

An arena's JSON report keeps each deal's value — the mean over its two mirrored games — under
``per_deal``. Two runs over the same deals that share a side, say ``learned,heuristic`` and
``learned:weights=old.npz,heuristic``, then pair deal by deal: the difference of their per-deal
values leaves out what the cards alone decide, so its interval is far narrower than the two
runs' own intervals, which overlap long before the difference is in doubt.

>>> x = {"game": "doudizhu", "bots": {"A": "new", "B": "h"}, "rules": "classic",
...      "per_deal": {"deal": [1, 2, 3, 4], "wp": [1.0, 0.5, 1.0, 0.5]}}
>>> y = {"game": "doudizhu", "bots": {"A": "old", "B": "h"}, "rules": "classic",
...      "per_deal": {"deal": [2, 3, 4, 5], "wp": [0.5, 0.5, 0.5, 0.0]}}
>>> c = compare(x, y, ("wp",), same=("rules",))
>>> c["deals"], c["metrics"]["wp"]["x"]["mean"], c["metrics"]["wp"]["x_minus_y"]["mean"]
(3, 0.6666666666666666, 0.16666666666666666)
"""

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from pagoda.arena.stats import summarize


class CompareError(ValueError):
    """Two reports that cannot be compared deal by deal; the message says why."""


def per_deal(deals: Sequence[int], **values: Sequence[float]) -> dict[str, list[float] | list[int]]:
    """The ``per_deal`` part of a report: the deals, then each metric's value on each deal."""
    out: dict[str, list[float] | list[int]] = {"deal": list(deals)}
    for name, column in values.items():
        assert len(column) == len(deals), name
        out[name] = [float(v) for v in column]
    return out


def load_report(path: str, game: str) -> dict[str, Any]:
    """Read one arena report written by ``--json``; a clear error for anything else."""
    try:
        with open(path, encoding="utf-8") as f:
            rep = json.load(f)
    except OSError as e:
        raise CompareError(f"{path}: cannot read it ({e.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CompareError(f"{path}: not a JSON arena report ({e})") from None
    if not isinstance(rep, dict) or "bots" not in rep:
        raise CompareError(f"{path}: not an arena report (no 'bots')")
    if "pairs" in rep or "ratings" in rep:
        raise CompareError(f"{path}: a round robin's report; compare runs of two bots")
    if rep.get("game", game) != game:
        raise CompareError(f"{path}: a {rep['game']} report, not {game}")
    if not isinstance(rep.get("per_deal"), dict):
        raise CompareError(f"{path}: the report has no per-deal results (an older report); rerun it")
    return rep


def compare(
    x: Mapping[str, Any], y: Mapping[str, Any], metrics: Sequence[str], same: Sequence[str] = ()
) -> dict[str, Any]:
    """Each metric over the deals both reports played: X's mean, Y's mean and X − Y, each with
    its 95% interval (the last over the deals' differences). Reports whose ``same`` keys differ
    (the rules, say) or that share no deal are refused."""
    for key in same:
        if x.get(key) != y.get(key):
            raise CompareError(f"the runs differ in {key}: {x.get(key)!r} against {y.get(key)!r}")
    xs = {d: i for i, d in enumerate(x["per_deal"]["deal"])}
    ys = {d: i for i, d in enumerate(y["per_deal"]["deal"])}
    common = sorted(set(xs) & set(ys))
    if not common:
        raise CompareError("the runs share no deal: run them with the same --seed")
    out: dict[str, Any] = {"x": dict(x["bots"]), "y": dict(y["bots"]), "deals": len(common), "metrics": {}}
    for m in metrics:
        if m not in x["per_deal"] or m not in y["per_deal"]:
            raise CompareError(f"a report has no per-deal {m!r}")
        a = [x["per_deal"][m][xs[d]] for d in common]
        b = [y["per_deal"][m][ys[d]] for d in common]
        out["metrics"][m] = {
            "x": asdict(summarize(a)),
            "y": asdict(summarize(b)),
            "x_minus_y": asdict(summarize([p - q for p, q in zip(a, b, strict=True)])),
        }
    return out


def format_comparison(c: Mapping[str, Any], names: Mapping[str, tuple[str, int]]) -> str:
    """The comparison as text; ``names`` gives each metric's words and its decimal digits."""
    lines = [
        f"X = {c['x']['A']} vs {c['x']['B']}",
        f"Y = {c['y']['A']} vs {c['y']['B']}",
        f"on the {c['deals']} deals both played (each the mean of its two games; 95% intervals):",
    ]
    for m, v in c["metrics"].items():
        x, y, d = v["x"], v["y"], v["x_minus_y"]
        name, digits = names.get(m, (m, 3))
        lines.append(
            f"  {name}: X {x['mean']:.{digits}f} ± {x['half_width']:.{digits}f},"
            f" Y {y['mean']:.{digits}f} ± {y['half_width']:.{digits}f},"
            f" X − Y {d['mean']:+.{digits}f} ± {d['half_width']:.{digits}f} (paired)"
        )
    return "\n".join(lines)
