"""Forest plot of a meta-analysis: one row per dataset, the pooled difference and the prediction interval below."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError
from mcda.data.cards import higher_is_better
from mcda.present.plots import _common, _layout, _style
from mcda.present.plots._layout import check_page

__all__ = ["meta_forest_pages", "plot_meta_forest"]

_FIELDS = ("table", "per_dataset", "method", "confidence_level")
#: Inches of title, pooled rows, axis and caption around the dataset rows.
_FIXED = 1.75


def meta_forest_pages(n_datasets: int) -> dict:
    """Row height and the datasets of each page: rows of 0.19 in, squeezed to 0.125 in, then more pages.

    Every page ends with the pooled rows (the random-effects mean and the prediction interval), so
    each page reads on its own.

    Examples
    --------
    >>> meta_forest_pages(8)["row"], len(meta_forest_pages(8)["pages"])
    (0.19, 1)
    >>> [len(range(200)[p]) for p in meta_forest_pages(200)["pages"]]
    [50, 50, 50, 50]
    """
    row = _layout.row_height(n_datasets, fixed=_FIXED)
    return {"row": row, "pages": _layout.page_slices(n_datasets, _layout.rows_per_page(row, fixed=_FIXED))}


@_style.styled
def plot_meta_forest(result, pair=None, *, page: int = 1, width="column", ax=None):
    """The per-dataset differences of one pair, the random-effects mean and the prediction interval.

    Parameters
    ----------
    result : MetaAnalysisResult
        From :func:`mcda.meta_analysis`.
    pair : (str, str), optional
        ``(method_a, method_b)`` as in the result's table (either order); default its first row.
    page : int
        Which page of datasets (1 = the first) when they do not fit one page
        (:func:`meta_forest_pages`); every page repeats the pooled rows.
    width : {"column", "page"} or float
        Figure width; the height grows with the datasets of the page. Ignored with ``ax``.
    ax : matplotlib Axes, optional

    Returns
    -------
    fig : matplotlib Figure
    ax : matplotlib Axes

    Notes
    -----
    Each dataset's row shows its mean difference a − b as a square whose area follows its
    random-effects weight, and its interval at the result's confidence level; below, the
    diamond spans the confidence interval of the random-effects mean μ̂ and the bar under it
    the prediction interval for a new dataset. The dashed line is no difference. The plot
    computes nothing: every number is a column of the result.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_meta_forest
    >>> cube = mcda.datasets.synthetic(n_datasets=6, n_methods=2, n_seeds=5, rng=0)
    >>> fig, ax = plot_meta_forest(mcda.meta_analysis(cube))
    >>> [t.get_text() for t in ax.get_yticklabels()][-2:]
    ['random effects', 'new dataset']
    """
    _common.require(result, _FIELDS, what="MetaAnalysisResult", maker="mcda.meta_analysis")
    table = result.table
    if pair is None:
        row = table.iloc[0]
    else:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise McdaArgumentError(f"`pair` must be (method_a, method_b); got {pair!r}", argument="pair", value=pair)
        a, b = map(str, pair)
        match = table[((table["method_a"] == a) & (table["method_b"] == b))
                      | ((table["method_a"] == b) & (table["method_b"] == a))]
        if match.empty:
            pairs = [f"({x}, {y})" for x, y in zip(table["method_a"], table["method_b"])]
            raise McdaArgumentError(f"`pair` {pair!r} is not a pair of the result; it has {_layout_shown(pairs)}",
                                    argument="pair", value=pair)
        row = match.iloc[0]
    a, b = str(row["method_a"]), str(row["method_b"])
    per = result.per_dataset
    per = per[(per["method_a"] == a) & (per["method_b"] == b)]
    per = per[np.isfinite(per["mean_diff"].to_numpy(dtype=float))]
    paging = meta_forest_pages(len(per))
    n_pages = len(paging["pages"])
    check_page(page, n_pages, "the datasets' pages")
    shown = per.iloc[paging["pages"][page - 1]]
    n = len(shown)
    height = n * paging["row"] + _FIXED
    fig, ax = _style.get_figure(ax, width, height=height)
    y = np.arange(n, dtype=float)
    weights = shown["weight"].to_numpy(dtype=float)
    sizes = 6.0 + 60.0 * np.sqrt(np.nan_to_num(weights) / np.nanmax(per["weight"].to_numpy(dtype=float)))
    ax.hlines(y, shown["ci_low"], shown["ci_high"], color=_style.NEUTRAL, linewidth=0.8, gid="dataset_interval")
    ax.scatter(shown["mean_diff"], y, s=sizes, marker="s", color=_style.PALETTE[0], zorder=3, gid="dataset_effect")
    pooled_y, new_y = n + 0.6, n + 1.6
    if np.isfinite(row["ci_low"]):
        mu, low, high = float(row["mean_diff"]), float(row["ci_low"]), float(row["ci_high"])
        ax.fill([low, mu, high, mu], [pooled_y, pooled_y - 0.35, pooled_y, pooled_y + 0.35],
                color=_style.HIGHLIGHT, zorder=3, gid="pooled")
    if np.isfinite(row["prediction_low"]):
        ax.hlines([new_y], [row["prediction_low"]], [row["prediction_high"]], color=_style.HIGHLIGHT, linewidth=2.2,
                  gid="prediction")
    ax.axvline(0.0, color=_style.NEUTRAL, linewidth=0.6, linestyle="--", zorder=1)
    ax.axhline(n - 0.2 + 0.15, color=_style.LIGHT, linewidth=0.8)
    labels = [str(d) for d in shown["dataset"]] + ["random effects", "new dataset"]
    ax.set_yticks(list(y) + [pooled_y, new_y], labels)
    ax.tick_params(axis="y", labelsize=_layout.ROW_FONT if n > 20 else _style.FONT_SIZE - 1, length=0)
    ax.set_ylim(new_y + 0.8, -0.8)
    higher = result.direction is None or higher_is_better(result.direction)
    units = f" ({result.metric})" if result.metric else ""
    ax.set_xlabel(f"{a} − {b}{units}\n{'right' if higher else 'left'} of 0: {a} better")
    level = f"{result.confidence_level:.0%}"
    title = f"{a} vs {b}"
    if np.isfinite(row["ci_low"]):
        title += (f"\nμ = {row['mean_diff']:.3g} [{row['ci_low']:.3g}, {row['ci_high']:.3g}] ({level})"
                  f"\nτ² = {row['tau2']:.2g}, I² = {row['i2']:.0%}, {len(per)} datasets")
    if n_pages > 1:
        part = paging["pages"][page - 1]
        title += f"\ndatasets {part.start + 1}–{part.stop} (page {page} of {n_pages}: page=)"
    ax.set_title(title, fontsize=_style.FONT_SIZE - 1)
    return fig, ax


def _layout_shown(items) -> str:
    from mcda._core.validation import shown

    return shown(list(items), 6, fmt=str)
