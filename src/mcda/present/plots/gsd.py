"""The GSD relation as a layered graph: the GSD-front on top, each dominated method below its dominators."""

from __future__ import annotations

import numpy as np

from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style

__all__ = ["gsd_levels", "gsd_edges", "gsd_positions", "label_heights", "plot_gsd_front"]

_FIELDS = ("methods", "front", "dominates", "dominated_by", "tested", "front_pvalues", "alpha", "n_datasets")


def gsd_levels(result) -> dict:
    """Method -> its level: 0 for the GSD-front, else one more than the deepest method strictly dominating it
    (the longest chain of strict dominance above it; a cycle, possible between empirical pairs, stops at
    the number of methods).

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> dom = pd.DataFrame([[0, 1, 1], [0, 0, 1], [0, 0, 0]], index=list("abc"), columns=list("abc")).astype(bool)
    >>> gsd_levels(SimpleNamespace(methods=list("abc"), dominates=dom))
    {'a': 0, 'b': 1, 'c': 2}
    """
    methods = list(result.methods)
    dom = result.dominates.loc[methods, methods].to_numpy(dtype=bool)
    level = np.zeros(len(methods), dtype=int)
    for _ in range(len(methods)):
        deeper = np.array([level[dom[:, j]].max() + 1 if dom[:, j].any() else 0 for j in range(len(methods))])
        deeper = np.minimum(deeper, len(methods))
        if np.array_equal(deeper, level):
            break
        level = deeper
    return {m: int(v) for m, v in zip(methods, level)}


def gsd_edges(result) -> list:
    """The covering pairs (a, b) of strict GSD dominance: a dominates b and no method lies between.

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> dom = pd.DataFrame([[0, 1, 1], [0, 0, 1], [0, 0, 0]], index=list("abc"), columns=list("abc")).astype(bool)
    >>> gsd_edges(SimpleNamespace(methods=list("abc"), dominates=dom))
    [('a', 'b'), ('b', 'c')]
    """
    methods = list(result.methods)
    dom = result.dominates.loc[methods, methods].to_numpy(dtype=bool)
    between = (dom.astype(int) @ dom.astype(int)) > 0
    return [(methods[i], methods[j]) for i in range(len(methods)) for j in range(len(methods))
            if dom[i, j] and not between[i, j]]


def gsd_positions(result) -> dict:
    """Method -> (x, y): level ``L`` at y = −L, the methods of a level spread evenly over x in [0, 1] in the
    result's order (one method: x = 0.5).

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> dom = pd.DataFrame([[0, 0, 1], [0, 0, 0], [0, 0, 0]], index=list("abc"), columns=list("abc")).astype(bool)
    >>> gsd_positions(SimpleNamespace(methods=list("abc"), dominates=dom))
    {'a': (0.0, 0.0), 'b': (1.0, 0.0), 'c': (0.5, -1.0)}
    """
    levels = gsd_levels(result)
    out = {}
    for level in sorted(set(levels.values())):
        row = [m for m in result.methods if levels[m] == level]
        xs = [0.5] if len(row) == 1 else np.linspace(0.0, 1.0, len(row)).tolist()
        out.update({m: (float(x), float(-level)) for m, x in zip(row, xs)})
    return out


def label_heights(positions: dict, *, crowded: int) -> list:
    """(method, (x, y), raised) per method: in a level of more than ``crowded`` methods every other label is
    raised, so that neighbouring names do not overlap.

    Examples
    --------
    >>> label_heights({"a": (0.0, 0.0), "b": (1.0, 0.0), "c": (0.5, -1.0)}, crowded=1)
    [('a', (0.0, 0.0), False), ('b', (1.0, 0.0), True), ('c', (0.5, -1.0), False)]
    """
    out, seen = [], {}
    for m, (x, y) in positions.items():
        count = sum(1 for _, yy in positions.values() if yy == y)
        index = seen.get(y, 0)
        seen[y] = index + 1
        out.append((m, (x, y), count > crowded and index % 2 == 1))
    return out


def plot_gsd_front(result, *, width="column", ax=None):
    """The GSD relation of :func:`mcda.gsd_front`: the front shaded on top, an arrow from each method to each
    method it strictly dominates directly (the covering pairs), a tested method's p-value beside it.

    Parameters
    ----------
    result : GsdFrontResult
    width : {"column", "page"} or float
        Figure width. Ignored with ``ax``.
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Notes
    -----
    Level 0 (shaded) is the empirical GSD-front; a method sits one level below the deepest method
    dominating it. Arrows are drawn only between a method and those it dominates with no method in
    between (the rest follow along the arrows). A tested method carries "p = …" (the test that it lies
    outside the front), between its node and its name, in the highlight colour when significant at the result's alpha.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_gsd_front
    >>> cube = mcda.datasets.synthetic_criteria(n_datasets=8, n_methods=4, rng=0)
    >>> fig, ax = plot_gsd_front(mcda.gsd_front(cube.sel(metric=["accuracy", "runtime"]), candidates=[]))
    >>> len([t for t in ax.texts if t.get_gid() == "node_label"])
    4
    """
    _common.require(result, _FIELDS, what="GsdFrontResult", maker="mcda.gsd_front")
    pos = gsd_positions(result)
    depth = -min(y for _, y in pos.values())
    with _style.style():
        from matplotlib.patches import FancyArrowPatch, Rectangle

        w = _style.figure_size(width)[0]
        fig, ax = _style.get_figure(ax, width, height=min(1.2 + 0.75 * depth, _layout.PAGE_HEIGHT - 0.3))
        ax.set_axis_off()
        ax.add_patch(Rectangle((-0.12, -0.3), 1.24, 1.1, facecolor=_style.PALETTE[0], alpha=0.12, lw=0,
                               gid="front_band"))
        for a, b in gsd_edges(result):
            (x0, y0), (x1, y1) = pos[a], pos[b]
            ax.add_patch(FancyArrowPatch((x0, y0), (x1, y1), arrowstyle="-|>", mutation_scale=7, shrinkA=7,
                                         shrinkB=7, color="#8C8C8C", lw=0.8, gid="dominance_edge"))
        xs, ys = zip(*(pos[m] for m in result.methods))
        ax.plot(xs, ys, linestyle="none", marker="o", markersize=6, markerfacecolor="white",
                markeredgecolor="black", markeredgewidth=0.8, zorder=4, gid="nodes")
        wrap = 12 if w < 5 else 20
        for m, (x, y), high in label_heights(pos, crowded=4 if w < 5 else 7):
            label = _layout.wrap_label(str(m), wrap)
            lift = 0.13 if m in result.tested else 0.0      # room for the p-value between node and name
            ax.text(x, y + (0.36 if high else 0.1) + lift, label, ha="center", va="bottom",
                    fontsize=_style.FONT_SIZE - 1, gid="node_label", linespacing=1.0, zorder=5)
        for m in result.tested:
            x, y = pos[m]
            p = float(result.front_pvalues[m])
            ax.text(x, y + 0.09, f"p = {p:.2g}", ha="center", va="bottom", fontsize=_style.FONT_SIZE - 2,
                    color=_style.HIGHLIGHT if p <= result.alpha else _style.NEUTRAL, gid="front_pvalue")
        ax.set_xlim(-0.2, 1.2)
        ax.set_ylim(-depth - 0.5, 0.9)
        ax.set_title(f"GSD-front (shaded): {len(result.front)} of {len(result.methods)} methods, "
                     f"{result.n_datasets} datasets\narrow a → b: a strictly dominates b", fontsize=_style.FONT_SIZE,
                     loc="left")
    return fig, ax
