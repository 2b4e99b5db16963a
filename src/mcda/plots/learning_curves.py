"""Learning curves: the mean over seeds per epoch, with its t band, one panel per dataset."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import McdaArgumentError, McdaArgumentTypeError
from . import _common, _layout, _style

__all__ = ["curve_styles", "learning_curve_pages", "plot_learning_curves"]

_PANEL_HEIGHT = 1.45      # inches per row of panels
_LINESTYLES = ("-", "--", ":", "-.")


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


def plot_learning_curves(result, *, datasets=None, methods=None, max_cols: int | None = None, page: int = 1,
                         width="page", ax=None):
    """One panel per dataset: each method's mean over seeds per epoch, with its t band.

    Parameters
    ----------
    result : LearningCurves
        From :func:`mcda.learning_curves` (the means and t intervals per epoch; the level,
        split and metric are chosen there). Without seeds the scores are drawn with no band.
    datasets, methods : label or sequence of labels, optional
        Which panels and lines to draw (default: all, in the cube's order).
    max_cols : int, optional
        Panels per row (default 4 on a page, 2 in a column).
    page : int
        Which page of datasets (1 = the first): rows of panels that would make the figure
        taller than a page (9 in) go to further pages (:func:`learning_curve_pages`), and the
        figure says which datasets it shows.
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
    from ..epochs import LearningCurves

    if not isinstance(result, LearningCurves):
        raise McdaArgumentTypeError(f"`result` must be the LearningCurves of mcda.learning_curves(cube); got "
                        f"{type(result).__name__}. For a cube call plot_learning_curves(mcda.learning_curves(cube)).")
    max_cols = (2 if width == "column" else 4) if max_cols is None else max_cols
    if not isinstance(max_cols, int) or isinstance(max_cols, bool) or max_cols < 1:
        raise McdaArgumentError(f"`max_cols` must be a positive integer; got {max_cols}")
    table = result.table
    datasets = _common.subset("datasets", datasets, list(pd.unique(table["dataset"])))
    methods = _common.subset("methods", methods, list(pd.unique(table["method"])))
    styles = curve_styles(methods)
    w = _style.figure_size(width)[0]
    cols_wanted = min(max_cols, len(datasets))
    paging = learning_curve_pages(len(datasets), len(methods), methods, width=w, cols=cols_wanted)
    pages = paging["pages"] if ax is None else [slice(0, len(datasets))]
    if isinstance(page, bool) or not isinstance(page, (int, np.integer)) or not 1 <= page <= len(pages):
        raise McdaArgumentError(f"`page` must be an integer from 1 to {len(pages)} (the datasets' pages); got {page!r}")
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
