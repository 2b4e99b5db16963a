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

from mcda._core.validation import McdaArgumentError, check_choice, check_positive_int
from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style
from mcda.present.plots._layout import check_page

__all__ = ["TRIANGLE", "ternary_xy", "pair_draws", "pair_rows", "posterior_bar_pages",
           "plot_posterior", "plot_posterior_bars"]

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
        raise McdaArgumentError(f"`pair` must be a (method_a, method_b) tuple; got {pair!r}",
                                argument="pair", value=pair)
    a, b = (str(p) for p in pair)
    methods = [str(m) for m in result.methods]
    if a not in methods or b not in methods or a == b:
        raise McdaArgumentError(f"`pair` must name two different methods of the result {methods}; got {pair!r}",
                                argument="pair", value=pair)
    return a, b


def pair_draws(result, pair) -> np.ndarray:
    """The posterior draws of ``pair`` as shares ``(pair[0] better, equivalent, pair[1] better)``."""
    a, b = _check_pair(result, pair)
    if not result.draws:
        raise McdaArgumentError("`result` holds no posterior draws (the exact method computes the probabilities without "
                         "sampling); rerun with method='sampling' (and keep_draws=True) to draw the simplex, or "
                         "use plot_posterior_bars", argument="result")
    if (a, b) in result.draws:
        return np.asarray(result.draws[(a, b)], dtype=float)
    if (b, a) in result.draws:
        return np.asarray(result.draws[(b, a)], dtype=float)[:, ::-1]
    raise McdaArgumentError(f"`result` holds no draws for the pair {pair!r} (a pair without shared datasets has none)",
                            argument="result")


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
                             f"pairs; got {pairs!r}", argument="pairs", value=pairs)
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

    The corners name the methods, wrapped to just under half the triangle's width. A name that
    would need more than three lines there, or a cut inside a word, gives way to "a better" and
    "b better", and the title reads "a = <first> vs b = <second>".

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
                             "corners and the shaded draws must describe the same posterior", argument="probabilities")
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
        # corner labels wrap to just under half the width, so that long names never meet
        ax.set_xlim(-0.08, 1.08)
        ax.set_ylim(-0.1 - 0.065 * 5, _HEIGHT + 0.22)      # the widest the labels may need: 5 lines
        if fig.get_layout_engine() is not None:      # the axes' width once placed (equal aspect)
            fig.get_layout_engine().execute(fig)
        ax.apply_aspect()
        axes_w = ax.get_position().width * fig.get_figwidth()
        chars = int(0.44 * axes_w * 72.0 / _layout.char_width(small))
        # a name that cannot wrap into three whole lines at a corner gives way to "a" / "b", named in the title

        def fit(chars):
            return all(_layout.wraps_whole(f"{n} better", chars)
                       and _layout.wrap_label(f"{n} better", chars).count("\n") < 3 for n in (a, b))

        lettered = not fit(chars)

        def corner_texts(chars):
            if lettered:
                return "a better", "b better"
            label_a, label_b = f"{a} better", f"{b} better"
            if (len(label_a) + len(label_b) + 2) * _layout.char_width(small) > 0.95 * axes_w * 72.0:
                label_a, label_b = _layout.wrap_label(label_a, chars), _layout.wrap_label(label_b, chars)
            return label_a, label_b

        def title_text():
            line = int(0.95 * w * 72.0 / _layout.char_width(_style.FONT_SIZE))
            verdict = f"{_verdict(row)} (threshold {labelled.threshold:g})"
            if not lettered:
                return _layout.wrap_label(f"{a} vs {b}: {verdict}", line)
            return "\n".join([_layout.wrap_label(f"a = {a} vs", line), _layout.wrap_label(f"b = {b}:", line),
                              _layout.wrap_label(verdict, line)])

        label_a, label_b = corner_texts(chars)
        ax.text(-0.03, -0.05, f"{label_a}\nP = {row.prob_a_better:.3f}", ha="left", va="top", fontsize=small,
                gid="corner_label", linespacing=1.0)
        ax.text(1.03, -0.05, f"{label_b}\nP = {row.prob_b_better:.3f}", ha="right", va="top", fontsize=small,
                gid="corner_label", linespacing=1.0)
        lines = max(label_a.count("\n"), label_b.count("\n")) + 2
        if two_regions:
            top_label = "tie share (prior)\nrope = 0: no equivalence region"
        else:
            p_eq = "n/a" if not np.isfinite(row.prob_equivalent) else f"{row.prob_equivalent:.3f}"
            top_label = f"equivalent (rope ±{result.rope:g})\nP = {p_eq}"
        ax.text(0.5, _HEIGHT + 0.04, top_label, ha="center", va="bottom", fontsize=small, gid="corner_label")
        ax.set_xlim(-0.08, 1.08)
        source_room = 0.07 if probabilities is not None else 0.0
        bottom = -0.1 - 0.065 * max(lines, 5 if lines > 2 else lines)
        ax.set_ylim(bottom - source_room, _HEIGHT + 0.22)
        ax.set_title(title_text(), fontsize=_style.FONT_SIZE, pad=12)
        # measured, not estimated: while the two bottom labels meet, wrap them shorter (or letter them)
        left, right = [t for t in ax.texts if t.get_gid() == "corner_label"][:2]
        for _ in range(4):
            fig.draw_without_rendering()  # lays out and measures; nothing is rasterised
            renderer = fig.canvas.get_renderer()
            box_a, box_b = left.get_window_extent(renderer), right.get_window_extent(renderer)
            if box_a.x1 + 2 < box_b.x0:
                break
            chars = max(int(chars * 0.8), 4)
            lettered = lettered or not fit(chars)
            label_a, label_b = corner_texts(chars)
            left.set_text(f"{label_a}\nP = {row.prob_a_better:.3f}")
            right.set_text(f"{label_b}\nP = {row.prob_b_better:.3f}")
            ax.set_title(title_text(), fontsize=_style.FONT_SIZE, pad=12)
        if probabilities is not None:
            # under the lower corner label, wherever its wrapping ended (a place fixed in data units
            # met the labels when long names wrapped to six lines: found at 50 methods)
            lower = max((left, right), key=lambda t: t.get_text().count("\n"))
            ax.annotate(f"shading: {len(draws):,} draws; P: {getattr(probabilities, 'method', '')}, as in the text",
                        xy=(0.5, 0.0), xycoords=("axes fraction", lower), xytext=(0.0, -3.0),
                        textcoords="offset points", ha="center", va="top", fontsize=small - 1,
                        color=_style.NEUTRAL, gid="probability_source")
    return fig, ax


def _posterior_matrix(result, order=None) -> tuple[list, np.ndarray, np.ndarray]:
    """(methods, P(row better than column), decision code) for the grid layout.

    The decision code is 1 where the row method is the pair's decision (``a_better`` oriented
    to the row), 0.5 where the pair is decided equivalent, 0 otherwise; NaN on the diagonal.
    """
    methods = [str(m) for m in _common.method_order(result.methods, order)]
    pos = {m: i for i, m in enumerate(methods)}
    k = len(methods)
    probs = np.full((k, k), np.nan)
    decision = np.zeros((k, k))
    for row in pair_rows(result).itertuples(index=False):
        i, j = pos[str(row.method_a)], pos[str(row.method_b)]
        probs[i, j], probs[j, i] = row.prob_a_better, row.prob_b_better
        if row.label == "a_better":
            decision[i, j] = 1.0
        elif row.label == "b_better":
            decision[j, i] = 1.0
        elif row.label == "equivalent":
            decision[i, j] = decision[j, i] = 0.5
    np.fill_diagonal(decision, np.nan)
    return methods, probs, decision


def posterior_bar_pages(n_bars: int, *, fixed: float = 1.0, max_height: float = _layout.PAGE_HEIGHT) -> list[slice]:
    """The bars of each page: as many bars of at least 0.125 in as fit a page besides ``fixed`` inches.

    The pages are as even as possible (:func:`mcda.present.plots._layout.page_slices`); 49 bars (50
    methods, "my method vs each baseline") fit one page, 99 take two, 199 four.

    Examples
    --------
    >>> [len(range(200)[p]) for p in posterior_bar_pages(49)], [len(range(200)[p]) for p in posterior_bar_pages(199)]
    ([49], [50, 50, 49, 50])
    """
    return _layout.page_slices(n_bars, _layout.rows_per_page(0.125, fixed=fixed, max_height=max_height))


def plot_posterior_bars(result, *, pairs=None, layout: str | None = None, page: int = 1, width="column", ax=None,
                        order=None):
    """For every pair, a stacked bar of P(a better), P(equivalent), P(b better), with the threshold.

    Parameters
    ----------
    result : BayesianComparison
        From :func:`mcda.bayesian_sign_comparison` or :func:`mcda.bayesian_signed_rank_comparison`
        (exact or sampled).
    pairs : None, str or list of (str, str)
        All pairs (default), the pairs of one method (it is then "a" in every row), or the
        listed pairs in the listed order and orientation. The pairs of one method are the
        "my method vs each baseline" view (k − 1 bars).
    layout : {"bars", "grid"}, optional
        Default (:func:`mcda.present.plots._layout.posterior_layout`): bars while every bar fits one
        page (at most 64); all pairs of more methods (20 methods have 190) become a grid,
        cell (row a, column b) P(a better than b), a dot where that is the pair's decision
        and a ring where the pair is decided equivalent.
    page : int
        Which page of bars (1 = the first). Bars that would make the figure taller than a page
        (more than about 64: the other methods of one method beyond 65 methods, a long list of
        pairs) go to further pages of even size (:func:`posterior_bar_pages`: 99 bars take two
        pages, 199 four), every page with the legend and the threshold lines, its title saying
        which bars it shows ("baselines 51–100 of 199 (page 2 of 4: page=)").
    width : {"column", "page"} or float
        Figure width; the height grows with the number of pairs. Ignored with ``ax``.
    ax : matplotlib Axes, optional
    order : sequence of str, optional
        The methods' order (the grid's rows and columns, and the key's numbers) instead of the
        result's: one order for every figure of a run (``mcda compare`` passes the across-dataset
        ranking).

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
    (9, 'C4.5')
    """
    _common.require(result, _FIELDS, what="BayesianComparison", maker="mcda.bayesian_sign_comparison")
    methods = _common.method_order(result.methods, order)  # the key's numbers
    rows = pair_rows(result, pairs)
    n = len(rows)
    chosen = _layout.posterior_layout(len(result.methods), n, all_pairs=pairs is None)
    layout = chosen if layout is None else check_choice("layout", layout, ("bars", "grid"))
    if layout == "grid":
        if pairs is not None:
            raise McdaArgumentError(f"`layout` 'grid' draws all pairs: pass pairs=None; got pairs={pairs!r}",
                                    argument="layout")
        if page != 1:
            raise McdaArgumentError(f"`page` must be 1: the grid of all pairs is one page; got {page!r}",
                                    argument="page", value=page)
        return _posterior_grid(result, width=width, ax=ax, order=order)
    colours = (_style.PALETTE[0], _style.LIGHT, _style.PALETTE[1])
    one_method = isinstance(pairs, str)
    w_in = _style.figure_size(width)[0]
    numbered = not one_method and _numbered_pairs(rows, w_in)
    key_cols = max(1, int(w_in * 72.0 // (_layout.label_width([f"{len(methods)} {m}" for m in methods],
                                                                _style.FONT_SIZE - 2) + 14.0)))
    key_height = (math.ceil(len(methods) / key_cols) * 1.25 * (_style.FONT_SIZE - 2) + 20) / 72.0 \
        if numbered else 0.0
    pages = posterior_bar_pages(n, fixed=1.0 + key_height + 0.2)   # 0.2 in: the title line saying the page
    if len(pages) == 1:
        pages = posterior_bar_pages(n, fixed=1.0 + key_height)
    check_page(page, len(pages), "the bars' pages")
    where = ""
    if len(pages) > 1:
        part = pages[page - 1]
        what = "baselines" if one_method else "pairs"
        where = f"{what} {part.start + 1}–{part.stop} of {n} (page {page} of {len(pages)}: page=)"
    per_page = max(p.stop - p.start for p in pages)
    rows = rows.iloc[pages[page - 1]].reset_index(drop=True)
    n = len(rows)
    full_labels = [f"{r.method_a} vs {r.method_b}" for r in rows.itertuples(index=False)]
    if one_method:
        # "my method vs each baseline": the rows name the baselines, the decisions are the method's
        full_labels = [str(r.method_b) for r in rows.itertuples(index=False)]
    title_room = 0.2 if where else 0.0
    with _style.style():
        row_h = _layout.row_height(per_page, fixed=1.0 + key_height + title_room)
        own_figure = ax is None
        fig, ax = _style.get_figure(ax, width, height=min(1.0 + key_height + title_room + row_h * n,
                                                          _layout.PAGE_HEIGHT))
        y = np.arange(n)
        pa = rows["prob_a_better"].to_numpy(dtype=float)
        pe = np.nan_to_num(rows["prob_equivalent"].to_numpy(dtype=float))
        pb = rows["prob_b_better"].to_numpy(dtype=float)
        ok = np.isfinite(pa) & np.isfinite(pb)
        names = ("a better", "equivalent", "b better")
        shown = (("better", f"equivalent (rope ±{result.rope:g})", "worse") if one_method
                 else ("left method better", f"equivalent (rope ±{result.rope:g})", "right method better"))
        for left, share, colour, name, legend_name in ((0 * pa, pa, colours[0], names[0], shown[0]),
                                                       (pa, pe, colours[1], names[1], shown[1]),
                                                       (pa + pe, pb, colours[2], names[2], shown[2])):
            # rope = 0 has no equivalence region: no legend entry for it (its bars have width 0)
            shown_name = "_nolegend_" if name == "equivalent" and result.rope == 0 else legend_name
            ax.barh(y[ok], share[ok], left=left[ok], height=0.72, color=colour, edgecolor="white", linewidth=0.4,
                    label=shown_name, gid=name.replace(" ", "_"))
        for x in (result.threshold, 1.0 - result.threshold):
            ax.axvline(x, color="black", lw=0.7, linestyle=(0, (3, 2)), gid="threshold")
        for yi, row in zip(y, rows.itertuples(index=False)):
            ax.text(1.02, yi, _verdict(row), va="center", ha="left", fontsize=_style.FONT_SIZE - 1,
                    color="black" if row.label in ("a_better", "b_better", "equivalent") else _style.NEUTRAL,
                    gid="decision", transform=ax.get_yaxis_transform())
        font = min(_style.FONT_SIZE - 1, 72.0 * row_h / 1.3)
        labels = full_labels
        if one_method:
            font = max(min(font, 0.5 * w_in * 72.0 / max(_layout.label_width(labels, 1.0), 1e-9)), _layout.MIN_FONT)
            words = {"a_better": "better", "b_better": "worse"}
            for t, r in zip([t for t in ax.texts if t.get_gid() == "decision"], rows.itertuples(index=False)):
                t.set_text(words.get(r.label, t.get_text()))
            chars = int(0.9 * w_in * 72.0 / _layout.char_width(_style.FONT_SIZE))
            title = _layout.wrap_label(f"{pairs} vs each other method", chars)
            if where:
                title += "\n" + _layout.wrap_label(where, chars)
            if own_figure:
                fig.suptitle(title, x=0.02, ha="left", fontsize=_style.FONT_SIZE)
            else:
                ax.set_title(title, fontsize=_style.FONT_SIZE, loc="left", pad=16)
        if numbered:
            # long names: the rows name the methods by number, a key under the figure names them
            number = {str(m): i + 1 for i, m in enumerate(methods)}
            labels = [f"{number[str(r.method_a)]} vs {number[str(r.method_b)]}" for r in rows.itertuples(index=False)]
            for t, r in zip([t for t in ax.texts if t.get_gid() == "decision"], rows.itertuples(index=False)):
                t.set_text({"a_better": f"{number[str(r.method_a)]} better",
                            "b_better": f"{number[str(r.method_b)]} better"}.get(r.label, t.get_text()))
            key = {"row_labels": [str(i + 1) for i in range(len(methods))],
                   "key_labels": [f"{i + 1} {m}" for i, m in enumerate(methods)],
                   "key_font": _style.FONT_SIZE - 2, "key_cols": key_cols}
            from matplotlib.lines import Line2D

            fig.legend([Line2D([], [], linestyle="none") for _ in methods], key["key_labels"],
                       loc="outside lower center", ncols=key["key_cols"], fontsize=key["key_font"], handlelength=0,
                       handletextpad=0, columnspacing=1.2, labelspacing=0.15, title="methods",
                       title_fontsize=key["key_font"])
            if one_method:
                shown = (f"{number[str(pairs)]} better",) + shown[1:]
        ax.set_yticks(y, labels, fontsize=font)
        for t in ax.texts:
            if t.get_gid() == "decision":
                t.set_fontsize(font)
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_xlim(0.0, 1.0)
        ax.set_xlabel(f"posterior probability (threshold {result.threshold:g})"
                      + (f"\n{where}" if where and not one_method else ""))
        ax.tick_params(axis="y", length=0)
        ax.spines["left"].set_visible(False)
        for container, label in zip(ax.containers, shown):
            if not container.get_label().startswith("_"):
                container.set_label(label)
        if own_figure:      # across the figure's top: a wide legend never squeezes the bars
            fig.legend(handles=ax.containers, loc="outside lower center" if one_method else "outside upper center",
                       ncols=3 if one_method or w_in > 5 else 2, fontsize=_style.FONT_SIZE - 1,
                       handlelength=1.0, columnspacing=1.0)
        else:
            ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=3 if one_method or width == "page" else 2,
                      fontsize=_style.FONT_SIZE - 1, handlelength=1.0, borderaxespad=0.2, columnspacing=1.0)
    return fig, ax


def _numbered_pairs(rows, width_in: float) -> bool:
    """Whether the bars of ``rows`` are labelled "i vs j" (with a key): names and decisions wider than 60 % of the width."""
    labels = [f"{r.method_a} vs {r.method_b}" for r in rows.itertuples(index=False)]
    return (_layout.label_width(labels, _style.FONT_SIZE - 1)
            + _layout.label_width([_verdict(r) for r in rows.itertuples(index=False)], _style.FONT_SIZE - 1)
            > 0.6 * width_in * 72.0)


def _posterior_grid(result, *, width, ax, order=None):
    import matplotlib
    from matplotlib.colors import Normalize
    from matplotlib.lines import Line2D

    methods, probs, decision = _posterior_matrix(result, order)
    k = len(methods)
    w = _style.figure_size(width)[0]
    layout = _layout.matrix_layout(k, methods, width=w, max_height=_layout.PAGE_HEIGHT - 0.25)
    with _style.style():
        fig, ax = _style.get_figure(ax, width, height=layout["height"] + 0.25)
        cmap = matplotlib.colormaps[_style.SEQUENTIAL_CMAP].with_extremes(bad="white")
        image = ax.imshow(np.ma.masked_invalid(probs), cmap=cmap, norm=Normalize(0.0, 1.0), interpolation="nearest")
        image.set_gid("posterior_grid")
        _common.label_matrix(ax, layout)
        size = max(min(layout["cell"] * 0.45, 4.0), 1.2)
        rows, cols = np.nonzero(decision == 1.0)
        ax.plot(cols, rows, linestyle="none", marker="o", markersize=size, markeredgewidth=0, color=_style.HIGHLIGHT,
                gid="decided_better", label=f"row better (P ≥ {result.threshold:g})")
        rows, cols = np.nonzero(decision == 0.5)
        ax.plot(cols, rows, linestyle="none", marker="o", markersize=size, markerfacecolor="none",
                markeredgecolor="black", markeredgewidth=0.6, gid="decided_equivalent",
                label=f"equivalent (P ≥ {result.threshold:g}, rope ±{result.rope:g})")
        bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.03, shrink=min(1.0, 0.5 + 0.05 * k))
        bar.set_label("P(row method better)", fontsize=_style.FONT_SIZE - 1)
        bar.ax.tick_params(labelsize=_style.FONT_SIZE - 2)
        handles = [h for h in ax.get_lines() if h.get_gid() in ("decided_better", "decided_equivalent")]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.0, 0.0), ncols=1,
                  fontsize=_style.FONT_SIZE - 2, handlelength=1.0, borderaxespad=0.3)
        del Line2D
    return fig, ax
