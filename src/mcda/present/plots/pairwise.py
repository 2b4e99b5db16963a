"""Paired tests within each dataset: a matrix per dataset, or one row per comparison."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError, check_choice
from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style
from mcda.present.plots._layout import check_page
from mcda.stats.procedures import PROCEDURES, display_name

__all__ = ["pair_matrix", "pair_gaps", "list_rows", "list_pages", "plot_pairwise"]

_FIELDS = ("table", "method", "alpha")
_LAYOUTS = ("matrix", "list")


def _pairwise_methods(table: pd.DataFrame) -> list:
    """The methods of a pairwise table, in the order they first appear (a before b)."""
    seen: dict = {}
    for a, b in zip(table["method_a"], table["method_b"]):
        seen.setdefault(a, None)
        seen.setdefault(b, None)
    return list(seen)


def pair_matrix(table: pd.DataFrame, dataset, methods: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The matrices one dataset's panel draws: (lower, upper, significant), k × k.

    ``lower[i, j]`` (i > j) is −log10 of the Holm-adjusted p-value of the pair; ``upper[i, j]``
    (i < j) the mean difference row − column in the metric's units (a row given as (b, a) is
    negated); ``significant`` is symmetric. Other cells are NaN (False).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["d"], "method_a": ["b"], "method_b": ["a"], "mean_diff": [0.5],
    ...                   "p_holm": [0.01], "significant": [True]})
    >>> lower, upper, sig = pair_matrix(t, "d", ["a", "b"])
    >>> float(upper[0, 1]), float(lower[1, 0]), bool(sig[0, 1])
    (-0.5, 2.0, True)
    """
    k = len(methods)
    index = {m: i for i, m in enumerate(methods)}
    lower = np.full((k, k), np.nan)
    upper = np.full((k, k), np.nan)
    significant = np.zeros((k, k), dtype=bool)
    for row in table[table["dataset"] == dataset].itertuples(index=False):
        if row.method_a not in index or row.method_b not in index:
            continue
        i, j = index[row.method_a], index[row.method_b]
        diff = float(row.mean_diff)
        hi, lo = (i, j) if i > j else (j, i)
        lower[hi, lo] = -np.log10(row.p_holm) if np.isfinite(row.p_holm) and row.p_holm > 0 else (
            np.inf if row.p_holm == 0 else np.nan)
        upper[lo, hi] = diff if i < j else -diff
        significant[i, j] = significant[j, i] = bool(row.significant)
    return lower, upper, significant


def pair_gaps(table: pd.DataFrame, dataset, methods: list) -> tuple[np.ndarray, np.ndarray]:
    """Where one dataset's panel marks a gap: (no result, no test), k × k, both symmetric.

    ``no result``: the pair has no mean difference (a method without a score on the dataset, or
    no seed the two share): both its cells are marked "×". ``no test``: the pair has a mean
    difference but no p-value (e.g. one shared seed, or no variation): its lower-triangle cell is
    marked "–" (the upper keeps the difference).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["d", "d"], "method_a": ["a", "a"], "method_b": ["b", "c"],
    ...                   "mean_diff": [float("nan"), 0.1], "p_holm": [float("nan"), float("nan")]})
    >>> none, untested = pair_gaps(t, "d", ["a", "b", "c"])
    >>> bool(none[0, 1]), bool(none[1, 0]), bool(untested[2, 0]), bool(none[0, 2])
    (True, True, True, False)
    """
    k = len(methods)
    index = {m: i for i, m in enumerate(methods)}
    no_result = np.zeros((k, k), dtype=bool)
    no_test = np.zeros((k, k), dtype=bool)
    for row in table[table["dataset"] == dataset].itertuples(index=False):
        if row.method_a not in index or row.method_b not in index:
            continue
        i, j = index[row.method_a], index[row.method_b]
        if not np.isfinite(row.mean_diff):
            no_result[i, j] = no_result[j, i] = True
        elif not np.isfinite(row.p_holm):
            no_test[i, j] = no_test[j, i] = True
    return no_result, no_test


def plot_pairwise(result, *, layout: str = "matrix", datasets=None, metric=None, max_cols: int | None = None,
                  page: int = 1, width="page", ax=None):
    """Paired tests of every pair of methods on each dataset.

    Parameters
    ----------
    result : PairedTests
        From :func:`mcda.paired_tests`.
    layout : {"matrix", "list"}
        ``"matrix"``: one panel per dataset, the lower triangle −log10(p_holm), the upper
        triangle the signed mean difference row − column; ``"list"``: one row per comparison,
        the mean difference a − b with its t interval as whiskers, filled when significant.
    datasets : label or sequence of labels, optional
        Which datasets (default: all).
    metric : str, optional
        Which metric, when the result holds several.
    max_cols : int, optional
        Matrix panels per row (default: as many panels of at least 0.12 in per method and
        1.3 in as fit the width, :func:`mcda.present.plots._layout.pairwise_grid`).
    page : int
        Which page (1 = the first). The panels (matrix) or rows (list) that would make the
        figure taller than a page go to further pages; the figure says which datasets (matrix)
        or comparisons (list) it shows. The list cuts a dataset's comparisons across pages
        when they do not fit (:func:`list_pages`; its header repeated, "continued"); at 20
        methods and more (190 comparisons per dataset) the matrix reads better.
    width : {"column", "page"} or float
        Figure width. Ignored with ``ax``.
    ax : Axes (list layout) or sequence of Axes (matrix: one per dataset), optional

    Returns
    -------
    fig : matplotlib Figure
    ax : Axes (list) or numpy.ndarray of Axes (matrix, one per dataset)

    Notes
    -----
    Everything drawn is the result's: ``p_holm`` (Holm within the dataset), ``significant``
    (``p_holm <= alpha``), ``mean_diff`` and ``ci_low, ci_high`` (the t interval of the mean
    paired difference at 1 − alpha). In the matrix, a significant pair's cells are framed. The
    colour scales are shared by all panels: blue for −log10 p (the dashed level on the colour
    bar is −log10 α), purple/orange for the difference, centred at 0. A pair without a result
    (a method with no score on the dataset: no shared seed) is marked "×" in both its cells, and
    a pair with a difference but no p-value (one shared seed, no variation) "–" in its lower
    cell (:func:`pair_gaps`); the caption says so when a page has either. In the list such a
    comparison's row carries "×" at 0 ("no result" in the legend) or an open square at its
    difference ("no p-value"); the table's ``reason`` says why.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_pairwise
    >>> cube = mcda.datasets.synthetic(n_datasets=2, n_methods=3, n_seeds=6, rng=0)
    >>> fig, ax = plot_pairwise(mcda.paired_tests(cube), layout="list")
    >>> [t.get_text() for t in ax.get_yticklabels()][:2]
    ['dataset_0', 'method_0 − method_1']
    """
    _common.require(result, _FIELDS, what="PairedTests", maker="mcda.paired_tests")
    check_choice("layout", layout, _LAYOUTS)
    table, metric = _common.one_metric(result.table, metric)
    datasets = _common.subset("datasets", datasets, list(pd.unique(table["dataset"])))
    table = table[table["dataset"].isin(datasets)]
    methods = _pairwise_methods(table)
    w = _style.figure_size(width)[0]
    if max_cols is not None and (not isinstance(max_cols, int) or isinstance(max_cols, bool) or max_cols < 1):
        raise McdaArgumentError(f"`max_cols` must be a positive integer; got {max_cols!r}",
                                argument="max_cols", value=max_cols)
    if layout == "list":
        counts = [int((table["dataset"] == d).sum()) for d in datasets]
        numbered, key = _list_key(table, w) if ax is None else (False, {"height": 0.0})
        pages = list_pages(counts, _layout.rows_per_page(_LIST_ROW, fixed=_LIST_FIXED + key["height"]))
    else:
        names = [str(m) for m in methods]
        key_height = 0.0
        if len(names) >= _layout.NUMBERED_LABELS_FROM or max(len(m) for m in names) > _layout.LONG_NAME:
            key_cols = max(1, int(w * 72.0 // (_layout.label_width([f"{len(names)} {m}" for m in names],
                                                                   _style.FONT_SIZE - 2) + 14.0)))
            key_height = math.ceil(len(names) / key_cols) * 0.105 + 0.3
        grid = _layout.pairwise_grid(len(datasets), len(methods), width=w, max_cols=max_cols, key_height=key_height)
        pages = grid["pages"]
        max_cols = grid["cols"]
    if ax is not None:
        pages = [slice(0, len(datasets))] if layout == "matrix" else \
            [[(i, 0, int((table["dataset"] == d).sum())) for i, d in enumerate(datasets)]]
    check_page(page, len(pages), "the datasets' pages")
    if layout == "list":
        chunks = pages[page - 1]
        where = ""
        if len(pages) > 1:
            done = sum(stop - start for part in pages[:page - 1] for _, start, stop in part)
            here = sum(stop - start for _, start, stop in chunks)
            total = sum(stop - start for part in pages for _, start, stop in part)
            where = f"comparisons {done + 1}–{done + here} of {total} (page {page} of {len(pages)}: page=)"
        with _style.style():
            fig, out = _draw_list(result, table, datasets, chunks, width=width, ax=ax, numbered=numbered, key=key)
            label = f"{out.get_xlabel()}\n{where}" if where else out.get_xlabel()
            chars = int(0.65 * fig.get_figwidth() * 72.0 / _layout.char_width(_style.FONT_SIZE))   # axes' share
            out.set_xlabel("\n".join(_layout.wrap_label(line, chars) for line in label.split("\n")))
            return fig, out
    shown = datasets[pages[page - 1]]
    where = ""
    if len(pages) > 1:
        first = datasets.index(shown[0]) + 1
        where = f"datasets {first}–{first + len(shown) - 1} of {len(datasets)} (page {page} of {len(pages)}: page=)"
    table = table[table["dataset"].isin(shown)]
    with _style.style():
        return _draw_matrix(result, table, shown, methods, max_cols=max_cols, width=width, ax=ax, where=where,
                            grid=None if layout == "list" else grid)


def _draw_matrix(result, table, datasets, methods, *, max_cols, width, ax, where="", grid=None):
    import matplotlib
    from matplotlib.colors import Normalize, TwoSlopeNorm
    from matplotlib.patches import Rectangle

    k = len(methods)
    panels = [pair_matrix(table, d, methods) for d in datasets]
    logp = np.concatenate([p[0][np.isfinite(p[0])] for p in panels] + [np.zeros(1)])
    diffs = np.concatenate([np.abs(p[1][np.isfinite(p[1])]) for p in panels] + [np.zeros(1)])
    threshold = -np.log10(result.alpha)
    p_top = max(float(logp.max()), threshold * 1.5)
    d_top = float(diffs.max()) or 1.0
    blues = matplotlib.colormaps[_style.SEQUENTIAL_CMAP].with_extremes(bad=(0, 0, 0, 0), over="#08306B")
    diverging = matplotlib.colormaps[_style.DIVERGING_CMAP].with_extremes(bad=(0, 0, 0, 0))
    p_norm, d_norm = Normalize(0.0, p_top), TwoSlopeNorm(0.0, -d_top, d_top)

    def height(rows, cols):  # near-square panels, never taller than a page
        return min(rows * (grid["panel"] + 0.25) + 0.7 + grid["key_height"], _layout.PAGE_HEIGHT)

    fig, axes, _ = _common.panel_grid(ax, len(datasets), width, max_cols=max_cols, height=height)
    annotate = k <= 6
    names = [str(m) for m in methods]
    numbered = k >= _layout.NUMBERED_LABELS_FROM or max(len(m) for m in names) > _layout.LONG_NAME
    short = [str(i + 1) for i in range(k)] if numbered else names
    lower_image = upper_image = None
    gaps_any = {"missing": False, "not_tested": False}
    for panel, dataset, (lower, upper, significant) in zip(axes, datasets, panels):
        lower_image = panel.imshow(np.ma.masked_invalid(np.where(np.isinf(lower), p_top * 2, lower)), cmap=blues,
                                   norm=p_norm, interpolation="nearest")
        lower_image.set_gid("neg_log10_p")
        upper_image = panel.imshow(np.ma.masked_invalid(upper), cmap=diverging, norm=d_norm, interpolation="nearest")
        upper_image.set_gid("mean_difference")
        for i in range(k):  # add_artist: the image fixed the limits; add_patch would re-measure them per patch
            panel.add_artist(Rectangle((i - 0.5, i - 0.5), 1, 1, facecolor=_style.LIGHT, edgecolor="none"))
            for j in range(k):
                if i == j:
                    continue
                if significant[i, j]:
                    panel.add_artist(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, edgecolor="black",
                                              lw=0.9, gid="significant_cell"))
                if annotate:
                    value, cmap, norm = ((lower[i, j], blues, p_norm) if i > j else (upper[i, j], diverging, d_norm))
                    if np.isfinite(value):
                        text = f"{abs(value):.1f}" if i > j else f"{value:+.3f}"  # −log10 p ≥ 0: no "−0.0"
                        panel.text(j, i, text, ha="center", va="center", fontsize=_style.FONT_SIZE - 3,
                                   color=_style.text_color_on(cmap(norm(value))), gid="cell_value")
        no_result, no_test = pair_gaps(table, dataset, methods)
        mark_size = max(min(0.5 * (grid["panel"] if grid else 1.5) * 72.0 / k, 4.0), 1.5)
        for gaps, marker, gid in ((no_result, "x", "missing"), (np.tril(no_test), "_", "not_tested")):
            ii, jj = np.nonzero(gaps)
            if len(ii):
                gaps_any[gid] = True
                panel.plot(jj, ii, linestyle="none", marker=marker, markersize=mark_size, color=_style.NEUTRAL,
                           markeredgewidth=0.8, gid=gid)
        side_pt = (grid["panel"] if grid else 1.5) * 72.0 * 0.75
        tick_font = max(min(_style.FONT_SIZE - 2, side_pt / k / 1.3), _layout.MIN_FONT)
        label_room = max(1.3 * tick_font, len(short[-1]) * _layout.char_width(tick_font) + 2.0) if numbered else \
            1.3 * tick_font
        step = max(1, math.ceil(label_room * k / side_pt))
        ticks = list(range(0, k, step))
        panel.set_xticks(ticks, [short[i] for i in ticks], rotation=0 if numbered else 90)
        panel.set_yticks(ticks, [short[i] for i in ticks])
        _common.matrix_frame(panel, labelsize=tick_font)
        panel.set_title(str(dataset), fontsize=_style.FONT_SIZE)
        if ax is None:
            spec = panel.get_subplotspec()
            if not spec.is_first_col():
                panel.set_yticklabels([])
    targets = list(axes)
    bar_p = fig.colorbar(lower_image, ax=targets, fraction=0.04, pad=0.02, extend="max" if logp.max() > p_top else
                         "neither")
    bar_p.set_label("−log10 p (Holm), lower triangle", fontsize=_style.FONT_SIZE - 1)
    bar_p.ax.axhline(threshold, color="black", lw=0.8, linestyle=(0, (2, 1)))
    bar_p.ax.tick_params(labelsize=_style.FONT_SIZE - 2)
    bar_d = fig.colorbar(upper_image, ax=targets, fraction=0.04, pad=0.02)
    bar_d.set_label("mean difference row − column, upper", fontsize=_style.FONT_SIZE - 1)
    bar_d.ax.tick_params(labelsize=_style.FONT_SIZE - 2)
    if numbered and ax is None:
        from matplotlib.lines import Line2D

        key = [f"{i + 1} {m}" for i, m in enumerate(names)]
        cols = max(1, int(fig.get_figwidth() * 72.0 // (_layout.label_width(key, _style.FONT_SIZE - 2) + 14.0)))
        fig.legend([Line2D([], [], linestyle="none") for _ in key], key, loc="outside lower center", ncols=cols,
                   fontsize=_style.FONT_SIZE - 2, handlelength=0, handletextpad=0, columnspacing=1.2,
                   labelspacing=0.15, title="methods", title_fontsize=_style.FONT_SIZE - 2)
    caption = (f"Lower triangle: −log10 p (Holm within the dataset); upper: mean difference row − column; "
               f"framed: significant at α = {result.alpha:g}.")
    if gaps_any["missing"]:
        caption += " ×: no result (a method without a score on the dataset)."
    if gaps_any["not_tested"]:
        caption += " –: no p-value (fewer than two shared seeds or no variation)."
    if where:
        caption += f" {where}"
    fig.suptitle(_layout.wrap_label(caption, int(0.95 * fig.get_figwidth() * 72.0 / _layout.char_width(
        _style.FONT_SIZE - 1))), fontsize=_style.FONT_SIZE - 1, x=0.02, ha="left", gid="caption")
    _common.fit_cell_texts(fig, axes, min_font=_MIN_CELL_FONT)
    return fig, axes


_MIN_CELL_FONT = 3.5   # points; smaller cell values are not written at all


def list_rows(table: pd.DataFrame, datasets: list) -> tuple[pd.DataFrame, list]:
    """The list layout's rows: per dataset a header row, then its comparisons.

    Returns the comparisons with their ``y`` (row index, growing downwards) and the headers
    as ``(y, dataset)``.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["d", "e"], "method_a": ["a", "a"], "method_b": ["b", "b"]})
    >>> rows, headers = list_rows(t, ["d", "e"])
    >>> rows["y"].tolist(), headers
    ([1, 3], [(0, 'd'), (2, 'e')])
    """
    frames, headers, y = [], [], 0
    for dataset in datasets:
        part = table[table["dataset"] == dataset]
        if part.empty:
            continue
        headers.append((y, dataset))
        frames.append(part.assign(y=np.arange(y + 1, y + 1 + len(part))))
        y += 1 + len(part)
    return pd.concat(frames, ignore_index=True), headers


_LIST_ROW = 0.15     # inches per row of the list layout
_LIST_FIXED = 0.9    # inches of axis, legend and title


def list_pages(counts, per_page: int) -> list[list[tuple[int, int, int]]]:
    """The list layout's pages: each a list of ``(dataset index, first, stop)`` runs of comparisons.

    A dataset takes a header row and one row per comparison (``counts[i]`` of them); a page
    holds ``per_page`` rows. A dataset that does not fit the rest of a page continues on the
    next (its header repeated, "continued"), so that no page is taller than a page however
    many methods there are (1,225 comparisons per dataset at 50 methods).

    Examples
    --------
    >>> list_pages([3, 3], 10)
    [[(0, 0, 3), (1, 0, 3)]]
    >>> list_pages([5, 2], 4)
    [[(0, 0, 3)], [(0, 3, 5)], [(1, 0, 2)]]
    """
    per_page = max(int(per_page), 2)
    pages, page, free = [], [], per_page
    for i, n in enumerate(counts):
        start = 0
        while start < n:
            if free < 2:                         # a header needs one row and a comparison another
                pages.append(page)
                page, free = [], per_page
            stop = min(n, start + free - 1)
            page.append((i, start, stop))
            free -= 1 + (stop - start)
            start = stop
    if page or not pages:
        pages.append(page)
    return pages


def _list_key(table, width_in: float):
    """Whether the list's rows read "i − j" (names wider than 45 % of the width), and the key's size."""
    methods = _pairwise_methods(table)
    numbered = _layout.numbered_rows([f"{a} − {b}" for a, b in zip(table["method_a"], table["method_b"])],
                                     width=width_in, font=_style.FONT_SIZE - 1, share=0.45)
    key = _layout.name_key([f"{i + 1} {m}" for i, m in enumerate(methods)], width=width_in,
                           max_height=0.35 * _layout.PAGE_HEIGHT) if numbered else {"height": 0.0}
    return numbered, key


def _draw_list(result, table, datasets, chunks, *, width, ax, numbered, key):
    parts, offset = [], 0
    headers = []
    for i, start, stop in chunks:
        part = table[table["dataset"] == datasets[i]].iloc[start:stop]
        headers.append((offset, f"{datasets[i]} (continued)" if start > 0 else str(datasets[i])))
        parts.append(part.assign(y=np.arange(offset + 1, offset + 1 + len(part))))
        offset += 1 + len(part)
    ordered = pd.concat(parts, ignore_index=True)
    n = len(ordered) + len(headers)
    # long names: the rows read "i − j" and a key under the figure names the methods
    methods = _pairwise_methods(table)
    number = {m: i + 1 for i, m in enumerate(methods)}
    key_labels = [f"{i + 1} {m}" for i, m in enumerate(methods)]
    own = ax is None
    fig, ax = _style.get_figure(ax, width, height=min(_LIST_FIXED + key["height"] + _LIST_ROW * n,
                                                      _layout.PAGE_HEIGHT))
    if numbered and own:
        _common.key_legend(fig, key_labels, key)
    y = ordered["y"].to_numpy()
    for i, (start, _dataset) in enumerate(headers):
        end = headers[i + 1][0] - 1 if i + 1 < len(headers) else n - 1
        if i % 2 == 0:
            ax.axhspan(start - 0.5, end + 0.5, color="#F4F4F4", lw=0, zorder=0, gid="dataset_stripe")
    significant = ordered["significant"].to_numpy(dtype=bool)
    colour = _style.PALETTE[0]
    diff = ordered["mean_diff"].to_numpy(dtype=float)
    ax.hlines(y, ordered["ci_low"].to_numpy(dtype=float), ordered["ci_high"].to_numpy(dtype=float), color=colour,
              lw=1.0, zorder=2, gid="interval")
    ax.plot(diff[significant], y[significant], linestyle="none", marker="o", markersize=3.5, color=colour, zorder=3,
            label=f"significant (Holm, α = {result.alpha:g})", gid="significant")
    tested = np.isfinite(ordered["p_holm"].to_numpy(dtype=float))
    has_diff = np.isfinite(diff)
    plain = ~significant & tested & has_diff
    ax.plot(diff[plain], y[plain], linestyle="none", marker="o", markersize=3.5,
            markerfacecolor="white", markeredgecolor=colour, zorder=3, label="not significant", gid="not_significant")
    untested = has_diff & ~tested
    if untested.any():      # a difference without a p-value: drawn, but not as "not significant"
        ax.plot(diff[untested], y[untested], linestyle="none", marker="s", markersize=3.0, markerfacecolor="white",
                markeredgecolor=_style.NEUTRAL, zorder=3, label="no p-value", gid="not_tested")
    if (~has_diff).any():   # no result (no shared seed): a "×" at 0, where a difference would be
        ax.plot(np.zeros(int((~has_diff).sum())), y[~has_diff], linestyle="none", marker="x", markersize=3.5,
                color=_style.NEUTRAL, markeredgewidth=0.9, zorder=3, label="no result", gid="missing")
    ax.axvline(0.0, color="black", lw=0.7, zorder=1)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(nbins=4, prune="both"))     # no tick label past the axes' ends
    header_at = {y0: str(name) for y0, name in headers}
    pair_at = {int(r.y): (f"{number[r.method_a]} − {number[r.method_b]}" if numbered else f"{r.method_a} − {r.method_b}")
               for r in ordered.itertuples(index=False)}
    ticks = sorted(header_at | pair_at)
    ax.set_yticks(ticks, [header_at.get(t, pair_at.get(t)) for t in ticks])
    # rows denser than the label font (a full page of 50 rows): the labels shrink to the row
    row_pt = (fig.get_figheight() - _LIST_FIXED - key["height"]) * 72.0 / max(n, 1)
    label_font = max(min(_style.FONT_SIZE - 1, row_pt / 1.2), _layout.MIN_FONT)
    for t, label in zip(ticks, ax.get_yticklabels()):
        if t in header_at:
            label.set_fontweight("bold")
            label.set_color("black")
    ax.set_ylim(n - 0.5, -0.5)
    ax.tick_params(axis="y", length=0, labelsize=label_font)
    ax.spines["left"].set_visible(False)
    ran = result.method if getattr(result, "paired", True) else PROCEDURES[result.method].unpaired
    intervals = np.isfinite(table[["ci_low", "ci_high"]].to_numpy(dtype=float)).any()   # none from a 5×2cv test
    ax.set_xlabel(f"mean difference a − b ({f'{1 - result.alpha:.0%} t interval' if intervals else 'no interval'}); "
                  f"{display_name(ran)} test")
    shown = np.concatenate([ordered[c].to_numpy(dtype=float) for c in ("ci_low", "ci_high", "mean_diff")])
    if not np.isfinite(shown).any():     # a page of comparisons without results: the scale of the others
        every = np.concatenate([table[c].to_numpy(dtype=float) for c in ("ci_low", "ci_high", "mean_diff")])
        every = every[np.isfinite(every)]
        top = float(np.abs(every).max()) if every.size and np.abs(every).max() > 0 else 1.0
        ax.set_xlim(-1.05 * top, 1.05 * top)
    n_entries = len([ln for ln in ax.get_lines() if not ln.get_label().startswith("_")])
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=min(n_entries, 4) if fig.get_figwidth() > 4.5 else 1,
              fontsize=_style.FONT_SIZE - 1, borderaxespad=0.3, handletextpad=0.2)
    return fig, ax
