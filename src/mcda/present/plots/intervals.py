"""Across-dataset interval plots: mean ranks or effect sizes with their intervals, one row each.

autorank's ``plot_stats`` draws, in its confidence-interval mode, one row per method with the
mean and its interval. :func:`plot_rank_intervals` draws the same picture from mcda's results:
the mean ranks of :func:`mcda.rank_stability` with their percentile-bootstrap intervals over
datasets, or the effect sizes of :func:`mcda.effect_sizes` with theirs. The rows and their
labels are laid out by the pure function :func:`interval_rows`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda.present.plots import _layout
from mcda.present.plots import _style

__all__ = ["interval_rows", "interval_layout", "plot_rank_intervals"]


def interval_rows(result) -> dict:
    """What the plot draws, best first: labels, estimates, interval ends, and the words for the axis.

    Parameters
    ----------
    result : RankStability or EffectSizes
        :func:`mcda.rank_stability` (mean ranks, percentile-bootstrap intervals over datasets) or
        :func:`mcda.effect_sizes` across datasets (an effect size per pair, percentile-bootstrap
        intervals).

    Returns
    -------
    dict
        ``labels``, ``estimate``, ``low``, ``high`` (arrays, best first), ``xlabel``, ``caption``,
        ``reference`` (x of a reference line: 0 for effect sizes, None for ranks),
        ``rank_axis`` (True: rank 1 at the left), ``reasons`` (why a row has no value),
        ``excluded`` (methods left out for missing results).

    Examples
    --------
    >>> import mcda
    >>> res = mcda.rank_stability(mcda.datasets.load("demsar2006"), n_resamples=200, rng=0)
    >>> rows = interval_rows(res)
    >>> rows["labels"][0], bool(rows["low"][0] <= rows["estimate"][0] <= rows["high"][0])
    ('C4.5+m+cf', True)
    """
    # read by the fields each result has: a rank stability's bootstrap ranks, an effect-size table's pairs
    if all(hasattr(result, f) for f in ("mean_ranks", "n_resamples", "is_weighted", "confidence_level")):
        frame = result.to_frame()
        level = f"{100 * result.confidence_level:g}%"
        weighted = f", {result.aggregation}-weighted" if result.is_weighted else ""
        return {"labels": [str(m) for m in frame["method"]], "estimate": frame["mean_rank"].to_numpy(float),
                "low": frame["mean_rank_low"].to_numpy(float), "high": frame["mean_rank_high"].to_numpy(float),
                "xlabel": f"mean rank (1 = best){weighted}",
                "caption": (f"dot: mean rank over {result.n_datasets} datasets; bar: {level} percentile-bootstrap "
                            f"interval ({result.n_resamples} resamples of the datasets)"),
                "reference": None, "rank_axis": True, "limits": (1.0, float(result.n_methods)),
                "excluded": list(result.excluded),
                "reasons": [""] * len(frame)}
    if all(hasattr(result, f) for f in ("table", "scope", "against", "thresholds", "confidence_level")):
        if result.scope != "across datasets":
            raise McdaArgumentError("`result` holds effect sizes within datasets (one per dataset and pair); "
                                    "plot_rank_intervals draws one row per pair across datasets: use "
                                    "mcda.effect_sizes(...) on one score per (dataset, method), or plot_forest for "
                                    "per-dataset intervals.", argument="result")
        table = result.table
        order = np.argsort(-table["effect_size"].to_numpy(float), kind="stable")
        table = table.iloc[order]
        level = f"{100 * result.confidence_level:g}%"
        if result.against in ("best", "all"):
            labels = [f"{a} vs {b}" for a, b in zip(table["method_a"], table["method_b"])]
        else:
            labels = [str(b) for b in table["method_b"]]
        vs = {"best": "the best method vs each other", "all": "method_a vs method_b"}.get(
            result.against, f"{result.against} vs each method")
        return {"labels": labels, "estimate": table["effect_size"].to_numpy(float),
                "low": table["ci_low"].to_numpy(float), "high": table["ci_high"].to_numpy(float),
                "xlabel": f"{result.kind} ({vs}; > 0: the first is better)",
                "caption": (f"dot: {result.kind} over the datasets; bar: {level} percentile-bootstrap interval "
                            f"({result.n_resamples} resamples); dotted: magnitude bounds {result.thresholds} "
                            f"({result.threshold_source})"),
                "reference": 0.0, "rank_axis": False, "limits": None, "thresholds": tuple(result.thresholds),
                "excluded": list(result.excluded),
                "reasons": [str(r) for r in table["reason"]]}
    raise McdaArgumentTypeError("`result` must be a RankStability (mcda.rank_stability) or an EffectSizes "
                                f"(mcda.effect_sizes, across datasets); got {type(result).__name__}.",
                                argument="result")


def interval_layout(labels, *, width: float, caption_lines: int = 4, max_height: float = _layout.PAGE_HEIGHT) -> dict:
    """Label font and wrapping, row height and pages for one row per label at ``width`` inches.

    The rule: names wider than 45 % of the width are wrapped onto more lines (``caption_lines``:
    the lines of the axis label and caption under the rows); the font is the
    largest from :data:`~mcda.present.plots._layout.ROW_FONT` down to ``MIN_FONT + 0.5`` at which every
    row (as tall as its lines) fits one page; rows that do not fit even then go to further
    pages (``page=``).

    Examples
    --------
    >>> lay = interval_layout([f"m{i}" for i in range(50)], width=3.35)
    >>> lay["font"], len(lay["pages"]), bool(lay["height"] <= 9.0)
    (7.0, 1, True)
    """
    labels = [str(s) for s in labels]
    room = 0.45 * width * 72.0
    fixed = 0.45 + caption_lines * 1.25 * (_style.FONT_SIZE - 1) / 72.0     # the axis, its ticks and the caption
    sizes = np.arange(_layout.ROW_FONT, _layout.MIN_FONT + 0.5 - 1e-9, -0.5)
    for font in sizes:                 # the largest font at which every row fits one page
        chars = max(int(room // _layout.char_width(font)), 4)
        wrapped = [_layout.wrap_label(s, chars) if len(s) > chars else s for s in labels]
        lines = max((s.count("\n") + 1 for s in wrapped), default=1)
        row = (lines * 1.25 * font + 1.5) / 72.0
        if len(labels) * row + fixed <= max_height:
            break
    per_page = _layout.rows_per_page(row, fixed=fixed, max_height=max_height)
    pages = _layout.page_slices(len(labels), per_page)
    rows_on_page = max(p.stop - p.start for p in pages) if pages else 1
    widest = max((max(len(line) for line in s.split("\n")) for s in wrapped), default=0) * _layout.char_width(font)
    return {"font": float(font), "labels": wrapped, "row": row, "pages": pages, "label_width": widest,
            "height": min(rows_on_page * row + fixed, max_height)}


def _rank_ticks(n_methods: int) -> list[int]:
    """Labelled ranks: 1, then multiples of a step (1, 2, 5, 10, 20, 25) giving at most 8 labels.

    Examples
    --------
    >>> _rank_ticks(8), _rank_ticks(50)
    ([1, 2, 3, 4, 5, 6, 7, 8], [1, 10, 20, 30, 40, 50])
    """
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100) if n_methods / s <= 8)
    return [1] + [r for r in range(step, n_methods + 1, step) if r - 1 >= 0.6 * step]


def plot_rank_intervals(result, *, width="column", page: int = 0, ax=None):
    """Mean ranks (or effect sizes) across datasets with their intervals, one row each, best at the top.

    Parameters
    ----------
    result : RankStability or EffectSizes
        :func:`mcda.rank_stability`: the mean rank of each method over the datasets (1 = best,
        at the left) and its percentile-bootstrap interval (the datasets resampled,
        ``n_resamples`` times, at ``confidence_level``). :func:`mcda.effect_sizes` across
        datasets: each pair's effect size (positive when ``method_a`` is better) with its
        percentile-bootstrap interval, a line at 0 and the magnitude bounds dotted.
    width : {"column", "page"} or float
        Figure width; the height follows from the rows (at most a page).
    page : int
        Which page to draw when the rows do not fit one (:func:`interval_layout`); the figure
        says "page i of n".
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Notes
    -----
    This is autorank's ``plot_stats`` in its confidence-interval mode (a dot and an error bar
    per population, ordered), with three differences: each row has its own interval
    (asymmetric when the bootstrap says so), the intervals come from resampling the datasets
    rather than from a normal model of the scores, and ranks run from 1 (best) at the left as
    in every mcda figure. Overlapping intervals do not by themselves mean "not different": the
    tests of :func:`mcda.compare_over_datasets` decide that.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_rank_intervals
    >>> res = mcda.rank_stability(mcda.datasets.load("demsar2006"), n_resamples=200, rng=0)
    >>> fig, ax = plot_rank_intervals(res)
    >>> [t.get_text() for t in ax.get_yticklabels()][0]
    'C4.5+m+cf'
    """
    rows = interval_rows(result)
    w = _style.figure_size(width)[0]
    first = interval_layout(rows["labels"], width=w)
    chars = int((w * 72.0 - first["label_width"] - 24.0) / _layout.char_width(_style.FONT_SIZE - 1))
    caption = rows["caption"]
    if rows["excluded"]:
        names = rows["excluded"]
        caption += f"; excluded (missing results): {', '.join(map(str, names[:4]))}" + (" ..." if len(names) > 4 else "")
    n_lines = (_layout.wrap_label(rows["xlabel"], chars).count("\n") + 1
               + _layout.wrap_label(caption + "; page 10 of 10", chars).count("\n") + 1)
    layout = interval_layout(rows["labels"], width=w, caption_lines=n_lines)
    pages = layout["pages"]
    if isinstance(page, bool) or not isinstance(page, (int, np.integer)) or not 0 <= page < len(pages):
        raise McdaArgumentError(f"`page` must be an integer in [0, {len(pages) - 1}]; got {page!r}.",
                                argument="page", value=page)
    part = pages[page]
    labels = layout["labels"][part]
    est, low, high = rows["estimate"][part], rows["low"][part], rows["high"][part]
    n = len(labels)
    y = np.arange(n)
    with _style.style():
        fig, ax = _style.get_figure(ax, width, height=layout["height"])
        ok = np.isfinite(est)
        err = np.vstack([np.where(ok, est - low, 0.0), np.where(ok, high - est, 0.0)])
        ax.errorbar(est[ok], y[ok], xerr=err[:, ok], fmt="o", color="black", ecolor=_style.NEUTRAL, elinewidth=1.0,
                    capsize=2.0, markersize=3.0, gid="interval")
        for i in np.nonzero(~ok)[0]:
            ax.text(0.02, i, "no value", transform=ax.get_yaxis_transform(), va="center", fontsize=layout["font"],
                    color=_style.NEUTRAL, gid="no_value")
        ax.set_yticks(y, labels, fontsize=layout["font"])
        ax.set_ylim(n - 0.5, -0.5)                     # best at the top
        if rows["rank_axis"]:
            lo, hi = rows["limits"]
            ax.set_xlim(lo - 0.3, hi + 0.3)            # rank 1 (best) at the left
            ax.set_xticks(_rank_ticks(int(hi)))
        if rows["reference"] is not None:
            ax.axvline(rows["reference"], color="black", lw=0.6, gid="reference_line")
            for t in rows.get("thresholds", ()):
                for x in (-t, t):
                    ax.axvline(x, color=_style.NEUTRAL, lw=0.5, linestyle=":", gid="magnitude_bound")
        ax.grid(axis="x", color=_style.LIGHT, lw=0.5)
        ax.set_axisbelow(True)
        ax.tick_params(axis="y", length=0)
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
        caption += f"; page {page + 1} of {len(pages)}" if len(pages) > 1 else ""
        # the caption is centred under the axes, which have what the labels leave
        chars = int((w * 72.0 - layout["label_width"] - 24.0) / _layout.char_width(_style.FONT_SIZE - 1))
        ax.set_xlabel(_layout.wrap_label(rows["xlabel"], chars) + "\n" + _layout.wrap_label(caption, chars),
                      fontsize=_style.FONT_SIZE - 1)
    return fig, ax
