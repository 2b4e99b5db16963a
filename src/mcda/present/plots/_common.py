"""Small helpers the plot modules share: input checks, metric selection, method styles, grids."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda.data.checks import select_metric
from mcda.present.plots import _style

#: Marker shapes, paired with the palette so that more than eight methods stay distinguishable
#: (colour and shape both change) and greyscale prints keep them apart.
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")


def require(result, fields: Sequence[str], *, what: str, maker: str):
    """Raise a TypeError naming ``result`` unless it has every attribute in ``fields``."""
    missing = [f for f in fields if not hasattr(result, f)]
    if missing:
        raise McdaArgumentTypeError(f"`result` must be a {what} (from {maker}); got {type(result).__name__} "
                        f"(missing {', '.join(missing)}).", argument="result")
    return result


def require_or(result, fields: Sequence[str], message: str):
    """Raise a TypeError with ``message`` unless ``result`` has every attribute in ``fields``."""
    if not all(hasattr(result, f) for f in fields):
        raise McdaArgumentTypeError(message, argument="result")
    return result


def one_metric(table: pd.DataFrame, metric, *, name: str = "metric") -> tuple[pd.DataFrame, str | None]:
    """The rows of one metric, chosen by :func:`mcda.data.checks.select_metric` (None when there is only one)."""
    if "metric" not in table.columns:
        return table, select_metric(metric, None, argument=name)
    label = select_metric(metric, pd.unique(table["metric"].astype(str)), argument=name)
    return table[table["metric"].astype(str) == label], label


def subset(name: str, chosen, available: Sequence) -> list:
    """``chosen`` (a label or a sequence of labels, in the caller's order) checked against ``available``."""
    available = list(available)
    if chosen is None:
        return available
    chosen = [chosen] if isinstance(chosen, str) else list(chosen)
    unknown = [c for c in chosen if c not in available]
    if unknown or not chosen:
        raise McdaArgumentError(f"`{name}` must be labels among {available}; got {chosen}",
                                argument=name, value=chosen, allowed=available)
    return chosen


def method_styles(methods: Sequence) -> dict:
    """Method -> (colour, marker): palette colours in order, markers changing with them."""
    n = len(_style.PALETTE)
    return {m: (_style.PALETTE[i % n], MARKERS[i % len(MARKERS)]) for i, m in enumerate(methods)}


def grid_shape(n_panels: int, *, max_cols: int = 3) -> tuple[int, int]:
    """(rows, cols) of a panel grid: as few rows as ``max_cols`` allows, the panels spread evenly.

    >>> grid_shape(12), grid_shape(2), grid_shape(6, max_cols=4)
    ((4, 3), (1, 2), (2, 3))
    """
    rows = math.ceil(n_panels / max_cols)
    return rows, math.ceil(n_panels / rows)


def panel_grid(ax, n_panels: int, width, *, max_cols: int, height, **subplot_kw):
    """One Axes per dataset: a new grid of ``n_panels`` panels, or the ``n_panels`` Axes the caller gave.

    A new grid has :func:`grid_shape` rows and columns, ``height(rows, cols)`` inches, its
    unused cells removed; other keywords go to the figure's subplots (e.g. ``sharex=True``).
    Returns ``(fig, axes, cols)``, ``cols`` the grid's number of columns (1 for the caller's Axes).
    """
    if ax is None:
        rows, cols = grid_shape(n_panels, max_cols=max_cols)
        fig, grid = _style.new_figure(width, height=height(rows, cols), nrows=rows, ncols=cols, squeeze=False,
                                      **subplot_kw)
        grid = np.asarray(grid).ravel()
        for extra in grid[n_panels:]:
            extra.remove()
        return fig, grid[:n_panels], cols
    axes = np.atleast_1d(np.asarray(ax, dtype=object)).ravel()
    if len(axes) != n_panels:
        raise McdaArgumentError(f"`ax` must hold one Axes per dataset ({n_panels}); got {len(axes)}", argument="ax")
    return axes[0].figure, axes, 1


def matrix_frame(ax, **tick_params) -> None:
    """A matrix plot's frame: no tick marks and no spines, so the cells stand alone."""
    ax.tick_params(length=0, **tick_params)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)


def axes_pair(ax, width, *, height, width_ratios):
    """Two side-by-side axes: new (``ax`` None) or the two the caller gave."""
    if ax is None:
        fig, axes = _style.new_figure(width, height=height, ncols=2, gridspec_kw={"width_ratios": width_ratios})
        return fig, list(axes)
    axes = list(ax) if not hasattr(ax, "figure") else None
    if axes is None or len(axes) != 2:
        raise McdaArgumentTypeError("`ax` must be None or a pair of matplotlib Axes for this figure's two panels; "
                        f"got {type(ax).__name__}.", argument="ax")
    for a in axes:
        _style.get_figure(a)
    return axes[0].figure, axes


def annotate_cells(ax, values, *, cmap, norm, fmt, fontsize) -> None:
    """Write each finite value of a 2-D array in its cell, black or white for contrast."""
    rows, cols = values.shape
    for i in range(rows):
        for j in range(cols):
            v = values[i, j]
            if not np.isfinite(v):
                continue
            colour = _style.text_color_on(cmap(norm(v)))
            ax.text(j, i, fmt(v), ha="center", va="center", fontsize=fontsize, color=colour, gid="cell_value")


def label_matrix(ax, layout: dict, *, key_title: str = "methods") -> None:
    """Tick labels of a k × k matrix as :func:`mcda.present.plots._layout.matrix_layout` decided.

    Columns on top (names rotated 90°, or numbers), rows at the left; every ``tick_step``-th
    row and column when rows are denser than the smallest font; with ``key``, a number → name
    key under the figure (a legend without handles, so the layout engine makes room for it).
    """
    k = len(layout["row_labels"])
    step = layout["tick_step"]
    shown = [i for i in range(k) if i % step == 0]
    font = layout["tick_font"]
    ax.set_xticks(shown, [layout["col_labels"][i] for i in shown], rotation=0 if layout["numbered"] else 90,
                  fontsize=font)
    ax.set_yticks(shown, [layout["row_labels"][i] for i in shown], fontsize=font)
    ax.xaxis.tick_top()
    matrix_frame(ax)
    if layout["key"]:
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], linestyle="none") for _ in range(k)]
        ax.figure.legend(handles, layout["key_labels"], loc="outside lower center", ncols=layout["key_cols"],
                         fontsize=layout["key_font"], handlelength=0, handletextpad=0, columnspacing=1.2,
                         labelspacing=0.15, borderaxespad=0.2, title=key_title,
                         title_fontsize=layout["key_font"])


def share_matrix(ax, values, layout: dict, *, gid: str):
    """Draw a k × k matrix of shares in [0, 1] (white where NaN), labelled as ``layout`` says: (image, cmap, norm).

    The one look of mcda's pair matrices (superiority, replicability); the caller writes the cells
    and adds :func:`share_bar`.
    """
    import matplotlib
    from matplotlib.colors import Normalize

    cmap = matplotlib.colormaps[_style.SEQUENTIAL_CMAP].with_extremes(bad="white")
    norm = Normalize(0.0, 1.0)
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, interpolation="nearest")
    image.set_gid(gid)
    label_matrix(ax, layout)
    return image, cmap, norm


def share_bar(fig, ax, image, k: int, label: str):
    """The colour bar of a :func:`share_matrix` of ``k`` methods, as tall as the matrix allows."""
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.03, shrink=min(1.0, 0.5 + 0.05 * k))
    bar.set_label(label, fontsize=_style.FONT_SIZE - 1)
    bar.ax.tick_params(labelsize=_style.FONT_SIZE - 2)
    return bar


def fit_cell_texts(fig, axes, *, min_font: float, gid: str = "cell_value") -> None:
    """Shrink the texts ``gid`` of each axes so the widest fits 85 % of a cell; drop them below ``min_font``.

    Cells are unit squares in data coordinates; their size in points is measured after the
    layout engine placed the axes (the colour bars and labels took their share).
    """
    texts = [t for a in axes for t in a.texts if t.get_gid() == gid]
    if not texts:
        return
    fig.draw_without_rendering()  # the layout engine places the axes; extents measured, nothing rasterised
    renderer = fig.canvas.get_renderer()
    scale = 72.0 / fig.dpi
    for a in axes:
        mine = [t for t in a.texts if t.get_gid() == gid]
        if not mine:
            continue
        (x0, y0), (x1, y1) = a.transData.transform([(0.0, 0.0), (1.0, 1.0)])
        cell_w, cell_h = abs(x1 - x0) * scale, abs(y1 - y0) * scale
        for _ in range(3):            # extents are whole pixels: shrink again until they fit
            size = mine[0].get_fontsize()
            widest = max(t.get_window_extent(renderer).width for t in mine) * scale
            tallest = max(t.get_window_extent(renderer).height for t in mine) * scale
            factor = min(1.0, 0.85 * cell_w / max(widest, 1e-9), 0.9 * cell_h / max(tallest, 1e-9))
            if factor >= 1.0:
                break
            if size * factor < min_font:
                for t in mine:
                    t.remove()
                break
            for t in mine:
                t.set_fontsize(size * factor)


def key_legend(fig, labels, key: dict, *, title: str = "methods"):
    """A number → name key under ``fig`` (a legend without handles), as :func:`mcda.present.plots._layout.name_key` sized it."""
    from matplotlib.lines import Line2D

    return fig.legend([Line2D([], [], linestyle="none") for _ in labels], list(labels), loc="outside lower center",
                      ncols=key["cols"], fontsize=key["font"], handlelength=0, handletextpad=0, columnspacing=1.2,
                      labelspacing=0.15, borderaxespad=0.2, title=title, title_fontsize=key["font"])


def method_order(own, order=None) -> list:
    """The figure's methods ``own`` (in the figure's own order) in ``order`` instead, when given.

    ``order`` is the one order of a run (``mcda compare`` passes the across-dataset ranking to
    every figure, so that each numbers and sorts the methods alike): methods of ``order`` the
    figure does not show are skipped; a method the figure shows and ``order`` lacks is refused
    (it would have no place in the common key).

    Examples
    --------
    >>> method_order(["b", "a", "c"]), method_order(["b", "a", "c"], ["a", "x", "c", "b"])
    (['b', 'a', 'c'], ['a', 'c', 'b'])
    """
    if order is None:
        return list(own)
    if isinstance(order, (str, bytes)):
        raise McdaArgumentError(f"`order` must be a sequence of method names; got {order!r}", argument="order",
                                value=order)
    by_name = {str(m): m for m in own}
    wanted = list(dict.fromkeys(str(m) for m in order))
    lacking = [m for m in by_name if m not in set(wanted)]
    if lacking:
        from mcda._core.validation import shown

        raise McdaArgumentError(f"`order` must name every method the figure shows; it lacks {shown(lacking)}",
                                argument="order", value=list(order))
    return [by_name[m] for m in wanted if m in by_name]
