"""Forest plot of per-dataset intervals: one row per dataset, the methods side by side within it."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .._validation import McdaArgumentError
from . import _common, _layout, _style

__all__ = ["forest_positions", "forest_missing", "forest_pages", "plot_forest"]

_FIELDS = ("table", "ci_method", "confidence_level", "direction")
_ROW_SPAN = 0.76          # share of a row's height the methods spread over


def forest_positions(table: pd.DataFrame, *, datasets: list, methods: list, sort: bool = False,
                     higher_is_better: bool = True) -> pd.DataFrame:
    """Where each (dataset, method) interval goes: ``y`` = row index + an offset within the row.

    Rows run top to bottom in ``datasets`` order (row 0 at the top). Within a row the methods
    take evenly spaced slots across 76 % of the row, in ``methods`` order, or, with ``sort``,
    best mean first (top); a method without a mean takes no slot when sorting.

    Returns
    -------
    pandas.DataFrame
        ``dataset, method, row, slot, y`` (y grows downwards), one row per drawn interval.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["d", "d"], "method": ["a", "b"], "mean": [0.1, 0.9]})
    >>> pos = forest_positions(t, datasets=["d"], methods=["a", "b"], sort=True)
    >>> pos["method"].tolist(), pos["y"].round(3).tolist()
    (['b', 'a'], [-0.127, 0.127])
    """
    k = len(methods)
    offsets = np.linspace(-_ROW_SPAN / 2, _ROW_SPAN / 2, k + 2)[1:-1] if k > 1 else np.zeros(1)
    means = table.set_index(["dataset", "method"])["mean"]
    rows = []
    for r, dataset in enumerate(datasets):
        present = [m for m in methods if (dataset, m) in means.index and np.isfinite(means[(dataset, m)])]
        if sort:
            sign = -1.0 if higher_is_better else 1.0
            present = sorted(present, key=lambda m: (sign * means[(dataset, m)], methods.index(m)))
            slots = range(len(present))
        else:
            slots = [methods.index(m) for m in present]
        for slot, m in zip(slots, present):
            rows.append((dataset, m, r, slot, round(r + float(offsets[slot]), 12)))
    return pd.DataFrame(rows, columns=["dataset", "method", "row", "slot", "y"])


def forest_missing(table: pd.DataFrame, *, datasets: list, methods: list, sort: bool = False) -> pd.DataFrame:
    """The (dataset, method) cells without a mean, and where their "no result" mark goes.

    Without ``sort`` a missing cell keeps its method's slot; with ``sort`` the missing methods
    take the slots after the drawn ones, in ``methods`` order.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["d", "d"], "method": ["a", "b"], "mean": [0.1, float("nan")]})
    >>> forest_missing(t, datasets=["d"], methods=["a", "b"])[["method", "slot"]].values.tolist()
    [['b', 1]]
    """
    k = len(methods)
    offsets = np.linspace(-_ROW_SPAN / 2, _ROW_SPAN / 2, k + 2)[1:-1] if k > 1 else np.zeros(1)
    means = table.set_index(["dataset", "method"])["mean"]
    rows = []
    for r, dataset in enumerate(datasets):
        absent = [m for m in methods if (dataset, m) not in means.index or not np.isfinite(means[(dataset, m)])]
        first = k - len(absent)
        for i, m in enumerate(absent):
            slot = first + i if sort else methods.index(m)
            rows.append((dataset, m, r, slot, round(r + float(offsets[slot]), 12)))
    return pd.DataFrame(rows, columns=["dataset", "method", "row", "slot", "y"])


def forest_pages(n_datasets: int, n_methods: int, *, width: float, longest_name: int = 10) -> dict:
    """Row height, legend columns and the datasets of each page (no figure taller than a page).

    A dataset row is 0.045 in per method (at least 0.28 in); the legend above takes one line
    per ``cols`` methods; datasets that do not fit a page go to further pages (``page=``).

    Examples
    --------
    >>> forest_pages(12, 4, width=3.35)["pages"]
    [slice(0, 12, None)]
    >>> len(forest_pages(50, 50, width=7.0)["pages"]) > 1
    True
    """
    row = max(0.28, 0.045 * n_methods)
    cols = max(1, min(n_methods, int(width * 72.0 // (_layout.char_width(_style.FONT_SIZE - 1) * longest_name + 22.0)),
                      6 if width > 5 else 3))
    legend = math.ceil(n_methods / cols) * 0.15 + 0.1
    fixed = 0.9 + legend
    per_page = _layout.rows_per_page(row, fixed=fixed)
    return {"row": row, "cols": cols, "legend": legend, "fixed": fixed,
            "pages": _layout.page_slices(n_datasets, per_page)}


def _direction(summary, metric) -> bool:
    direction = summary.direction
    if isinstance(direction, dict):
        direction = direction.get(metric, "higher_is_better")
    return direction != "lower_is_better"


def plot_forest(summary, *, metric=None, datasets=None, methods=None, sort: bool = False, band=None,
                page: int = 1, width="column", ax=None):
    """Per-dataset intervals of every method: a forest plot with one row per dataset.

    Parameters
    ----------
    summary : IntervalSummary
        From :func:`mcda.summary` (t or percentile-bootstrap intervals over seeds).
    metric : str, optional
        Which metric, when the summary holds several.
    datasets, methods : label or sequence of labels, optional
        Rows and methods to draw, in this order (default: all, in the summary's order).
    sort : bool
        Order the methods within each row by their mean, best at the top (the metric's
        direction decides "best"); by default every row has the same order.
    band : None, "best" or (float, float)
        ``"best"``: shade, across each row, the interval of that row's best method (the
        methods whose intervals reach into it are not separated from it by eye); a pair of
        numbers: shade that fixed range of the metric (e.g. a target or a rope around a
        baseline).
    page : int
        Which page of datasets (1 = the first): when the rows would make the figure taller
        than a page (:data:`mcda.plots._layout.PAGE_HEIGHT`), the datasets are split into
        pages of equal size (:func:`forest_pages`) and the figure says which datasets it shows.
    width : {"column", "page"} or float
        Figure width; the height grows with datasets × methods. Ignored with ``ax``.
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Notes
    -----
    Each interval is drawn from its own endpoints ``ci_low`` to ``ci_high`` (asymmetric for the
    percentile bootstrap), with a marker at the mean; methods keep one colour and marker in
    every row. A cell with one seed has a mean and no interval (marker only); a cell with no
    result is marked "×" at the left edge of its slot ("no result" in the legend). The plot
    computes nothing.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_forest
    >>> cube = mcda.datasets.synthetic(n_datasets=3, n_methods=3, n_seeds=5, rng=0)
    >>> fig, ax = plot_forest(mcda.summary(cube), band="best")
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['dataset_0', 'dataset_1', 'dataset_2']
    """
    _common.require(summary, _FIELDS, what="IntervalSummary", maker="mcda.summary")
    table, metric = _common.one_metric(summary.table, metric)
    datasets = _common.subset("datasets", datasets, list(pd.unique(table["dataset"])))
    methods = _common.subset("methods", methods, list(pd.unique(table["method"])))
    if not (band is None or band == "best" or (isinstance(band, (tuple, list)) and len(band) == 2
                                                 and all(np.isfinite(float(v)) for v in band))):
        raise McdaArgumentError(f"`band` must be None, 'best' or a (low, high) pair of numbers; got {band!r}")
    higher = _direction(summary, metric)
    paging = forest_pages(len(datasets), len(methods), width=_style.figure_size(width)[0],
                          longest_name=max(len(str(m)) for m in methods))
    n_pages = len(paging["pages"])
    if isinstance(page, bool) or not isinstance(page, (int, np.integer)) or not 1 <= page <= n_pages:
        raise McdaArgumentError(f"`page` must be an integer from 1 to {n_pages} (the datasets' pages); got {page!r}")
    all_datasets = datasets
    datasets = datasets[paging["pages"][page - 1]]
    table = table[table["dataset"].isin(datasets) & table["method"].isin(methods)]
    pos = forest_positions(table, datasets=datasets, methods=methods, sort=bool(sort), higher_is_better=higher)
    missing = forest_missing(table, datasets=datasets, methods=methods, sort=bool(sort))
    cells = table.set_index(["dataset", "method"])
    styles = _common.method_styles(methods)
    n_rows, k = len(datasets), len(methods)
    with _style.style():
        own_figure = ax is None
        fig, ax = _style.get_figure(ax, width, height=min(paging["fixed"] + n_rows * paging["row"],
                                                          _layout.PAGE_HEIGHT))
        for r in range(n_rows):
            if r % 2 == 0:
                ax.axhspan(r - 0.5, r + 0.5, color="#F4F4F4", zorder=0, lw=0, gid="row_stripe")
        if isinstance(band, (tuple, list)):
            ax.axvspan(float(band[0]), float(band[1]), color=_style.LIGHT, alpha=0.8, zorder=0.5, lw=0,
                       gid="band")
        elif band == "best":
            for r, dataset in enumerate(datasets):
                here = pos[pos["row"] == r]
                if here.empty:
                    continue
                means = cells.loc[[(dataset, m) for m in here["method"]], "mean"]
                best = means.idxmax() if higher else means.idxmin()
                low, high = cells.loc[best, ["ci_low", "ci_high"]].to_numpy(dtype=float)
                if np.isfinite(low) and np.isfinite(high):
                    ax.fill_betweenx([r - 0.5, r + 0.5], low, high, color=styles[best[1]][0], alpha=0.15, lw=0,
                                     zorder=0.5, gid="band")
        for method in methods:
            mine = pos[pos["method"] == method]
            if mine.empty:
                continue
            colour, marker = styles[method]
            values = cells.loc[[(d, method) for d in mine["dataset"]]]
            y = mine["y"].to_numpy(dtype=float)
            ax.hlines(y, values["ci_low"].to_numpy(dtype=float), values["ci_high"].to_numpy(dtype=float),
                      color=colour, lw=1.0, zorder=2, gid="interval")
            ax.plot(values["mean"].to_numpy(dtype=float), y, linestyle="none", marker=marker, color=colour,
                    markersize=3.2 if k > 6 else 4.0, markeredgewidth=0, zorder=3, label=str(method), gid="mean")
        if not missing.empty:
            ax.plot(np.zeros(len(missing)), missing["y"].to_numpy(dtype=float), linestyle="none", marker="x",
                    markersize=3.2, color=_style.NEUTRAL, markeredgewidth=0.8, zorder=3, gid="missing",
                    transform=ax.get_yaxis_transform(), label="no result", clip_on=False)
        ax.set_yticks(range(n_rows), [str(d) for d in datasets])
        ax.set_ylim(n_rows - 0.5, -0.5)
        ax.tick_params(axis="y", length=0)
        ax.spines["left"].set_visible(False)
        how = "t" if summary.ci_method == "t" else "percentile bootstrap"
        name = metric or getattr(summary, "metric", None) or "score"
        where = ""
        if n_pages > 1:
            first = all_datasets.index(datasets[0]) + 1
            where = (f"\ndatasets {first}–{first + n_rows - 1} of {len(all_datasets)} "
                     f"(page {page} of {n_pages}: page=)")
        ax.set_xlabel(f"{name}: mean over seeds\nand {summary.confidence_level:.0%} {how} interval{where}")
        ax.grid(axis="x")
        ax.set_axisbelow(True)
        _legend(ax, paging["cols"], own_figure=own_figure)
    return fig, ax


def _legend(ax, cols, *, own_figure):
    """Above the plot: across the whole figure when we made it (it then never squeezes the axes)."""
    if own_figure:
        return ax.figure.legend(handles=_gid_lines(ax, "mean") + _gid_lines(ax, "missing"),
                                loc="outside upper center", ncols=cols,
                                fontsize=_style.FONT_SIZE - 1, handletextpad=0.2, columnspacing=0.9)
    return ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=cols, fontsize=_style.FONT_SIZE - 1,
                     handletextpad=0.2, columnspacing=0.9, borderaxespad=0.3)


def _gid_lines(ax, gid):
    return [line for line in ax.lines if line.get_gid() == gid]
