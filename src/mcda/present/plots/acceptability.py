"""SMAA-2's figures: stacked rank-acceptability bars per method, and the central weights with the
confidence factors (:func:`mcda.smaa`)."""

from __future__ import annotations

import numpy as np

from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style

__all__ = ["plot_rank_acceptability", "plot_central_weights"]

_FIELDS = ("methods", "metrics", "rank_acceptability", "rank_acceptability_se", "central_weights",
           "confidence_factors", "confidence_factors_se", "n_draws")
_SINGLE_RANKS = 3          # ranks 1..3 always get a segment of their own
_ALL_RANKS_UP_TO = 8       # up to this many methods every rank does
_BIN_EDGES = (5, 10, 20, 50, 100, 200, 500, 1000)
_KEY_SHARE = 0.4           # of a page: the most a number -> name key may take


def rank_bins(k: int) -> list[tuple[int, int]]:
    """The (first, last) ranks of each segment of a bar: every rank up to 8 methods; beyond, ranks
    1, 2, 3 alone and then 4–5, 6–10, 11–20, 21–50, … so a bar has a handful of segments at any size.

    Examples
    --------
    >>> rank_bins(3)
    [(1, 1), (2, 2), (3, 3)]
    >>> rank_bins(50)
    [(1, 1), (2, 2), (3, 3), (4, 5), (6, 10), (11, 20), (21, 50)]
    >>> rank_bins(12)
    [(1, 1), (2, 2), (3, 3), (4, 5), (6, 10), (11, 12)]
    """
    if k <= _ALL_RANKS_UP_TO:
        return [(r, r) for r in range(1, k + 1)]
    bins = [(r, r) for r in range(1, _SINGLE_RANKS + 1)]
    start = _SINGLE_RANKS + 1
    for edge in _BIN_EDGES:
        if start > k:
            break
        stop = min(edge, k)
        if edge >= k or k - edge < 1:
            stop = k
        bins.append((start, stop))
        start = stop + 1
    if start <= k:
        bins.append((start, k))
    return bins


def bin_labels(bins) -> list[str]:
    """Legend labels of :func:`rank_bins` ("1", "4–5", …).

    >>> bin_labels([(1, 1), (4, 5)])
    ['1', '4–5']
    """
    return [str(a) if a == b else f"{a}–{b}" for a, b in bins]


def binned_shares(table: np.ndarray, bins) -> np.ndarray:
    """Methods × segments: the rank acceptabilities summed over each bin's ranks.

    >>> binned_shares(np.array([[0.5, 0.25, 0.25]]), [(1, 1), (2, 3)]).tolist()
    [[0.5, 0.5]]
    """
    return np.stack([table[:, a - 1:b].sum(axis=1) for a, b in bins], axis=1)


def segment_starts(shares: np.ndarray) -> np.ndarray:
    """The left end of each stacked segment (cumulative shares before it).

    >>> segment_starts(np.array([[0.5, 0.3, 0.2]])).tolist()
    [[0.0, 0.5, 0.8]]
    """
    return np.cumsum(shares, axis=1) - shares


def _rows(names, width: float, extra: float):
    """(labels, numbered, key, row height, figure height) of a figure with one row per method."""
    k = len(names)
    numbered = _layout.numbered_rows(names, width=width)
    key_labels = [f"{i + 1} {m}" for i, m in enumerate(names)]
    # the key takes at most 40 % of a page, so the bars keep the rest at any number of methods
    key = _layout.name_key(key_labels, width=width, max_height=_KEY_SHARE * _layout.PAGE_HEIGHT) \
        if numbered else {"height": 0.0}
    fixed = extra + key["height"]
    row_h = _layout.row_height(k, preferred=0.2, minimum=0.1, fixed=fixed)
    height = min(fixed + row_h * k, _layout.PAGE_HEIGHT)
    labels = [str(i + 1) for i in range(k)] if numbered else list(names)
    return labels, numbered, key, key_labels, height


def _label_rows(ax, labels, height_pt: float) -> None:
    k = len(labels)
    font = max(min(_style.FONT_SIZE - 1, height_pt / 1.3), _layout.MIN_FONT)
    step = max(1, int(np.ceil(1.25 * font / max(height_pt, 1e-9))))
    shown = [i for i in range(k) if i % step == 0]
    ax.set_yticks(shown, [labels[i] for i in shown], fontsize=font)
    ax.set_ylim(k - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)


def plot_rank_acceptability(result, *, width="column", ax=None, order=None):
    """Stacked rank-acceptability bars: one bar per method, one segment per rank (1 = best, darkest).

    Parameters
    ----------
    result : SmaaResult
        From :func:`mcda.smaa`.
    width : {"column", "page"} or float
        Figure width; the height grows with the number of methods (rows shrink to fit a page).
        Ignored with ``ax``.
    ax : matplotlib Axes, optional
    order : sequence of str, optional
        The methods' order instead of SMAA's (by first-rank acceptability, then the next ranks).

    Returns
    -------
    fig : matplotlib Figure
    ax : matplotlib Axes

    Notes
    -----
    A bar's segments are the method's rank acceptabilities b^r, left to right from rank 1; they
    sum to 1. Up to 8 methods each rank has its own segment; beyond, ranks 1, 2 and 3 do and the
    rest are grouped (4–5, 6–10, 11–20, …; :func:`rank_bins`) so the legend stays short. A
    whisker at the end of the rank-1 segment spans ± 2 Monte Carlo standard errors. Names too long
    for a quarter of the width give way to row numbers and a key under the figure.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_rank_acceptability
    >>> cube = mcda.datasets.load("duo2018_all").mcda.sel(metric=["ARI", "elapsed"], method=["SC3", "Seurat", "CIDR"])
    >>> fig, ax = plot_rank_acceptability(mcda.smaa(cube, n_draws=1000, rng=0))
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['Seurat', 'SC3', 'CIDR']
    """
    import matplotlib

    _common.require(result, _FIELDS, what="SmaaResult", maker="mcda.smaa")
    names = [str(m) for m in _common.method_order(result.order, order)]
    k = len(names)
    bins = rank_bins(len(result.methods))
    shares = binned_shares(result.rank_acceptability.loc[names].to_numpy(float), bins)
    starts = segment_starts(shares)
    with _style.style():
        fig_w = _style.figure_size(width)[0] if ax is None else _style.get_figure(ax)[0].get_figwidth()  # checks `ax`
        labels, numbered, key, key_labels, height = _rows(names, fig_w, extra=1.3)
        fig, ax = _style.get_figure(ax, width, height=height)
        cmap = matplotlib.colormaps[_style.SEQUENTIAL_CMAP]
        colours = [cmap(0.95 - 0.8 * i / max(len(bins) - 1, 1)) for i in range(len(bins))]
        y = np.arange(k)
        row_pt = (fig.get_figheight() - 1.3 - key["height"]) * 72.0 / max(k, 1)
        bar_h = 0.8 if row_pt >= 4 else 1.0
        for s, (label, colour) in enumerate(zip(bin_labels(bins), colours)):
            ax.barh(y, shares[:, s], left=starts[:, s], height=bar_h, color=colour, label=label, linewidth=0,
                    gid=f"rank_segment_{label}")
        first = shares[:, 0]
        se = result.rank_acceptability_se.loc[names].to_numpy(float)[:, 0]
        ax.hlines(y, np.clip(first - 2 * se, 0, 1), np.clip(first + 2 * se, 0, 1), color="black", lw=0.6,
                  gid="first_rank_error")
        ax.set_xlim(0, 1)
        ax.set_xlabel("rank acceptability (share of draws)")
        _label_rows(ax, labels, row_pt)
        ax.spines["left"].set_visible(False)
        ax.legend(title="rank (1 = best)", loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=len(bins),
                  fontsize=_style.FONT_SIZE - 2, title_fontsize=_style.FONT_SIZE - 2, handlelength=0.8,
                  handletextpad=0.3, columnspacing=0.5 if len(bins) > 8 else 0.8, borderaxespad=0.2, frameon=False)
        if numbered:
            _common.key_legend(fig, key_labels, key, title="methods, by rank acceptability" if order is None
                               else "methods")
        fig.suptitle(f"SMAA-2: {result.n_draws:,} draws, {len(result.metrics)} criteria", x=0.02, ha="left",
                     fontsize=_style.FONT_SIZE)
    return fig, ax


def central_rows(result, order=None) -> list:
    """The methods with central weights (they rank first in some draw), in ``order`` or by confidence factor.

    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> res = SimpleNamespace(methods=["a", "b", "c"], confidence_factors=pd.Series({"a": 0.2, "b": float("nan"),
    ...                                                                              "c": 0.7}))
    >>> central_rows(res)
    ['c', 'a']
    """
    cf = result.confidence_factors
    defined = [m for m in result.methods if np.isfinite(cf[m])]
    if order is not None:
        return [m for m in _common.method_order(result.methods, order) if m in set(defined)]
    return sorted(defined, key=lambda m: (-float(cf[m]), result.methods.index(m)))


def plot_central_weights(result, *, width="column", ax=None, order=None):
    """Each method's central weight vector (stacked, one colour per criterion) beside its confidence factor.

    Parameters
    ----------
    result : SmaaResult
        From :func:`mcda.smaa` (with weights drawn: exact weights have no central weights).
    width : {"column", "page"} or float
    ax : pair of matplotlib Axes, optional
        The weights panel and the confidence-factor panel.
    order : sequence of str, optional
        The methods' order instead of the confidence factor's.

    Returns
    -------
    fig : matplotlib Figure
    axes : list of two Axes

    Notes
    -----
    Only methods that rank first in some draw have central weights; the others are left out
    and counted in the title. Left: the central weight vector, the typical weights under which
    the method is the best choice (segments sum to 1). Right: the confidence factor, the share
    of the measurement draws in which the method ranks first under those weights, with ± 2
    Monte Carlo standard errors.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_central_weights
    >>> cube = mcda.datasets.load("duo2018_all").mcda.sel(metric=["ARI", "elapsed"], method=["SC3", "Seurat", "CIDR"])
    >>> fig, (weights, confidence) = plot_central_weights(mcda.smaa(cube, n_draws=1000, rng=0))
    >>> [t.get_text() for t in weights.get_legend().get_texts()]
    ['ARI', 'elapsed']
    """
    from mcda._core.validation import McdaArgumentError

    _common.require(result, _FIELDS, what="SmaaResult", maker="mcda.smaa")
    names = [str(m) for m in central_rows(result, order)]
    if not names:
        raise McdaArgumentError("this SMAA-2 result has no central weights (exact weights were given): there is no "
                                "weight vector to show", argument="result")
    k = len(names)
    weights = result.central_weights.loc[names].to_numpy(float)
    starts = segment_starts(weights)
    with _style.style():
        fig_w = _style.figure_size(width)[0] if ax is None else \
            _common.axes_pair(ax, width, height=None, width_ratios=(7, 3))[0].get_figwidth()
        labels, numbered, key, key_labels, height = _rows(names, fig_w, extra=1.3)
        fig, (left, right) = _common.axes_pair(ax, width, height=height, width_ratios=(7, 3))
        colours = _style.colors_for(result.metrics)
        y = np.arange(k)
        row_pt = (fig.get_figheight() - 1.3 - key["height"]) * 72.0 / max(k, 1)
        bar_h = 0.8 if row_pt >= 4 else 1.0
        for c, metric in enumerate(result.metrics):
            left.barh(y, weights[:, c], left=starts[:, c], height=bar_h, color=colours[metric], label=metric,
                      linewidth=0, gid=f"central_weight_{c}")
        left.set_xlim(0, 1)
        left.set_xlabel("central weight")
        _label_rows(left, labels, row_pt)
        left.spines["left"].set_visible(False)
        left.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=min(len(result.metrics), 4),
                    fontsize=_style.FONT_SIZE - 2, handlelength=1.0, columnspacing=0.8, borderaxespad=0.2,
                    frameon=False)
        cf = result.confidence_factors.loc[names].to_numpy(float)
        se = result.confidence_factors_se.loc[names].to_numpy(float)
        right.hlines(y, np.clip(cf - 2 * se, 0, 1), np.clip(cf + 2 * se, 0, 1), color=_style.NEUTRAL, lw=1.0,
                     gid="confidence_error")
        right.plot(cf, y, linestyle="none", marker="o", markersize=3.0, color=_style.PALETTE[0],
                   gid="confidence_factor")
        right.set_xlim(0, 1.05)
        right.set_xticks([0, 0.5, 1], ["0", ".5", "1"])
        right.set_ylim(k - 0.5, -0.5)
        right.set_yticks(range(k), [""] * k)
        right.tick_params(axis="y", length=0)
        right.spines["left"].set_visible(False)
        right.set_xlabel("confidence\nfactor")
        right.grid(axis="x", lw=0.4)
        right.set_axisbelow(True)
        if numbered:
            _common.key_legend(fig, key_labels, key, title="methods, by confidence factor" if order is None
                               else "methods")
        never = len(result.methods) - k
        fig.suptitle("SMAA-2 central weights" + (f"; {never} never first (not shown)" if never else ""), x=0.02,
                     ha="left", fontsize=_style.FONT_SIZE)
    return fig, [left, right]
