"""Pairwise superiority as a matrix, and the pairwise-majority relation as a graph."""

from __future__ import annotations

import math

import numpy as np

from mcda._core.validation import check_choice
from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style

__all__ = ["superiority_matrix", "circle_layout", "relation_edges", "plot_superiority", "plot_relation"]

_REPORT_FIELDS = ("probability_superior", "superior_pairs", "order", "alpha", "adjust", "rope")
_RELATION_FIELDS = ("methods", "relation", "tied_pairs", "circular_triads", "n_circular_triads",
                    "max_circular_triads", "coefficient_of_consistence", "scores", "order")


# --------------------------------------------------------------------------- superiority matrix

def superiority_matrix(report, order=None) -> tuple[list, np.ndarray, np.ndarray]:
    """(order, P(row outperforms column), row significantly better than column), in standing order
    (or in ``order``, see :func:`mcda.present.plots._common.method_order`).

    The diagonal is NaN. ``significant[i, j]`` is True when ``(order[i], order[j])`` is one of
    ``report.superior_pairs`` (the sign test, adjusted as the report says).
    """
    order = _common.method_order(report.order, order)
    probs = report.probability_superior.loc[order, order].to_numpy(dtype=float).copy()
    np.fill_diagonal(probs, np.nan)
    position = {m: i for i, m in enumerate(order)}
    significant = np.zeros(probs.shape, dtype=bool)
    for better, worse in report.superior_pairs:
        significant[position[better], position[worse]] = True
    return order, probs, significant


def plot_superiority(report, *, annotate: bool | None = None, width="column", ax=None, order=None):
    """The probability-of-superiority matrix, methods in standing order (best first).

    Parameters
    ----------
    report : SuperiorityReport
        From :func:`mcda.pairwise_superiority`.
    annotate : bool, optional
        Write each probability in its cell (default: when "0.00*" fits a cell at 5 pt or more,
        the rule of :func:`mcda.present.plots._layout.matrix_layout`: about 10 methods in a column, 20
        on a page). A star marks a pair whose row method is significantly better
        (``report.superior_pairs``); without cell values a dot marks it and the colour bar gives
        the probability.
    width : {"column", "page"} or float
        Figure width (square-ish matrix). Ignored with ``ax``.
    ax : matplotlib Axes, optional
    order : sequence of str, optional
        The methods' order (rows, columns and the key's numbers) instead of the standing order:
        one order for every figure of a run (``mcda compare`` passes the across-dataset ranking).

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Notes
    -----
    Cell (row a, column b) is the share of the datasets a and b share on which a outperforms b
    by more than the rope; the rest of the pair's datasets are b's wins and the equivalences,
    so a cell and its mirror need not add to 1. Stars come from the report's sign tests; the
    plot computes nothing.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_superiority
    >>> rep = mcda.pairwise_superiority(mcda.datasets.load("demsar2006"), rope=0.0)
    >>> fig, ax = plot_superiority(rep)
    >>> [t.get_text() for t in ax.get_yticklabels()] == rep.order
    True
    """
    _common.require(report, _REPORT_FIELDS, what="SuperiorityReport", maker="mcda.pairwise_superiority")
    order, probs, significant = superiority_matrix(report, order)
    k = len(order)
    w = _style.figure_size(width)[0]
    layout = _layout.matrix_layout(k, order, width=w, cell_text="0.00*")
    annotate = layout["annotate"] if annotate is None else bool(annotate)
    with _style.style():
        fig, ax = _style.get_figure(ax, width, height=layout["height"])
        image, cmap, norm = _common.share_matrix(ax, probs, layout, gid="superiority_matrix")
        if annotate:
            for i in range(k):
                for j in range(k):
                    if i == j or not np.isfinite(probs[i, j]):
                        continue
                    text = f"{probs[i, j]:.2f}" + ("*" if significant[i, j] else "")
                    ax.text(j, i, text, ha="center", va="center", fontsize=max(layout["cell_font"], _style.FONT_SIZE - 2)
                            if layout["annotate"] else _style.FONT_SIZE - 2,
                            color=_style.text_color_on(cmap(norm(probs[i, j]))),
                            fontweight="bold" if significant[i, j] else "normal", gid="cell_value")
            mark = "*"
        else:
            rows, cols = np.nonzero(significant)
            size = max(min(layout["cell"] * 0.45, 4.0), 1.2)
            ax.plot(cols, rows, linestyle="none", marker="o", markersize=size, markeredgewidth=0,
                    color=_style.HIGHLIGHT, gid="superior_marker")
            mark = "dot"
        _common.share_bar(fig, ax, image, k, "P(row outperforms column)")
        adjust = f", {report.adjust}-adjusted" if report.adjust else ", unadjusted"
        ax.set_xlabel(f"{mark}: row significantly better (sign test p ≤ {report.alpha:g}{adjust}); "
                      f"rope {report.rope:g}", fontsize=_style.FONT_SIZE - 1, wrap=True)
        if annotate:
            _common.fit_cell_texts(fig, [ax], min_font=_layout.MIN_FONT)
    return fig, ax


# --------------------------------------------------------------------------- relation graph

def circle_layout(methods: list) -> dict:
    """Node positions on the unit circle: the first method at the top, the rest clockwise.

    Examples
    --------
    >>> pos = circle_layout(["a", "b", "c", "d"])
    >>> [tuple(round(v, 6) + 0.0 for v in pos[m]) for m in "abcd"]
    [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)]
    """
    k = len(methods)
    return {m: (math.sin(2 * math.pi * i / k), math.cos(2 * math.pi * i / k)) for i, m in enumerate(methods)}


def relation_order(result) -> list:
    """Nodes in the relation's own order when it has one, else by number of methods beaten."""
    if result.order is not None:
        return list(result.order)
    scores = result.scores.reindex(result.methods)
    position = {m: i for i, m in enumerate(result.methods)}
    return sorted(result.methods, key=lambda m: (-scores[m], position[m]))


def relation_edges(result) -> list[tuple[str, str, str]]:
    """Every edge to draw: ``(a, b, kind)`` with kind "cycle" (a → b lies on a circular triad),
    "edge" (a → b, on no cycle) or "tie" (no majority; drawn undirected).

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> rel = pd.DataFrame([[0, 1, 0], [0, 0, 1], [1, 0, 0]], index=list("abc"), columns=list("abc")).astype(bool)
    >>> r = SimpleNamespace(methods=list("abc"), relation=rel, tied_pairs=[], circular_triads=[("a", "b", "c")])
    >>> relation_edges(r)
    [('a', 'b', 'cycle'), ('b', 'c', 'cycle'), ('c', 'a', 'cycle')]
    """
    on_cycle = set()
    for a, b, c in result.circular_triads:
        on_cycle |= {(a, b), (b, c), (c, a)}
    edges = []
    rel = result.relation
    for a in result.methods:
        for b in result.methods:
            if a != b and bool(rel.loc[a, b]):
                edges.append((a, b, "cycle" if (a, b) in on_cycle else "edge"))
    edges += [(a, b, "tie") for a, b in result.tied_pairs]
    return edges


def plot_relation(result, *, layout: str | None = None, width="column", ax=None, order=None):
    """The pairwise-majority relation: a graph on a circle, or a relation matrix; circular triads highlighted.

    Parameters
    ----------
    result : TransitivityResult
        From :func:`mcda.pairwise_transitivity`.
    layout : {"graph", "matrix"}, optional
        Default: a graph up to 7 methods, a matrix beyond
        (:func:`mcda.present.plots._layout.relation_layout`: the 28 arrows of 8 methods already cross
        at every node). In the matrix, cell (row a, column b) is dark when a beats b, in the
        highlight colour when that arrow lies on a circular triad, grey for a tie, white when
        b beats a.
    width : {"column", "page"} or float
        Figure width (the figure is square). Ignored with ``ax``.
    ax : matplotlib Axes, optional
    order : sequence of str, optional
        The methods' order (nodes clockwise from the top, or the matrix's rows and columns)
        instead of the relation's: one order for every figure of a run.

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Notes
    -----
    An arrow a → b means a outperforms b on more shared datasets than b outperforms a. Arrows
    on a circular triad (a → b → c → a) are drawn in the highlight colour; dashed lines join
    tied pairs. Nodes run clockwise from the top in the relation's order when it has one, else
    by the number of methods each beats. The title gives Kendall's count of circular triads,
    its maximum, and the coefficient of consistence ζ.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_relation
    >>> rep = mcda.pairwise_superiority(mcda.datasets.load("demsar2006"), rope=0.0)
    >>> fig, ax = plot_relation(mcda.pairwise_transitivity(rep))
    >>> sorted(t.get_text() for t in ax.texts)
    ['C4.5', 'C4.5+cf', 'C4.5+m', 'C4.5+m+cf']
    """
    _common.require(result, _RELATION_FIELDS, what="TransitivityResult", maker="mcda.pairwise_transitivity")
    order = _common.method_order(relation_order(result), order)
    layout = _layout.relation_layout(len(order)) if layout is None else check_choice("layout", layout,
                                                                                     ("graph", "matrix"))
    if layout == "matrix":
        return _relation_matrix(result, order, width=width, ax=ax)
    pos = circle_layout(order)
    edges = relation_edges(result)
    with _style.style():
        from matplotlib.patches import FancyArrowPatch

        w = _style.figure_size(width)[0]
        fig, ax = _style.get_figure(ax, width, height=w if width != "page" else w * 0.6)
        ax.set_aspect("equal")
        ax.set_axis_off()
        crowded = len(order) > 8          # many edges: quieter ordinary arrows so the cycles stand out
        plain, plain_width, mutation = ("#BDBDBD", 0.5, 5) if crowded else ("#8C8C8C", 0.7, 7)
        for a, b, kind in edges:
            (x0, y0), (x1, y1) = pos[a], pos[b]
            if kind == "tie":
                ax.plot([x0, x1], [y0, y1], linestyle=(0, (3, 2)), color=_style.NEUTRAL, lw=0.7, gid="tie")
                continue
            hot = kind == "cycle"
            arrow = FancyArrowPatch((x0, y0), (x1, y1), arrowstyle="-|>", mutation_scale=7 if hot else mutation,
                                    shrinkA=6, shrinkB=6, color=_style.HIGHLIGHT if hot else plain,
                                    lw=1.3 if hot else plain_width,
                                    zorder=3 if hot else 2, gid="cycle_edge" if hot else "edge")
            ax.add_patch(arrow)
        xs, ys = zip(*(pos[m] for m in order))
        ax.plot(xs, ys, linestyle="none", marker="o", markersize=7, markerfacecolor="white",
                markeredgecolor="black", markeredgewidth=0.8, zorder=4, gid="nodes")
        # long names wrap (14 characters a line in a column, 22 on a page) and the circle
        # shrinks to leave their width inside the axes
        wrap = 14 if w < 5 else 22
        labels = {m: _layout.wrap_label(str(m), wrap) for m in order}
        side = max(max(len(line) for line in labels[m].split("\n")) for m in order) * _layout.char_width(
            _style.FONT_SIZE - 1)
        span = 0.95 * w * 72.0
        reach = 1.2 / max(1.0 - 2.0 * side / span, 0.3)
        for m in order:
            x, y = pos[m]
            ha = "center" if abs(x) < 0.2 else ("left" if x > 0 else "right")
            va = "center" if abs(y) >= 0.2 and abs(x) >= 0.2 else ("bottom" if y > 0 else "top")
            if abs(x) >= 0.2:
                va = "center"
            on_cycle = any(m in t for t in result.circular_triads)
            ax.text(1.14 * x, 1.14 * y, labels[m], ha=ha, va=va, fontsize=_style.FONT_SIZE - 1,
                    color=_style.HIGHLIGHT if on_cycle else "black", gid="node_label", linespacing=1.0)
        zeta = result.coefficient_of_consistence
        zeta = "ζ undefined (tied pairs)" if zeta is None else f"ζ = {zeta:.3f}"
        triads = "circular triad" if result.n_circular_triads == 1 else "circular triads"
        ax.set_title(f"{result.n_circular_triads} {triads} of at most {result.max_circular_triads}; {zeta}",
                     fontsize=_style.FONT_SIZE)
        ax.set_xlim(-reach, reach)
        lines = max(labels[m].count("\n") + 1 for m in order)
        ax.set_ylim(-1.3 - 0.12 * lines, 1.3 + 0.12 * lines)
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], color="#8C8C8C", lw=0.8, marker=">", markersize=3, label="a → b: a beats b"),
                   Line2D([], [], color=_style.HIGHLIGHT, lw=1.3, marker=">", markersize=3, label="on a circular triad")]
        if result.tied_pairs:
            handles.append(Line2D([], [], color=_style.NEUTRAL, lw=0.7, linestyle=(0, (3, 2)), label="tie"))
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncols=len(handles),
                  fontsize=_style.FONT_SIZE - 2, handlelength=1.6, columnspacing=1.0, borderaxespad=0.0)
    return fig, ax


def _relation_cells(result, order: list) -> np.ndarray:
    """The relation matrix as drawn: 1 row beats column, 2 on a circular triad, 0.5 tie, 0 otherwise (NaN diagonal).

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> rel = pd.DataFrame([[0, 1], [0, 0]], index=list("ab"), columns=list("ab")).astype(bool)
    >>> r = SimpleNamespace(methods=list("ab"), relation=rel, tied_pairs=[], circular_triads=[])
    >>> _relation_cells(r, ["a", "b"]).tolist()
    [[nan, 1.0], [0.0, nan]]
    """
    position = {m: i for i, m in enumerate(order)}
    cells = np.zeros((len(order), len(order)))
    for a, b, kind in relation_edges(result):
        i, j = position[a], position[b]
        if kind == "tie":
            cells[i, j] = cells[j, i] = 0.5
        else:
            cells[i, j] = 2.0 if kind == "cycle" else 1.0
    np.fill_diagonal(cells, np.nan)
    return cells


def _relation_matrix(result, order, *, width, ax):
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch

    k = len(order)
    cells = _relation_cells(result, order)
    w = _style.figure_size(width)[0]
    layout = _layout.matrix_layout(k, order, width=w, extra_width=0.3, max_height=_layout.PAGE_HEIGHT - 0.3)
    with _style.style():
        fig, ax = _style.get_figure(ax, width, height=layout["height"] + 0.3)
        colours = ["white", _style.LIGHT, _style.PALETTE[0], _style.HIGHLIGHT]
        cmap = ListedColormap(colours).with_extremes(bad="white")
        norm = BoundaryNorm([-0.25, 0.25, 0.75, 1.5, 2.5], cmap.N)
        image = ax.imshow(np.ma.masked_invalid(cells), cmap=cmap, norm=norm, interpolation="nearest")
        image.set_gid("relation_matrix")
        for i in range(k):                       # a faint grid, so white cells read as cells
            ax.axhline(i + 0.5, color=_style.LIGHT, lw=0.3)
            ax.axvline(i + 0.5, color=_style.LIGHT, lw=0.3)
        _common.label_matrix(ax, layout)
        handles = [Patch(facecolor=_style.PALETTE[0], label="row beats column"),
                   Patch(facecolor=_style.HIGHLIGHT, label="… on a circular triad")]
        if result.tied_pairs:
            handles.append(Patch(facecolor=_style.LIGHT, label="tie"))
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.0, 0.0), ncols=len(handles),
                  fontsize=_style.FONT_SIZE - 2, handlelength=1.0, columnspacing=1.0, borderaxespad=0.3)
        zeta = result.coefficient_of_consistence
        zeta = "ζ undefined (tied pairs)" if zeta is None else f"ζ = {zeta:.3f}"
        triads = "circular triad" if result.n_circular_triads == 1 else "circular triads"
        # two lines: at a column's width one line of six-digit counts runs past the figure's edge
        ax.set_title(f"{result.n_circular_triads:,} {triads} of at most {result.max_circular_triads:,};\n{zeta}",
                     fontsize=_style.FONT_SIZE, loc="left")
    return fig, ax
