"""The Tichu search bot's strength by its time budget: a table and a plot from arena reports.

Each budget is one ``pagoda arena tichu`` run of ``search:budget=B`` against ``club`` on
mirrored deals, written with ``--json``; this reads the reports, prints a Markdown table (points
a round with the 95% interval, rounds won, one-two rates, decision times) and draws the points
a round against the budget, with the intervals, to a PNG:

    for b in 0.1 0.3; do pagoda arena tichu --bots search:budget=$b,club --deals 200 \\
        --seed 600001 --workers 1 --json budget-$b.json; done
    python examples/search_curve.py budget-*.json --plot docs/search-curve-tichu.png
"""

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def budget_of(report: dict[str, Any]) -> float:
    """The search bot's budget (seconds a decision) named in a report's bot spec."""
    spec = str(report["bots"]["A"])
    options = dict(part.split("=", 1) for part in spec.split(":")[1:])
    return float(options["budget"])


def row(report: dict[str, Any]) -> str:
    diff, won = report["a_minus_b"], report["a_win_rate"]
    times = report["decision_seconds"]["A"]
    one_two = report["one_two"]
    return (
        f"| {budget_of(report):g} s | {report['deals']} ({report['rounds']} rounds) "
        f"| {diff['mean']:+.1f} ± {diff['half_width']:.1f} "
        f"| {100 * won['mean']:.1f}% ± {100 * won['half_width']:.1f}% "
        f"| {100 * one_two['A']:.1f}% / {100 * one_two['B']:.1f}% "
        f"| {1000 * times['p99']:.0f} ms | {times['max']:.1f} s |"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", help="arena --json reports, one a budget")
    parser.add_argument("--plot", help="write the curve to this PNG")
    args = parser.parse_args(argv)
    reports = sorted((json.loads(Path(p).read_text()) for p in args.reports), key=budget_of)
    print(
        "| budget | deals | search − club, points a round | search's rounds won | one-two (search / club) "
        "| decision p99 | max |"
    )
    print("|---|---|---|---|---|---|---|")
    for report in reports:
        print(row(report))
    if args.plot:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=(6, 3.6))
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        xs = [budget_of(r) for r in reports]
        ys = [r["a_minus_b"]["mean"] for r in reports]
        errors = [r["a_minus_b"]["half_width"] for r in reports]
        ax.errorbar(xs, ys, yerr=errors, marker="o", capsize=4)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_xticks(xs, [f"{x:g} s" for x in xs])
        ax.set_xlabel("search budget a decision")
        ax.set_ylabel("search − club, points a round (95%)")
        deals = ", ".join(str(r["deals"]) for r in reports)
        ax.set_title(f"Tichu search against club (mirrored deals: {deals})", fontsize=10)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)


if __name__ == "__main__":
    main()
