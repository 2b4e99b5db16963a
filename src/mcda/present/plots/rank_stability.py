"""How stable the ranking is: P(position = r) per method, and the mean-rank intervals."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style

__all__ = ["plot_rank_stability"]

_FIELDS = ("mean_ranks", "position_probabilities", "mean_rank_interval", "n_resamples", "confidence_level",
           "aggregation", "n_datasets")


def _stability_order(mean_ranks: pd.Series) -> list:
    """Methods by observed mean rank (best first; ties keep the input order).

    Examples
    --------
    >>> import pandas as pd
    >>> _stability_order(pd.Series({"a": 2.0, "b": 1.0, "c": 2.0}))
    ['b', 'a', 'c']
    """
    return list(mean_ranks.sort_values(kind="stable").index)


def _position_matrix(position_probabilities: pd.DataFrame, order: list) -> np.ndarray:
    """The rows of P(position = r) in ``order`` (methods × positions 1..k), as drawn."""
    return position_probabilities.loc[order].to_numpy(dtype=float)


def plot_rank_stability(result, *, annotate: bool | None = None, width="column", ax=None, order=None):
    """P(position = r) per method as a heat map, beside each method's mean-rank interval.

    Parameters
    ----------
    result : RankStability
        From :func:`mcda.rank_stability`.
    annotate : bool, optional
        Write each probability in its cell (default: when there are at most 10 methods);
        otherwise a colour bar gives the scale.
    width : {"column", "page"} or float
        Figure width; the height grows with the number of methods (rows shrink to fit a
        page). Ignored with ``ax``. Rows carry the method names while the widest takes at most
        35 % of the width (:func:`mcda.present.plots._layout.numbered_rows`); longer names (40
        characters in a column) give way to row numbers 1, 2, … in the drawn order and a
        key under the figure names them (:func:`mcda.present.plots._layout.name_key`), so the heat map
        and the interval panel keep their 70 % / 30 % shares at every size.
    ax : pair of matplotlib Axes, optional
        The heat-map axes and the interval axes; by default a new figure.
    order : sequence of str, optional
        The methods' order (rows and the key's numbers) instead of the observed mean rank: one
        order for every figure of a run (``mcda compare`` passes the across-dataset ranking).

    Returns
    -------
    fig : matplotlib Figure
    axes : list of two Axes
        ``[heat map, intervals]``.

    Notes
    -----
    Methods run top to bottom by observed mean rank (best first). Left: the share of bootstrap
    resamples of the datasets in which each method takes each position (positions 1 = best at
    the left, as on every rank axis in mcda). Right: the observed mean rank (dot) and its
    percentile bootstrap interval (line). The numbers are the result's; nothing is resampled
    here.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_rank_stability
    >>> res = mcda.rank_stability(mcda.datasets.load("demsar2006"), n_resamples=200, rng=0)
    >>> fig, (heat, bars) = plot_rank_stability(res)
    >>> [t.get_text() for t in heat.get_yticklabels()]
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    """
    _common.require(result, _FIELDS, what="RankStability", maker="mcda.rank_stability")
    given = order is not None
    order = _common.method_order(_stability_order(result.mean_ranks), order)
    k = len(order)
    annotate = k <= 10 if annotate is None else bool(annotate)
    probs = _position_matrix(result.position_probabilities, order)
    with _style.style():
        # the heat map takes 70 % of the width at every size, the interval panel 30 %; rows shrink
        # to fit a page; long names give way to row numbers and a key under the figure
        fig_w = _style.figure_size(width)[0] if ax is None else \
            _common.axes_pair(ax, width, height=None, width_ratios=(7, 3))[0].get_figwidth()   # checks `ax`
        names = [str(m) for m in order]
        numbered = _layout.numbered_rows(names, width=fig_w)
        key_labels = [f"{i + 1} {m}" for i, m in enumerate(names)]
        key = _layout.name_key(key_labels, width=fig_w, max_height=_layout.PAGE_HEIGHT - 1.0 - 0.1 * k) \
            if numbered else {"height": 0.0}
        row_h = _layout.row_height(k, preferred=0.2, minimum=0.1, fixed=1.0 + key["height"])
        fig, (heat, bars) = _common.axes_pair(ax, width, height=min(1.0 + key["height"] + row_h * k,
                                                                    _layout.PAGE_HEIGHT), width_ratios=(7, 3))
        row_pt = (heat.figure.get_figheight() - 1.0 - key["height"]) * 72.0 / k if ax is None else \
            heat.get_position().height * heat.figure.get_figheight() * 72.0 / k
        _draw_heat(heat, probs, [str(i + 1) for i in range(k)] if numbered else names, annotate=annotate, fig=fig,
                   row_pt=row_pt)
        if numbered:
            _common.key_legend(fig, key_labels, key, title="methods" if given else "methods, by observed mean rank")
        _draw_intervals(bars, result, order)
        weighted = "" if result.aggregation == "uniform" else f", {result.aggregation} weights"
        fig.suptitle(f"{result.n_resamples:,} bootstrap resamples of {result.n_datasets} datasets{weighted}",
                     x=0.02, ha="left", fontsize=_style.FONT_SIZE)
    return fig, [heat, bars]


def _draw_heat(ax, probs, order, *, annotate, fig, row_pt):
    import matplotlib
    from matplotlib.colors import Normalize

    k = len(order)
    cmap = matplotlib.colormaps[_style.SEQUENTIAL_CMAP]
    norm = Normalize(0.0, 1.0)
    cmap = cmap.with_extremes(bad="white")
    # a position never taken stays white (masked), so the reachable positions stand out
    image = ax.imshow(np.ma.masked_equal(probs, 0.0), cmap=cmap, norm=norm, aspect="auto", interpolation="nearest")
    image.set_gid("position_heatmap")
    ax.set_xticks(range(k), [str(r) for r in range(1, k + 1)])
    font = max(min(_style.FONT_SIZE - 1, row_pt / 1.3), _layout.MIN_FONT)
    step = max(1, math.ceil(1.25 * font / max(row_pt, 1e-9)))     # rows denser than the font: every step-th
    shown = [i for i in range(k) if i % step == 0]
    ax.set_yticks(shown, [str(order[i]) for i in shown], fontsize=font)
    ax.set_xlabel("position (1 = best)")
    ax.set_title("P(position = r)")
    _common.matrix_frame(ax)
    if k > 8:  # keep position labels legible
        step = 10 if k > 25 else (5 if k > 12 else 2)
        ax.set_xticks([r - 1 for r in range(1, k + 1) if r == 1 or r % step == 0],
                      [str(r) for r in range(1, k + 1) if r == 1 or r % step == 0])
    if annotate:
        _common.annotate_cells(ax, np.where(probs >= 0.005, probs, np.nan), cmap=cmap, norm=norm,
                               fmt=lambda v: f"{v:.2f}".lstrip("0") if v < 1 else "1", fontsize=_style.FONT_SIZE - 2)
    else:
        bar = fig.colorbar(image, ax=ax, fraction=0.05, pad=0.02)
        bar.ax.tick_params(labelsize=_style.FONT_SIZE - 2)


def _draw_intervals(ax, result, order):
    k = len(order)
    interval = result.mean_rank_interval.loc[order]
    y = np.arange(k)
    ax.hlines(y, interval["low"].to_numpy(float), interval["high"].to_numpy(float), color=_style.NEUTRAL, lw=1.4,
              gid="rank_interval")
    ax.plot(result.mean_ranks.loc[order].to_numpy(float), y, linestyle="none", marker="o", color=_style.PALETTE[0],
            markersize=3.5, gid="observed_mean_rank")
    ax.set_ylim(k - 0.5, -0.5)
    ax.set_xlim(0.5, k + 0.5)
    ax.set_yticks(range(k), [""] * k)
    ax.tick_params(axis="y", length=0)
    ax.spines["left"].set_visible(False)
    ax.set_xlabel(f"mean rank\n({result.confidence_level:.0%} interval)")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(nbins=3, integer=True))
    ax.grid(axis="x", lw=0.4)
    ax.set_axisbelow(True)
