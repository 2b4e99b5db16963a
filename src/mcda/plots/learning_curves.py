"""Learning curves: the mean over seeds per epoch, with its t band, one panel per dataset."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import McdaArgumentError, McdaArgumentTypeError
from . import _common, _style

__all__ = ["plot_learning_curves"]


def plot_learning_curves(result, *, datasets=None, methods=None, max_cols: int | None = None, width="page", ax=None):
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
    The band is the Student t interval of the mean over seeds, ``mean ± t_{(1+c)/2, n−1} ·
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
    styles = _common.method_styles(methods)
    with _style.style():
        fig, axes, cols = _common.panel_grid(ax, len(datasets), width, max_cols=max_cols,
                                             height=lambda rows, _: 0.3 + 1.45 * rows + 0.35, sharex=True)
        for panel, dataset in zip(axes, datasets):
            rows = table[table["dataset"] == dataset]
            for method in methods:
                line = rows[rows["method"] == method].sort_values("epoch")
                colour, _ = styles[method]
                x = line["epoch"].to_numpy()
                if np.isfinite(line["ci_low"].to_numpy(dtype=float)).any():
                    panel.fill_between(x, line["ci_low"].to_numpy(dtype=float), line["ci_high"].to_numpy(dtype=float),
                                       color=colour, alpha=0.22, linewidth=0, gid="t_band")
                panel.plot(x, line["mean"].to_numpy(dtype=float), color=colour, label=str(method), gid="mean_curve")
            panel.set_title(str(dataset), fontsize=_style.FONT_SIZE)
            panel.grid(axis="y")
            panel.set_axisbelow(True)
        for i, panel in enumerate(axes):
            if ax is not None or i + cols >= len(datasets):   # nothing below: label the epochs here
                panel.xaxis.set_tick_params(labelbottom=True)
                panel.set_xlabel("epoch")
        if ax is None:
            fig.legend(handles=list(axes[0].get_lines()), loc="outside lower center", ncols=min(len(methods), 6),
                       fontsize=_style.FONT_SIZE - 1)
            band = f", {result.confidence_level:.0%} t band" if result.has_seeds else ""
            fig.supylabel(f"mean over seeds{band}", fontsize=_style.FONT_SIZE)
    return fig, axes
