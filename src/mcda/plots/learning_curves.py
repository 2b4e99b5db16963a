"""Learning curves: the mean over seeds per epoch, with its t band, one panel per dataset."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .._validation import check_probability, user_stacklevel
from . import _common, _style

__all__ = ["curve_table", "plot_learning_curves"]


def _epoch_cube(cube, split, metric):
    from ..cube import as_cube

    cube = as_cube(cube)
    if "epoch" not in cube.dims:
        raise ValueError(f"`cube` must have an 'epoch' dim for learning curves; its dims are {tuple(cube.dims)}")
    if "split" in cube.dims:
        labels = [str(s) for s in cube.coords["split"].values]
        if split is None:
            split = "test" if "test" in labels else (labels[0] if len(labels) == 1 else None)
        if split not in labels:
            raise ValueError(f"`split` must be one of the cube's splits {labels}; got {split!r}")
        cube = cube.sel(split=split, drop=True)
    elif split is not None:
        raise ValueError(f"`split` was given ({split!r}) but the cube has no 'split' dim")
    if "metric" in cube.dims:
        labels = [str(m) for m in cube.coords["metric"].values]
        if metric not in labels:
            raise ValueError(f"`metric` must be one of the cube's metrics {labels}; got {metric!r}")
        from ..cube import cube_cards, score_cube

        card = cube_cards(cube).get(metric)
        direction = str(cube.coords["direction"].sel(metric=metric).values) if "direction" in cube.coords else None
        part = cube.sel(metric=metric, drop=True)
        part = part.drop_vars([c for c in part.coords if c not in part.dims])
        part.attrs = {}
        cube = score_cube(part, metric=card, direction=None if card is not None else direction)
    elif metric is not None:
        raise ValueError(f"`metric` was given ({metric!r}) but the cube has a single metric")
    return cube, split


def curve_table(cube, *, confidence_level: float = 0.95, split=None, metric=None) -> pd.DataFrame:
    """Per (dataset, method, epoch): the mean over seeds and its t interval, from :func:`mcda.summary`.

    Each epoch's slice goes through :func:`mcda.summary` (``ci_method="t"``), so the band is the
    library's own interval; a cube without a ``seed`` dim gives the scores and no band.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, method, epoch, n_seeds, mean, ci_low, ci_high`` in the metric's units.
    """
    from ..within import summary

    confidence_level = check_probability("confidence_level", confidence_level, closed="neither")
    cube, _ = _epoch_cube(cube, split, metric)
    frames = []
    caught: dict = {}
    for epoch in cube.coords["epoch"].values:
        part = cube.sel(epoch=epoch, drop=True)
        if "seed" in part.dims:
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                table = summary(part, ci_method="t", confidence_level=confidence_level).to_frame()
            for w in seen:
                caught.setdefault((w.category, str(w.message)), w)
            table = table[["dataset", "method", "n_seeds", "mean", "ci_low", "ci_high"]]
        else:
            values = part.to_series().rename("mean").reset_index()
            table = values.assign(n_seeds=1, ci_low=np.nan, ci_high=np.nan)[
                ["dataset", "method", "n_seeds", "mean", "ci_low", "ci_high"]]
        frames.append(table.assign(epoch=epoch))
    for (category, message), _w in caught.items():  # each distinct warning once, not once per epoch
        warnings.warn(message, category, stacklevel=user_stacklevel())
    out = pd.concat(frames, ignore_index=True)
    return out[["dataset", "method", "epoch", "n_seeds", "mean", "ci_low", "ci_high"]]


def plot_learning_curves(cube, *, confidence_level: float = 0.95, datasets=None, methods=None, split=None,
                         metric=None, max_cols: int | None = None, width="page", ax=None):
    """One panel per dataset: each method's mean over seeds per epoch, with its t band.

    Parameters
    ----------
    cube : score cube with an ``epoch`` dim
        Usually also a ``seed`` dim (without one, the scores are drawn with no band).
    confidence_level : float
        Level of the t band (default 0.95).
    datasets, methods : label or sequence of labels, optional
        Which panels and lines to draw (default: all, in the cube's order).
    split : str, optional
        With a ``split`` dim: the split to draw (default ``"test"`` when present).
    metric : str, optional
        With a ``metric`` dim: the metric to draw.
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
    s/√n``, taken from :func:`mcda.summary` on each epoch (so it matches every other interval
    the library reports); the plot itself computes nothing. Distinct warnings from the
    summaries (e.g. a single seed in a cell) are shown once.

    Examples
    --------
    >>> import numpy as np, xarray as xr, mcda
    >>> from mcda.plots import plot_learning_curves
    >>> epochs = [mcda.datasets.synthetic(n_datasets=2, n_methods=2, n_seeds=3, base=0.5 + 0.05 * e, rng=e)
    ...           for e in range(4)]
    >>> cube = xr.concat(epochs, dim=xr.DataArray([1, 2, 3, 4], dims="epoch", name="epoch"))
    >>> fig, axes = plot_learning_curves(cube)
    >>> [a.get_title(loc="left") for a in axes]
    ['dataset_0', 'dataset_1']
    """
    from ..cube import as_cube

    max_cols = (2 if width == "column" else 4) if max_cols is None else max_cols
    if not isinstance(max_cols, int) or isinstance(max_cols, bool) or max_cols < 1:
        raise ValueError(f"`max_cols` must be a positive integer; got {max_cols}")
    table = curve_table(cube, confidence_level=confidence_level, split=split, metric=metric)
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
            band = f", {confidence_level:.0%} t band" if "seed" in as_cube(cube).dims else ""
            fig.supylabel(f"mean over seeds{band}", fontsize=_style.FONT_SIZE)
    return fig, axes
