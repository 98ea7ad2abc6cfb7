"""A learned bot's strength against its training episodes: a plot from ``pagoda train`` curve files.

``pagoda train tichu|doudizhu`` writes a curve point (JSON lines) every ``--eval-every``
episodes: the networks alone against the game's reference bot on fixed deals, with the 95%
interval. This draws one line a file, the intervals as error bars, against the episodes:
Dou Di Zhu's win probability (``wp``) or Tichu's points a round (``points``), whichever the
files hold. A label may follow a file after ``=``::

    python examples/learning_curve.py \\
        "docs/learned-doudizhu-curve.jsonl=results (the first weights)" \\
        "docs/learned-doudizhu-rollout-native-curve.jsonl=played-out gains (the shipped play)" \\
        --plot docs/learned-doudizhu-curve.png
"""

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def points(path: str) -> list[dict[str, Any]]:
    """The curve points of a file, in order of episodes."""
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    if not rows:
        raise SystemExit(f"{path}: no curve points")
    return sorted(rows, key=lambda r: int(r["episodes"]))


def measure(row: dict[str, Any]) -> tuple[float, float]:
    """A point's value and half-width: Dou Di Zhu's WP, else Tichu's points a round."""
    if "wp" in row:
        return float(row["wp"]), float(row["half_width"])
    return float(row["points"]), float(row["points_hw"])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("curves", nargs="+", help="curve files (JSON lines), each as FILE or FILE=LABEL")
    parser.add_argument("--plot", required=True, help="the PNG to write")
    args = parser.parse_args(argv)
    loaded = []
    for spec in args.curves:
        path, _, label = spec.partition("=")
        loaded.append((label or path, points(path)))
    kinds = {"wp" in row for _, rows in loaded for row in rows}
    if len(kinds) > 1:
        raise SystemExit("the files mix Dou Di Zhu (wp) and Tichu (points) curves: plot them apart")
    wp = kinds == {True}

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 3.8))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for label, rows in loaded:
        xs = [int(r["episodes"]) / 1000 for r in rows]
        ys, errors = zip(*(measure(r) for r in rows), strict=True)
        ax.errorbar(xs, ys, yerr=errors, marker="o", markersize=3, capsize=2, linewidth=1, label=label)
        last = f"{ys[-1]:g} ± {errors[-1]:g}"
        print(f"{label}: {len(rows)} points, {xs[0]:g}k–{xs[-1]:g}k episodes, the last {last}")
    ax.axhline(0.5 if wp else 0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("training episodes (thousands)")
    ax.set_ylabel("WP against the heuristic (95%)" if wp else "points a round against club (95%)")
    ax.set_title(str(loaded[0][1][0].get("eval", "")), fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.plot, dpi=110)
    print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
