"""Trade-offs between criteria: two criteria against each other with the practical Pareto
front, and how the top choice moves with the criterion weights.

The geometry (:func:`tradeoff_points`, :func:`ternary_coordinates`, :func:`weight_segments`)
is computed without matplotlib and tested on its own; the ``plot_*`` functions only draw it.
They take the result objects of :mod:`mcda.stats.criteria` and compute no statistics.

Conventions
-----------
* On a trade-off plot the best corner is the **top right**: an axis whose metric is
  lower-is-better is reversed, and its label says so.
* Methods on the practical Pareto front are drawn in the highlight colour with their names;
  the others in grey. Where a point sits is a *summary* (the median over datasets with its
  order-statistic interval); whether a method is on the front is decided dataset by dataset
  (:func:`mcda.practical_dominance`), so a grey point may sit beside the front's points.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.validation import check_choice
from mcda.data.checks import select_metric
from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style
from mcda.data.cards import higher_is_better

__all__ = ["tradeoff_points", "ternary_coordinates", "weight_segments", "label_offsets", "plot_tradeoffs",
           "plot_weight_stability"]

_SCALES = ("linear", "log")
_SQRT3_2 = math.sqrt(3.0) / 2.0


def tradeoff_points(result, *, x: str, y: str) -> pd.DataFrame:
    """Where each method goes on a trade-off plot (no drawing).

    Parameters
    ----------
    result : PracticalDominance
        From :func:`mcda.practical_dominance`.
    x, y : str
        Two of its criteria.

    Returns
    -------
    pandas.DataFrame
        One row per method (in the result's order): ``method, x, x_low, x_high, y, y_low,
        y_high, on_front``: the medians across datasets and their intervals, in each metric's
        own units, from ``result.criterion_summary``.

    Examples
    --------
    >>> import mcda
    >>> dom = mcda.practical_dominance(mcda.datasets.load("duo2018_all"), metrics=["ARI", "elapsed"])
    >>> points = tradeoff_points(dom, x="elapsed", y="ARI")
    >>> points.loc[points["on_front"], "method"].tolist()
    ['CIDR', 'SC3', 'Seurat']
    """
    _check_result(result, "criterion_summary", "tradeoff_points", "mcda.practical_dominance")
    metrics = list(result.metrics)
    x, y = select_metric(x, metrics, argument="x"), select_metric(y, metrics, argument="y")
    summary = result.criterion_summary.set_index(["metric", "method"])
    out = pd.DataFrame({"method": list(result.methods)})
    for axis, metric in (("x", x), ("y", y)):
        rows = summary.loc[metric].reindex(result.methods)
        out[axis] = rows["median"].to_numpy()
        out[f"{axis}_low"] = rows["ci_low"].to_numpy()
        out[f"{axis}_high"] = rows["ci_high"].to_numpy()
    front = set(result.front)
    out["on_front"] = [m in front for m in result.methods]
    return out


def ternary_coordinates(weights) -> np.ndarray:
    """Cartesian positions of weight vectors on the simplex of three criteria.

    The first criterion's vertex is at (0, 0), the second's at (1, 0), the third's at
    (1/2, √3/2): a point is the weighted mean of the vertices.

    Parameters
    ----------
    weights : array-like, shape (n, 3)
        Rows summing to 1.

    Returns
    -------
    numpy.ndarray, shape (n, 2)

    Examples
    --------
    >>> ternary_coordinates([[1, 0, 0], [0, 1, 0], [1/3, 1/3, 1/3]]).round(4).tolist()
    [[0.0, 0.0], [1.0, 0.0], [0.5, 0.2887]]
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2 or w.shape[1] != 3:
        raise McdaArgumentError(f"`weights` must have 3 columns (one per criterion); got shape {w.shape}",
                                argument="weights")
    return np.column_stack([w[:, 1] + 0.5 * w[:, 2], _SQRT3_2 * w[:, 2]])


def weight_segments(result, *, metric: str) -> pd.DataFrame:
    """For two criteria: the runs of consecutive weights on ``metric`` with the same top choice.

    Parameters
    ----------
    result : WeightStability
        From :func:`mcda.weight_stability` on two criteria (a grid).
    metric : str
        The criterion whose weight is on the horizontal axis.

    Returns
    -------
    pandas.DataFrame
        ``top, start, stop`` (weights on ``metric``, the first and last grid point of the run),
        ordered by weight.

    Examples
    --------
    >>> import mcda
    >>> ws = mcda.weight_stability(mcda.datasets.load("duo2018_all"), metrics=["ARI", "elapsed"])
    >>> weight_segments(ws, metric="elapsed").to_dict("records")
    [{'top': 'SC3', 'start': 0.0, 'stop': 0.15}, {'top': 'Seurat', 'start': 0.2, 'stop': 1.0}]
    """
    _check_result(result, "share_first", "weight_segments", "mcda.weight_stability")
    metric = select_metric(metric, list(result.metrics))
    if len(result.metrics) != 2:
        raise McdaArgumentError(f"weight segments need a result on 2 criteria; this one has {len(result.metrics)} "
                         f"({list(result.metrics)})", argument="result")
    order = np.argsort(result.weights[metric].to_numpy(), kind="stable")
    w = result.weights[metric].to_numpy()[order]
    top = result.top.to_numpy()[order]
    rows = []
    start = 0
    for i in range(1, len(w) + 1):
        if i == len(w) or top[i] != top[start]:
            rows.append((str(top[start]), float(w[start]), float(w[i - 1])))
            start = i
    return pd.DataFrame(rows, columns=["top", "start", "stop"])


def _check_result(result, field: str, function: str, maker: str) -> None:
    if not hasattr(result, field):
        raise McdaArgumentTypeError(f"`result` of {function} must be the result of {maker}(...); got {type(result).__name__}",
                                    argument="result")


def plot_tradeoffs(result, *, x: str | None = None, y: str | None = None, xscale: str = "linear",
                   yscale: str = "linear", annotate: bool = True, width="column", ax=None):
    """Two criteria against each other, with the practical Pareto front highlighted.

    Parameters
    ----------
    result : PracticalDominance or WeightStability
        From :func:`mcda.practical_dominance` (a trade-off scatter) or
        :func:`mcda.weight_stability` (then :func:`plot_weight_stability` draws it).
    x, y : str, optional
        The criteria on each axis; default the result's first two (``y`` the first).
    xscale, yscale : {"linear", "log"}
        Axis scales (a log scale suits runtimes spread over orders of magnitude).
    annotate : bool
        Name the methods (every method up to 16, only the practical Pareto front beyond;
        names longer than 14 characters by number, with a key under the figure) and say how
        the points were summarised.
    width : {"column", "page"} or float
        Figure width when ``ax`` is None.
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Raises
    ------
    TypeError
        ``result`` is neither result.
    ValueError
        Unknown criteria or scales, a result with a single criterion.

    Notes
    -----
    Each method is drawn at its median score across datasets on both criteria, with the
    distribution-free interval of each median (``PracticalDominance.criterion_summary``;
    missing where too few datasets reach the level). Lower-is-better axes are reversed so
    that the best corner is the top right. The front is the result's: the methods no other
    dominates beyond the noise floors on a majority of shared datasets.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import mcda
    >>> from mcda.present.plots.tradeoffs import plot_tradeoffs
    >>> dom = mcda.practical_dominance(mcda.datasets.load("duo2018_all"), metrics=["ARI", "elapsed"])
    >>> fig, ax = plot_tradeoffs(dom, x="elapsed", y="ARI", xscale="log")
    >>> bool(ax.xaxis_inverted()), ax.get_xscale()
    (True, 'log')
    """
    if hasattr(result, "share_first") and not hasattr(result, "criterion_summary"):
        return plot_weight_stability(result, width=width, ax=ax)
    _check_result(result, "criterion_summary", "plot_tradeoffs",
                  "mcda.practical_dominance (or mcda.weight_stability)")
    metrics = list(result.metrics)
    if len(metrics) < 2:
        raise McdaArgumentError(f"a trade-off plot needs 2 criteria; the result has {metrics}", argument="result")
    y = metrics[0] if y is None else y
    x = (metrics[1] if y == metrics[0] else metrics[0]) if x is None else x
    check_choice("xscale", xscale, _SCALES)
    check_choice("yscale", yscale, _SCALES)
    points = tradeoff_points(result, x=x, y=y)
    directions = dict(zip(metrics, result.directions))
    # the labelling rule: every method named up to TRADEOFF_LABEL_ALL methods, only the front beyond;
    # names longer than 14 characters become numbers, named in a key under the figure
    named = points if len(points) <= TRADEOFF_LABEL_ALL else points[points["on_front"]]
    numbered = bool(annotate) and max((len(str(m)) for m in named["method"]), default=0) > _layout.LONG_NAME
    w_in = _style.figure_size(width)[0] if ax is None else ax.figure.get_figwidth()
    key_labels = [f"{i + 1} {m}" for i, m in enumerate(named["method"])]
    key = _layout.name_key(key_labels, width=w_in, max_height=0.35 * _layout.PAGE_HEIGHT) if numbered and ax is None \
        else {"height": 0.0}
    numbered = numbered and ax is None
    with _style.style():
        fig, ax = _style.get_figure(ax, width, height=0.8 * w_in + key["height"])
        for on_front in (False, True):
            part = points[points["on_front"] == on_front]
            if part.empty:
                continue
            colour = _style.HIGHLIGHT if on_front else _style.NEUTRAL
            ax.errorbar(part["x"], part["y"], xerr=_errors(part, "x"), yerr=_errors(part, "y"), fmt="none",
                        ecolor=colour if on_front else _style.LIGHT, elinewidth=0.7, capsize=0,
                        alpha=0.45 if on_front else 1.0, zorder=1)
            ax.plot(part["x"], part["y"], "o", color=colour, markersize=4.5 if on_front else 3.5,
                    zorder=3 if on_front else 2, label="practical Pareto front" if on_front else "off the front")
        ax.set_xscale(xscale)
        ax.set_yscale(yscale)
        for axis, metric in (("x", x), ("y", y)):
            lower = not higher_is_better(directions[metric])
            getattr(ax, f"set_{axis}label")(f"{metric} ({'lower' if lower else 'higher'} is better)")
            if lower:
                getattr(ax, f"invert_{axis}axis")()
        if annotate:
            labels = {m: (str(i + 1) if numbered else str(m)) for i, m in enumerate(named["method"])}
            if numbered:
                _common.key_legend(fig, key_labels, key, title="methods" if len(named) == len(points)
                                   else "methods on the front")
            _annotate(ax, fig, named.assign(method=[labels[m] for m in named["method"]]))
            ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2, fontsize=_style.FONT_SIZE - 1,
                      borderaxespad=0.2, handletextpad=0.3)
            named_what = "" if len(named) == len(points) else "; only the front named"
            ax.set_title(_layout.wrap_label(f"medians over datasets, {result.confidence_level:.0%} intervals; "
                                            f"best: top right{named_what}",
                                            int(0.95 * w_in * 72.0 / _layout.char_width(_style.FONT_SIZE - 1))),
                         fontsize=_style.FONT_SIZE - 1, color=_style.NEUTRAL, pad=24)
    return fig, ax


_LABEL_SIZE = _style.FONT_SIZE - 1
#: Up to this many methods every point is named; beyond, only the practical Pareto front.
TRADEOFF_LABEL_ALL: int = 16


def label_offsets(anchors, widths, *, height: float, pad: float = 3.0, marker: float = 2.5,
                  bounds=None) -> list[tuple[float, float]]:
    """Offsets (in points) of text labels from their anchors so that no two labels overlap and
    no label covers another method's marker.

    Greedy, in the given order (put the labels that matter most first): each label takes the
    first of sixteen positions around its anchor (right-above, right-below, left-above,
    left-below, then further up and down, then twice as far) whose box overlaps no label
    placed before it and no marker (a square of half-width ``marker`` around every anchor),
    or the first position when none is free.

    Parameters
    ----------
    anchors : array-like, shape (n, 2)
        Anchor positions in points (display units).
    widths : sequence of float
        Label widths in points.
    height : float
        Label height in points.
    pad : float
        Gap between a marker and its label, in points.
    marker : float
        Half-width of the square kept free around every anchor, in points.
    bounds : (x0, y0, x1, y1), optional
        The area labels must stay inside (the axes), in points.

    Examples
    --------
    >>> label_offsets([[0, 0], [1, 1]], [20, 20], height=8)
    [(3.0, -11.0), (3.0, 3.0)]
    """
    anchors = np.asarray(anchors, dtype=float).reshape(-1, 2)
    markers = [(x - marker, y - marker, x + marker, y + marker) for x, y in anchors]
    placed: list[tuple[float, float, float, float]] = []
    out = []

    def free(box, own: int) -> bool:
        hits = lambda b: box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]  # noqa: E731
        inside = bounds is None or (box[0] >= bounds[0] and box[1] >= bounds[1] and box[2] <= bounds[2]
                                    and box[3] <= bounds[3])
        return inside and not any(hits(b) for b in placed) and not any(
            hits(b) for j, b in enumerate(markers) if j != own)

    for i, ((ax_, ay), w) in enumerate(zip(anchors, widths)):
        near = [(pad, pad), (pad, -pad - height), (-pad - w, pad), (-pad - w, -pad - height),
                (pad, pad + height), (pad, -pad - 2 * height), (-pad - w, pad + height),
                (-pad - w, -pad - 2 * height)]
        candidates = near + [(2 * dx if dx > 0 else dx - pad, 2 * dy if dy > 0 else dy - height) for dx, dy in near]
        chosen = candidates[0]
        for dx, dy in candidates:
            if free((ax_ + dx, ay + dy, ax_ + dx + w, ay + dy + height), i):
                chosen = (dx, dy)
                break
        dx, dy = chosen
        placed.append((ax_ + dx, ay + dy, ax_ + dx + w, ay + dy + height))
        out.append((float(dx), float(dy)))
    return out


def _annotate(ax, fig, points: pd.DataFrame) -> None:
    """Name every method, the front first, without overlapping labels."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    order = points.sort_values("on_front", ascending=False, kind="stable")
    ax.autoscale_view()
    to_points = 72.0 / fig.dpi
    text_path, prop = TextToPath(), FontProperties(size=_LABEL_SIZE)
    anchors = ax.transData.transform(order[["x", "y"]].to_numpy(dtype=float)) * to_points
    widths = [text_path.get_text_width_height_descent(str(m), prop, ismath=False)[0] for m in order["method"]]
    box = ax.get_window_extent()
    bounds = (box.x0 * to_points, box.y0 * to_points, box.x1 * to_points, box.y1 * to_points)
    height = _LABEL_SIZE * 1.2
    offsets = label_offsets(anchors, widths, height=height, bounds=bounds)
    for (dx, dy), w, row in zip(offsets, widths, order.itertuples()):
        far = abs(dy + height / 2) > 2 * height or (dx > 0 and dx > 6) or (dx < 0 and -dx - w > 6)
        ax.annotate(row.method, (row.x, row.y), xytext=(dx, dy), textcoords="offset points", fontsize=_LABEL_SIZE,
                    color="black" if row.on_front else _style.NEUTRAL, va="bottom", ha="left",
                    arrowprops=dict(arrowstyle="-", lw=0.4, color=_style.NEUTRAL, shrinkA=0, shrinkB=2)
                    if far else None)


def _errors(part: pd.DataFrame, axis: str):
    """Asymmetric error bars (distances from the median); 0 where the interval is missing."""
    low = (part[axis] - part[f"{axis}_low"]).to_numpy(dtype=float)
    high = (part[f"{axis}_high"] - part[axis]).to_numpy(dtype=float)
    return np.vstack([np.nan_to_num(low), np.nan_to_num(high)])


def plot_weight_stability(result, *, metric: str | None = None, width="column", ax=None):
    """How PROMETHEE II's top choice moves with the criterion weights.

    Parameters
    ----------
    result : WeightStability
        From :func:`mcda.weight_stability` on 2 or 3 criteria (a grid).
    metric : str, optional
        With 2 criteria: the criterion whose weight is on the horizontal axis (default the
        second). Ignored with 3.
    width : {"column", "page"} or float
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Notes
    -----
    With 2 criteria: every method's mean net flow against the weight on ``metric`` (straight
    lines: net flows are linear in the weights), the methods that are ever the top choice in
    colour, with the runs of weights where each is on top marked along the bottom. With 3
    criteria: the ternary map of the weight simplex, each grid point coloured by its top
    choice (grey where several tie), and the share of weight vectors each method wins in the
    legend.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import mcda
    >>> from mcda.present.plots.tradeoffs import plot_weight_stability
    >>> cube = mcda.datasets.load("duo2018_all")
    >>> ws = mcda.weight_stability(cube, metrics=["ARI", "elapsed", "s.norm.vs.true"], n_steps=10)
    >>> fig, ax = plot_weight_stability(ws)
    >>> len(ax.collections) >= 1
    True
    """
    _check_result(result, "share_first", "plot_weight_stability", "mcda.weight_stability")
    metrics = list(result.metrics)
    if len(metrics) not in (2, 3) or result.sampling != "grid":
        raise McdaArgumentError(f"the weight-stability map needs a grid over 2 or 3 criteria; the result has "
                         f"{len(metrics)} criteria ({result.sampling}). Summarise more criteria with "
                         "result.to_frame().", argument="result")
    winners = [m for m in result.share_first.sort_values(ascending=False, kind="stable").index
               if result.share_first[m] > 0]
    colours = _style.colors_for(winners)
    with _style.style():
        own_figure = ax is None
        if len(metrics) == 2:
            metric = metrics[1] if metric is None else select_metric(metric, metrics)
            fig, ax = _style.get_figure(ax, width)
            order = np.argsort(result.weights[metric].to_numpy(), kind="stable")
            w = result.weights[metric].to_numpy()[order]
            for method in result.methods:
                flows = result.net_flows[method].to_numpy()[order]
                top = method in colours
                ax.plot(w, flows, color=colours.get(method, _style.LIGHT), linewidth=1.4 if top else 0.8,
                        zorder=3 if top else 1, label=f"{method} ({result.share_first[method]:.0%} on top)"
                        if top else None)
            low = ax.get_ylim()[0]
            for seg in weight_segments(result, metric=metric).itertuples():
                ax.plot([seg.start, seg.stop], [low, low], color=colours.get(seg.top, _style.NEUTRAL),
                        linewidth=4, solid_capstyle="butt", clip_on=False)
            ax.set_xlabel(f"weight on {metric} (the rest on {[m for m in metrics if m != metric][0]})")
            ax.set_ylabel("mean PROMETHEE II net flow")
            ax.set_xlim(0, 1)
            if own_figure:      # under the figure, in as many columns as the names allow: never over the lines
                entries = [h.get_label() for h in ax.get_lines() if not h.get_label().startswith("_")]
                key = _layout.name_key(["—— " + e for e in entries], width=fig.get_figwidth(),
                                       max_height=0.35 * _layout.PAGE_HEIGHT, font=_style.FONT_SIZE - 1)
                fig.set_figheight(fig.get_figheight() + key["height"])
                fig.legend(loc="outside lower center", ncols=key["cols"], fontsize=key["font"], handlelength=1.5)
            else:
                ax.legend(fontsize=_style.FONT_SIZE - 1, loc="best")
            return fig, ax
        fig, ax = _style.get_figure(ax, width, aspect=0.72)
        xy = ternary_coordinates(result.weights[metrics].to_numpy())
        point_colours = [colours.get(t, _style.LIGHT) for t in result.top]
        ax.scatter(xy[:, 0], xy[:, 1], c=point_colours, s=14, marker="h", linewidths=0)
        corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, _SQRT3_2], [0.0, 0.0]])
        ax.plot(corners[:, 0], corners[:, 1], color=_style.NEUTRAL, linewidth=0.6)
        for (cx, cy), name, va in zip(corners[:3], metrics, ("top", "top", "bottom")):
            ax.annotate(name, (cx, cy), xytext=(0, -4 if va == "top" else 4), textcoords="offset points",
                        ha="center", va=va)
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], marker="h", linestyle="", color=colours[m],
                          label=f"{m} ({result.share_first[m]:.0%})") for m in winners]
        if (result.top.str.contains(" = ")).any():
            handles.append(Line2D([], [], marker="h", linestyle="", color=_style.LIGHT, label="tie"))
        ax.legend(handles=handles, title="top choice\n(share of weights)", loc="upper left",
                  bbox_to_anchor=(0.0, 1.0), fontsize=_style.FONT_SIZE - 1, title_fontsize=_style.FONT_SIZE - 1,
                  alignment="left")
        ax.set_aspect("equal")
        ax.set_axis_off()
        ax.set_xlim(-0.45, 1.08)
        ax.set_ylim(-0.1, _SQRT3_2 + 0.1)
    return fig, ax
