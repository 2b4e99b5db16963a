"""The hierarchical model's shrinkage and the Plackett–Luce rank distribution.

``plot_shrinkage(result, pair)`` draws, per dataset, the raw mean fold difference with its
Nadeau–Bengio t interval beside the model's shrunk difference with its credible interval,
and the population difference. ``plot_rank_distribution(result)`` draws P(best) per method
beside the heat strip of its rank distribution (legible up to 50 methods and more). The
simplex of a hierarchical pair is :func:`mcda.plots.plot_posterior`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError
from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style
from mcda.present.plots._layout import check_page

__all__ = ["shrinkage_rows", "rank_strip", "strip_height", "plot_shrinkage", "plot_rank_distribution"]

_SHRINK_FIELDS = ("shrinkage", "table", "methods", "rope", "confidence_level")
_PL_FIELDS = ("table", "rank_probabilities", "order", "methods", "n_rankings")


def shrinkage_rows(result, pair, *, sort: str = "raw") -> pd.DataFrame:
    """The datasets of ``pair`` oriented as asked (differences ``pair[0] − pair[1]``), in drawing order.

    Columns ``dataset, mean_diff, ci_low, ci_high, shrunk_diff, shrunk_ci_low,
    shrunk_ci_high, note, y`` (row position, 0 at the top); datasets left out of the pair (NaN)
    are dropped. ``sort``: ``"raw"`` (by raw difference, largest at the top), ``"shrunk"`` or
    ``"input"`` (the result's dataset order).

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> shrink = pd.DataFrame({"method_a": ["a"] * 2, "method_b": ["b"] * 2, "dataset": ["d1", "d2"],
    ...     "mean_diff": [0.1, -0.2], "ci_low": [0.0, -0.3], "ci_high": [0.2, -0.1],
    ...     "shrunk_diff": [0.05, -0.1], "shrunk_ci_low": [0.0, -0.2], "shrunk_ci_high": [0.1, 0.0],
    ...     "note": ["", ""]})
    >>> rows = shrinkage_rows(SimpleNamespace(shrinkage=shrink, methods=["a", "b"]), ("b", "a"))
    >>> rows[["dataset", "mean_diff", "ci_low", "y"]].values.tolist()
    [['d2', 0.2, 0.1, 0], ['d1', -0.1, -0.2, 1]]
    """
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise McdaArgumentError(f"`pair` must be a (method_a, method_b) tuple; got {pair!r}",
                                argument="pair", value=pair)
    a, b = (str(p) for p in pair)
    methods = [str(m) for m in result.methods]
    if a not in methods or b not in methods or a == b:
        raise McdaArgumentError(f"`pair` must name two different methods of the result {methods}; got {pair!r}",
                                argument="pair", value=pair)
    if sort not in ("raw", "shrunk", "input"):
        raise McdaArgumentError(f"`sort` must be one of {{'raw', 'shrunk', 'input'}}; got {sort!r}",
                                argument="sort", value=sort, allowed=("raw", "shrunk", "input"))
    shrink = result.shrinkage
    forward = shrink[(shrink["method_a"] == a) & (shrink["method_b"] == b)]
    cols = ["dataset", "mean_diff", "ci_low", "ci_high", "shrunk_diff", "shrunk_ci_low",
            "shrunk_ci_high", "note"]
    if len(forward):
        rows = forward[cols].copy()
    else:
        back = shrink[(shrink["method_a"] == b) & (shrink["method_b"] == a)]
        rows = pd.DataFrame({
            "dataset": back["dataset"].to_numpy(),
            "mean_diff": -back["mean_diff"].to_numpy(),
            "ci_low": -back["ci_high"].to_numpy(),
            "ci_high": -back["ci_low"].to_numpy(),
            "shrunk_diff": -back["shrunk_diff"].to_numpy(),
            "shrunk_ci_low": -back["shrunk_ci_high"].to_numpy(),
            "shrunk_ci_high": -back["shrunk_ci_low"].to_numpy(),
            "note": back["note"].to_numpy(),
        })
    rows = rows[np.isfinite(rows["shrunk_diff"].to_numpy(dtype=float))]
    if sort != "input":
        key = "mean_diff" if sort == "raw" else "shrunk_diff"
        rows = rows.iloc[np.argsort(-rows[key].to_numpy(dtype=float), kind="stable")]
    rows = rows.reset_index(drop=True)
    rows["y"] = np.arange(len(rows))
    return rows


def _population(result, a, b):
    table = result.table
    row = table[(table["method_a"] == a) & (table["method_b"] == b)]
    if len(row):
        r = row.iloc[0]
        return r["population_diff"], r["population_ci_low"], r["population_ci_high"], r
    r = table[(table["method_a"] == b) & (table["method_b"] == a)].iloc[0]
    return -r["population_diff"], -r["population_ci_high"], -r["population_ci_low"], r


def plot_shrinkage(result, pair, *, sort: str = "raw", page: int = 1, width="column", ax=None):
    """Per dataset, the raw mean difference beside the hierarchical model's shrunk difference.

    Parameters
    ----------
    result : HierarchicalComparison
        From :func:`mcda.hierarchical_comparison`.
    pair : (str, str)
        The two methods; differences are ``pair[0] − pair[1]`` in the metric's units.
    sort : {"raw", "shrunk", "input"}
        Row order (see :func:`shrinkage_rows`).
    page : int
        Which page of datasets (1 = the first): rows of 0.16 in (down to 0.125 in) per dataset;
        datasets that would make the figure taller than a page (9 in: about 60 datasets) go to
        further pages, in the same order, and the title says which it shows.
    width : {"column", "page"} or float
        Figure width; the height grows with the number of datasets. Ignored with ``ax``.
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Notes
    -----
    Each dataset is a row: the open circle and grey line are its raw mean fold difference and
    Nadeau–Bengio-corrected t interval (the dataset alone); the filled dot and coloured line
    are the posterior mean and credible interval of its δ_i under the model, pulled towards
    the population difference (vertical line, its credible interval shaded). The rope is the
    hatched band around 0. The numbers are the result's; nothing is computed here.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_shrinkage
    >>> folds = mcda.datasets.load("benavoli2017_uci54_folds").isel(dataset=slice(0, 8))
    >>> res = mcda.hierarchical_comparison(folds.sel({"method": ["nbc", "aode"]}), n_samples=1000, rng=0)
    >>> fig, ax = plot_shrinkage(res, ("nbc", "aode"))
    >>> len(ax.get_yticklabels())
    8
    """
    _common.require(result, _SHRINK_FIELDS, what="HierarchicalComparison", maker="mcda.hierarchical_comparison")
    rows = shrinkage_rows(result, pair, sort=sort)
    a, b = (str(p) for p in pair)
    mean, low, high, row = _population(result, a, b)
    n_all = len(rows)
    row_h = _layout.row_height(n_all, preferred=0.16, minimum=0.125, fixed=_SHRINK_FIXED)
    pages = _layout.page_slices(n_all, _layout.rows_per_page(row_h, fixed=_SHRINK_FIXED)) if ax is None \
        else [slice(0, n_all)]
    check_page(page, len(pages), "the datasets' pages")
    part = pages[page - 1]
    rows = rows.iloc[part].reset_index(drop=True)
    rows["y"] = np.arange(len(rows))
    where = ""
    if len(pages) > 1:
        where = f"\ndatasets {part.start + 1}–{part.stop} of {n_all} (page {page} of {len(pages)}: page=)"
    n = len(rows)
    with _style.style():
        fig, ax = _style.get_figure(ax, width, height=min(_SHRINK_FIXED + row_h * max(n, 3), _layout.PAGE_HEIGHT))
        y = rows["y"].to_numpy(dtype=float)
        if result.rope > 0:
            ax.axvspan(-result.rope, result.rope, color=_style.LIGHT, alpha=0.7, lw=0, zorder=0, gid="rope",
                       label=f"rope ±{result.rope:g}")
        ax.axvline(0.0, color=_style.NEUTRAL, lw=0.5, zorder=0.5)
        if np.isfinite(mean):
            ax.axvspan(low, high, color=_style.PALETTE[1], alpha=0.15, lw=0, zorder=0.6, gid="population_interval")
            ax.axvline(mean, color=_style.PALETTE[1], lw=1.0, zorder=0.7, gid="population_diff",
                       label="population (model)")
        ax.hlines(y - 0.17, rows["ci_low"], rows["ci_high"], color=_style.NEUTRAL, lw=0.8,
                  gid="raw_interval")
        ax.plot(rows["mean_diff"], y - 0.17, linestyle="none", marker="o", markersize=3.2,
                markerfacecolor="white", markeredgecolor=_style.NEUTRAL, markeredgewidth=0.7, gid="raw",
                label="raw (dataset alone)")
        ax.hlines(y + 0.17, rows["shrunk_ci_low"], rows["shrunk_ci_high"], color=_style.PALETTE[0], lw=1.2,
                  gid="shrunk_interval")
        ax.plot(rows["shrunk_diff"], y + 0.17, linestyle="none", marker="o", markersize=3.2,
                color=_style.PALETTE[0], gid="shrunk", label="shrunk (model)")
        ax.set_yticks(y, rows["dataset"].tolist(), fontsize=_style.FONT_SIZE - (2 if n > 25 else 1))
        ax.set_ylim(n - 0.5, -0.5)
        ax.tick_params(axis="y", length=0)
        level = f"{result.confidence_level:.0%}"
        chars = int(0.9 * fig.get_figwidth() * 72.0 / _layout.char_width(_style.FONT_SIZE))
        ax.set_xlabel(_layout.wrap_label(f"{a} − {b} (mean over folds; {level} intervals)", chars))
        ax.grid(axis="x", lw=0.4)
        ax.set_axisbelow(True)
        handles, labels = ax.get_legend_handles_labels()
        ax.legend(handles[::-1], labels[::-1], loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2,
                  fontsize=_style.FONT_SIZE - 1, handlelength=1.0, borderaxespad=0.2)
        verdict = {"a_better": f"{row['method_a']} better", "b_better": f"{row['method_b']} better",
                   "equivalent": "equivalent", "inconclusive": "inconclusive",
                   "not_applicable": "not labelled"}.get(row["label"], str(row["label"]))
        title = _layout.wrap_label(f"{a} vs {b}: next dataset {verdict}",
                                   int(0.95 * fig.get_figwidth() * 72.0 / _layout.char_width(_style.FONT_SIZE - 1)))
        ax.set_title(f"{title}\npopulation difference {mean:+.4f} [{low:+.4f}, {high:+.4f}]{where}",
                     fontsize=_style.FONT_SIZE - 1, loc="left", pad=30)
    return fig, ax


_SHRINK_FIXED = 1.4      # inches of title, legend and axis of the shrinkage figure


def strip_height(n_methods: int) -> float:
    """Figure height (inches) of the rank-distribution strip: 0.18 in per method up to 20, then 0.12.

    Examples
    --------
    >>> strip_height(5), strip_height(50)
    (1.9, 7.0)
    """
    per = 0.18 if n_methods <= 20 else 0.12
    return round(1.0 + per * n_methods, 2)


def rank_strip(result, order=None):
    """(order, P(best) in that order, the rank-probability matrix in that order) of a Plackett–Luce result
    (its own order, or ``order``: :func:`mcda.present.plots._common.method_order`)."""
    order = _common.method_order(result.order, order)
    prob_best = result.table.set_index("method").loc[order, "prob_best"].to_numpy(dtype=float)
    matrix = result.rank_probabilities.loc[order].to_numpy(dtype=float)
    return order, prob_best, matrix


def plot_rank_distribution(result, *, annotate: bool | None = None, width="column", ax=None, order=None):
    """P(best) per method beside the heat strip of its rank distribution (Plackett–Luce).

    Parameters
    ----------
    result : PlackettLuceResult
        From :func:`mcda.plackett_luce`.
    annotate : bool, optional
        Write each probability in its cell (default: at most 10 methods); otherwise a colour
        bar gives the scale.
    width : {"column", "page"} or float
        Figure width; the height grows with the number of methods. Ignored with ``ax``. Names
        wider than 35 % of the width give way to row numbers (in the drawn order) and a key
        under the figure (:func:`mcda.present.plots._layout.numbered_rows`).
    ax : pair of matplotlib Axes, optional
        ``[bars, heat strip]``.
    order : sequence of str, optional
        The methods' order (rows and the key's numbers) instead of the posterior mean worth:
        one order for every figure of a run (``mcda compare`` passes the across-dataset ranking).

    Returns
    -------
    fig : matplotlib Figure
    axes : list of two Axes

    Raises
    ------
    ValueError
        The result reports no rank probabilities (its ``reason``: chains not converged).

    Notes
    -----
    Methods run top to bottom by posterior mean worth. Left: the posterior probability that
    the method's worth is the largest (P(best)). Right: the posterior probability that its
    worth is the r-th largest (rank 1 = best at the left, as on every rank axis of mcda).
    Ranks with probability 0 stay white; the colour scale ends at the largest probability
    (rounded up to 0.1). The numbers are the result's.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_rank_distribution
    >>> res = mcda.plackett_luce(mcda.datasets.load("garcia_herrera2008"), n_samples=500, rng=0)
    >>> fig, (bars, heat) = plot_rank_distribution(res)
    >>> [t.get_text() for t in bars.get_yticklabels()] == res.order
    True
    """
    import matplotlib
    from matplotlib.colors import Normalize

    _common.require(result, _PL_FIELDS, what="PlackettLuceResult", maker="mcda.plackett_luce")
    if getattr(result, "reason", ""):  # the probabilities are NaN: an empty figure would say nothing
        raise McdaArgumentError(f"`result` has no rank probabilities to draw: {result.reason}", argument="result")
    given = order is not None
    order, prob_best, matrix = rank_strip(result, order)
    k = len(order)
    annotate = k <= 10 if annotate is None else bool(annotate)
    label_size = _style.FONT_SIZE - (2 if k > 20 else 1)
    # long names (wider than 35 % of the figure) give way to numbers in the drawn order and a key
    fig_w = _style.figure_size(width)[0] if ax is None else         _common.axes_pair(ax, width, height=None, width_ratios=(2, 5))[0].get_figwidth()    # checks `ax`
    names = [str(m) for m in order]
    numbered = _layout.numbered_rows(names, width=fig_w, font=label_size)
    key_labels = [f"{i + 1} {m}" for i, m in enumerate(names)]
    key = _layout.name_key(key_labels, width=fig_w, max_height=max(_layout.PAGE_HEIGHT - 1.0 - 0.1 * k,
                                                                   _layout.PAGE_HEIGHT - 4.0)) \
        if numbered else {"height": 0.0}
    # the strip and its key on a page; a key that would leave the strip less than 4 inches (70 long
    # names and more) goes under a strip of its own height, the figure taller than a page, never over it
    height = min(strip_height(k) + key["height"], _layout.PAGE_HEIGHT)
    if key["height"] > _layout.PAGE_HEIGHT - 4.0:
        height = min(strip_height(k), _layout.PAGE_HEIGHT) + key["height"]
    shown = [str(i + 1) for i in range(k)] if numbered else order
    with _style.style():
        fig, (bars, heat) = _common.axes_pair(ax, width, height=height, width_ratios=(2, 5))
        if numbered:
            _common.key_legend(fig, key_labels, key, title="methods" if given else "methods, by posterior mean worth")
        y = np.arange(k)
        ok = np.isfinite(prob_best)
        bars.barh(y[ok], prob_best[ok], height=0.7, color=_style.PALETTE[0], gid="prob_best")
        bars.set_xlim(0.0, 1.0)
        bars.set_ylim(k - 0.5, -0.5)
        # rows denser than their labels (from ~60 methods): every step-th row is labelled
        pitch = max(fig.get_figheight() - key["height"] - 1.0, 0.5) * 72.0 / k
        step = max(1, math.ceil(1.3 * label_size / pitch))
        rows = y[::step]
        shown = [shown[i] for i in rows]
        bars.set_yticks(rows, shown, fontsize=label_size)
        bars.set_xlabel("P(best)")
        bars.grid(axis="x", lw=0.4)
        bars.set_axisbelow(True)
        bars.tick_params(axis="y", length=0)
        cmap = matplotlib.colormaps[_style.SEQUENTIAL_CMAP].with_extremes(bad="white")
        # the colour scale ends at the largest probability (rounded up to 0.1): with many methods the
        # rank distributions are spread thin and a 0-1 scale would leave the strip nearly white
        top = float(np.nanmax(matrix)) if np.isfinite(matrix).any() else 1.0
        norm = Normalize(0.0, min(1.0, max(0.1, np.ceil(top * 10.0) / 10.0)))
        image = heat.imshow(np.ma.masked_less(matrix, 0.0005), cmap=cmap, norm=norm, aspect="auto",
                            interpolation="nearest")
        image.set_gid("rank_heatmap")
        heat.set_yticks(rows, shown, fontsize=label_size)
        heat.tick_params(axis="y", length=0, labelleft=False)
        every = 2 if k <= 25 else next(n for n in (5, 10, 20, 25, 50, 100, 200, 500, 10**9) if k / n <= 9)
        ticks = [r for r in range(1, k + 1) if k <= 12 or r == 1 or r % every == 0]
        heat.set_xticks([r - 1 for r in ticks], [str(r) for r in ticks])
        heat.set_xlabel("rank of the worth (1 = best)")
        _common.matrix_frame(heat)
        if annotate:
            _common.annotate_cells(heat, np.where(matrix >= 0.005, matrix, np.nan), cmap=cmap, norm=norm,
                                   fmt=lambda v: f"{v:.2f}".lstrip("0") if v < 1 else "1",
                                   fontsize=_style.FONT_SIZE - 2)
        else:
            bar = fig.colorbar(image, ax=heat, fraction=0.05, pad=0.02)
            bar.ax.tick_params(labelsize=_style.FONT_SIZE - 2)
        heat.set_title("P(rank = r)", fontsize=_style.FONT_SIZE)
        fig.suptitle(f"Plackett–Luce, {result.n_rankings} rankings", x=0.02, ha="left", fontsize=_style.FONT_SIZE)
    return fig, [bars, heat]
