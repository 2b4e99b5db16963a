"""Learning curves: the mean over seeds per epoch, with its t band, one panel per dataset."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError, check_choice
from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style
from mcda.present.plots._layout import check_page

__all__ = ["CURVES_PER_PANEL", "curve_styles", "learning_curve_layout", "learning_curve_pages", "method_panel_pages",
           "plot_learning_curves"]

_PANEL_HEIGHT = 1.45      # inches per row of panels
_LINESTYLES = ("-", "--", ":", "-.")
#: Up to this many methods share a dataset's panel (one palette colour each); beyond, a panel per method.
CURVES_PER_PANEL: int = 8
_METHOD_PANEL = 0.9       # inches: the smallest side of a method's panel
_METHOD_FIXED = 0.95      # inches of caption, axis labels and margins on a page of method panels


def learning_curve_layout(n_methods: int) -> str:
    """``"datasets"`` (a panel per dataset, every method in it) up to :data:`CURVES_PER_PANEL` methods, else
    ``"methods"`` (for each dataset a panel per method: its curve in colour, the others in grey).

    Eight palette colours stay apart in one panel; beyond them the curves of one panel can only be told
    apart by dashes and markers, which 20 or 50 crossing curves defeat.

    >>> learning_curve_layout(8), learning_curve_layout(9)
    ('datasets', 'methods')
    """
    return "datasets" if n_methods <= CURVES_PER_PANEL else "methods"


def method_panel_pages(n_datasets: int, n_methods: int, *, width: float, max_cols: int | None = None,
                       title_lines: int = 2, max_height: float = _layout.PAGE_HEIGHT) -> dict:
    """The ``"methods"`` layout's grid and pages: ``(dataset index, slice of methods)`` per page.

    Panels of at least 0.9 in (as many per row as ``width`` holds, or ``max_cols``), as many rows
    as fit a page (each under a title of ``title_lines`` lines: the method's whole name, wrapped);
    a dataset's methods that do not fit one page continue on the next, and each dataset starts a
    new page.

    Examples
    --------
    >>> g = method_panel_pages(2, 50, width=7.0)
    >>> g["cols"], g["rows"], [(d, s.start, s.stop) for d, s in g["pages"]]
    (7, 7, [(0, 0, 25), (0, 25, 50), (1, 0, 25), (1, 25, 50)])
    """
    cols = max(1, int((width - 0.45) // _METHOD_PANEL))
    if max_cols is not None:
        cols = max(1, min(cols, int(max_cols)))
    side = min((width - 0.45) / cols, 1.6)
    title = _title_height(title_lines)
    rows = max(1, int((max_height - _METHOD_FIXED) // (side * 0.8 + title)))
    pages = [(d, part) for d in range(n_datasets) for part in _layout.page_slices(n_methods, rows * cols)]
    return {"cols": cols, "rows": rows, "panel": side, "title": title, "pages": pages}


def _title_height(lines: int) -> float:
    """Inches a method panel's title of ``lines`` lines takes (at the title font, with its pad)."""
    return lines * 1.2 * (_style.FONT_SIZE - 2) / 72.0 + 0.06


def curve_styles(methods) -> dict:
    """Method -> (colour, linestyle, marker): the eight palette colours, then the same colours dashed,
    dotted, dash-dotted (32 distinct curves), then with markers.

    Examples
    --------
    >>> s = curve_styles([f"m{i}" for i in range(40)])
    >>> s["m0"][1] == "-", s["m8"][0] == s["m0"][0], s["m8"][1] != "-", s["m32"][2] is not None
    (True, True, True, True)
    """
    n = len(_style.PALETTE)
    out = {}
    for i, m in enumerate(methods):
        marker = None if i < n * len(_LINESTYLES) else _common.MARKERS[(i // (n * len(_LINESTYLES))) % len(_common.MARKERS)]
        out[m] = (_style.PALETTE[i % n], _LINESTYLES[(i // n) % len(_LINESTYLES)], marker)
    return out


def learning_curve_pages(n_datasets: int, n_methods: int, names, *, width: float, cols: int) -> dict:
    """Rows of panels per page, the legend's font, columns and height, and the datasets of each page.

    The legend under the panels names every method in as many columns as the widest name
    allows (its font shrinks, not below 4.5 pt, while it would take more than a third of a
    page); as many rows of 1.45 in panels as fit the rest of a page; further datasets go to
    further pages.

    Examples
    --------
    >>> g = learning_curve_pages(200, 8, [f"m{i}" for i in range(8)], width=7.0, cols=4)
    >>> g["rows"], len(g["pages"])
    (5, 10)
    """
    key = _layout.name_key(["—— " + str(m) for m in names], width=width, max_height=_layout.PAGE_HEIGHT / 3,
                           font=_style.FONT_SIZE - 1)
    room = _layout.PAGE_HEIGHT - 0.65 - key["height"]
    rows = max(1, int(room // _PANEL_HEIGHT))
    return {"rows": rows, "legend": key, "pages": _layout.page_slices(n_datasets, rows * cols)}


def plot_learning_curves(result, *, datasets=None, methods=None, layout: str | None = None,
                         max_cols: int | None = None, page: int = 1, width="page", ax=None):
    """Each method's mean over seeds per epoch, with its t band: a panel per dataset, or per method.

    Parameters
    ----------
    result : LearningCurves
        From :func:`mcda.learning_curves` (the means and t intervals per epoch; the level,
        split and metric are chosen there). Without seeds the scores are drawn with no band.
    datasets, methods : label or sequence of labels, optional
        Which panels and lines to draw (default: all, in the cube's order).
    layout : {"datasets", "methods"}, optional
        ``"datasets"``: a panel per dataset with every method's curve in it. ``"methods"``: for
        each dataset, a panel per method (small multiples): that method's curve and band in
        colour, the other methods' curves in light grey behind it, the panels on one y scale,
        each titled with its method's name; a page holds one dataset's panels (the methods
        beyond a page continue on the next, :func:`method_panel_pages`). Default
        (:func:`learning_curve_layout`): ``"datasets"`` up to :data:`CURVES_PER_PANEL` (8)
        methods, ``"methods"`` beyond, so that every method can be told apart at 20 and 50.
    max_cols : int, optional
        Panels per row (default: 4 on a page, 2 in a column; with ``"methods"``, as many 1 in
        panels as the width holds).
    page : int
        Which page (1 = the first): rows of panels that would make the figure taller than a
        page (9 in) go to further pages (:func:`learning_curve_pages`; with ``"methods"`` a
        page per dataset, or more), and the figure says which datasets (methods) it shows.
    width : {"column", "page"} or float
        Figure width; the height follows from the number of panel rows. Ignored with ``ax``.
    ax : sequence of Axes, optional
        One axes per dataset, to draw into.

    Returns
    -------
    fig : matplotlib Figure
    axes : numpy.ndarray of Axes
        One per dataset (unused grid cells are removed).

    Notes
    -----
    Each method keeps one curve style in every panel (:func:`curve_styles`: beyond the eight
    palette colours the curves are dashed, dotted, dash-dotted, then marked); the legend under
    the panels names them all. The band is the Student t interval of the mean over seeds, ``mean ± t_{(1+c)/2, n−1} ·
    s/√n``, computed by :func:`mcda.learning_curves` from :func:`mcda.summary` on each epoch (so it
    matches every other interval the library reports); the plot itself computes nothing.

    Examples
    --------
    >>> import numpy as np, xarray as xr, mcda
    >>> from mcda.plots import plot_learning_curves
    >>> epochs = [mcda.datasets.synthetic(n_datasets=2, n_methods=2, n_seeds=3, base=0.5 + 0.05 * e, rng=e)
    ...           for e in range(4)]
    >>> cube = xr.concat(epochs, dim=xr.DataArray([1, 2, 3, 4], dims="epoch", name="epoch"))
    >>> fig, axes = plot_learning_curves(mcda.learning_curves(cube))
    >>> [a.get_title(loc="left") for a in axes]
    ['dataset_0', 'dataset_1']
    """
    _common.require_or(result, ("table", "confidence_level", "split", "has_seeds"),
                       f"`result` must be the LearningCurves of mcda.learning_curves(cube); got {type(result).__name__}. "
                       "For a cube call plot_learning_curves(mcda.learning_curves(cube)).")
    if max_cols is not None and (not isinstance(max_cols, int) or isinstance(max_cols, bool) or max_cols < 1):
        raise McdaArgumentError(f"`max_cols` must be a positive integer; got {max_cols}",
                                argument="max_cols", value=max_cols)
    table = result.table
    datasets = _common.subset("datasets", datasets, list(pd.unique(table["dataset"])))
    methods = _common.subset("methods", methods, list(pd.unique(table["method"])))
    layout = learning_curve_layout(len(methods)) if layout is None else \
        check_choice("layout", layout, ("datasets", "methods"))
    if layout == "methods":
        return _method_panels(result, table, datasets, methods, max_cols=max_cols, page=page, width=width, ax=ax)
    max_cols = (2 if width == "column" else 4) if max_cols is None else max_cols
    styles = curve_styles(methods)
    w = _style.figure_size(width)[0]
    cols_wanted = min(max_cols, len(datasets))
    paging = learning_curve_pages(len(datasets), len(methods), methods, width=w, cols=cols_wanted)
    pages = paging["pages"] if ax is None else [slice(0, len(datasets))]
    check_page(page, len(pages), "the datasets' pages")
    all_datasets, datasets = datasets, datasets[pages[page - 1]]
    key = paging["legend"]
    with _style.style():
        fig, axes, cols = _common.panel_grid(ax, len(datasets), width, max_cols=max_cols,
                                             height=lambda rows, _: min(0.3 + _PANEL_HEIGHT * rows + 0.35
                                                                        + key["height"], _layout.PAGE_HEIGHT),
                                             sharex=True)
        for panel, dataset in zip(axes, datasets):
            rows = table[table["dataset"] == dataset]
            for method in methods:
                line = rows[rows["method"] == method].sort_values("epoch")
                colour, linestyle, marker = styles[method]
                x = line["epoch"].to_numpy()
                if np.isfinite(line["ci_low"].to_numpy(dtype=float)).any():
                    panel.fill_between(x, line["ci_low"].to_numpy(dtype=float), line["ci_high"].to_numpy(dtype=float),
                                       color=colour, alpha=0.22 if len(methods) <= 8 else 0.08, linewidth=0,
                                       gid="t_band")
                panel.plot(x, line["mean"].to_numpy(dtype=float), color=colour, linestyle=linestyle, marker=marker,
                           markersize=2.5, markevery=max(1, len(x) // 4), label=str(method), gid="mean_curve",
                           lw=1.0 if len(methods) > 8 else 1.3)
            panel.set_title(str(dataset), fontsize=_style.FONT_SIZE)
            panel.grid(axis="y")
            panel.set_axisbelow(True)
        for i, panel in enumerate(axes):
            if ax is not None or i + cols >= len(datasets):   # nothing below: label the epochs here
                panel.xaxis.set_tick_params(labelbottom=True)
                panel.set_xlabel("epoch")
        if ax is None:
            fig.legend(handles=list(axes[0].get_lines()), loc="outside lower center", ncols=key["cols"],
                       fontsize=key["font"], handlelength=2.0, columnspacing=1.0, labelspacing=0.2)
            band = f", {result.confidence_level:.0%} t band" if result.has_seeds else ""
            fig.supylabel(f"mean over seeds{band}", fontsize=_style.FONT_SIZE)
            if len(pages) > 1:
                first = all_datasets.index(datasets[0]) + 1
                fig.suptitle(f"datasets {first}–{first + len(datasets) - 1} of {len(all_datasets)} "
                             f"(page {page} of {len(pages)}: page=)", fontsize=_style.FONT_SIZE - 1, x=0.02,
                             ha="left")
    return fig, axes


def _method_panels(result, table, datasets, methods, *, max_cols, page, width, ax):
    """The ``"methods"`` layout: one dataset's panels, a method each, the other methods in grey."""
    w = _style.figure_size(width)[0]
    title_font = _style.FONT_SIZE - 2
    probe = method_panel_pages(1, 1, width=w, max_cols=max_cols)
    chars = max(int(0.95 * probe["panel"] * 72.0 / _layout.char_width(title_font)), 6)
    titles = {m: _layout.wrap_label(str(m), chars) for m in methods}     # the whole name, wrapped, never cut
    title_lines = max(t.count("\n") + 1 for t in titles.values())
    grid = method_panel_pages(len(datasets), len(methods), width=w, max_cols=max_cols, title_lines=title_lines)
    pages = grid["pages"] if ax is None else [(0, slice(0, len(methods)))]
    check_page(page, len(pages), "the pages of method panels")
    at, part = pages[page - 1]
    dataset = datasets[at]
    shown = methods[part]
    rows = table[table["dataset"] == dataset]
    curves = {m: rows[rows["method"] == m].sort_values("epoch") for m in methods}
    with _style.style():
        n_rows = _common.grid_shape(len(shown), max_cols=grid["cols"])[0]
        height = min(_METHOD_FIXED + n_rows * (grid["panel"] * 0.8 + grid["title"]), _layout.PAGE_HEIGHT)
        fig, axes, cols = _common.panel_grid(ax, len(shown), width, max_cols=grid["cols"], height=lambda *_: height,
                                             sharex=True, sharey=True)
        for panel, method in zip(axes, shown):
            for other in methods:          # the others first, in grey, behind
                if other == method:
                    continue
                line = curves[other]
                panel.plot(line["epoch"].to_numpy(), line["mean"].to_numpy(dtype=float), color=_style.LIGHT,
                           lw=0.6, zorder=1, gid="other_curve")
            line = curves[method]
            x = line["epoch"].to_numpy()
            low, high = line["ci_low"].to_numpy(dtype=float), line["ci_high"].to_numpy(dtype=float)
            if np.isfinite(low).any():
                panel.fill_between(x, low, high, color=_style.PALETTE[0], alpha=0.25, linewidth=0, zorder=2,
                                   gid="t_band")
            panel.plot(x, line["mean"].to_numpy(dtype=float), color=_style.PALETTE[0], lw=1.3, zorder=3,
                       label=str(method), gid="mean_curve")
            panel.set_title(titles[method], fontsize=title_font, pad=2, linespacing=1.0, gid="method_title")
            panel.grid(axis="y")
            panel.set_axisbelow(True)
            panel.tick_params(labelsize=title_font)
            from matplotlib.ticker import MaxNLocator

            panel.xaxis.set_major_locator(MaxNLocator(nbins=3, integer=True))
            panel.yaxis.set_major_locator(MaxNLocator(nbins=3))
        for i, panel in enumerate(axes):
            if ax is not None or i + cols >= len(shown):    # nothing below: label the epochs here
                panel.xaxis.set_tick_params(labelbottom=True)
        if ax is None:
            band = f" and its {result.confidence_level:.0%} t band" if result.has_seeds else ""
            fig.supxlabel("epoch", fontsize=_style.FONT_SIZE - 1)
            fig.supylabel("mean over seeds", fontsize=_style.FONT_SIZE - 1)
            where = f"{dataset}"
            if len(datasets) > 1:
                where += f" (dataset {at + 1} of {len(datasets)})"
            if len(shown) < len(methods):
                where += f", methods {part.start + 1}–{part.stop} of {len(methods)}"
            if len(pages) > 1:
                where += f" (page {page} of {len(pages)}: page=)"
            caption = (f"{where}. Each panel: one method's mean over seeds{band} in colour; grey: the other "
                       f"{len(methods) - 1} methods on the same scale.")
            fig.suptitle(_layout.wrap_label(caption, int(0.95 * w * 72.0 / _layout.char_width(_style.FONT_SIZE - 1))),
                         fontsize=_style.FONT_SIZE - 1, x=0.02, ha="left", gid="caption")
    return fig, axes
