"""Forest plot of per-dataset intervals: one row per dataset, the methods side by side within it."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError, check_choice
from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style
from mcda.present.plots._layout import check_page
from mcda.data.cards import higher_is_better

__all__ = ["forest_positions", "forest_pages", "forest_layout", "forest_panels", "plot_forest"]

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


def _forest_missing(table: pd.DataFrame, *, datasets: list, methods: list, sort: bool = False) -> pd.DataFrame:
    """The (dataset, method) cells without a mean, and where their "no result" mark goes.

    Without ``sort`` a missing cell keeps its method's slot; with ``sort`` the missing methods
    take the slots after the drawn ones, in ``methods`` order.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["d", "d"], "method": ["a", "b"], "mean": [0.1, float("nan")]})
    >>> _forest_missing(t, datasets=["d"], methods=["a", "b"])[["method", "slot"]].values.tolist()
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
    return direction is None or higher_is_better(direction)


#: Up to this many methods share a dataset's row ("rows" layout); more get a panel per dataset.
FOREST_ROWS_MAX: int = 12


def forest_layout(n_methods: int) -> str:
    """``"rows"`` (one row per dataset, the methods side by side in it, a colour per method) up to
    :data:`FOREST_ROWS_MAX` methods, else ``"panels"`` (one panel per dataset, one row per method).

    Beyond a dozen methods the slots of a row are closer than a marker and the colours repeat,
    so a reader can no longer tell which interval is whose.

    Examples
    --------
    >>> forest_layout(8), forest_layout(50)
    ('rows', 'panels')
    """
    return "rows" if n_methods <= FOREST_ROWS_MAX else "panels"


#: Inches per method row in a panel, and the least width of a panel.
_PANEL_ROW = 0.075
_PANEL_MIN_WIDTH = 1.45


def forest_panels(n_datasets: int, n_methods: int, *, width: float, label_width: float,
                  key_height: float = 0.0, max_height: float | None = None) -> dict:
    """The panels layout: columns, rows per page, panel size and the datasets of each page.

    A panel has one row of 0.075 in per method plus 0.4 in of title and axis, and is at
    least 1.45 in wide; ``label_width`` inches of method labels sit left of the first column;
    as many panel rows as fit a page (besides the caption and a ``key_height`` key); more
    datasets go to further pages.

    Examples
    --------
    >>> g = forest_panels(50, 50, width=7.0, label_width=0.3)
    >>> g["cols"], g["rows"], len(g["pages"])
    (4, 2, 7)
    """
    max_height = _layout.PAGE_HEIGHT if max_height is None else max_height
    panel_h = n_methods * _PANEL_ROW + 0.4
    cols = max(1, int((width - label_width - 0.15) // _PANEL_MIN_WIDTH))
    room = max_height - 0.55 - key_height
    rows = max(1, int(room // panel_h))
    return {"cols": cols, "rows": rows, "panel_height": panel_h, "key_height": key_height,
            "pages": _layout.page_slices(n_datasets, rows * cols)}


def plot_forest(summary, *, metric=None, datasets=None, methods=None, sort: bool = False, band=None,
                layout: str | None = None, page: int = 1, width="column", ax=None):
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
    layout : {"rows", "panels"}, optional
        Default (:func:`forest_layout`): ``"rows"`` up to 12 methods, one row per dataset with
        the methods side by side in it (a colour and marker per method, a legend above);
        ``"panels"`` beyond, one small panel per dataset with one row per method (the methods
        named at the left of each panel row, or by number with a key under the figure when the
        names would take more than 35 % of the width), each panel on its own x scale.
    page : int
        Which page of datasets (1 = the first): when the rows (or panels) would make the
        figure taller than a page (:data:`mcda.present.plots._layout.PAGE_HEIGHT`), the datasets are
        split into pages of equal size (:func:`forest_pages`, :func:`forest_panels`) and the
        figure says which datasets it shows.
    width : {"column", "page"} or float
        Figure width; the height grows with datasets × methods. Ignored with ``ax``.
    ax : matplotlib Axes (rows) or sequence of Axes (panels: one per dataset of the page), optional

    Returns
    -------
    fig : matplotlib Figure
    ax : Axes (rows) or numpy.ndarray of Axes (panels, one per dataset shown)

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
        raise McdaArgumentError(f"`band` must be None, 'best' or a (low, high) pair of numbers; got {band!r}",
                                argument="band", value=band)
    higher = _direction(summary, metric)
    chosen = forest_layout(len(methods)) if layout is None else check_choice("layout", layout, ("rows", "panels"))
    if chosen == "panels":
        return _plot_panels(summary, table, metric, datasets, methods, sort=bool(sort), band=band, page=page,
                            width=width, ax=ax, higher=higher)
    paging = forest_pages(len(datasets), len(methods), width=_style.figure_size(width)[0],
                          longest_name=max(len(str(m)) for m in methods))
    n_pages = len(paging["pages"])
    check_page(page, n_pages, "the datasets' pages")
    all_datasets = datasets
    datasets = datasets[paging["pages"][page - 1]]
    table = table[table["dataset"].isin(datasets) & table["method"].isin(methods)]
    pos = forest_positions(table, datasets=datasets, methods=methods, sort=bool(sort), higher_is_better=higher)
    missing = _forest_missing(table, datasets=datasets, methods=methods, sort=bool(sort))
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
        narrow = getattr(summary, "too_narrow", None)
        if narrow is not None and len(narrow):  # said where the interval is drawn, as in the report's notes
            n = narrow["n_seeds"]
            how += (f" (too narrow at {int(n.min())}" + ("" if n.min() == n.max() else f"-{int(n.max())}")
                    + " seeds)")
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


def _check_page(page, n_pages):
    check_page(page, n_pages, "the datasets' pages")


def _plot_panels(summary, table, metric, datasets, methods, *, sort, band, page, width, ax, higher):
    """One panel per dataset, one row per method: the layout beyond :data:`FOREST_ROWS_MAX` methods."""
    w = _style.figure_size(width)[0]
    names = [str(m) for m in methods]
    k = len(methods)
    numbered = sort or _layout.numbered_rows(names, width=w, font=_layout.MIN_FONT + 1.0)
    key = _layout.name_key([f"{i + 1} {m}" for i, m in enumerate(names)], width=w,
                           max_height=0.4 * _layout.PAGE_HEIGHT) if numbered else {"height": 0.0}
    # a text line is 1.17 font sizes as the renderer measures it: 5.4 pt rows hold 4.5 pt names
    tick_font = max(min(_style.FONT_SIZE - 2, _PANEL_ROW * 72.0 / 1.2), _layout.MIN_FONT)
    step = max(1, math.ceil(1.17 * tick_font / (_PANEL_ROW * 72.0)))
    labels = [str(i + 1) for i in range(k)] if numbered else names
    label_w = (_layout.label_width(labels, tick_font) + 4.0) / 72.0
    grid = forest_panels(len(datasets), k, width=w, label_width=label_w, key_height=key["height"])
    if ax is not None:
        grid["pages"] = [slice(0, len(datasets))]
    n_pages = len(grid["pages"])
    _check_page(page, n_pages)
    all_datasets = datasets
    datasets = datasets[grid["pages"][page - 1]]
    cells = table.set_index(["dataset", "method"])
    colour = _style.PALETTE[0]
    with _style.style():
        def height(rows, cols):
            return min(rows * grid["panel_height"] + 0.55 + key["height"], _layout.PAGE_HEIGHT)

        fig, axes, _ = _common.panel_grid(ax, len(datasets), width, max_cols=grid["cols"], height=height)
        for panel, dataset in zip(axes, datasets):
            here = table[table["dataset"] == dataset].set_index("method")
            means = here["mean"].reindex(methods).to_numpy(dtype=float)
            order = list(range(k))
            if sort:     # best first; methods without a result last, in the given order
                sign = -1.0 if higher else 1.0
                order = sorted(range(k), key=lambda i: (not np.isfinite(means[i]), sign * np.nan_to_num(means[i]), i))
            row_of = {i: r for r, i in enumerate(order)}
            y = np.array([row_of[i] for i in range(k)], dtype=float)
            low = here["ci_low"].reindex(methods).to_numpy(dtype=float)
            high = here["ci_high"].reindex(methods).to_numpy(dtype=float)
            ok = np.isfinite(means)
            for r in range(0, k, 2):
                panel.axhspan(r - 0.5, r + 0.5, color="#F4F4F4", zorder=0, lw=0, gid="row_stripe")
            if isinstance(band, (tuple, list)):
                panel.axvspan(float(band[0]), float(band[1]), color=_style.LIGHT, alpha=0.8, zorder=0.5, lw=0,
                              gid="band")
            elif band == "best" and ok.any():
                best = int(np.nanargmax(means) if higher else np.nanargmin(means))
                if np.isfinite(low[best]) and np.isfinite(high[best]):
                    panel.axvspan(low[best], high[best], color=colour, alpha=0.15, lw=0, zorder=0.5, gid="band")
            panel.hlines(y[ok], low[ok], high[ok], color=colour, lw=0.9, zorder=2, gid="interval")
            panel.plot(means[ok], y[ok], linestyle="none", marker="o", markersize=2.2, markeredgewidth=0,
                       color=colour, zorder=3, gid="mean", label="mean over seeds")
            if (~ok).any():
                panel.plot(np.zeros(int((~ok).sum())), y[~ok], linestyle="none", marker="x", markersize=2.6,
                           color=_style.HIGHLIGHT, markeredgewidth=0.7, zorder=3, gid="missing", clip_on=False,
                           transform=panel.get_yaxis_transform(), label="no result")
            panel.set_ylim(k - 0.5, -0.5)
            shown = list(range(0, k, step))
            first_col = ax is not None or panel.get_subplotspec().is_first_col()
            if sort or first_col:
                panel.set_yticks(shown, [labels[order[r]] for r in shown])
            else:                       # the first panel of the row names the methods
                panel.set_yticks([])
            panel.tick_params(axis="y", length=0, labelsize=tick_font)
            panel.tick_params(axis="x", labelsize=_style.FONT_SIZE - 2)
            panel.xaxis.set_major_locator(_max_ticks(4))      # no tick at an edge: it would meet the next panel's
            panel.spines["left"].set_visible(False)
            panel.grid(axis="x", lw=0.4)
            panel.set_axisbelow(True)
            panel.set_title(_shorten(str(dataset), grid), fontsize=_style.FONT_SIZE - 1, pad=2)
        how = "t" if summary.ci_method == "t" else "percentile bootstrap"
        narrow = getattr(summary, "too_narrow", None)
        if narrow is not None and len(narrow):  # said where the interval is drawn, as in the report's notes
            n = narrow["n_seeds"]
            how += (f" (too narrow at {int(n.min())}" + ("" if n.min() == n.max() else f"-{int(n.max())}")
                    + " seeds)")
        name = metric or getattr(summary, "metric", None) or "score"
        caption = (f"{name}: mean over seeds (dot) and {summary.confidence_level:.0%} {how} interval (line) per "
                   f"method; × no result; each panel its own scale")
        if sort:
            caption += "; rows sorted best first in each panel"
        if n_pages > 1:
            first = all_datasets.index(datasets[0]) + 1
            caption += (f". Datasets {first}–{first + len(datasets) - 1} of {len(all_datasets)} "
                        f"(page {page} of {n_pages}: page=)")
        fig.suptitle(_layout.wrap_label(caption, int(0.95 * fig.get_figwidth() * 72.0 /
                                                     _layout.char_width(_style.FONT_SIZE - 1))),
                     fontsize=_style.FONT_SIZE - 1, x=0.02, ha="left", gid="caption")
        if numbered and ax is None:
            _common.key_legend(fig, [f"{i + 1} {m}" for i, m in enumerate(names)], key, title="methods")
    return fig, axes


def _max_ticks(n):
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(nbins=n, prune="both")


def _shorten(title: str, grid) -> str:
    """A panel title broken onto lines no wider than the panel."""
    return _layout.wrap_label(title, max(int(_PANEL_MIN_WIDTH * 72.0 / _layout.char_width(_style.FONT_SIZE - 1)), 8))
