"""Bayesian comparisons: the posterior simplex of one pair, and the three probabilities of every pair.

``plot_posterior(result, pair)`` draws baycomp's simplex: each posterior draw of the three
region shares (a better, equivalent, b better) is a point of a triangle, and the density of the
draws is shaded. ``plot_posterior_bars(result)`` draws, for every pair, a stacked bar of the
three posterior probabilities with the decision threshold.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .._validation import McdaArgumentError
from .._validation import check_positive_int
from . import _common, _style

__all__ = ["TRIANGLE", "ternary_xy", "pair_draws", "pair_rows", "plot_posterior", "plot_posterior_bars"]

_FIELDS = ("table", "draws", "rope", "threshold", "method", "methods")

_HEIGHT = math.sqrt(3.0) / 2.0
#: Corners of the simplex: a better (bottom left), b better (bottom right), equivalent (top).
TRIANGLE = {"a_better": (0.0, 0.0), "b_better": (1.0, 0.0), "equivalent": (0.5, _HEIGHT)}


def ternary_xy(shares) -> tuple[np.ndarray, np.ndarray]:
    """Cartesian points of region shares ``(a better, equivalent, b better)`` (rows sum to 1).

    Examples
    --------
    >>> x, y = ternary_xy([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1/3, 1/3, 1/3]])
    >>> [(round(float(a), 3), round(float(b), 3)) for a, b in zip(x, y)]
    [(0.0, 0.0), (0.5, 0.866), (1.0, 0.0), (0.5, 0.289)]
    """
    shares = np.asarray(shares, dtype=float)
    e, b = shares[:, 1], shares[:, 2]
    return b + 0.5 * e, _HEIGHT * e


def _check_pair(result, pair) -> tuple[str, str]:
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise McdaArgumentError(f"`pair` must be a (method_a, method_b) tuple; got {pair!r}")
    a, b = (str(p) for p in pair)
    methods = [str(m) for m in result.methods]
    if a not in methods or b not in methods or a == b:
        raise McdaArgumentError(f"`pair` must name two different methods of the result {methods}; got {pair!r}")
    return a, b


def pair_draws(result, pair) -> np.ndarray:
    """The posterior draws of ``pair`` as shares ``(pair[0] better, equivalent, pair[1] better)``."""
    a, b = _check_pair(result, pair)
    if not result.draws:
        raise McdaArgumentError("`result` holds no posterior draws (the exact method computes the probabilities without "
                         "sampling); rerun with method='sampling' (and keep_draws=True) to draw the simplex, or "
                         "use plot_posterior_bars")
    if (a, b) in result.draws:
        return np.asarray(result.draws[(a, b)], dtype=float)
    if (b, a) in result.draws:
        return np.asarray(result.draws[(b, a)], dtype=float)[:, ::-1]
    raise McdaArgumentError(f"`result` holds no draws for the pair {pair!r} (a pair without shared datasets has none)")


def pair_rows(result, pairs=None) -> pd.DataFrame:
    """The result's rows for ``pairs`` (all; a method: its pairs; or a list of pairs), oriented as asked.

    Columns ``method_a, method_b, prob_a_better, prob_equivalent, prob_b_better, label, reason``; a pair
    given as (b, a) has its probabilities swapped so that ``method_a`` is its first method.
    """
    table = result.table
    cols = ["method_a", "method_b", "prob_a_better", "prob_equivalent", "prob_b_better", "label", "reason"]
    if pairs is None:
        return table[cols].reset_index(drop=True)
    if isinstance(pairs, str):
        if pairs not in [str(m) for m in result.methods]:
            raise McdaArgumentError(f"`pairs` must be None, a method of the result {list(result.methods)} or a list of "
                             f"pairs; got {pairs!r}")
        rows = []
        for row in table[cols].itertuples(index=False):
            if pairs in (row.method_a, row.method_b):
                rows.append(_oriented(row, first=pairs))
        return pd.DataFrame(rows, columns=cols)
    rows = []
    for pair in pairs:
        a, b = _check_pair(result, pair)
        match = table[((table["method_a"] == a) & (table["method_b"] == b)) |
                      ((table["method_a"] == b) & (table["method_b"] == a))]
        rows.append(_oriented(next(match[cols].itertuples(index=False)), first=a))
    return pd.DataFrame(rows, columns=cols)


_SWAP_LABEL = {"a_better": "b_better", "b_better": "a_better"}


def _oriented(row, *, first):
    if row.method_a == first:
        return tuple(row)
    return (row.method_b, row.method_a, row.prob_b_better, row.prob_equivalent, row.prob_a_better,
            _SWAP_LABEL.get(row.label, row.label), row.reason)


def _verdict(row) -> str:
    return {"a_better": f"{row.method_a} better", "b_better": f"{row.method_b} better",
            "equivalent": "equivalent", "inconclusive": "inconclusive",
            "not_applicable": "n/a"}.get(row.label, str(row.label))


def plot_posterior(result, pair, *, gridsize: int = 30, width="column", ax=None, probabilities=None):
    """baycomp's simplex for one pair: the density of the posterior draws of the three region shares.

    Parameters
    ----------
    result : BayesianComparison
        From :func:`mcda.bayesian_sign_comparison` or :func:`mcda.bayesian_signed_rank_comparison`
        with posterior draws (``method="sampling"`` for the sign test; ``keep_draws=True``).
    pair : (str, str)
        The two methods (either order): the first is "a", its region the bottom-left corner.
    gridsize : int
        Hexagons across the triangle.
    width : {"column", "page"} or float
        Figure width. Ignored with ``ax``.
    ax : matplotlib Axes, optional
    probabilities : BayesianComparison, optional
        The result whose probabilities (and decision) are written at the corners and in the
        title, e.g. the exact one the report's text and bars quote, while ``result`` gives the
        sampled draws that are shaded. Default: ``result``'s own (the share of its draws).

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Raises
    ------
    ValueError
        ``pair`` does not name two methods of the result, or the result has no draws.

    Notes
    -----
    A draw is a point of the triangle whose corners are "a better" (bottom left), "b better"
    (bottom right) and "equivalent" (top); its distance to each corner's opposite side is that
    region's share. The three lines from the centre split the triangle where each region has
    the largest share, so the share of draws in each part is the probability written at its
    corner (the result's ``prob_a_better``, ``prob_equivalent``, ``prob_b_better``).

    With rope = 0 there is no equivalence region, but the draws keep a third share: the
    prior's pseudo-observation of a tie (``prior="rope"``), so they still fill the triangle
    (baycomp samples the same way). The probabilities are then baycomp's two-region ones,
    p_left / (p_left + p_right): the draws where the tie share is the largest are left out. The
    figure greys that top part, labels the top corner as the tie share and gives no
    P(equivalent).

    References
    ----------
    Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a change: a tutorial
    for comparing multiple classifiers through Bayesian analysis. JMLR 18(77):1–36.
    https://jmlr.org/papers/v18/16-305.html

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_posterior
    >>> res = mcda.bayesian_sign_comparison(mcda.datasets.load("demsar2006"), rope=0.01, method="sampling",
    ...                                     n_samples=2000, rng=0)
    >>> fig, ax = plot_posterior(res, ("C4.5+m", "C4.5"))
    >>> sorted(t.get_gid() for t in ax.texts)
    ['corner_label', 'corner_label', 'corner_label']
    """
    _common.require(result, _FIELDS, what="BayesianComparison", maker="mcda.bayesian_sign_comparison")
    a, b = _check_pair(result, pair)
    draws = pair_draws(result, (a, b))
    labelled = result if probabilities is None else probabilities
    if probabilities is not None:
        _common.require(probabilities, _FIELDS, what="BayesianComparison", maker="mcda.bayesian_sign_comparison")
        if probabilities.rope != result.rope:
            raise McdaArgumentError(f"`probabilities` has rope {probabilities.rope:g} but `result` {result.rope:g}: the "
                             "corners and the shaded draws must describe the same posterior")
    row = next(pair_rows(labelled, [(a, b)]).itertuples(index=False))
    gridsize = check_positive_int("gridsize", gridsize)
    x, y = ternary_xy(draws)
    with _style.style():
        w = _style.figure_size(width)[0]
        fig, ax = _style.get_figure(ax, width, height=min(w * 0.85, 3.2))
        ax.set_aspect("equal")
        ax.set_axis_off()
        hexes = ax.hexbin(x, y, gridsize=gridsize, extent=(0.0, 1.0, 0.0, _HEIGHT), mincnt=1,
                          cmap=_style.SEQUENTIAL_CMAP, linewidths=0.0, bins="log")
        hexes.set_gid("posterior_density")
        from matplotlib.patches import Polygon

        outline = Polygon([TRIANGLE["a_better"], TRIANGLE["b_better"], TRIANGLE["equivalent"]], closed=True,
                          facecolor="none", edgecolor="none")
        ax.add_patch(outline)
        hexes.set_clip_path(outline)          # hexagons on an edge are cut at the simplex
        corners = [TRIANGLE["a_better"], TRIANGLE["b_better"], TRIANGLE["equivalent"], TRIANGLE["a_better"]]
        ax.plot(*zip(*corners), color="black", lw=0.8, gid="simplex")
        centre = (0.5, _HEIGHT / 3)
        for mid in ((0.5, 0.0), (0.25, _HEIGHT / 2), (0.75, _HEIGHT / 2)):
            ax.plot([centre[0], mid[0]], [centre[1], mid[1]], color=_style.NEUTRAL, lw=0.6, linestyle=(0, (3, 2)),
                    gid="region_boundary")
        small = _style.FONT_SIZE - 1
        two_regions = result.rope == 0
        if two_regions:
            # rope = 0: draws where the tie (prior) share is largest count for neither region
            top = Polygon([centre, (0.25, _HEIGHT / 2), TRIANGLE["equivalent"], (0.75, _HEIGHT / 2)], closed=True,
                          facecolor=_style.LIGHT, edgecolor="none", alpha=0.6, zorder=0.5, gid="left_out_region")
            ax.add_patch(top)
            ax.text(0.5, 0.56 * _HEIGHT, "left out of P\n(tie share largest)", ha="center", va="center",
                    fontsize=small - 1, color=_style.NEUTRAL, gid="left_out_label")
        ax.text(-0.03, -0.05, f"{a} better\nP = {row.prob_a_better:.3f}", ha="left", va="top", fontsize=small,
                gid="corner_label")
        ax.text(1.03, -0.05, f"{b} better\nP = {row.prob_b_better:.3f}", ha="right", va="top", fontsize=small,
                gid="corner_label")
        if two_regions:
            top_label = "tie share (prior)\nrope = 0: no equivalence region"
        else:
            p_eq = "n/a" if not np.isfinite(row.prob_equivalent) else f"{row.prob_equivalent:.3f}"
            top_label = f"equivalent (rope ±{result.rope:g})\nP = {p_eq}"
        ax.text(0.5, _HEIGHT + 0.04, top_label, ha="center", va="bottom", fontsize=small, gid="corner_label")
        ax.set_xlim(-0.08, 1.08)
        ax.set_ylim(-0.22, _HEIGHT + 0.22)
        ax.set_title(f"{a} vs {b}: {_verdict(row)} (threshold {labelled.threshold:g})", fontsize=_style.FONT_SIZE)
        if probabilities is not None:
            ax.text(0.5, -0.2, f"shading: {len(draws):,} draws; P: {getattr(probabilities, 'method', '')}, as in the text",
                    ha="center", va="top", fontsize=small - 1, color=_style.NEUTRAL, gid="probability_source")
    return fig, ax


def plot_posterior_bars(result, *, pairs=None, width="column", ax=None):
    """For every pair, a stacked bar of P(a better), P(equivalent), P(b better), with the threshold.

    Parameters
    ----------
    result : BayesianComparison
        From :func:`mcda.bayesian_sign_comparison` or :func:`mcda.bayesian_signed_rank_comparison`
        (exact or sampled).
    pairs : None, str or list of (str, str)
        All pairs (default), the pairs of one method (it is then "a" in every row), or the
        listed pairs in the listed order and orientation.
    width : {"column", "page"} or float
        Figure width; the height grows with the number of pairs. Ignored with ``ax``.
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Notes
    -----
    Each bar runs from 0 to 1: "a better" from the left, "equivalent" in the middle, "b better"
    from the right. A region is the pair's decision when its probability reaches the
    threshold: a left segment reaching the dashed line at ``threshold``, a right segment
    reaching the one at ``1 − threshold``, or a middle segment at least ``threshold`` long.
    The decision (the result's ``label``) is written at the right of each bar; a pair with no
    shared dataset has no bar.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_posterior_bars
    >>> res = mcda.bayesian_sign_comparison(mcda.datasets.load("demsar2006"), rope=0.01)
    >>> fig, ax = plot_posterior_bars(res, pairs="C4.5+m+cf")
    >>> len(ax.patches), [t.get_text() for t in ax.get_yticklabels()][0]
    (9, 'C4.5+m+cf vs C4.5')
    """
    _common.require(result, _FIELDS, what="BayesianComparison", maker="mcda.bayesian_sign_comparison")
    rows = pair_rows(result, pairs)
    n = len(rows)
    colours = (_style.PALETTE[0], _style.LIGHT, _style.PALETTE[1])
    with _style.style():
        fig, ax = _style.get_figure(ax, width, height=0.9 + 0.19 * n)
        y = np.arange(n)
        pa = rows["prob_a_better"].to_numpy(dtype=float)
        pe = np.nan_to_num(rows["prob_equivalent"].to_numpy(dtype=float))
        pb = rows["prob_b_better"].to_numpy(dtype=float)
        ok = np.isfinite(pa) & np.isfinite(pb)
        names = ("a better", "equivalent", "b better")
        for left, share, colour, name in ((0 * pa, pa, colours[0], names[0]), (pa, pe, colours[1], names[1]),
                                          (pa + pe, pb, colours[2], names[2])):
            # rope = 0 has no equivalence region: no legend entry for it (its bars have width 0)
            shown_name = "_nolegend_" if name == "equivalent" and result.rope == 0 else name
            ax.barh(y[ok], share[ok], left=left[ok], height=0.72, color=colour, edgecolor="white", linewidth=0.4,
                    label=shown_name, gid=name.replace(" ", "_"))
        for x in (result.threshold, 1.0 - result.threshold):
            ax.axvline(x, color="black", lw=0.7, linestyle=(0, (3, 2)), gid="threshold")
        for yi, row in zip(y, rows.itertuples(index=False)):
            ax.text(1.02, yi, _verdict(row), va="center", ha="left", fontsize=_style.FONT_SIZE - 1,
                    color="black" if row.label in ("a_better", "b_better", "equivalent") else _style.NEUTRAL,
                    gid="decision", transform=ax.get_yaxis_transform())
        ax.set_yticks(y, [f"{r.method_a} vs {r.method_b}" for r in rows.itertuples(index=False)])
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_xlim(0.0, 1.0)
        ax.set_xlabel(f"posterior probability (threshold {result.threshold:g})")
        ax.tick_params(axis="y", length=0)
        ax.spines["left"].set_visible(False)
        ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=3, fontsize=_style.FONT_SIZE - 1,
                  handlelength=1.0, borderaxespad=0.2, columnspacing=1.0)
    return fig, ax
