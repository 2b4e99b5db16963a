"""On how many datasets each method beats each other: the replicability counts as a matrix."""

from __future__ import annotations

import numpy as np

from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style

__all__ = ["replicability_matrix", "plot_replicability"]

_FIELDS = ("table", "method", "adjust", "alpha", "n_comparisons")


def replicability_matrix(result, order=None) -> tuple[list, np.ndarray, np.ndarray]:
    """(order, k̂ of "row beats column", datasets of the pair), methods by the datasets they are shown
    to win on (most first, ties in the result's order), or in ``order``.

    Cells of claims the result did not test (the diagonal; with a control, the pairs without it)
    are NaN.

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"method_a": ["a", "b"], "method_b": ["b", "a"], "n_datasets": [5, 5],
    ...                       "n_replicated": [1, 3]})
    >>> order, counts, n = replicability_matrix(SimpleNamespace(table=table))
    >>> order, counts.tolist()
    (['b', 'a'], [[nan, 3.0], [1.0, nan]])
    """
    table = result.table
    methods = list(dict.fromkeys(list(table["method_a"]) + list(table["method_b"])))
    wins = table.groupby("method_a", sort=False)["n_replicated"].sum().reindex(methods).fillna(0)
    position = {m: i for i, m in enumerate(methods)}
    own = sorted(methods, key=lambda m: (-wins[m], position[m]))
    order = _common.method_order(own, order)
    index = {m: i for i, m in enumerate(order)}
    k = len(order)
    counts = np.full((k, k), np.nan)
    n = np.full((k, k), np.nan)
    for a, b, n_pair, replicated in table[["method_a", "method_b", "n_datasets", "n_replicated"]].itertuples(
            index=False):
        if a in index and b in index:
            counts[index[a], index[b]] = replicated
            n[index[a], index[b]] = n_pair
    return order, counts, n


def plot_replicability(result, *, annotate: bool | None = None, width="column", ax=None, order=None):
    """The replicability counts: on how many datasets the row method beats the column method.

    Parameters
    ----------
    result : ReplicabilityResult
        From :func:`mcda.replicability`.
    annotate : bool, optional
        Write each count k̂ in its cell (default: when a count fits a cell at 5 pt or more, the
        rule of :func:`mcda.present.plots._layout.matrix_layout`); otherwise the colour bar
        gives the share.
    width : {"column", "page"} or float
        Figure width (square-ish matrix). Ignored with ``ax``.
    ax : matplotlib Axes, optional
    order : sequence of str, optional
        The methods' order (rows, columns and the key's numbers) instead of the matrix's own
        (most datasets won first): one order for every figure of a run.

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Notes
    -----
    Cell (row a, column b) is coloured by k̂ / N, the share of the pair's N datasets on which
    the data support "a beats b" (``n_replicated / n_datasets`` of the result's table), and holds
    k̂. k̂ is a lower bound with family-wise control over the claims (the result's adjustment);
    a cell and its mirror are separate claims, so both may be above 0 (each method better on
    some datasets). Blank cells were not tested. The plot computes nothing.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_replicability
    >>> folds = mcda.datasets.synthetic(n_datasets=8, n_methods=3, n_seeds=5, rng=0)
    >>> res = mcda.replicability(folds)
    >>> fig, ax = plot_replicability(res)
    >>> len(ax.get_yticklabels())
    3
    """
    _common.require(result, _FIELDS, what="ReplicabilityResult", maker="mcda.replicability")
    order, counts, n = replicability_matrix(result, order)
    k = len(order)
    share = counts / np.where(n > 0, n, np.nan)
    widest = str(int(np.nanmax(n))) if np.isfinite(n).any() else "0"
    w = _style.figure_size(width)[0]
    layout = _layout.matrix_layout(k, order, width=w, cell_text=widest)
    annotate = layout["annotate"] if annotate is None else bool(annotate)
    with _style.style():
        fig, ax = _style.get_figure(ax, width, height=layout["height"])
        image, cmap, norm = _common.share_matrix(ax, share, layout, gid="replicability_matrix")
        if annotate:
            for i in range(k):
                for j in range(k):
                    if np.isfinite(counts[i, j]):
                        ax.text(j, i, f"{int(counts[i, j])}", ha="center", va="center",
                                fontsize=max(layout["cell_font"], _style.FONT_SIZE - 2) if layout["annotate"]
                                else _style.FONT_SIZE - 2, color=_style.text_color_on(cmap(norm(share[i, j]))),
                                gid="cell_value")
        _common.share_bar(fig, ax, image, k, "share of the pair's datasets")
        what = "number: " if annotate else ""
        ax.set_xlabel(f"{what}datasets on which row beats column (a lower bound);\n"
                      f"{result.method.replace('conjunction-', '').capitalize()} partial conjunctions, "
                      f"{result.adjust.capitalize()} over {result.n_comparisons} claims at α = {result.alpha:g}",
                      fontsize=_style.FONT_SIZE - 1)
        if annotate:
            _common.fit_cell_texts(fig, [ax], min_font=_layout.MIN_FONT)
    return fig, ax
