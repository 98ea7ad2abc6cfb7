"""``--plot``: a round robin's ratings and its pairwise points as one PNG (matplotlib, Agg).

The left panel shows each bot's rating, best on top: the dot is mu, the bar runs from
mu - 3 sigma (the ordinal, marked) to mu + 3 sigma. The right panel is the pairwise matrix: the row
bot's mean points per deal against the column bot, with the 95% half-width, red where the row bot
wins and blue where it loses. The figure is drawn without pyplot, so no display or global state is
touched.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from pagoda.arena.ratings import Rating, ratings_from_json


def plot_round_robin(rep: Mapping[str, Any], path: str, title: str) -> None:
    """Write the PNG of a round robin's report (:func:`pagoda.arena.ratings.round_robin`) to ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    table = ratings_from_json(rep["ratings"])
    points = rep["points"]
    n = len(points["bots"])
    fig = Figure(figsize=(6.0 + 1.3 * n, 1.2 + max(2.4, 0.75 * n)), layout="constrained")
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2, width_ratios=[1.0, 0.35 + 0.3 * n])
    _ratings_panel(left, table)
    _matrix_panel(right, points)
    fig.suptitle(title)
    fig.savefig(path, dpi=120, format="png")


def _ratings_panel(ax: Any, table: Sequence[Rating]) -> None:
    ys = list(range(len(table)))[::-1]  # best on top
    mus = [r.mu for r in table]
    spread = [3.0 * r.sigma for r in table]
    ax.errorbar(
        mus, ys, xerr=spread, fmt="o", color="tab:blue", ecolor="tab:blue", capsize=4, label="mu ± 3σ"
    )
    ax.plot([r.ordinal for r in table], ys, "|", color="black", markersize=14, mew=2, label="ordinal")
    for y, r in zip(ys, table, strict=True):
        ax.annotate(
            f"{r.mu:.1f} ± {3 * r.sigma:.1f}",
            (r.mu, y),
            xytext=(0, 7),
            textcoords="offset points",
            ha="center",
            fontsize=8,
        )
    ax.set_yticks(ys, [r.bot for r in table])
    ax.set_ylim(-0.7, len(table) - 0.3)
    ax.set_xlabel("rating (openskill Plackett-Luce)")
    ax.set_title(f"Ratings over {max((r.games for r in table), default=0)} games a bot", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="best", fontsize=8)


def _matrix_panel(ax: Any, points: Mapping[str, Any]) -> None:
    bots: list[str] = points["bots"]
    n = len(bots)
    means: list[list[float | None]] = points["mean"]
    finite = [abs(m) for row in means for m in row if m is not None]
    scale = max(finite, default=1.0) or 1.0
    grid = [[float("nan") if m is None else m for m in row] for row in means]
    ax.imshow(grid, cmap="RdBu_r", vmin=-scale, vmax=scale)
    for i in range(n):
        for j in range(n):
            m, h = means[i][j], points["half_width"][i][j]
            text = "—" if m is None else f"{m:+.1f}\n±{h:.1f}"
            dark = m is not None and abs(m) > 0.6 * scale
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(n), bots, rotation=30, ha="right")
    ax.set_yticks(range(n), bots)
    ax.set_xlabel("against")
    ax.set_title(f"{points.get('unit', 'mean points')}, ± 95%", fontsize=10)
