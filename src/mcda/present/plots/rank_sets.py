"""Confidence sets for ranks: one horizontal rank interval per method, best estimate at the top."""

from __future__ import annotations

import math
import textwrap

import numpy as np

from mcda._core.validation import shown as listed
from mcda.present.plots import _common, _layout, _style
from mcda.present.plots._layout import check_page

__all__ = ["plot_rank_sets", "rank_set_pages", "rank_ticks"]

_FIELDS = ("estimates", "ranks", "rank_low", "rank_high", "best_set", "confidence_level", "simultaneous",
           "n_methods")
#: Inches of title, axis, its label and the legend around the method rows.
_FIXED = 1.45
#: Half the width of a rank's box: a set {r} is drawn from r − 0.4 to r + 0.4, so neighbouring sets never touch.
HALF_BOX = 0.4


def rank_set_pages(n_methods: int) -> dict:
    """Row height and the methods of each page: rows of 0.19 in, squeezed to 0.125 in, then more pages.

    Every page keeps the whole rank axis (1 to the number of methods), so the sets of one page
    read against all the places.

    Examples
    --------
    >>> rank_set_pages(8)["row"], len(rank_set_pages(8)["pages"])
    (0.19, 1)
    >>> [len(range(200)[p]) for p in rank_set_pages(200)["pages"]]
    [50, 50, 50, 50]
    """
    row = _layout.row_height(n_methods, fixed=_FIXED)
    return {"row": row, "pages": _layout.page_slices(n_methods, _layout.rows_per_page(row, fixed=_FIXED))}


def rank_ticks(n_methods: int) -> list[int]:
    """The ranks labelled on the axis: every rank up to 10 methods, else 1 and the multiples of a round step
    that leaves at most six labels (a column-wide axis holds six three-digit ranks apart).

    Examples
    --------
    >>> rank_ticks(8)
    [1, 2, 3, 4, 5, 6, 7, 8]
    >>> rank_ticks(50)
    [1, 10, 20, 30, 40, 50]
    >>> rank_ticks(200)
    [1, 50, 100, 150, 200]
    """
    if n_methods <= 10:
        return list(range(1, n_methods + 1))
    raw = n_methods / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return [1] + list(range(step, n_methods + 1, step))


def _box(low, high) -> tuple[np.ndarray, np.ndarray]:
    """The drawn extent of the rank sets {low, …, high}: each rank a box of width 2 × HALF_BOX."""
    return np.asarray(low, dtype=float) - HALF_BOX, np.asarray(high, dtype=float) + HALF_BOX


@_style.styled
def plot_rank_sets(result, *, page: int = 1, width="column", ax=None):
    """Each method's rank confidence set as a horizontal interval, best estimated rank at the top.

    Parameters
    ----------
    result : RankConfidenceSets
        From :func:`mcda.rank_confidence_sets` or :func:`mcda.rank_confidence_sets_from_estimates`.
    page : int
        Which page of methods (1 = the first) when they do not fit one page
        (:func:`rank_set_pages`: 50 rows a page); every page keeps the whole rank axis.
    width : {"column", "page"} or float
        Figure width; the height grows with the methods of the page. Ignored with ``ax``.
    ax : matplotlib Axes, optional

    Returns
    -------
    fig : matplotlib Figure
    ax : matplotlib Axes

    Notes
    -----
    Rows follow ``result.to_frame()``: by estimated rank, then by the upper end of the set.
    Each row's bar covers the ranks of the method's confidence set {rank_low, …, rank_high}
    (each rank a box, so a set of one rank is a short bar) and the dot is its estimated rank.
    Methods in the set that may hold the best (``best_set``) are drawn in the accent colour.
    Rank 1 (best) is at the left, as on every rank axis in mcda. The plot computes nothing:
    every number is a field of the result.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_rank_sets
    >>> res = mcda.rank_confidence_sets(mcda.datasets.load("demsar2006"), rng=0)
    >>> fig, ax = plot_rank_sets(res)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    """
    _common.require(result, _FIELDS, what="RankConfidenceSets", maker="mcda.rank_confidence_sets")
    frame = result.to_frame()
    k = int(result.n_methods)
    paging = rank_set_pages(k)
    n_pages = len(paging["pages"])
    check_page(page, n_pages, "the methods' pages")
    part = paging["pages"][page - 1]
    shown = frame.iloc[part]
    n = len(shown)
    fig, ax = _style.get_figure(ax, width, height=n * paging["row"] + _FIXED)
    y = np.arange(n, dtype=float)
    best = shown["in_best_set"].to_numpy(dtype=bool)
    left, right = _box(shown["rank_low"], shown["rank_high"])
    row_pt = paging["row"] * 72.0
    line = max(min(0.55 * row_pt, 5.0), 1.5)
    for mask, colour, gid in ((~best, _style.NEUTRAL, "rank_set"), (best, _style.PALETTE[0], "rank_set_best")):
        if mask.any():
            ax.hlines(y[mask], left[mask], right[mask], color=colour, linewidth=line, gid=gid, capstyle="butt")
    ax.plot(shown["rank"].to_numpy(dtype=float), y, linestyle="none", marker="o", color="black",
            markersize=max(min(0.35 * row_pt, 3.5), 1.5), gid="estimated_rank")
    font = _layout.ROW_FONT if n > 20 else _style.FONT_SIZE - 1
    ax.set_yticks(y, [str(m) for m in shown["method"]])
    ax.tick_params(axis="y", labelsize=font, length=0)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(0.5, k + 0.5)
    ax.set_xticks(rank_ticks(k))
    ax.grid(axis="x", linewidth=0.4, color=_style.LIGHT)
    ax.set_axisbelow(True)
    ax.set_xlabel("rank (1 = best)")
    from matplotlib.lines import Line2D

    # the same key on every page, whether or not the page holds a method of the best set
    handles = [Line2D([], [], color=_style.NEUTRAL, linewidth=line, label="rank confidence set"),
               Line2D([], [], color=_style.PALETTE[0], linewidth=line, label="may be the best"),
               Line2D([], [], color="black", marker="o", linestyle="none", markersize=3.5, label="estimated rank")]
    fig.legend(handles=handles, loc="outside lower center", ncols=3, frameon=False,
               fontsize=_style.FONT_SIZE - 2, handlelength=1.2, columnspacing=1.0)
    kind = "simultaneous" if result.simultaneous else "marginal"
    title = f"{result.confidence_level:.0%} {kind} rank sets\nfrom each method's {result.what}"
    if n_pages > 1:
        title += f"\nmethods {part.start + 1}–{part.stop} of {k} (page {page} of {n_pages}: page=)"
    excluded = getattr(result, "excluded", None) or {}
    if excluded:  # a method without a result on every dataset has no set: named, never dropped silently
        title += "\n" + "\n".join(textwrap.wrap(f"left out (missing results): {listed(excluded, 3, fmt=str)}", 60,
                                                break_on_hyphens=False, break_long_words=False))
    fig.suptitle(title, x=0.02, ha="left", fontsize=_style.FONT_SIZE - 1)
    return fig, ax
