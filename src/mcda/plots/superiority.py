"""Pairwise superiority as a matrix, and the pairwise-majority relation as a graph."""

from __future__ import annotations

import math

import numpy as np

from . import _common, _style

__all__ = ["superiority_matrix", "circle_layout", "relation_edges", "plot_superiority", "plot_relation"]

_REPORT_FIELDS = ("probability_superior", "superior_pairs", "order", "alpha", "adjust", "rope")
_RELATION_FIELDS = ("methods", "relation", "tied_pairs", "circular_triads", "n_circular_triads",
                    "max_circular_triads", "coefficient_of_consistence", "scores", "order")


# --------------------------------------------------------------------------- superiority matrix

def superiority_matrix(report) -> tuple[list, np.ndarray, np.ndarray]:
    """(order, P(row outperforms column), row significantly better than column), in standing order.

    The diagonal is NaN. ``significant[i, j]`` is True when ``(order[i], order[j])`` is one of
    ``report.superior_pairs`` (the sign test, adjusted as the report says).
    """
    order = list(report.order)
    probs = report.probability_superior.loc[order, order].to_numpy(dtype=float).copy()
    np.fill_diagonal(probs, np.nan)
    position = {m: i for i, m in enumerate(order)}
    significant = np.zeros(probs.shape, dtype=bool)
    for better, worse in report.superior_pairs:
        significant[position[better], position[worse]] = True
    return order, probs, significant


def plot_superiority(report, *, annotate: bool | None = None, width="column", ax=None):
    """The probability-of-superiority matrix, methods in standing order (best first).

    Parameters
    ----------
    report : SuperiorityReport
        From :func:`mcda.pairwise_superiority`.
    annotate : bool, optional
        Write each probability in its cell (default: up to 10 methods in a column, 16 on a
        page). A star marks a
        pair whose row method is significantly better (``report.superior_pairs``).
    width : {"column", "page"} or float
        Figure width (square-ish matrix). Ignored with ``ax``.
    ax : matplotlib Axes, optional

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
    order, probs, significant = superiority_matrix(report)
    k = len(order)
    annotate = k <= (16 if width == "page" else 10) if annotate is None else bool(annotate)
    with _style.style():
        import matplotlib
        from matplotlib.colors import Normalize

        size = _style.figure_size(width)
        fig, ax = _style.get_figure(ax, width, height=min(size[0] * 0.9, 1.2 + 0.24 * k) + 0.4)
        cmap = matplotlib.colormaps[_style.SEQUENTIAL_CMAP].with_extremes(bad="white")
        norm = Normalize(0.0, 1.0)
        image = ax.imshow(np.ma.masked_invalid(probs), cmap=cmap, norm=norm, interpolation="nearest")
        image.set_gid("superiority_matrix")
        ax.set_xticks(range(k), order, rotation=45, ha="left", rotation_mode="anchor")
        ax.set_yticks(range(k), order)
        ax.xaxis.tick_top()
        _common.matrix_frame(ax)
        if annotate:
            for i in range(k):
                for j in range(k):
                    if i == j or not np.isfinite(probs[i, j]):
                        continue
                    text = f"{probs[i, j]:.2f}" + ("*" if significant[i, j] else "")
                    ax.text(j, i, text, ha="center", va="center", fontsize=_style.FONT_SIZE - 2,
                            color=_style.text_color_on(cmap(norm(probs[i, j]))),
                            fontweight="bold" if significant[i, j] else "normal", gid="cell_value")
        else:
            rows, cols = np.nonzero(significant)
            ax.plot(cols, rows, linestyle="none", marker="*", markersize=3, color=_style.HIGHLIGHT,
                    gid="superior_marker")
        bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.03)
        bar.set_label("P(row outperforms column)")
        bar.ax.tick_params(labelsize=_style.FONT_SIZE - 2)
        adjust = f", {report.adjust}-adjusted" if report.adjust else ", unadjusted"
        ax.set_xlabel(f"* sign test p ≤ {report.alpha:g}{adjust}; rope {report.rope:g}", fontsize=_style.FONT_SIZE - 1)
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


def plot_relation(result, *, width="column", ax=None):
    """The pairwise-majority relation as a graph on a circle, circular triads highlighted.

    Parameters
    ----------
    result : TransitivityResult
        From :func:`mcda.pairwise_transitivity`.
    width : {"column", "page"} or float
        Figure width (the figure is square). Ignored with ``ax``.
    ax : matplotlib Axes, optional

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
    order = relation_order(result)
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
        for m in order:
            x, y = pos[m]
            ha = "center" if abs(x) < 0.2 else ("left" if x > 0 else "right")
            va = "center" if abs(y) >= 0.2 and abs(x) >= 0.2 else ("bottom" if y > 0 else "top")
            if abs(x) >= 0.2:
                va = "center"
            on_cycle = any(m in t for t in result.circular_triads)
            ax.text(1.14 * x, 1.14 * y, str(m), ha=ha, va=va, fontsize=_style.FONT_SIZE - 1,
                    color=_style.HIGHLIGHT if on_cycle else "black", gid="node_label")
        zeta = result.coefficient_of_consistence
        zeta = "ζ undefined (tied pairs)" if zeta is None else f"ζ = {zeta:.3f}"
        triads = "circular triad" if result.n_circular_triads == 1 else "circular triads"
        ax.set_title(f"{result.n_circular_triads} {triads} of at most {result.max_circular_triads}; {zeta}",
                     fontsize=_style.FONT_SIZE)
        ax.set_xlim(-1.6, 1.6)
        ax.set_ylim(-1.3, 1.3)
    return fig, ax
