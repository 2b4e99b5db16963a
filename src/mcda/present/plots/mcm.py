"""The Multi-Comparison Matrix (Ismail-Fawaz et al. 2023), drawn from pairwise tests over datasets.

Every cell (row r, column c) shows what aeon's ``create_multi_comparison_matrix`` shows for the
pair: the mean difference r − c over the datasets, r's wins / ties / losses against c, and the
pair's p-value (Wilcoxon signed-rank by default, adjusted as the result says). The numbers come
from :func:`mcda.pairwise_over_datasets`; the plot computes nothing. Its layout (which text a
cell can hold at the size asked) is the pure function :func:`mcm_layout`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError
from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style
from mcda.present.plots._layout import check_page
from mcda.data.cards import direction_sign

__all__ = ["MCM_TIERS", "MCM_PAGED_TIERS", "MCM_CELL_FONT", "mcm_cells", "mcm_layout", "plot_mcm"]

_FIELDS = ("table", "mean_ranks", "alpha", "adjust", "test", "control", "procedure", "n_datasets")

#: What a cell holds, densest first, with the width of its widest line (in average characters: bold
#: digits and signs are wider than the average glyph) and its lines.
#: ``stacked``: three lines (mean difference, wins/ties/losses, p); ``inline``: the same on one
#: line; ``difference``: the mean difference alone (bold when significant); ``colour``: no text,
#: the colour carries the mean difference and a dot marks a significant pair.
MCM_TIERS: tuple = (("stacked", 9.5, 3), ("inline", 31, 1), ("difference", 6.5, 1), ("colour", 0, 0))
#: The tiers a full matrix (more than three columns) keeps by paging its columns, densest first.
MCM_PAGED_TIERS: tuple = (MCM_TIERS[0], MCM_TIERS[2])
#: The smallest cell text (pt) a layout plans for; text that would need less is not written.
MCM_CELL_FONT: float = _layout.MIN_FONT + 0.5


def mcm_cells(result, *, against=None) -> dict:
    """The matrix to draw: rows (every method, best mean rank first), columns, and one array per quantity.

    Parameters
    ----------
    result : PairwiseOverDatasets
    against : str or sequence of str, optional
        Keep only these columns ("each method against my chosen ones"). Against a control the
        result holds only the control's pairs, and the one column is the control.

    Returns
    -------
    dict
        ``rows``, ``cols`` (method names), and arrays of shape (rows, cols): ``mean_diff``
        (row − column in the metric's units; NaN on the diagonal and for untested pairs),
        ``advantage`` (the same, oriented: positive when the row method is better), ``wins``,
        ``ties``, ``losses`` (the row's, over the datasets), ``p`` (the adjusted p-value) and
        ``significant``.

    Examples
    --------
    >>> import mcda
    >>> cells = mcm_cells(mcda.pairwise_over_datasets(mcda.datasets.load("demsar2006")), against="C4.5")
    >>> cells["cols"], cells["rows"][-1], int(cells["wins"][0, 0])
    (['C4.5'], 'C4.5', 11)
    """
    _common.require(result, _FIELDS, what="PairwiseOverDatasets", maker="mcda.pairwise_over_datasets")
    table = result.table
    if "mean_diff" not in table.columns:
        raise McdaArgumentError("`result` has no mean differences (made by an older mcda): rerun "
                                "mcda.pairwise_over_datasets.", argument="result")
    rows = list(result.mean_ranks.sort_values(kind="stable").index)
    if result.control is not None:
        cols = [result.control]
        if against is not None and _common.subset("against", against, rows) != cols:
            raise McdaArgumentError(f"`against` must be the result's control {result.control!r} (only its pairs were "
                                    f"tested); got {against!r}.", argument="against", value=against)
    else:
        cols = rows if against is None else [m for m in rows if m in set(_common.subset("against", against, rows))]
    r_at, c_at = {m: i for i, m in enumerate(rows)}, {m: j for j, m in enumerate(cols)}
    shape = (len(rows), len(cols))
    out = {name: np.full(shape, np.nan) for name in ("mean_diff", "advantage", "wins", "ties", "losses", "p")}
    out["significant"] = np.zeros(shape, dtype=bool)
    direction = getattr(result, "direction", None)
    sign = 1.0 if direction is None else direction_sign(direction)
    for row in table.itertuples(index=False):
        for r, c, flip in ((row.method_a, row.method_b, 1.0), (row.method_b, row.method_a, -1.0)):
            if r not in r_at or c not in c_at:
                continue
            i, j = r_at[r], c_at[c]
            untested = bool(row.reason)
            out["mean_diff"][i, j] = np.nan if untested else flip * row.mean_diff
            out["advantage"][i, j] = np.nan if untested else flip * sign * row.mean_diff
            out["wins"][i, j], out["losses"][i, j] = (row.wins_a, row.wins_b) if flip > 0 else (row.wins_b, row.wins_a)
            out["ties"][i, j] = row.n_ties
            out["p"][i, j] = row.p_adjusted
            out["significant"][i, j] = bool(row.significant)
    return {"rows": rows, "cols": cols, **out}


def _fits(tier: tuple, cell_w: float, cell_h: float) -> float:
    """The font (pt) at which a tier's text fills 85 % of a cell (0 for the colour tier)."""
    _, chars, lines = tier
    if not lines:
        return math.inf
    return min(_layout.ROW_FONT - 1.0, 0.85 * cell_w / (chars * _layout.char_width(1.0)),
               0.85 * cell_h / (lines * 1.25))


def mcm_layout(rows, cols, *, width: float, max_height: float = _layout.PAGE_HEIGHT, annotate: bool = True) -> dict:
    """Cell sizes, labels, what each cell holds and the pages of columns, for ``rows`` × ``cols`` at ``width`` in.

    The rule. With three columns or fewer (``against=``), or ``annotate=False``, one page: the
    densest tier of :data:`MCM_TIERS` that fits (``annotate=False``: colour only). A full matrix
    (more than three columns) keeps its numbers by cutting its columns into pages: every page
    holds every row (at least :data:`MCM_CELL_FONT` pt of text per line, 5 pt) and as many
    columns as the tier's text needs at that size; of the two tiers of :data:`MCM_PAGED_TIERS`
    (three numbers stacked, or the mean difference alone) the stacked one is taken unless it
    needs more pages. The columns are spread evenly over the pages (cells at most 1.1 in wide,
    square while the page's height allows), and each page says which columns it shows. A
    number → name key that would not leave the rows room shrinks (not below 4.5 pt) into more
    columns. Only when even the mean difference alone cannot give every row a line on one page
    (beyond about 60 methods across a page) does the matrix fall back to the one-page colour
    tier, and ``against=`` keeps the numbers.

    Returns
    -------
    dict
        ``tier``, ``cell_font``, ``cell_w``, ``cell_h`` (pt), ``height`` (in), ``pages`` (one
        slice of ``cols`` per page), ``row_labels``, ``col_labels`` (of every column),
        ``numbered``, ``flat``, ``key``, ``key_labels``, ``key_cols``, ``key_font``,
        ``tick_font``, ``tick_step``.

    Examples
    --------
    >>> names = [f"m{i}" for i in range(4)]
    >>> lay = mcm_layout(names, names, width=7.0)
    >>> lay["tier"], len(lay["pages"])
    ('stacked', 1)
    >>> big = [f"method_{i}" for i in range(50)]
    >>> lay = mcm_layout(big, big, width=7.0)
    >>> lay["tier"], len(lay["pages"]), lay["cell_font"] >= MCM_CELL_FONT
    ('difference', 3, True)
    >>> mcm_layout(big, big, width=7.0, annotate=False)["tier"], mcm_layout(big, big[:1], width=7.0)["tier"]
    ('colour', 'inline')
    """
    one = _one_page_layout(rows, cols, width=width, max_height=max_height)
    if not annotate:
        return {**one, "tier": "colour", "cell_font": 0.0}
    if len(cols) <= 3 or one["tier"] == "stacked":
        return one
    paged = _paged_layout(rows, cols, width=width, max_height=max_height, base=one)
    return paged if paged is not None else one


def _paged_layout(rows, cols, *, width: float, max_height: float, base: dict) -> dict | None:
    """The full matrix cut into pages of rows and columns (:func:`mcm_layout`'s rule), or None when no tier fits."""
    k, n_cols = len(rows), len(cols)
    full, floor = width * 72.0, MCM_CELL_FONT
    caption = 6 * 1.25 * (_style.FONT_SIZE - 1) + 10.0        # the caption, wrapped under the matrix, and its page
    plans = []
    for tier in MCM_PAGED_TIERS:
        _, chars, lines = tier
        need_h = lines * 1.25 * floor / 0.85
        need_w = chars * _layout.char_width(floor) / 0.85
        tick_font = max(min(_layout.ROW_FONT, need_h / 1.25), _layout.MIN_FONT)
        top = (1.25 * tick_font if base["flat"] else _layout.label_width(base["col_labels"], tick_font)) + 22.0
        fixed = top + caption + 16.0
        key = {"font": base["key_font"], "cols": base["key_cols"], "height": 0.0}
        if base["key"]:           # room for every row first; else the key may take half a page
            key = _layout.name_key(base["key_labels"], width=width, font=base["key_font"],
                                   max_height=max(max_height * 72.0 - fixed - k * need_h, 0.0) / 72.0)
            if key["height"] * 72.0 > max_height * 72.0 - fixed - k * need_h:
                key = _layout.name_key(base["key_labels"], width=width, font=base["key_font"],
                                       max_height=max_height / 2.0)
        rows_fit = int((max_height * 72.0 - fixed - key["height"] * 72.0) // need_h)
        room = full - _layout.label_width(base["row_labels"], tick_font) - 0.9 * 72.0
        per_page = int(room // need_w)
        if per_page < 1 or rows_fit < min(k, 5):
            continue
        row_pages = _layout.page_slices(k, rows_fit)
        col_pages = _layout.page_slices(n_cols, per_page)
        plans.append((len(row_pages) * len(col_pages), tier, room, top, key, row_pages, col_pages))
    if not plans:
        return None
    _, tier, room, top, key, row_pages, col_pages = min(plans, key=lambda plan: plan[0])   # stacked first if equal
    on_page = max(p.stop - p.start for p in col_pages)
    rows_on_page = max(p.stop - p.start for p in row_pages)
    cell_w = min(room / on_page, 1.1 * 72.0)
    _, chars, lines = tier
    key_pt = key["height"] * 72.0
    fit_h = (max_height * 72.0 - top - key_pt - caption - 16.0) / rows_on_page
    cell_h = min(max(lines * 1.25 * MCM_CELL_FONT / 0.85, min(cell_w, 0.4 * 72.0 * lines)), fit_h)
    tick_font = max(min(_layout.ROW_FONT, cell_h / 1.25), _layout.MIN_FONT)
    height = min((rows_on_page * cell_h + top + key_pt + caption + 16.0) / 72.0, max_height)
    return {**base, "tier": tier[0], "cell_font": _fits(tier, cell_w, cell_h), "cell_w": cell_w, "cell_h": cell_h,
            "height": height, "pages": [(r, c) for r in row_pages for c in col_pages], "key_cols": key["cols"],
            "key_font": key["font"], "tick_font": tick_font, "tick_step": max(1, math.ceil(1.25 * tick_font / cell_h))}


def _one_page_layout(rows, cols, *, width: float, max_height: float = _layout.PAGE_HEIGHT) -> dict:
    """The one-page layout: every column on the page, the densest tier of :data:`MCM_TIERS` that fits.

    The rule: labels as :func:`mcda.present.plots._layout.matrix_layout` decides for the rows (names; or
    columns by number and rows ``"name i"`` from 13 methods or with long names; or numbers and
    a key when even those are too wide). Cells share the width left (at most 1.1 in each) and
    are square up to a page's height; with few columns (``against=``) a cell is as tall as three
    lines of text need. A cell then holds the densest tier of :data:`MCM_TIERS` whose text fits
    at ``MIN_FONT + 0.5`` pt or more: all three numbers stacked, on one line, the mean
    difference alone, or only the colour (and a dot for a significant pair).

    """
    k = len(rows)
    base = _layout.matrix_layout(k, rows, width=width, max_height=max_height)
    position = {m: i for i, m in enumerate(rows)}
    col_labels = [base["col_labels"][position[m]] for m in cols]
    full = width * 72.0
    tick_font = base["tick_font"]
    key_height = (math.ceil(k / base["key_cols"]) * 1.25 * base["key_font"] + 8.0) if base["key"] else 0.0
    caption = 5 * 1.25 * (_style.FONT_SIZE - 1) + 10.0          # the caption line, wrapped under the matrix
    for _ in range(3):                 # the tick font follows the row height: a fixed point
        room = full - _layout.label_width(base["row_labels"], tick_font) - 0.9 * 72.0
        # square cells of at most 1.1 in for the full matrix; a few columns (against=) share the whole width
        cell_w = max(min(room / max(len(cols), 1), 1.1 * 72.0 if len(cols) > 3 else room), 0.5)
        col_labels = [base["col_labels"][position[m]] for m in cols]
        if len(cols) <= 3 and _layout.label_width(cols, tick_font) <= 0.9 * cell_w:
            col_labels = [str(m) for m in cols]       # wide columns: their names fit on one line
        flat = base["numbered"] or (len(cols) <= 3 and col_labels == [str(m) for m in cols])
        top = (1.25 * tick_font if flat else _layout.label_width(col_labels, tick_font)) + 22.0
        fit_h = (max_height * 72.0 - top - key_height - caption - 16.0) / k
        cell_h = max(min(fit_h, cell_w if len(cols) > 3 else max(3 * 1.25 * 6.0 / 0.85, min(cell_w, 0.4 * 72.0))),
                     0.5)
        tick_font = max(min(_layout.ROW_FONT, cell_h / 1.25), _layout.MIN_FONT)
    tier, font = "colour", 0.0
    for candidate in MCM_TIERS:
        size = _fits(candidate, cell_w, cell_h)
        if size >= _layout.MIN_FONT + 0.5:
            tier, font = candidate[0], (0.0 if math.isinf(size) else size)
            break
    height = min((k * cell_h + top + key_height + caption + 16.0) / 72.0, max_height)
    return {"tier": tier, "cell_font": font, "cell_w": cell_w, "cell_h": cell_h, "height": height,
            "pages": [(slice(0, k), slice(0, len(cols)))], "row_labels": base["row_labels"], "col_labels": col_labels, "numbered": base["numbered"], "flat": flat,
            "key": base["key"], "key_labels": base["key_labels"], "key_cols": base["key_cols"],
            "key_font": base["key_font"], "tick_font": tick_font,
            "tick_step": max(1, math.ceil(1.25 * tick_font / cell_h))}


def _cell_text(cells: dict, i: int, j: int, tier: str) -> str:
    diff = cells["mean_diff"][i, j]
    wtl = f"{int(cells['wins'][i, j])}/{int(cells['ties'][i, j])}/{int(cells['losses'][i, j])}"
    p = cells["p"][i, j]
    p_text = "p<.001" if p < 0.001 else f"p={p:.3f}".replace("0.", ".")
    if tier == "stacked":
        return f"{diff:+.4f}\n{wtl}\n{p_text}"
    if tier == "inline":
        return f"{diff:+.4f} · {wtl} · {p_text}"
    text = f"{diff:+.3f}"
    return text.replace("0.", ".", 1) if abs(diff) < 1 else text


def plot_mcm(result, *, against=None, width="page", annotate: bool | None = None, page: int = 1, ax=None):
    """The Multi-Comparison Matrix: per pair the mean difference, wins/ties/losses and a p-value.

    Parameters
    ----------
    result : PairwiseOverDatasets
        From :func:`mcda.pairwise_over_datasets` (Wilcoxon signed-rank, or the sign test, over
        datasets, adjusted by its ``adjust``: Holm by default; aeon's MCM uses Wilcoxon with Holm
        too). A result with ``control=`` has one column, the control.
    against : str or sequence of str, optional
        Show only these columns: every method (rows) against the chosen ones (aeon's
        ``col_comparates``). The p-values stay those of the result's family (all pairs, or the
        control's k − 1).
    width : {"column", "page"} or float
        Figure width; the height follows from the rows (never more than a page).
    annotate : bool, optional
        Write the numbers in the cells. Default (or True): the densest text that fits
        (:func:`mcm_layout`: three stacked numbers, one line, the mean difference alone), the
        full matrix cut into pages of columns (and of rows, when the rows do not fit one page at
        5 pt) rather than losing its numbers; False: colour only, on one page.
    page : int
        Which page (1 = the first) when the matrix is cut into pages (:func:`mcm_layout`: with
        8-character names 20 methods take 2 pages across a page and 4 in a column, 50 take 3 and
        10; with 40-character names 50 take 5 across a page and 14 in a column); the caption
        says which rows and columns a page shows. The colour scale is the same on every page.
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Notes
    -----
    Rows and columns are in mean-rank order (best first; aeon orders by the mean score by
    default, and by mean rank with ``order_stats="average-rank"``). Cell (row r, column c):
    mean over the datasets of r − c in the metric's units; r's wins / ties / losses against c
    (a tie: the two scores equal within mcda's tie tolerance); the adjusted p-value of the
    pair. Bold text (or, without text, a dot) marks p ≤ α. The colour is the mean advantage of
    the row, oriented so that the same colour means "row better" for either direction of the
    metric. A caption line under the matrix says all of this.

    References
    ----------
    Ismail-Fawaz, A., Dempster, A., Tan, C. W., Herrmann, M., Miller, L., Schmidt, D. F.,
    Berretti, S., Weber, J., Devanne, M., Forestier, G., Webb, G. I. (2023). An approach to
    multiple comparison benchmark evaluations that is stable under manipulation of the
    comparate set. arXiv:2305.11921.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_mcm
    >>> fig, ax = plot_mcm(mcda.pairwise_over_datasets(mcda.datasets.load("demsar2006")))
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "cell_value"][0].split("\\n")[1]
    '6/3/5'
    """
    every = mcm_cells(result, against=against)
    w = _style.figure_size(width)[0]
    layout = mcm_layout(every["rows"], every["cols"], width=w, annotate=annotate is None or bool(annotate))
    pages = layout["pages"]
    check_page(page, len(pages), "the matrix's pages")
    row_part, col_part = pages[page - 1]
    cells = {name: (value[row_part, col_part] if isinstance(value, np.ndarray) else value)
             for name, value in every.items()}
    cells["rows"], cells["cols"] = every["rows"][row_part], every["cols"][col_part]
    rows, cols = cells["rows"], cells["cols"]
    where = ""
    if len(pages) > 1:
        k, n_cols = len(every["rows"]), len(every["cols"])
        shown = []
        if row_part.stop - row_part.start < k:
            shown.append(f"rows {row_part.start + 1}–{row_part.stop}")
        if col_part.stop - col_part.start < n_cols:
            shown.append(f"columns {col_part.start + 1}–{col_part.stop}")
        where = f"; {' and '.join(shown)} of {k} (page {page} of {len(pages)}: page=)"
    layout = {**layout, "row_labels": layout["row_labels"][row_part], "col_labels": layout["col_labels"][col_part]}
    tier = layout["tier"]
    with _style.style():
        import matplotlib
        from matplotlib.colors import TwoSlopeNorm

        fig, ax = _style.get_figure(ax, width, height=layout["height"])
        cmap = matplotlib.colormaps[_style.DIVERGING_CMAP].with_extremes(bad="white")
        finite = np.abs(every["advantage"][np.isfinite(every["advantage"])])     # one scale on every page
        span = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
        norm = TwoSlopeNorm(0.0, -span, span)
        image = ax.imshow(np.ma.masked_invalid(cells["advantage"]), cmap=cmap, norm=norm, interpolation="nearest",
                          aspect="auto")
        image.set_gid("mcm_matrix")
        _label(ax, layout, len(rows), len(cols))
        if tier != "colour":
            for i in range(len(rows)):
                for j in range(len(cols)):
                    if not np.isfinite(cells["mean_diff"][i, j]):
                        continue
                    colour = _style.text_color_on(cmap(norm(cells["advantage"][i, j])))
                    ax.text(j, i, _cell_text(cells, i, j, tier), ha="center", va="center",
                            fontsize=layout["cell_font"], color=colour, linespacing=1.1,
                            fontweight="bold" if cells["significant"][i, j] else "normal", gid="cell_value")
        untested = [(i, j) for i in range(len(rows)) for j in range(len(cols))
                    if rows[i] != cols[j] and not np.isfinite(cells["mean_diff"][i, j])]
        if untested:
            ii, jj = zip(*untested)
            ax.plot(jj, ii, linestyle="none", marker="x", markersize=3.0, color=_style.NEUTRAL, gid="untested_marker")
        bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.03, shrink=min(1.0, 0.4 + 0.05 * len(rows)))
        bar.set_label("mean advantage of row (+ = row better)", fontsize=_style.FONT_SIZE - 1)
        bar.ax.tick_params(labelsize=_style.FONT_SIZE - 2)
        # the caption is centred under the matrix: wrapped to its width (the colour bar's label is beside it)
        chars = int(max(len(cols) * layout["cell_w"], 0.45 * w * 72.0) / _layout.char_width(_style.FONT_SIZE - 1))
        ax.set_xlabel(_layout.wrap_label(_caption(result, tier, bool(untested)) + where, chars),
                      fontsize=_style.FONT_SIZE - 1)
        if tier != "colour":
            _common.fit_cell_texts(fig, [ax], min_font=_layout.MIN_FONT)
            if not [t for t in ax.texts if t.get_gid() == "cell_value"]:   # they did not fit after all
                tier = "colour"
                ax.set_xlabel(_layout.wrap_label(_caption(result, tier, bool(untested)) + where, chars),
                              fontsize=_style.FONT_SIZE - 1)
        if tier == "colour":
            ii, jj = np.nonzero(cells["significant"])
            size = max(min(min(layout["cell_w"], layout["cell_h"]) * 0.4, 4.0), 1.2)
            ax.plot(jj, ii, linestyle="none", marker="o", markersize=size, markeredgewidth=0.4,
                    markeredgecolor="white", color="black", gid="significant_marker")
    return fig, ax


def _caption(result, tier: str, untested: bool) -> str:
    """The caption line under the matrix: what a cell holds, the test, and the marks."""
    test = f"{result.procedure} over {result.n_datasets} datasets"
    alpha = f"{result.alpha:g}"
    text = {
        "stacked": f"cell: mean row − column / row wins/ties/losses / p ({test}); bold: p ≤ {alpha}",
        "inline": f"cell: mean row − column · row wins/ties/losses · p ({test}); bold: p ≤ {alpha}",
        "difference": f"cell: mean row − column; bold: p ≤ {alpha} ({test})",
        "colour": f"colour: mean row − column; dot: p ≤ {alpha} ({test})",
    }[tier] + ("; ×: not tested" if untested else "")
    if getattr(result, "excluded", None):
        names = list(result.excluded)
        text += f"; excluded (missing results): {', '.join(map(str, names[:4]))}" + (" ..." if len(names) > 4 else "")
    return text


def _label(ax, layout: dict, n_rows: int, n_cols: int) -> None:
    """Row labels at the left, column labels on top, every ``tick_step``-th row; the key when numbered."""
    step = layout["tick_step"]
    shown = [i for i in range(n_rows) if i % step == 0]
    ax.set_yticks(shown, [layout["row_labels"][i] for i in shown], fontsize=layout["tick_font"])
    col_step = 1 if n_cols * layout["cell_w"] >= n_cols * (1.25 * layout["tick_font"]) else step
    cshown = [j for j in range(n_cols) if j % col_step == 0]
    ax.set_xticks(cshown, [layout["col_labels"][j] for j in cshown], rotation=0 if layout["flat"] else 90,
                  fontsize=layout["tick_font"])
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("bottom")
    _common.matrix_frame(ax)
    if layout["key"]:
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], linestyle="none") for _ in layout["key_labels"]]
        ax.figure.legend(handles, layout["key_labels"], loc="outside lower center", ncols=layout["key_cols"],
                         fontsize=layout["key_font"], handlelength=0, handletextpad=0, columnspacing=1.2,
                         labelspacing=0.15, borderaxespad=0.2, title="methods", title_fontsize=layout["key_font"])
