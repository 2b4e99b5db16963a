"""Over items: each model's interval, the paired differences against a control, and which pairs differ.

Three figures of one test set's results (:mod:`mcda.stats.items`), legible from a handful of
models to a leaderboard of hundreds: the interval and forest figures put one row per model and
split into pages of at most a page's height (:func:`item_pages`: 50 rows a page, the pages of
each dataset in turn); the significance matrix follows
:func:`mcda.present.plots._layout.matrix_layout` (names, then numbers and a key), one page per
dataset.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mcda.present.plots import _common, _layout, _style
from mcda.present.plots._layout import check_page

__all__ = ["plot_item_intervals", "plot_item_forest", "plot_item_matrix", "item_pages", "item_rows",
           "forest_rows", "significance_matrix", "matrix_pages", "column_ticks", "shared_limits", "MATRIX_ROWS"]

#: Inches of title, axis, its label and the legend around the rows.
_FIXED = 1.5


def item_pages(rows_per_dataset: dict) -> list[tuple[str, slice, float]]:
    """The pages of a figure with one row per model: ``(dataset, rows, row height)``, each dataset's
    rows cut into pages of at most a page's height (rows of 0.19 in squeezed to 0.125 in, then more pages).

    Examples
    --------
    >>> [(d, p.stop - p.start) for d, p, _ in item_pages({"qa": 8})]
    [('qa', 8)]
    >>> [(d, p.stop - p.start) for d, p, _ in item_pages({"qa": 200, "code": 49})]
    [('qa', 50), ('qa', 50), ('qa', 50), ('qa', 50), ('code', 49)]
    """
    pages = []
    for dataset, n in rows_per_dataset.items():
        row = _layout.row_height(n, fixed=_FIXED)
        # the row was squeezed to fit n rows on a page: n rows fit (rounding must not cut one off)
        per_page = n if row > 0.125 else _layout.rows_per_page(row, fixed=_FIXED)
        for part in _layout.page_slices(n, per_page):
            pages.append((dataset, part, row))
    return pages


def _datasets(table: pd.DataFrame, dataset) -> list:
    names = list(pd.unique(table["dataset"]))
    if dataset is None:
        return names
    from mcda._core.validation import check_choice

    return [check_choice("dataset", dataset, [str(d) for d in names])]


def _ordered(methods: list, order, dataset) -> list:
    """``methods`` in the order asked: a list for every dataset or a mapping dataset -> list (others after)."""
    if order is None:
        return list(methods)
    wanted = [str(m) for m in (order.get(dataset, []) if isinstance(order, dict) else order)]
    known = set(map(str, methods))
    return [m for m in wanted if m in known] + [m for m in methods if str(m) not in set(wanted)]


def item_rows(means, *, dataset=None, order=None) -> dict:
    """dataset -> the rows of :func:`plot_item_intervals` (the ItemMeans table's rows in ``order``)."""
    table = means.table
    out = {}
    for d in _datasets(table, dataset):
        block = table[table["dataset"] == d].set_index("method", drop=False)
        out[d] = block.loc[_ordered(list(block.index), order, d)].reset_index(drop=True)
    return out


def shared_limits(frame, columns) -> tuple[float, float]:
    """The x range of every row of a dataset (all its pages), padded by 4 %: the pages of one dataset share
    their axis, so a model on page 3 reads against one on page 1.

    >>> import pandas as pd
    >>> shared_limits(pd.DataFrame({"lo": [0.2, 0.4], "hi": [0.5, 0.7]}), ["lo", "hi"])
    (0.18, 0.72)
    """
    values = frame[list(columns)].to_numpy(dtype=float)
    values = values[np.isfinite(values)]
    if not values.size:
        return (-1.0, 1.0)
    low, high = float(values.min()), float(values.max())
    pad = 0.04 * (high - low) if high > low else 0.5 * max(abs(low), 1e-3)
    return (round(low - pad, 12), round(high + pad, 12))


def _title(head: str, dataset, part: slice, n: int, page: int, n_pages: int) -> str:
    title = f"{head}\n{dataset}"
    if n_pages > 1:
        title += f": models {part.start + 1}–{part.stop} of {n} (page {page} of {n_pages}: page=)"
    return title


def _row_axis(ax, labels, row: float):
    n = len(labels)
    y = np.arange(n, dtype=float)
    ax.set_yticks(y, [str(m) for m in labels])
    ax.tick_params(axis="y", labelsize=_layout.ROW_FONT if n > 20 else _style.FONT_SIZE - 1, length=0)
    ax.set_ylim(n - 0.5, -0.5)
    ax.grid(axis="x", linewidth=0.4, color=_style.LIGHT)
    ax.set_axisbelow(True)
    return y


@_style.styled
def plot_item_intervals(means, *, dataset=None, order=None, page: int = 1, width="column", ax=None):
    """Each model's mean item score with its interval: clustered and naive side by side when they differ.

    Parameters
    ----------
    means : ItemMeans
        From :func:`mcda.item_means` (or ``Report.item_means()``).
    dataset : str, optional
        One dataset; None pages through every dataset in turn.
    order : list or dict, optional
        The models' order (best first), for every dataset or per dataset (``{dataset: [...]}``);
        default the table's order. ``Report.plot_item_intervals`` passes the leaderboard's.
    page : int
        Which page (:func:`item_pages`: at most 50 models a page, each dataset on pages of its own).
    width : {"column", "page"} or float
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax

    Notes
    -----
    With clusters each model has two bars: the t interval on the cluster-robust standard error
    (``ci_low``, ``ci_high``, thick) and, just below it, the one that treats items as
    independent (``naive_ci_low``, ``naive_ci_high``, thin grey), drawn only where they differ.
    The dot is the mean. Every number is a field of the result.
    """
    _common.require(means, ("table", "clustered", "confidence_level"), what="ItemMeans", maker="mcda.item_means")
    rows = item_rows(means, dataset=dataset, order=order)
    pages = item_pages({d: len(r) for d, r in rows.items()})
    check_page(page, len(pages), "the models' pages")
    name, part, row = pages[page - 1]
    shown = rows[name].iloc[part]
    n = len(shown)
    fig, ax = _style.get_figure(ax, width, height=n * row + _FIXED)
    y = _row_axis(ax, shown["method"], row)
    row_pt = row * 72.0
    thick = max(min(0.45 * row_pt, 4.0), 1.2)
    naive_low, naive_high = shown["naive_ci_low"].to_numpy(float), shown["naive_ci_high"].to_numpy(float)
    low, high = shown["ci_low"].to_numpy(float), shown["ci_high"].to_numpy(float)
    differ = means.clustered & ~(np.isclose(naive_low, low) & np.isclose(naive_high, high))
    offset = 0.22 if differ.any() else 0.0
    ax.hlines(y - offset * differ, low, high, color=_style.PALETTE[0], linewidth=thick, gid="interval")
    if differ.any():
        ax.hlines(y[differ] + offset, naive_low[differ], naive_high[differ], color=_style.NEUTRAL,
                  linewidth=max(thick / 2.5, 0.6), gid="naive_interval")
    ax.plot(shown["mean"].to_numpy(float), y - offset * differ, linestyle="none", marker="o", color="black",
            markersize=max(min(0.3 * row_pt, 3.0), 1.2), gid="mean")
    ax.set_xlim(*shared_limits(rows[name], ["ci_low", "ci_high", "naive_ci_low", "naive_ci_high", "mean"]))
    ax.set_xlabel("mean item score")
    from matplotlib.lines import Line2D

    level = f"{means.confidence_level:.0%}"
    handles = [Line2D([], [], color=_style.PALETTE[0], linewidth=3,
                      label=f"{level} interval, " + ("clustered SE" if means.clustered else "SE over items"))]
    if means.clustered:
        handles.append(Line2D([], [], color=_style.NEUTRAL, linewidth=1.2, label="items as independent"))
    fig.legend(handles=handles, loc="outside lower center", ncols=len(handles), frameon=False,
               fontsize=_style.FONT_SIZE - 2, handlelength=1.2, columnspacing=1.0)
    total = len(rows[name])
    first = next(i for i, p in enumerate(pages) if p[0] == name)
    n_pages = sum(1 for p in pages if p[0] == name)
    fig.suptitle(_title("Mean item score per model", name, part, total, page - first, n_pages),
                 x=0.02, ha="left", fontsize=_style.FONT_SIZE - 1)
    return fig, ax


def forest_rows(pairs, *, dataset=None, order=None) -> dict:
    """dataset -> the rows of :func:`plot_item_forest`: ``method, diff, low, high, significant, mde``, each
    difference written as model − control (the table's a − b, its sign turned where the control is a)."""
    table = pairs.table
    control = pairs.control
    out = {}
    for d in _datasets(table, dataset):
        block = table[table["dataset"] == d]
        flip = (block["method_a"] == control).to_numpy()
        sign = np.where(flip, -1.0, 1.0)
        frame = pd.DataFrame({
            "method": np.where(flip, block["method_b"], block["method_a"]),
            "diff": sign * block["mean_diff"].to_numpy(float),
            "low": np.where(flip, -block["ci_high"].to_numpy(float), block["ci_low"].to_numpy(float)),
            "high": np.where(flip, -block["ci_low"].to_numpy(float), block["ci_high"].to_numpy(float)),
            "significant": block["significant"].to_numpy(bool), "mde": block["mde"].to_numpy(float)})
        frame = frame.set_index("method", drop=False)
        out[d] = frame.loc[_ordered(list(frame.index), order, d)].reset_index(drop=True)
    return out


@_style.styled
def plot_item_forest(pairs, *, dataset=None, order=None, page: int = 1, width="column", ax=None):
    """Every model's paired difference from a control, with its interval; the separated ones marked.

    Parameters
    ----------
    pairs : PairedItems
        From :func:`mcda.paired_items` with ``control=`` (or ``Report.item_pairs(control=...)``).
    dataset, order, page, width, ax
        As in :func:`plot_item_intervals`.

    Returns
    -------
    fig, ax

    Notes
    -----
    A row is model − control on the items both have: the dot the mean difference, the bar its
    t interval (cluster-robust with clusters); filled in the accent colour when the adjusted
    paired test separates the pair, hollow grey otherwise, with small ticks at ± its minimum
    detectable difference (``mde``): the difference the test would have found at its power.
    """
    _common.require(pairs, ("table", "control", "test", "alpha"), what="PairedItems", maker="mcda.paired_items")
    if pairs.control is None:
        from mcda._core.validation import McdaArgumentError

        raise McdaArgumentError("the paired forest draws each model against a control; `pairs` compares every pair "
                                "(control=None): give mcda.paired_items(..., control=NAME)", argument="pairs")
    rows = forest_rows(pairs, dataset=dataset, order=order)
    pages = item_pages({d: len(r) for d, r in rows.items()})
    check_page(page, len(pages), "the models' pages")
    name, part, row = pages[page - 1]
    shown = rows[name].iloc[part]
    n = len(shown)
    fig, ax = _style.get_figure(ax, width, height=n * row + _FIXED)
    y = _row_axis(ax, shown["method"], row)
    row_pt = row * 72.0
    thick = max(min(0.4 * row_pt, 3.0), 1.0)
    sig = shown["significant"].to_numpy(bool)
    ax.axvline(0.0, color=_style.NEUTRAL, linewidth=0.6)
    for mask, colour, gid in ((~sig, _style.NEUTRAL, "difference"), (sig, _style.HIGHLIGHT, "difference_separated")):
        if mask.any():
            ax.hlines(y[mask], shown["low"].to_numpy(float)[mask], shown["high"].to_numpy(float)[mask], color=colour,
                      linewidth=thick, gid=gid)
            ax.plot(shown["diff"].to_numpy(float)[mask], y[mask], linestyle="none", marker="o", color=colour,
                    markerfacecolor=colour if gid.endswith("separated") else "white",
                    markersize=max(min(0.32 * row_pt, 3.2), 1.2), gid=gid + "_mean")
    open_rows = ~sig & np.isfinite(shown["mde"].to_numpy(float))
    if open_rows.any():
        mde = shown["mde"].to_numpy(float)[open_rows]
        ax.plot(np.concatenate([-mde, mde]), np.concatenate([y[open_rows], y[open_rows]]), linestyle="none",
                marker="|", color=_style.PALETTE[0], markersize=max(min(0.5 * row_pt, 5.0), 2.0), gid="mde")
    mde = rows[name]["mde"].where(~rows[name]["significant"].astype(bool))
    ax.set_xlim(*shared_limits(rows[name].assign(plus=mde, minus=-mde, zero=0.0), ["low", "high", "plus", "minus",
                                                                                  "zero"]))
    ax.set_xlabel(f"difference from {pairs.control} (model − control)")
    from matplotlib.lines import Line2D

    adjust = pairs.adjust or "unadjusted"
    handles = [Line2D([], [], color=_style.HIGHLIGHT, marker="o", linewidth=2, label=f"separated ({adjust})"),
               Line2D([], [], color=_style.NEUTRAL, marker="o", markerfacecolor="white", linewidth=2,
                      label="not separated"),
               Line2D([], [], color=_style.PALETTE[0], marker="|", linestyle="none", label="± min. detectable")]
    fig.legend(handles=handles, loc="outside lower center", ncols=3, frameon=False, fontsize=_style.FONT_SIZE - 2,
               handlelength=1.2, columnspacing=1.0)
    total = len(rows[name])
    first = next(i for i, p in enumerate(pages) if p[0] == name)
    n_pages = sum(1 for p in pages if p[0] == name)
    fig.suptitle(_title(f"Paired differences from {pairs.control} ({pairs.confidence_level:.0%} intervals)", name,
                        part, total, page - first, n_pages), x=0.02, ha="left", fontsize=_style.FONT_SIZE - 1)
    return fig, ax


def significance_matrix(board, dataset) -> tuple[list, np.ndarray]:
    """(models best first, k × k matrix): +1 where the row model is separated from the column model as the
    better, −1 as the worse, 0 not separated, NaN untested or on the diagonal; from the leaderboard's pairs."""
    order = [str(m) for m in board.table.loc[board.table["dataset"] == dataset, "method"]]
    index = {m: i for i, m in enumerate(order)}
    k = len(order)
    out = np.full((k, k), np.nan)
    table = board.pairs.table
    block = table[table["dataset"] == dataset]
    for r in block.itertuples(index=False):
        i, j = index[str(r.method_a)], index[str(r.method_b)]
        if not np.isfinite(r.p_raw):
            continue
        if not r.significant:
            out[i, j] = out[j, i] = 0.0
        else:
            a_wins = str(r.superior) == str(r.method_a)
            out[i, j], out[j, i] = (1.0, -1.0) if a_wins else (-1.0, 1.0)
    return order, out


#: Rows of one page of the significance matrix beyond NUMBERED_LABELS_FROM models (each row labelled).
MATRIX_ROWS = 50


def matrix_pages(n_models_per_dataset: dict) -> list[tuple[str, slice | None]]:
    """The pages of :func:`plot_item_matrix`: ``(dataset, rows)``; ``rows`` None draws the whole square
    matrix with names on both axes (fewer than :data:`~mcda.present.plots._layout.NUMBERED_LABELS_FROM`
    models), else a slice of at most :data:`MATRIX_ROWS` rows against every column, each row labelled
    "name i" and the columns by number i.

    Examples
    --------
    >>> matrix_pages({"qa": 8})
    [('qa', None)]
    >>> [(d, p.stop - p.start) for d, p in matrix_pages({"qa": 200})]
    [('qa', 50), ('qa', 50), ('qa', 50), ('qa', 50)]
    """
    out = []
    for dataset, k in n_models_per_dataset.items():
        if k < _layout.NUMBERED_LABELS_FROM:
            out.append((dataset, None))
        else:
            out += [(dataset, part) for part in _layout.page_slices(k, MATRIX_ROWS)]
    return out


def column_ticks(k: int) -> list[int]:
    """The column numbers labelled on a paged matrix (1-based): every one up to 25 models, else 1 and the
    multiples of a round step leaving at most 25 labels.

    >>> column_ticks(8)[-1], column_ticks(200)[:4]
    (8, [1, 10, 20, 30])
    """
    if k <= 25:
        return list(range(1, k + 1))
    step = next(s for s in (2, 5, 10, 20, 50, 100, 200, 500, 1000) if k / s <= 25)
    if step == 2:  # 1, 3, 5, …: a 2 beside the 1 would crowd it
        return list(range(1, k + 1, 2))
    return [1] + list(range(step, k + 1, step))


_MATRIX_COLOURS = {"better": _style.PALETTE[0], "worse": _style.HIGHLIGHT, "open": _style.LIGHT}


@_style.styled
def plot_item_matrix(board, *, dataset=None, page: int = 1, width=None, ax=None):
    """Which pairs of models the paired tests over items separate: a k × k matrix, models best first.

    Parameters
    ----------
    board : ItemLeaderboard
        From :func:`mcda.item_leaderboard` (or ``Report.item_leaderboard()``): its order and its pairs.
    dataset : str, optional
        One dataset; None: the pages of every dataset in turn.
    page : int
        Which page (:func:`matrix_pages`): one per dataset up to 12 models; beyond, pages of
        :data:`MATRIX_ROWS` rows against every column.
    width : {"column", "page"} or float, optional
        Default: a column up to 12 models, else the page.
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax

    Notes
    -----
    A cell is blue when the row model is separated from the column model as the better,
    vermillion as the worse, grey when the adjusted test does not separate them, white when
    the pair was not tested (and on the diagonal). Up to 12 models names label both axes;
    beyond, every row is labelled "name i" and columns carry the numbers i, so every name is
    printed once per page and no label is dropped.
    """
    _common.require(board, ("table", "pairs"), what="ItemLeaderboard", maker="mcda.item_leaderboard")
    names = _datasets(board.table, dataset)
    sizes = {d: int((board.table["dataset"] == d).sum()) for d in names}
    pages = matrix_pages(sizes)
    check_page(page, len(pages), "the matrix's pages")
    name, part = pages[page - 1]
    order, matrix = significance_matrix(board, name)
    k = len(order)
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch

    cmap = ListedColormap([_MATRIX_COLOURS["worse"], _MATRIX_COLOURS["open"],
                           _MATRIX_COLOURS["better"]]).with_extremes(bad="white")
    norm = BoundaryNorm([-1.5, -0.5, 0.5, 1.5], cmap.N)
    if width is None:
        width = "column" if part is None else "page"
    if part is None:
        w = _style.figure_size(width)[0]
        layout = _layout.matrix_layout(k, order, width=w, cell_text="", extra_width=0.3)
        fig, ax = _style.get_figure(ax, width, height=layout["height"] + 0.4)
        image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, norm=norm, interpolation="nearest")
        _common.label_matrix(ax, layout, key_title="models")
        where = ""
    else:
        rows = np.arange(part.start, part.stop)
        row = 0.15
        fig, ax = _style.get_figure(ax, width, height=len(rows) * row + 1.3)
        image = ax.imshow(np.ma.masked_invalid(matrix[part]), cmap=cmap, norm=norm, interpolation="nearest",
                          aspect="auto", extent=(0.5, k + 0.5, part.stop + 0.5, part.start + 0.5))
        digits = len(str(k))
        ax.set_yticks(rows + 1, [f"{order[i]} {i + 1:>{digits}}" for i in rows], fontsize=_layout.ROW_FONT - 1)
        ax.set_xticks(column_ticks(k), [str(c) for c in column_ticks(k)], fontsize=_layout.ROW_FONT - 1)
        ax.xaxis.tick_top()
        ax.tick_params(length=0)
        ax.set_xlabel("column: model number i (rows are labelled \"name i\")", fontsize=_style.FONT_SIZE - 2)
        where = f"; models {part.start + 1}–{part.stop} of {k}"
    image.set_gid("significance_matrix")
    pairs = board.pairs
    adjust = pairs.adjust or "unadjusted"
    handles = [Patch(color=_MATRIX_COLOURS["better"], label="row better"),
               Patch(color=_MATRIX_COLOURS["worse"], label="row worse"),
               Patch(color=_MATRIX_COLOURS["open"], label="not separated")]
    fig.legend(handles=handles, loc="outside lower center", ncols=3, frameon=False, fontsize=_style.FONT_SIZE - 2,
               handlelength=1.0)
    n_pages = sum(1 for p in pages if p[0] == name)
    index = page - next(i for i, p in enumerate(pages) if p[0] == name)
    fig.suptitle(f"Pairs separated over items: {name}{where}\n({pairs.test}, {adjust}, alpha {pairs.alpha:g})"
                 + (f"; page {index} of {n_pages}: page=" if n_pages > 1 else ""),
                 x=0.02, ha="left", fontsize=_style.FONT_SIZE - 1)
    return fig, ax
