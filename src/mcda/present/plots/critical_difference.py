"""Demšar's critical-difference diagram, with its geometry in pure functions.

The geometry (:func:`cd_layout`: where every label, line and clique bar goes) is computed
without matplotlib and tested on its own; :func:`plot_critical_difference` only draws it.

Conventions
-----------
* The rank axis runs from 1 (best) at the **left** to k (worst) at the right, in every mcda
  figure. The best methods are listed at the top left, the worst at the top right, so the
  eye finds the winner first (autorank lists the worst first; mcda does not).
* Clique bars are exactly the groups of the result (``ComparisonResult.groups`` or
  ``PairwiseOverDatasets.groups``: maximal
  cliques of methods the post-hoc test did not separate). A bar is never widened to cover a
  separated pair: a dot marks each member on its bar, so a method whose line crosses a bar
  without a dot is not in that group (this happens with step-down tests, whose decisions are
  not nested in rank order; critdd instead widens bars over separated pairs).
* Bars that touch or overlap go on different levels (first fit in order of their left end),
  so no two bars overlap and the layout is the same on every run.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.validation import check_choice, shown
from mcda.present.plots import _common, _layout
from mcda.present.plots import _style
from mcda.stats.procedures import PROCEDURES, display_name

__all__ = ["CDBar", "CDLabel", "CDLayout", "clique_bars", "label_rows", "cd_layout", "cd_pages", "wrapped_label_text",
           "hue_colors", "plot_critical_difference"]

_LABEL_SIDES = ("both", "left", "right")

# vertical geometry, in text lines (one line = _LINE_PITCH × font size); y grows downwards
_BAR_TOP = 0.75          # first clique bar below the axis
_BAR_PITCH = 0.45        # between bar levels
_LABEL_GAP = 0.9         # from the lowest bar (or the axis) to the first label row
_ROW_PITCH = 1.0         # between label rows
_LINE_PITCH = 1.45       # one line, in units of the font size
_NOTE_PITCH = 0.85       # between lines of a note (smaller font)
#: Half the gap, in rank units, kept between two bars on one level (and added at the bar ends).
BAR_PAD = 0.04


@dataclass(frozen=True)
class CDBar:
    """One clique bar: the methods of a group, drawn from ``start`` to ``end`` on ``level``.

    ``start``/``end`` are the lowest and highest mean rank of the members (the drawn bar adds
    :data:`BAR_PAD` at both ends); ``level`` 0 is the one nearest the axis.
    """

    methods: tuple
    start: float
    end: float
    level: int


@dataclass(frozen=True)
class CDLabel:
    """Where one method's label goes: its side and row (row 0 is nearest the axis)."""

    method: str
    mean_rank: float
    side: str
    row: int


@dataclass(frozen=True)
class CDLayout:
    """Everything :func:`plot_critical_difference` draws, in rank units and text lines.

    Attributes
    ----------
    low, high : int
        The rank axis runs from ``low`` = 1 (best, left) to ``high`` = k (right).
    labels : tuple of CDLabel
    bars : tuple of CDBar
    n_levels : int
        Bar levels used (0 without bars).
    bar_y : dict
        level -> y of the bars on it (text lines below the axis).
    label_y : dict
        row -> y of the label row.
    left_edge, right_edge : float
        Rank-axis x where the label lines end (labels are written beyond them).
    """

    low: int
    high: int
    labels: tuple
    bars: tuple
    n_levels: int
    bar_y: dict
    label_y: dict
    left_edge: float
    right_edge: float

    @property
    def depth(self) -> float:
        """y of the lowest label row (text lines below the axis)."""
        return max(self.label_y.values()) if self.label_y else 0.0


def _ordered(mean_ranks: pd.Series) -> list:
    """Methods by mean rank, ties in input order (a stable, deterministic order)."""
    values = mean_ranks.to_numpy(dtype=float)
    order = np.lexsort((np.arange(len(values)), values))
    return [mean_ranks.index[i] for i in order]


def clique_bars(mean_ranks: pd.Series, groups: Sequence[Sequence[str]], *, pad: float = BAR_PAD) -> list[CDBar]:
    """Bars for the groups of two or more methods, each on the first level where it fits.

    Parameters
    ----------
    mean_ranks : pandas.Series
        Mean rank per method.
    groups : sequence of sequences of method names
        The cliques, as the result gives them (singletons draw no bar).
    pad : float
        Rank units added at both ends of a bar; two bars share a level only when their padded
        extents are separated by at least ``2 * pad``.

    Returns
    -------
    list of CDBar
        In order of (start, end); ``methods`` of each bar are exactly one group's members.

    Examples
    --------
    >>> import pandas as pd
    >>> r = pd.Series({"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0})
    >>> [(b.methods, b.level) for b in clique_bars(r, [("a", "b"), ("b", "c"), ("d",)])]
    [(('a', 'b'), 0), (('b', 'c'), 1)]
    """
    position = {m: i for i, m in enumerate(_ordered(mean_ranks))}
    bars = []
    for group in groups:
        members = tuple(sorted(group, key=position.__getitem__))
        if len(members) < 2:
            continue
        ranks = [float(mean_ranks[m]) for m in members]
        bars.append((min(ranks), max(ranks), members))
    bars.sort(key=lambda b: (b[0], b[1], [position[m] for m in b[2]]))
    level_ends: list[float] = []   # padded right end of the last bar on each level
    out = []
    for start, end, members in bars:
        left = start - pad
        for level, last in enumerate(level_ends):
            if left - last >= 2 * pad - 1e-12:
                break
        else:
            level = len(level_ends)
            level_ends.append(-math.inf)
        level_ends[level] = end + pad
        out.append(CDBar(methods=members, start=start, end=end, level=level))
    return out


def label_rows(mean_ranks: pd.Series, *, labels: str = "both") -> list[CDLabel]:
    """Side and row of every label, so that no two label lines cross.

    With ``labels="both"`` the better half (the first ⌈k/2⌉ by mean rank) goes left, best in
    row 0 (nearest the axis), and the rest right, worst in row 0. With one side, every method
    goes there, in the order that keeps lines from crossing (left: best first; right: worst
    first). Every label has a row of its own on its side.

    Examples
    --------
    >>> import pandas as pd
    >>> r = pd.Series({"a": 2.5, "b": 1.2, "c": 3.1})
    >>> [(x.method, x.side, x.row) for x in label_rows(r)]
    [('b', 'left', 0), ('a', 'left', 1), ('c', 'right', 0)]
    """
    check_choice("labels", labels, _LABEL_SIDES)
    order = _ordered(mean_ranks)
    k = len(order)
    if labels == "left":
        left, right = order, []
    elif labels == "right":
        left, right = [], order
    else:
        half = (k + 1) // 2
        left, right = order[:half], order[half:]
    out = [CDLabel(method=m, mean_rank=float(mean_ranks[m]), side="left", row=i) for i, m in enumerate(left)]
    out += [CDLabel(method=m, mean_rank=float(mean_ranks[m]), side="right", row=i)
            for i, m in enumerate(reversed(right))]
    return out


def cd_layout(mean_ranks: pd.Series, groups: Sequence[Sequence[str]] = (), *, labels: str = "both",
              row_pitch: float = 1.0, labelled: Sequence | None = None) -> CDLayout:
    """The whole diagram's geometry: axis range, label rows, bar levels and their heights.

    Parameters
    ----------
    mean_ranks : pandas.Series
        Mean rank per method (1 = best).
    groups : sequence of sequences of str
        Cliques to draw as bars (empty: no bars).
    labels : {"both", "left", "right"}
        Where the method names go.
    row_pitch : float
        Text lines from one label row to the next (more than 1 when names wrap onto several lines).
    labelled : sequence of str, optional
        The methods that get a label (one page of a split diagram, :func:`cd_pages`); default all.
        The axis and the bars always cover every method.

    Returns
    -------
    CDLayout

    Examples
    --------
    >>> import pandas as pd
    >>> r = pd.Series({"a": 1.5, "b": 1.5, "c": 3.0})
    >>> lay = cd_layout(r, [("a", "b")])
    >>> lay.low, lay.high, lay.n_levels, [b.methods for b in lay.bars]
    (1, 3, 1, [('a', 'b')])
    """
    if not isinstance(mean_ranks, pd.Series) or len(mean_ranks) < 2:
        raise McdaArgumentError(f"`mean_ranks` must be a pandas Series with at least 2 methods; got {mean_ranks!r}",
                                argument="mean_ranks", value=mean_ranks)
    values = mean_ranks.to_numpy(dtype=float)
    if not np.all(np.isfinite(values)):
        raise McdaArgumentError(f"`mean_ranks` must be finite; got {mean_ranks.to_dict()}", argument="mean_ranks")
    unknown = sorted({m for g in groups for m in g} - set(mean_ranks.index), key=str)
    if unknown:
        raise McdaArgumentError(f"`groups` name methods without a mean rank: {unknown}", argument="groups")
    k = len(values)
    low, high = 1, max(k, int(math.ceil(values.max())))
    bars = clique_bars(mean_ranks, groups)
    n_levels = 1 + max((b.level for b in bars), default=-1)
    bar_y = {level: _BAR_TOP + level * _BAR_PITCH for level in range(n_levels)}
    first_row = (bar_y[n_levels - 1] if n_levels else 0.0) + _LABEL_GAP
    shown_ranks = mean_ranks if labelled is None else mean_ranks.loc[list(labelled)]
    rows = label_rows(shown_ranks, labels=labels) if len(shown_ranks) else []
    n_rows = 1 + max((x.row for x in rows), default=-1)
    label_y = {row: first_row + row * _ROW_PITCH * row_pitch for row in range(n_rows)}
    margin = 0.04 * (high - low) + 0.1
    return CDLayout(low=low, high=high, labels=tuple(rows), bars=tuple(bars), n_levels=n_levels, bar_y=bar_y,
                    label_y=label_y, left_edge=low - margin, right_edge=high + margin)


# --------------------------------------------------------------------------- drawing

def _inputs(result):
    """(mean_ranks, groups to draw, critical difference, test, alpha, control, notes, diagnostic)."""
    wrong = ("`result` must be a ComparisonResult (mcda.compare_over_datasets), a PairwiseOverDatasets "
             f"(mcda.pairwise_over_datasets) or a MeanRanks (mcda.mean_ranks); got {type(result).__name__}.")
    decide = getattr(result, "pair_decisions", None)
    if not callable(decide):  # mean ranks alone: no test decided a pair
        _common.require_or(result, ("mean_ranks", "supports_critical_difference", "is_weighted", "missing"), wrong)
        notes = []
        diagnostic = not result.supports_critical_difference
        if result.is_weighted:
            notes.append(f"Diagnostic only: {result.aggregation}-weighted mean ranks\n"
                         "(no critical difference, no test)")
        elif result.missing != "complete":
            notes.append("Diagnostic only: ranks among the methods available per dataset\n"
                         "(no critical difference, no test)")
        else:
            notes.append("Mean ranks only: no test was run")
        return result.mean_ranks, [], None, None, None, None, notes, diagnostic
    _common.require_or(result, ("mean_ranks", "groups", "excluded", "critical_difference"), wrong)
    decisions = decide()
    test, alpha, control = decisions.attrs["test"], decisions.attrs["alpha"], decisions.attrs["control"]
    omnibus = decisions.attrs.get("omnibus")
    if omnibus is None:  # pool-independent pairwise tests: no omnibus, no CD
        against = f"against {control}" if control is not None else "all pairs"
        notes = [f"{test} ({against}, α = {alpha:g}): bars join methods not separated"]
        excluded = list(result.excluded)
        if excluded:
            notes.append(f"excluded (missing results): {shown(excluded, 4, fmt=str)}")
        return result.mean_ranks, list(result.groups), None, test, alpha, control, notes, False
    notes = []
    excluded = list(result.excluded or {})
    if excluded:
        notes.append(f"excluded (missing results): {shown(excluded, 4, fmt=str)}")
    if result.posthoc is None:
        f = omnibus
        name = {"skillings-mack": "Skillings–Mack", "durbin": "Durbin (F)"}.get(f.test, "Friedman (Iman–Davenport)")
        p = f.decision_pvalue
        if f.rejected:
            notes.append(f"{name} p = {p:.3g} ≤ α = {result.alpha:g}, but no post-hoc\n"
                         "applies to this design: no pair may be claimed different")
        else:
            notes.append(f"{name} p = {p:.3g} > α = {result.alpha:g}:\n"
                         "no difference may be claimed")
        return result.mean_ranks, [], None, result.test, result.alpha, result.control, notes, False
    test = result.test + ("+exact" if result.posthoc.exact else "")
    if result.critical_difference is None:
        # an incomplete design's post-hoc and its adjustment ("pairwise Skillings–Mack (Holm)")
        name = result.posthoc_label if getattr(result, "posthoc_test", "") else _display_name(test)
        against = f"against {result.control}" if result.control is not None else "all pairs"
        notes.append(f"{name} ({against}, α = {result.alpha:g}): bars join methods not separated")
    return (result.mean_ranks, list(result.groups), result.critical_difference, test, result.alpha,
            result.control, notes, False)


_TICK_STEPS = (1, 2, 5, 10, 20, 25, 50, 100)


def _display_name(test: str) -> str:
    """The test's name in a figure; "+exact": the exact rank-sum p-values (single-step tests: Bonferroni on them)."""
    base, _, exact = test.partition("+")
    if not exact:
        return display_name(base)
    entry = PROCEDURES.get(base)
    if entry is not None and entry.single_step:  # Nemenyi over all pairs becomes Bonferroni; Bonferroni–Dunn stays
        return "exact " + display_name("bonferroni" if "all-pairs" in entry.comparisons else base)
    return f"{display_name(base)}, exact p"
_LABEL_OFFSET_PT = 2.0         # from a label line's end to its text
_LABEL_LINESPACING = 1.2       # matplotlib's line spacing of a multi-line label, in font sizes
_MIN_CORE_SHARE = 0.30         # the rank axis keeps at least this share of the width


def label_text(label: CDLabel) -> str:
    """A method's label: its name and mean rank, the rank on the side of the line."""
    if label.side == "left":
        return f"{label.method} ({label.mean_rank:.2f})"
    return f"({label.mean_rank:.2f}) {label.method}"


def label_font_size(n_methods: int) -> float:
    """Label size in points: the style's base size, one point less beyond 30 methods."""
    return _style.FONT_SIZE - (1.0 if n_methods > 30 else 0.0)


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """Width of ``text`` in points at ``size``: the sum of the font's own glyph advances (no figure needed).

    Kerning is left out, so this is the width as drawn or a little more (an upper bound that
    keeps fitted labels apart). The advances are measured once per character.

    >>> abs(text_width("ab", 8.0) - (text_width("a", 8.0) + text_width("b", 8.0))) < 1e-9
    True
    """
    import matplotlib

    fonts = (str(matplotlib.rcParams["font.family"]), tuple(matplotlib.rcParams["font.sans-serif"][:2]))
    return size * sum(_advance(ch, bool(bold), fonts) for ch in str(text))


@functools.lru_cache(maxsize=4096)
def _advance(char: str, bold: bool, fonts: tuple = ()) -> float:
    """One glyph's advance at 1 pt (measured at 100 pt by matplotlib's text-to-path engine)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    prop = FontProperties(size=100.0, weight="bold" if bold else "normal")
    return TextToPath().get_text_width_height_descent(char, prop, ismath=False)[0] / 100.0


def x_limits(core: tuple[float, float], *, axes_width: float, left_text: float, right_text: float) -> tuple:
    """x-limits (rank units) that leave room for the label texts inside the axes.

    ``core`` is the range that holds the axis, bars and label lines; ``axes_width`` and the
    widest texts on each side are in points. The core keeps at least 30 % of the width (labels
    wider than that extend past the axes; a tight bounding box still saves them).

    Examples
    --------
    >>> x_limits((0.0, 10.0), axes_width=200.0, left_text=50.0, right_text=50.0)
    (-5.0, 15.0)
    """
    lo, hi = core
    core_width = max(axes_width - left_text - right_text, _MIN_CORE_SHARE * axes_width)
    per_point = (hi - lo) / core_width
    return (lo - left_text * per_point, hi + right_text * per_point)


def tick_step(high: int, *, points_per_rank: float, label_size: float) -> int:
    """The smallest step among 1, 2, 5, 10, 20, 25, 50 whose tick labels do not collide.

    Examples
    --------
    >>> tick_step(50, points_per_rank=2.0, label_size=7.0), tick_step(5, points_per_rank=40.0, label_size=7.0)
    (10, 1)
    """
    widest = text_width(str(high), label_size)
    for step in _TICK_STEPS:
        if step * points_per_rank >= 1.8 * widest + 2.0:
            return step
    return _TICK_STEPS[-1]


def tick_labels(high: int, step: int) -> list[int]:
    """Labelled ranks: 1, the multiples of ``step`` and ``high``, none closer than 0.75 step to another.

    Examples
    --------
    >>> tick_labels(50, 2)[:3], tick_labels(12, 5)
    ([1, 4, 6], [1, 5, 10])
    """
    labelled = [1]
    for r in list(range(step, high + 1, step)) + [high]:
        if r - labelled[-1] >= 0.75 * step and r not in labelled:
            labelled.append(r)
    return labelled


def crossed_methods(bar: CDBar, mean_ranks: pd.Series) -> list:
    """Methods whose line crosses ``bar`` without belonging to its group.

    Empty for the contiguous groups of the Nemenyi test; with step-down tests a group can skip
    a method, and then the bar marks its members with dots.

    Examples
    --------
    >>> import pandas as pd
    >>> r = pd.Series({"a": 1.0, "b": 2.0, "c": 3.0})
    >>> crossed_methods(CDBar(methods=("a", "c"), start=1.0, end=3.0, level=0), r)
    ['b']
    """
    return [m for m, r in mean_ranks.items() if bar.start <= r <= bar.end and m not in bar.methods]


def _widest_line(text: str, size: float, *, bold: bool = False) -> float:
    return max(text_width(line, size, bold=bold) for line in text.split("\n"))


def wrapped_label_text(label: CDLabel, *, size: float, room: float, bold: bool = False) -> str:
    """:func:`label_text`, its name wrapped (at ``_``, ``-``, space) until every line fits ``room`` points.

    The mean rank stays beside the label line: at the end of the last line on the left, at
    the start of the first line on the right.

    Examples
    --------
    >>> lab = CDLabel(method="gradient_boosted_trees_variant_07", mean_rank=1.5, side="left", row=0)
    >>> wrapped_label_text(lab, size=8.0, room=100.0).split(chr(10))
    ['gradient_boosted_', 'trees_variant_07 (1.50)']
    """
    full = label_text(label)
    if _widest_line(full, size, bold=bold) <= room:
        return full
    rank = f"({label.mean_rank:.2f})"
    chars = max(int(room / _layout.char_width(size)), 4)
    while True:
        lines = _layout.wrap_label(str(label.method), chars).split("\n")
        if label.side == "left":
            tail = f"{lines[-1]} {rank}"
            lines = lines[:-1] + ([tail] if text_width(tail, size, bold=bold) <= room else [lines[-1], rank])
        else:
            head = f"{rank} {lines[0]}"
            lines = ([head] if text_width(head, size, bold=bold) <= room else [rank, lines[0]]) + lines[1:]
        text = "\n".join(lines)
        if chars <= 4 or _widest_line(text, size, bold=bold) <= room:
            return text
        chars -= 1


def label_rooms(left: float, right: float, axes_width: float) -> tuple[float, float]:
    """Points the labels may take on each side, so that the rank axis keeps 30 % of ``axes_width``.

    ``left`` and ``right`` are the widest unwrapped labels of each side (0 for an empty side).
    While both fit, nothing changes; otherwise a side narrower than half of the room keeps
    its width and the other side takes the rest, or both sides get half.

    Examples
    --------
    >>> label_rooms(50.0, 60.0, 236.0)
    (50.0, 60.0)
    >>> [round(v, 1) for v in label_rooms(200.0, 200.0, 236.0)]
    [78.6, 78.6]
    >>> [round(v, 1) for v in label_rooms(30.0, 200.0, 236.0)]
    [30.0, 127.2]
    """
    pad = _LABEL_OFFSET_PT + 2.0
    budget = (1.0 - _MIN_CORE_SHARE) * axes_width - pad * ((left > 0) + (right > 0))
    if left + right <= budget:
        return left, right
    if min(left, right) <= budget / 2:
        return (left, budget - left) if left <= right else (budget - right, right)
    return budget / 2, budget / 2


def row_pitch_for(n_lines: int) -> float:
    """Text lines from one label row to the next when the longest label has ``n_lines`` lines.

    Examples
    --------
    >>> row_pitch_for(1), round(row_pitch_for(3), 3)
    (1.0, 2.655)
    """
    return 1.0 + _LABEL_LINESPACING * (max(int(n_lines), 1) - 1) / _LINE_PITCH


def cd_pages(mean_ranks: pd.Series, groups: Sequence[Sequence[str]] = (), *, labels: str = "both",
             row_pitch: float = 1.0, header_lines: float = 0.0, font: float = 8.0,
             max_height: float | None = None) -> list[list]:
    """The methods labelled on each page, so that no diagram is taller than ``max_height`` inches.

    The rule: a diagram is as tall as its header (notes, CD), its clique bars and its label
    rows (``row_pitch`` text lines each, one line = 1.45 × ``font``). When every label fits
    :data:`mcda.present.plots._layout.PAGE_HEIGHT` (9 in), there is one page. Otherwise the methods,
    in order of mean rank, are cut into pages of consecutive ranks, as even as possible and as
    many labels per page as fit; every page draws the whole rank axis, the CD and every bar,
    and labels only its methods (``labels="both"``: the better half of the page's methods left).

    Examples
    --------
    >>> import pandas as pd
    >>> r = pd.Series({f"m{i}": float(i + 1) for i in range(200)})
    >>> [len(p) for p in cd_pages(r, font=7.0)]
    [100, 100]
    >>> len(cd_pages(r.iloc[:20], font=8.0))
    1
    """
    max_height = _layout.PAGE_HEIGHT if max_height is None else max_height
    order = _ordered(mean_ranks)
    base = cd_layout(mean_ranks, groups, labels=labels, row_pitch=row_pitch, labelled=order[:1])
    first_row = base.label_y[0]
    pitch = _LINE_PITCH * font
    lines_free = max_height * 72.0 / pitch - (header_lines + 0.15) - (first_row + 0.7) - (row_pitch - 1.0) / 2
    rows = max(int(lines_free // (_ROW_PITCH * row_pitch)) + 1, 1)
    per_page = rows * (2 if labels == "both" else 1)
    if per_page >= len(order):
        return [order]
    # the page note takes one more header line
    lines_free -= _NOTE_PITCH
    rows = max(int(lines_free // (_ROW_PITCH * row_pitch)) + 1, 1)
    per_page = rows * (2 if labels == "both" else 1)
    return [order[part] for part in _layout.page_slices(len(order), per_page)]


def hue_colors(methods: Sequence, hue, *, hue_order=None, color_palette=None) -> tuple[dict, list]:
    """Colour of every method from its group (scikit-posthocs' ``hue``), and the legend's entries.

    Parameters
    ----------
    methods : sequence of str
        The methods of the diagram.
    hue : mapping or pandas.Series
        Method -> group label, for every method of the diagram (no more, no fewer).
    hue_order : sequence, optional
        The groups in legend (and palette) order; by default in order of first appearance.
    color_palette : mapping or sequence, optional
        Group -> colour, or colours in ``hue_order``; by default the Okabe–Ito palette.

    Returns
    -------
    colors : dict
        Method -> colour.
    legend : list of (group, colour)
        In ``hue_order``.

    Examples
    --------
    >>> colors, legend = hue_colors(["a", "b", "c"], {"a": "tree", "b": "net", "c": "tree"},
    ...                             color_palette={"tree": "green", "net": "blue"})
    >>> colors["c"], legend
    ('green', [('tree', 'green'), ('net', 'blue')])
    """
    from collections.abc import Mapping

    if isinstance(hue, pd.Series):
        hue = hue.to_dict()
    if not isinstance(hue, Mapping):
        raise McdaArgumentTypeError(f"`hue` must map each method to its group (a dict or pandas Series); got "
                                    f"{type(hue).__name__}.", argument="hue")
    names = [str(m) for m in methods]
    hue = {str(k): v for k, v in hue.items()}
    missing, extra = [m for m in names if m not in hue], sorted(set(hue) - set(names))
    if missing or extra:
        raise McdaArgumentError(f"`hue` must give a group for every method of the result and no other: "
                                + (f"missing {shown(missing, 6, fmt=str)}" if missing else "")
                                + ("; " if missing and extra else "")
                                + (f"unknown {shown(extra, 6, fmt=str)}" if extra else "") + ".", argument="hue")
    present = list(dict.fromkeys(hue[m] for m in names))
    if hue_order is None:
        order = present
    else:
        order = list(hue_order)
        absent = [g for g in present if g not in order]
        if absent:
            raise McdaArgumentError(f"`hue_order` must list every group of `hue`; it lacks {shown(absent, 6)}.",
                                    argument="hue_order")
    if color_palette is None:
        palette = {g: _style.PALETTE[i % len(_style.PALETTE)] for i, g in enumerate(order)}
    elif isinstance(color_palette, Mapping):
        absent = [g for g in order if g not in color_palette]
        if absent:
            raise McdaArgumentError(f"`color_palette` must give a colour for every group; it lacks {shown(absent, 6)}.",
                                    argument="color_palette")
        palette = dict(color_palette)
    else:
        colours = list(color_palette)
        if len(colours) < len(order):
            raise McdaArgumentError(f"`color_palette` must hold at least one colour per group ({len(order)}); got "
                                    f"{len(colours)}.", argument="color_palette")
        palette = dict(zip(order, colours))
    legend = [(g, palette[g]) for g in order if g in present]
    return {m: palette[hue[str(m)]] for m in methods}, legend


def plot_critical_difference(result, *, annotate: bool = True, highlight: Sequence[str] | None = None,
                             width="column", labels: str = "both", page: int = 1, hue=None, hue_order=None,
                             color_palette=None, ax=None):
    """Demšar's critical-difference diagram of a comparison over datasets.

    Parameters
    ----------
    result : ComparisonResult, PairwiseOverDatasets or MeanRanks
        From :func:`mcda.compare_over_datasets` (mean ranks, the post-hoc decisions, the
        groups and the CD); from :func:`mcda.pairwise_over_datasets` (mean ranks on the axis,
        bars from the maximal cliques of the pairs its Wilcoxon or sign tests did not
        separate, labelled with the procedure, e.g. "Wilcoxon–Holm"; no CD exists); or a :class:`~mcda.stats._shared.ranks.MeanRanks` (then only the ranks are drawn;
        a weighted or descriptive one is titled a diagnostic).
    annotate : bool
        Write the test, α and the CD (or the omnibus verdict) above the axis. α is the
        result's own: to draw another level, recompute with ``compare_over_datasets(alpha=...)``.
    highlight : str or sequence of str, optional
        Methods drawn in the highlight colour and bold.
    width : {"column", "page"} or float
        Figure width (a paper column, a full page, or inches); the height follows from the
        number of methods. A name too long to leave the rank axis 30 % of the width wraps
        onto more lines (at ``_``, ``-``, space; :func:`wrapped_label_text`), and every
        label row then takes the longest label's lines; notes wrap to the width. Ignored when
        ``ax`` is given (the labels are fitted to its width).
    labels : {"both", "left", "right"}
        Method names on both sides (the better half left) or all on one side.
    page : int
        Which page (1 = the best methods). A diagram whose label rows would make it taller
        than a page (:data:`mcda.present.plots._layout.PAGE_HEIGHT`, 9 in: about 110 one-line labels
        with ``labels="both"``, 200 methods at 7 pt take 3 pages) is split by
        :func:`cd_pages` into pages of consecutive mean ranks; each page draws the whole axis,
        the CD and every clique bar, labels its own methods and says which it shows
        ("methods 1–67 of 200 by mean rank").
    hue : mapping or pandas.Series, optional
        Colour groups, as scikit-posthocs' ``hue``: method -> group label (e.g. a model
        family) for every method. Each method's label, label line and rank marker take its
        group's colour, and a legend under the labels names the groups. The groups are only a
        colouring: the bars still come from the test.
    hue_order : sequence, optional
        The groups in legend and palette order (default: order of first appearance in ``hue``).
    color_palette : mapping or sequence, optional
        Group -> colour, or colours in ``hue_order`` (default: the Okabe–Ito palette).
    ax : matplotlib Axes, optional
        Draw into it (its axis is switched off; labels are fitted to its current size); by
        default a new figure of paper size.

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Raises
    ------
    TypeError
        ``result`` is none of ComparisonResult, PairwiseOverDatasets, MeanRanks.
    ValueError
        ``labels`` not one of its values, ``highlight`` names an unknown method, ``hue`` does
        not give exactly the result's methods, or ``hue_order`` / ``color_palette`` lack a group.

    Notes
    -----
    Rank 1 (best) is at the left. Above the axis: the critical difference as a bar from
    rank 1 (Nemenyi), or the interval ``control rank ± CD`` around the control
    (Bonferroni–Dunn). Below: one thick bar per group of ``result.groups`` with two or more
    members; bars are never widened over a pair the test separated, and when a bar passes a
    method that is not in its group (possible with step-down tests) dots mark its members.
    Against a control, the one group is the control with the methods not separated from it
    (only pairs with the control are tested). The step-down tests (Holm, Shaffer,
    Bergmann–Hommel) have no single CD, so only their groups are drawn; the same holds for
    the pairwise Wilcoxon or sign tests of :func:`mcda.pairwise_over_datasets`, whose
    decisions come from each pair's own scores, not from the mean ranks on the axis. When the omnibus does
    not reject (``result.posthoc is None``) no bar is drawn and the figure says so; for a
    weighted mean rank (``MeanRanks.is_weighted``) no CD exists and the figure is titled a
    diagnostic.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7:1–30.
    https://jmlr.org/papers/v7/demsar06a.html

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_critical_difference
    >>> res = mcda.compare_over_datasets(mcda.datasets.load("demsar2006_published_ranks"))
    >>> fig, ax = plot_critical_difference(res)
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "method_label"]
    ['C4.5+m+cf (1.96)', 'C4.5+m (2.00)', '(3.14) C4.5', '(2.89) C4.5+cf']
    """
    mean_ranks, groups, cd, test, alpha, control, notes, diagnostic = _inputs(result)
    check_choice("labels", labels, _LABEL_SIDES)
    if highlight is None:
        highlight = set()
    else:
        highlight = {str(h) for h in ([highlight] if isinstance(highlight, str) else highlight)}
    unknown = sorted(highlight - {str(m) for m in mean_ranks.index})
    if unknown:
        raise McdaArgumentError(f"`highlight` must name methods of the result {list(mean_ranks.index)}; got {unknown}",
                                argument="highlight")
    colors, legend = ({}, []) if hue is None else hue_colors(list(mean_ranks.index), hue, hue_order=hue_order,
                                                             color_palette=color_palette)
    with _style.style():
        if ax is None:
            axes_width = _FIGURE_AXES[2] * _style.figure_size(width)[0] * 72.0
        else:
            fig, ax = _style.get_figure(ax)
            axes_width = ax.get_position().width * fig.get_figwidth() * 72.0
        k = len(mean_ranks)
        font = label_font_size(k)
        show_cd = cd is not None and annotate
        chars = max(int(0.97 * axes_width / _layout.char_width(font - 1)), 8)
        note_lines = [wrapped for note in notes for part in note.split("\n")
                      for wrapped in _layout.wrap_label(part, chars).split("\n")] if (annotate or diagnostic) else []
        # the names wrap to their side's room; every row takes the longest label's lines
        everyone = label_rows(mean_ranks, labels=labels)
        natural = {"left": 0.0, "right": 0.0}
        for lab in everyone:
            natural[lab.side] = max(natural[lab.side], text_width(label_text(lab), font,
                                                                  bold=str(lab.method) in highlight))
        rooms = dict(zip(("left", "right"), label_rooms(natural["left"], natural["right"], axes_width)))
        texts = {lab.method: wrapped_label_text(lab, size=font, room=rooms[lab.side],
                                                bold=str(lab.method) in highlight) for lab in everyone}
        pitch = row_pitch_for(max(t.count("\n") + 1 for t in texts.values()))
        legend_cols = _legend_columns(legend, axes_width, font - 1) if legend else 0
        legend_lines = _legend_lines(len(legend), legend_cols)
        header_lines = _header_lines(show_cd, len(note_lines))
        pages = cd_pages(mean_ranks, groups, labels=labels, row_pitch=pitch, font=font,
                         header_lines=header_lines + legend_lines)
        if len(pages) > 1 and labels == "both":     # on a page a label may change side: room for either
            narrow = min(r for r in rooms.values() if r > 0)
            lines = max(wrapped_label_text(lab, size=font, room=narrow, bold=str(lab.method) in highlight).count("\n")
                        for lab in everyone) + 1
            pitch = max(pitch, row_pitch_for(lines))
            pages = cd_pages(mean_ranks, groups, labels=labels, row_pitch=pitch, font=font,
                             header_lines=header_lines + legend_lines)
        _layout.check_page(page, len(pages), "the diagram's pages of methods")
        shown_methods = pages[page - 1]
        if len(pages) > 1:
            first = sum(len(p) for p in pages[:page - 1]) + 1
            note_lines.append(f"methods {first}–{first + len(shown_methods) - 1} of {k} by mean rank "
                              f"(page {page} of {len(pages)}: page=)")
        layout = cd_layout(mean_ranks, groups, labels=labels, row_pitch=pitch, labelled=shown_methods)
        # a page's labels sit on their own side of the page's methods (re-wrapped if they changed side)
        texts = {lab.method: wrapped_label_text(lab, size=font, room=rooms[lab.side],
                                                bold=str(lab.method) in highlight) for lab in layout.labels}
        return _draw(layout, mean_ranks=mean_ranks, cd=cd, test=test, alpha=alpha, control=control,
                     note_lines=note_lines, diagnostic=diagnostic, show_cd=show_cd, highlight=highlight,
                     width=width, ax=ax, texts=texts, colors=colors, legend=legend, legend_cols=legend_cols)


_FIGURE_AXES = (0.01, 0.0, 0.98, 1.0)


def _header_lines(show_cd: bool, n_notes: int) -> float:
    """Text lines above the rank axis: tick labels, the CD bar and its label, the notes."""
    return 1.3 + (1.7 if show_cd else 0.0) + _NOTE_PITCH * n_notes


def _legend_columns(legend: list, width_pt: float, size: float) -> int:
    """Entries per legend row: as many as fit ``width_pt`` (handle 18 pt + text + 10 pt gap)."""
    widest = max((text_width(str(g), size) for g, _ in legend), default=0.0) + 28.0
    return max(1, min(len(legend), int(width_pt // widest)))


def _legend_lines(n_groups: int, columns: int) -> float:
    """Text lines the group legend takes under the labels: a gap, its title and its rows."""
    return 0.4 + 1.25 * (1 + math.ceil(n_groups / columns)) if n_groups else 0.0


def _draw(layout: CDLayout, *, mean_ranks, cd, test, alpha, control, note_lines, diagnostic, show_cd, highlight,
          width, ax, texts, colors=None, legend=(), legend_cols=0):
    colors = colors or {}
    k = len(mean_ranks)
    font = label_font_size(k)
    small = font - 1
    pitch = _LINE_PITCH * font                               # points per text line
    header = _header_lines(show_cd, len(note_lines))
    top, bottom = -header - 0.15, layout.depth + 0.7
    if layout.labels:                                       # the last row's extra lines, when labels wrap
        bottom += (row_pitch_for(max(t.count("\n") for t in texts.values()) + 1) - 1.0) / 2
    bottom += _legend_lines(len(legend), legend_cols)      # the group legend goes under the lowest label row
    if ax is None:
        import matplotlib.pyplot as plt

        size = _style.figure_size(width, height=(bottom - top) * pitch / 72.0)
        fig = plt.figure(figsize=size)
        ax = fig.add_axes(_FIGURE_AXES)
        own_figure = True
    else:
        fig, ax = _style.get_figure(ax)
        own_figure = False
    ax.set_axis_off()
    low, high = layout.low, layout.high
    core = [layout.left_edge, layout.right_edge]
    if show_cd:
        ends = ((mean_ranks[control] - cd, mean_ranks[control] + cd) if control is not None else (low, low + cd))
        core = [min(core[0], ends[0] - 0.05), max(core[1], ends[1] + 0.05)]
    widths = {"left": 0.0, "right": 0.0}
    for lab in layout.labels:
        w = _widest_line(texts[lab.method], font, bold=str(lab.method) in highlight) + _LABEL_OFFSET_PT + 2.0
        widths[lab.side] = max(widths[lab.side], w)
    fig_w, fig_h = fig.get_size_inches()
    axes_width = ax.get_position().width * fig_w * 72.0
    needed = (widths["left"] + widths["right"]) / (1.0 - _MIN_CORE_SHARE)
    if own_figure and axes_width < needed:            # long names: widen rather than clip them
        fig_w = fig_w + (needed - axes_width) / 72.0 / ax.get_position().width
        fig.set_size_inches(fig_w, fig_h)
        axes_width = ax.get_position().width * fig_w * 72.0
    x_lo, x_hi = x_limits(tuple(core), axes_width=axes_width, left_text=widths["left"], right_text=widths["right"])
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(bottom, top)                                  # y grows downwards
    points_per_rank = axes_width / (x_hi - x_lo)
    black, grey = "black", _style.NEUTRAL

    # the rank axis, ticks and tick labels (rank 1 = best, at the left)
    ax.plot([low, high], [0, 0], color=black, lw=0.8, solid_capstyle="butt", gid="rank_axis")
    step = tick_step(high, points_per_rank=points_per_rank, label_size=small)
    majors = tick_labels(high, step)
    for r in range(low, high + 1):
        major = r in majors
        if major or points_per_rank >= 2.5:
            ax.plot([r, r], [0, -0.3 if major else -0.15], color=black, lw=0.6, gid="rank_tick")
        if major:
            ax.text(r, -0.4, str(r), ha="center", va="bottom", fontsize=small, color=black, gid="tick_label")

    # the critical difference
    y_head = -1.4
    if show_cd:
        y_cd = -2.0
        name = _display_name(test)
        start, end = ends
        ax.plot([start, end], [y_cd, y_cd], color=black, lw=1.0, gid="cd_bar")
        for x in (start, end):
            ax.plot([x, x], [y_cd - 0.15, y_cd + 0.15], color=black, lw=0.8, gid="cd_bar_end")
        if control is None:
            label = f"CD = {cd:.2f} ({name}, α = {alpha:g})"
            ax.text(start, y_cd - 0.3, label, ha="left", va="bottom", fontsize=small, gid="cd_label")
        else:
            ax.plot([mean_ranks[control]] * 2, [y_cd - 0.25, y_cd + 0.25], color=black, lw=1.0, gid="cd_bar_end")
            label = f"{name} CD = {cd:.2f} around {control} (α = {alpha:g})"
            ax.text(mean_ranks[control], y_cd - 0.3, label, ha="center", va="bottom", fontsize=small,
                    gid="cd_label")
        y_head = y_cd - 1.1
    for i, note in enumerate(note_lines):
        ax.text((x_lo + x_hi) / 2, y_head - _NOTE_PITCH * (len(note_lines) - 1 - i), note, ha="center",
                va="bottom", fontsize=small, color=_style.HIGHLIGHT if diagnostic else black, gid="note")

    # label lines and labels
    for lab in layout.labels:
        y = layout.label_y[lab.row]
        edge = layout.left_edge if lab.side == "left" else layout.right_edge
        hot = str(lab.method) in highlight
        group_color = colors.get(lab.method)
        line_color = group_color or (_style.HIGHLIGHT if hot else grey)
        ax.plot([lab.mean_rank, lab.mean_rank, edge], [0, y, y], color=line_color,
                lw=1.0 if hot or group_color else 0.6, solid_joinstyle="miter", gid="label_line")
        if group_color:
            ax.plot([lab.mean_rank], [0], linestyle="none", marker="o", markersize=3.0, markeredgewidth=0,
                    color=group_color, zorder=3, gid="rank_marker")
        ax.annotate(texts[lab.method], xy=(edge, y), xytext=(-_LABEL_OFFSET_PT if lab.side == "left" else
                                                           _LABEL_OFFSET_PT, 0),
                    textcoords="offset points", ha="right" if lab.side == "left" else "left", va="center",
                    fontsize=font, color=group_color or (_style.HIGHLIGHT if hot else black),
                    fontweight="bold" if hot else "normal", linespacing=_LABEL_LINESPACING, gid="method_label")

    # clique bars (dots on the members only where a bar passes a method outside its group)
    for bar in layout.bars:
        y = layout.bar_y[bar.level]
        ax.plot([bar.start - BAR_PAD, bar.end + BAR_PAD], [y, y], color=black, lw=2.2, solid_capstyle="butt",
                gid="clique_bar")
        if crossed_methods(bar, mean_ranks):
            ax.plot([mean_ranks[m] for m in bar.methods], [y] * len(bar.methods), linestyle="none", marker="o",
                    markersize=2.0, markeredgewidth=0, color="white", gid="clique_member")
    if legend:
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], color=c, lw=1.2, marker="o", markersize=3.0, markeredgewidth=0) for _, c in legend]
        box = ax.legend(handles, [str(g) for g, _ in legend], loc="lower center", bbox_to_anchor=(0.5, 0.0),
                        ncol=legend_cols, frameon=False, fontsize=small, handlelength=1.6, columnspacing=1.2,
                        borderaxespad=0.2, title="colour: group", title_fontsize=small)
        box.set_gid("hue_legend")
    return fig, ax
