r"""LaTeX tables for papers, from mcda's result objects (booktabs; compute nothing).

- :func:`scores_to_latex`: datasets × methods, the mean and its interval per cell (a t interval
  as ``mean ± half-width``, a bootstrap interval as ``mean^{+up}_{-down}``), the best per
  dataset in bold — direction-aware, ties in bold too.
- :func:`pairwise_to_latex`: the paired tests within each dataset, Holm-adjusted, with
  significance markers.
- :func:`comparison_to_latex`: mean ranks across datasets and the groups of methods the
  post-hoc test did not separate.

Each returns the LaTeX text and writes it to ``path`` when given, ready for ``\input``; the
tables need ``\usepackage{booktabs}`` and ``\usepackage{longtable}``.

Layout rule (any number of methods and datasets; the text block is taken as the article class's
345 pt × 550 pt at 10 pt):

- a table with more than 30 body rows is a ``longtable`` that breaks across pages (caption and
  header first, the header repeated on every page under "(continued)"), else a ``table`` float;
- a table is set in the largest of 10, 9, 8, 7 pt at which its estimated width fits the text;
  a scores table that does not fit at 7 pt is split into the fewest column blocks of
  consecutive methods that fit, each its own table repeating the dataset column;
- method names longer than 24 characters are shown as keys M1, M2, … in the scores and
  pairwise tables, named in the caption (≤ 10 methods) or in a key table that follows; the
  control table (``pairwise_to_latex(control=)``) names its control in full in the caption and
  keys only the other methods whose names are too long, M1, M2, … in the table's order, so
  "Versus" starts at M1 and a short name stays itself (no key at all when every name fits).

Examples
--------
>>> import mcda
>>> from mcda.export import scores_to_latex
>>> text = scores_to_latex(mcda.datasets.load("demsar2006"))
>>> print(next(line for line in text.splitlines() if line.startswith("adult")))
adult (sample) & 0.763 & 0.768 & 0.771 & $\mathbf{0.798}$ \\
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from mcda._core.results import scale_of
from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.validation import check_positive_int
from mcda.data.cards import DIRECTIONS, better_phrase, higher_is_better
from mcda.stats.procedures import display_name

__all__ = ["scores_to_latex", "pairwise_to_latex", "comparison_to_latex", "item_leaderboard_to_latex", "item_pairs_to_latex",
           "latex_escape", "significance_marker"]

_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
             "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


# Line breaks of any kind (what str.splitlines splits on) and tabs are white space in a label; any
# other control character is shown as its code. A raw line break in a label or metric name would
# end a `%` comment or a table row and make the rest of the name live LaTeX (`\input{...}`).
_LINE_BREAKS = re.compile("[\t\n\r\v\f\x1c-\x1e\x85\u2028\u2029]+")
_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f]")


def _one_line(text) -> str:
    """``text`` on one line: every line break or tab becomes one space, other controls ``<U+0007>``."""
    text = _LINE_BREAKS.sub(" ", str(text))
    return _CONTROLS.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def latex_escape(text) -> str:
    r"""``text`` with LaTeX's special characters escaped (``C4.5_m & co`` → ``C4.5\_m \& co``).

    Line breaks and tabs become spaces and other control characters are written as their code
    (``<U+0007>``), so no label can end a table row or a comment and turn into live LaTeX.
    """
    return "".join(_SPECIALS.get(ch, ch) for ch in _one_line(text))


def significance_marker(p: float, alpha: float) -> str:
    """``***`` for p ≤ α/50, ``**`` for p ≤ α/5, ``*`` for p ≤ α, else "" (NaN: "")."""
    if p is None or not np.isfinite(p):
        return ""
    if p <= alpha / 50:
        return "***"
    if p <= alpha / 5:
        return "**"
    if p <= alpha:
        return "*"
    return ""


def _number(value: float, digits: int) -> str:
    text = f"{value:.{digits}f}"
    return "0" + text[2:] if text.startswith("-0") and float(text) == 0 else text  # no "-0.000"


def _p_text(p: float, digits: int) -> str:
    if p is None or not np.isfinite(p):
        return "--"
    floor = 10.0 ** -digits
    return f"$<${_number(floor, digits)}" if p < floor else _number(p, digits)


def _sci(p: float) -> str:
    """A p-value's relation for math mode: ``= 0.0144``, ``= 1.59 \\times 10^{-9}`` below 0.001, or
    ``< 10^{-307}`` below the smallest normal double (where it underflows, to 0 at worst)."""
    if not np.isfinite(p):
        return "= \\mathrm{NaN}"
    if p >= 1e-3:
        return f"= {p:.3g}"
    if p < np.finfo(float).tiny:
        return "< 10^{-307}"
    mantissa, exponent = f"{p:.2e}".split("e")
    return f"= {mantissa} \\times 10^{{{int(exponent)}}}"


# --------------------------------------------------------------------------- page layout
#
# The rule every table follows (stated in the module docstring): the text block is taken as
# 345 pt wide and 550 pt high (LaTeX's article class at 10 pt; \linewidth is what LaTeX uses, the
# numbers only choose the layout). A table's width is estimated from its cells' text; it is set
# in the largest of 10, 9, 8, 7 pt (\normalsize, \small, \footnotesize, \scriptsize) at which it
# fits, never below 7 pt: a table that does not fit at 7 pt is split into column blocks (methods
# in consecutive groups, each block a table of its own repeating the first column). A table with
# more body rows than fit a page (_LONG_ROWS) is a ``longtable`` (header repeated on every page,
# "continued" footers) instead of a float. Method names longer than _NAME_MAX characters are
# replaced by keys M1, M2, … in the table and spelled out in the caption.

_TEXT_WIDTH = 345.0  # pt
_LONG_ROWS = 30  # more body rows than this: a longtable breaking across pages
_NAME_MAX = 24  # longer method names become keys M1, M2, … (spelled out in the caption)
_SIZES = ((10, ""), (9, r"\small"), (8, r"\footnotesize"), (7, r"\scriptsize"))
_COLSEP = 12.0  # two \tabcolsep of 6 pt per column
_WIDTHS = {".": 2.8, ",": 2.8, ":": 2.8, ";": 2.8, " ": 3.4, "-": 3.4, "(": 3.9, ")": 3.9, "[": 2.8, "]": 2.8,
           "i": 2.8, "l": 2.8, "j": 3.1, "t": 3.9, "f": 3.1, "r": 3.9, "m": 8.4, "w": 7.3, "+": 7.8, "=": 7.8,
           "*": 5.0, "<": 7.8, ">": 7.8, "|": 2.8, "/": 5.0}


def _text_width(latex: str) -> float:
    """An upper estimate of ``latex``'s width in pt at 10 pt (Computer Modern)."""
    text = latex
    width = 0.0
    for sup, sub in re.findall(r"\^\{([^}]*)\}_\{([^}]*)\}", text):  # stacked scripts: the longer, at 70%
        width += 0.7 * max(_text_width(sup), _text_width(sub)) + 1.0
    text = re.sub(r"\^\{([^}]*)\}_\{([^}]*)\}", "", text)
    bold = 1.15 if r"\mathbf" in text or r"\textbf" in text else 1.0
    width += 12.0 * text.count(r"\pm") + 8.0 * text.count(r"\times")
    text = text.replace(r"\pm", "").replace(r"\times", "")
    text = re.sub(r"\\text(backslash|asciitilde|asciicircum)\{\}", "~", text)
    text = re.sub(r"\\(mathbf|mathrm|textbf|emph)", "", text)
    text = re.sub(r"\\([_&%$#{}])", r"\1", text)
    text = text.replace("$", "").replace("{", "").replace("}", "").replace("\\ ", " ")
    for ch in text:
        if ch in _WIDTHS:
            width += _WIDTHS[ch]
        elif ch.isupper() or ch in "_&%#~@":
            width += 7.6
        else:
            width += 5.3
    return bold * width * 1.12


def _column_widths(header: list[str], rows: list[list[str]]) -> list[float]:
    widths = [_text_width(h) for h in header]
    for row in rows:
        for j, cell in enumerate(row):
            widths[j] = max(widths[j], _text_width(cell))
    return widths


def _fitting_size(widths: list[float]) -> tuple[int, str] | None:
    """The largest font size at which columns of ``widths`` (pt at 10 pt) fit the text width, or None."""
    for points, command in _SIZES:
        if sum(w * points / 10 + _COLSEP for w in widths) <= _TEXT_WIDTH:
            return points, command
    return None


def _breakable(text: str) -> str:
    """``text`` escaped, with line-break points after ``_ - . /`` and inside letter/digit runs over 12
    characters: where the case or the kind of character changes (``Gradient|Boosted|Ensemble``,
    ``ResNet|50``: the figures' rule, :func:`mcda.present.plots._layout.word_parts`), and every 12 characters
    only in a part still longer than that.

    A name is never hyphenated (``Gra-dient``, ``Long-MethodName`` would read as part of the name).
    TeX hyphenates only a word of five letters or more that directly follows a space; the parts after
    a break point follow its penalty, and a word that follows a space is given a ``\\nobreak`` (a
    penalty, not a break point) before it."""
    from mcda.present.plots._layout import word_parts  # pure text rules: no matplotlib

    pieces = []
    after_space = True  # no penalty since the last space (TeX skips punctuation looking for the word)
    for run in re.split(r"([_\-./ ])", _one_line(text)):
        if run in ("_", "-", ".", "/"):
            pieces.append(latex_escape(run) + r"\allowbreak{}")
            after_space = False
        elif run == " ":
            pieces.append(" ")
            after_space = True
        else:
            for token in re.split(r"([A-Za-z0-9]+)", run):
                if not token.isalnum():
                    pieces.append(latex_escape(token))
                    continue
                parts = [token] if len(token) <= 12 else \
                    [part[i:i + 12] for part in word_parts(token) for i in range(0, len(part), 12)]
                guard = r"\nobreak{}" if after_space and len(parts[0]) >= 5 else ""
                pieces.append(guard + r"\allowbreak{}".join(latex_escape(p) for p in parts))
                after_space = False
    return "".join(pieces)


def _method_keys(methods: list, *, noun: str = "methods", only_long: bool = False) -> tuple[dict, str, str]:
    """Table names of ``methods`` (keys M1, M2, … when any name is longer than _NAME_MAX), the caption's key
    sentence, and a key table (a longtable M_i → name) when the key is too long for a caption ("" if none).

    ``noun`` names what the keys stand for in the caption ("methods"; "other methods" in a control table,
    whose control is named in full in the caption and takes no key). ``only_long``: only the names longer
    than _NAME_MAX get keys (M1, M2, … in their order); the others keep their names, unless one of them
    reads as a key (a method called "m1" or "M2"), when every name gets a key."""
    names = [str(m) for m in methods]
    if all(len(n) <= _NAME_MAX for n in names):
        return {m: latex_escape(m) for m in names}, "", ""
    keyed = [n for n in names if len(n) > _NAME_MAX] if only_long else names
    kept = {n.casefold() for n in names if len(n) <= _NAME_MAX}
    if only_long and any(f"m{i + 1}" in kept for i in range(len(keyed))):
        keyed = names  # a kept name would read as a key (a method called "m1" beside key M1): key every name
    keys = {m: latex_escape(m) for m in names} | {m: f"M{i + 1}" for i, m in enumerate(keyed)}
    names = keyed
    sentence = f" {noun[0].upper()}{noun[1:]}: " + "; ".join(f"{keys[m]}~= {_breakable(m)}" for m in names) + "."
    if len(names) <= 10:
        return keys, sentence, ""
    table = _float(f"Keys of the {noun} in the table above (M1--M{len(names)}).", None, ["Key", "Method"],
                   [[keys[m], latex_escape(m)] for m in names], "ll", [], "")
    shown = f"{noun[0].upper()}{noun[1:]}" + (f" with names over {_NAME_MAX} characters" if only_long else "")
    return keys, f" {shown} as keys M1--M{len(names)}, named in the key table that follows.", table


def _scale_caption(scale: str | None) -> str:
    """The caption's sentence for converted scores (a cube's or result's scale), '' when there is none."""
    return f" Scores converted: {latex_escape(scale.replace('->', 'to'))}." if scale else ""


def _emit(path, blocks: list[str]) -> str:
    text = "\n".join(blocks)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def _float(caption: str, label: str | None, header: list[str], rows: list[list[str] | str], spec: str,
           comments: list[str], size: str) -> str:
    """One table (captioned, labelled when ``label``): a float, or a longtable when rows exceed a page.

    ``rows`` hold the cells of a row, or a raw LaTeX line (``\addlinespace``) between rows.
    """
    body = [r if isinstance(r, str) else " & ".join(r) + r" \\" for r in rows]
    n_rows = sum(not isinstance(r, str) for r in rows)
    lines = [f"% {_one_line(c)}" for c in comments]
    head = [r"\toprule", " & ".join(header) + r" \\", r"\midrule"]
    label_text = r"\label{" + _one_line(label) + "}" if label else ""
    if n_rows <= _LONG_ROWS:
        lines += ["% requires \\usepackage{booktabs}", r"\begin{table}[tbp]", r"\centering"]
        if size:
            lines.append(size)
        if caption:
            lines.append(r"\caption{" + caption + "}")
        if label_text:
            lines.append(label_text)
        lines += [r"\begin{tabular}{" + spec + "}", *head, *body, r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
        return "\n".join(lines)
    n = len(header)
    lines += ["% requires \\usepackage{booktabs} and \\usepackage{longtable}: the table breaks across pages",
              r"\begingroup"]
    if size:
        lines.append(size)
    lines += [r"\begin{longtable}{" + spec + "}"]
    if caption:
        lines.append(r"\caption{" + caption + "}" + label_text + r" \\")
    elif label_text:
        lines.append(label_text + r" \\")
    lines += [*head, r"\endfirsthead",
              r"\multicolumn{" + str(n) + r"}{@{}l}{\emph{(continued)}} \\",
              *head, r"\endhead",
              r"\midrule",
              r"\multicolumn{" + str(n) + r"}{r@{}}{\emph{(continued on the next page)}} \\",
              r"\endfoot",
              r"\bottomrule",
              r"\endlastfoot",
              *body, r"\end{longtable}", r"\endgroup", ""]
    return "\n".join(lines)


def _result_frame(result, expected: str) -> pd.DataFrame:
    """``result.to_frame()``, or a TypeError naming what was expected when ``result`` has none."""
    to_frame = getattr(result, "to_frame", None)
    if not callable(to_frame) or isinstance(result, (pd.DataFrame, pd.Series)) or hasattr(result, "dims"):
        raise McdaArgumentTypeError(f"`result` must be a {expected}; got {type(result).__name__}", argument="result")
    return to_frame()


# --------------------------------------------------------------------------- scores table

def _scores_frame(source) -> tuple[pd.DataFrame, str | None, float | None, str, str, str | None]:
    """(table with dataset, method, mean, ci_low, ci_high; ci_method; level; direction; metric; seeds note)."""
    if hasattr(source, "table") and hasattr(source, "ci_method"):  # an IntervalSummary
        table = source.table
        if "metric" in table.columns:
            raise McdaArgumentError("`source` summarises several metrics; a scores table is about one metric "
                             "(summarise a single-metric cube)", argument="source")
        n = table["n_seeds"] if "n_seeds" in table.columns else None
        seeds = None
        if n is not None:
            n = n[n > 0]
        if n is not None and len(n):
            lo, hi = int(np.nanmin(n)), int(np.nanmax(n))
            seeds = f"{lo} seeds" if lo == hi else f"{lo}--{hi} seeds"
        frame = table[["dataset", "method", "mean", "ci_low", "ci_high"]].copy()
        return (frame, str(source.ci_method), float(source.confidence_level), str(getattr(source, "direction", "")),
                str(getattr(source, "metric", "") or ""), seeds)
    from mcda.data.cube import as_cube

    cube = as_cube(source)
    if "seed" in cube.dims:
        raise McdaArgumentError("`source` has a `seed` dim; pass its interval summary (mcda.summary(cube)) so each cell "
                         "shows a mean and an interval, or reduce the seeds first (mcda.reduce_seeds)",
                                argument="source")
    extra = [d for d in cube.dims if d not in ("dataset", "method")]
    if extra:
        raise McdaArgumentError(f"`source` has extra dims {extra}; select one value along each first",
                                argument="source")
    frame = cube.to_dataframe(name="mean").reset_index()[["dataset", "method", "mean"]]
    frame["ci_low"] = np.nan
    frame["ci_high"] = np.nan
    return frame, None, None, str(cube.attrs.get("direction", "")), str(cube.attrs.get("metric", "") or ""), None


def _cell(mean: float, low: float, high: float, ci_method: str | None, digits: int, bold: bool) -> str:
    if not np.isfinite(mean):
        return "--"
    m = _number(mean, digits)
    if ci_method is None or not (np.isfinite(low) and np.isfinite(high)):
        body = m
    elif ci_method == "t":
        body = f"{m} \\pm {_number((high - low) / 2, digits)}"
    else:
        body = f"{m}^{{+{_number(high - mean, digits)}}}_{{-{_number(mean - low, digits)}}}"
    if bold:
        return f"$\\mathbf{{{body}}}$"
    return f"${body}$" if body != m else m


def best_in_rows(means: pd.DataFrame, direction: str, digits: int) -> pd.DataFrame:
    """Boolean datasets × methods: the best mean per row as displayed (rounded to ``digits``), ties included.

    Comparing the displayed values means two cells that read the same are both bold.
    """
    if direction not in DIRECTIONS:
        raise McdaArgumentError(f"`direction` must be one of {{'higher_is_better', 'lower_is_better'}}; got {direction!r}",
                                argument="direction", value=direction, allowed=("higher_is_better", "lower_is_better"))
    shown = means.round(digits)
    target = shown.max(axis=1) if higher_is_better(direction) else shown.min(axis=1)
    return shown.eq(target, axis=0) & shown.notna()


def scores_to_latex(source, path=None, *, bold_best: bool = True, digits: int = 3, caption: str | None = None,
                    label: str | None = None, direction: str | None = None, metric: str | None = None,
                    scale: str | None = None, order=None) -> str:
    r"""A booktabs table, datasets × methods: the mean and its interval per cell, the best per dataset in bold.

    Parameters
    ----------
    source : IntervalSummary or a cube without seeds
        :func:`mcda.summary`'s result (mean and interval over seeds per cell), or any input of
        :func:`mcda.score_cube` with one score per (dataset, method) (the scores alone).
    path : str or Path, optional
        Where to write the table.
    bold_best : bool, default True
        Bold the best mean of each dataset, direction-aware (the highest for a
        higher-is-better metric, the lowest otherwise). Ties on the displayed value are all bold.
    digits : int, default 3
        Decimals shown (values are rounded for display only).
    caption, label : str, optional
        Default caption: the metric, its direction, the interval and the bold rule.
    direction, metric : str, optional
        Override what ``source`` says (normally not needed).
    scale : str, optional
        The unit conversion applied to the scores (a cube's ``attrs["scale"]``, e.g.
        ``"percent -> fraction (divided by 100)"``), named in the caption and a comment.
    order : sequence of str, optional
        The methods' order (columns and their keys M1, M2, ...) instead of the source's: one order
        for every table and figure of a run (``mcda compare`` passes the across-dataset ranking).
        It must name every method of the source; names it has beyond them are skipped.

    Returns
    -------
    str
        The LaTeX text (also written to ``path``).

    Notes
    -----
    A t interval is symmetric and shown as ``mean ± half-width``; a percentile-bootstrap
    interval generally is not and is shown as ``mean^{+(high − mean)}_{−(mean − low)}``. A cell
    without an interval (one seed) shows the mean alone; a missing cell shows "--", and the
    caption then says so.

    Examples
    --------
    >>> import mcda
    >>> from mcda.export import scores_to_latex
    >>> s = mcda.summary(mcda.datasets.synthetic(n_datasets=2, n_methods=2, n_seeds=5, rng=0), ci_method="t")
    >>> print(next(line for line in scores_to_latex(s).splitlines() if line.startswith("dataset\\_0")))
    dataset\_0 & $0.760 \pm 0.008$ & $\mathbf{0.763 \pm 0.011}$ \\
    """
    digits = check_positive_int("digits", digits, minimum=0)
    if not isinstance(bold_best, bool):
        raise McdaArgumentTypeError(f"`bold_best` must be True or False; got {bold_best!r}",
                                    argument="bold_best", value=bold_best)
    frame, ci_method, level, src_direction, src_metric, seeds = _scores_frame(source)
    direction = direction or src_direction
    metric = metric or src_metric or "score"
    datasets = list(pd.unique(frame["dataset"]))
    methods = list(pd.unique(frame["method"]))
    if order is not None:
        if isinstance(order, (str, bytes)):
            raise McdaArgumentError(f"`order` must be a sequence of method names; got {order!r}", argument="order",
                                    value=order)
        given = list(dict.fromkeys(str(m) for m in order))
        lacking = [str(m) for m in methods if str(m) not in set(given)]
        if lacking:
            raise McdaArgumentError(f"`order` must name every method of the table; it lacks "
                                    f"{', '.join(map(repr, lacking))}", argument="order", value=list(order))
        by_name = {str(m): m for m in methods}
        methods = [by_name[m] for m in given if m in by_name]
    wide = {c: frame.pivot(index="dataset", columns="method", values=c).reindex(index=datasets, columns=methods)
            for c in ("mean", "ci_low", "ci_high")}
    bold = best_in_rows(wide["mean"], direction, digits) if bold_best else \
        pd.DataFrame(False, index=datasets, columns=methods)
    names, key, key_table = _method_keys(methods)
    cells = {m: [_cell(float(wide["mean"].at[d, m]), float(wide["ci_low"].at[d, m]), float(wide["ci_high"].at[d, m]),
                       ci_method, digits, bool(bold.at[d, m])) for d in datasets] for m in methods}
    first = [latex_escape(d) for d in datasets]
    better = better_phrase(direction)
    if ci_method is None:
        what = "one score per dataset and method"
    else:
        kind = "t interval" if ci_method == "t" else "percentile-bootstrap interval"
        what = f"mean and {level * 100:g}\\% {kind} over {seeds or 'seeds'}"
    default_caption = f"{latex_escape(metric)} ({better}): {what}."
    scale = scale or scale_of(source)
    default_caption += _scale_caption(scale)
    if bold_best:
        default_caption += " Best per dataset in bold (ties in bold too)."
    if ci_method == "bootstrap":
        default_caption += r" Intervals as mean$^{+\mathrm{up}}_{-\mathrm{down}}$."
        narrow = getattr(source, "too_narrow", None)
        if narrow is not None and len(narrow):  # an IntervalSummary's cells with too few seeds for the bootstrap
            default_caption += (f" With {seeds or 'these seeds'} the percentile bootstrap is too narrow (it covers "
                                "less than its nominal rate).")
    if frame["mean"].isna().any():
        default_caption += " --: no result (a missing cell)."
    comments = [f"mcda: {metric}, {better}; {what.replace(chr(92), '')}" + (f"; scale {scale}" if scale else ""),
                "missing cells: --" if frame["mean"].isna().any() else "no missing cell"]
    caption = (caption if caption is not None else default_caption) + key
    first_width = _column_widths(["Dataset"], [[f] for f in first])
    widths = {m: _column_widths([names[str(m)]], [[c] for c in cells[m]])[0] for m in methods}
    # the fewest column blocks (consecutive methods, as even as possible) that each fit at 7 pt or more
    for n_blocks in range(1, len(methods) + 1):
        per = -(-len(methods) // n_blocks)
        blocks = [methods[i:i + per] for i in range(0, len(methods), per)]
        sizes = [_fitting_size(first_width + [widths[m] for m in b]) for b in blocks]
        if all(sizes) or per == 1:
            break
    size = min((sz for sz in sizes if sz), default=_SIZES[-1])[1]
    tables = []
    for i, block in enumerate(blocks):
        rows = [[first[r]] + [cells[m][r] for m in block] for r in range(len(datasets))]
        header = ["Dataset"] + [names[str(m)] for m in block]
        if len(blocks) == 1:
            cap, lab, com = caption, label, comments
        else:
            span = f"methods {methods.index(block[0]) + 1}--{methods.index(block[-1]) + 1} of {len(methods)}"
            cap = (caption + f" Part {i + 1} of {len(blocks)}: {span}." if i == 0 else
                   f"(continued) Part {i + 1} of {len(blocks)}: {span}.")
            lab = label if i == 0 else None
            com = comments if i == 0 else []
        tables.append(_float(cap, lab, header, rows, "l" + "c" * len(block), com, size))
    return _emit(path, tables + ([key_table] if key_table else []))


# --------------------------------------------------------------------------- paired tests

#: The most (dataset, pair) rows :func:`pairwise_to_latex` sets: about 200 pages. Beyond it (12
#: methods on 150 datasets, 200 methods on one) the table is refused, naming ``control=``.
PAIRWISE_MAX_ROWS = 10_000
_PAIRWISE_ROW_BYTES = 75   # a row's LaTeX, measured at 200 methods (42 MB for 597,000 rows)
_ROWS_PER_PAGE = 50

def pairwise_to_latex(result, path=None, *, digits: int = 3, caption: str | None = None,
                      label: str | None = None, control: str | None = None) -> str:
    r"""The paired tests within each dataset: mean difference and interval, raw and Holm-adjusted p, markers.

    Parameters
    ----------
    result : PairedTests
        :func:`mcda.paired_tests`'s result (Holm over the pairs of each dataset).
    path : str or Path, optional
    digits : int, default 3
        Decimals of differences and p-values (p below 10^-digits shows as "<0.001").
    caption, label : str, optional
    control : str, optional
        The "control vs each other method" table: one row per (dataset, other method), the
        difference control − other, Holm over the k − 1 comparisons of a dataset. Default: the
        result's own ``control`` (``mcda.paired_tests(..., control=...)``), else every pair.
        From an all-pairs result the control's rows are selected and re-adjusted, which gives
        the same table as ``paired_tests(..., control=...)``.

    Returns
    -------
    str

    Notes
    -----
    At most :data:`PAIRWISE_MAX_ROWS` comparisons are set (about 200 pages); a larger result is
    refused before anything is written, naming ``control=`` (k − 1 rows per dataset).

    Markers follow the Holm-adjusted p-value: ``*`` p ≤ α, ``**`` p ≤ α/5, ``***`` p ≤ α/50
    (0.05, 0.01, 0.001 at α = 0.05). A pair whose test does not apply shows "--" (the caption
    then says what it means) and its reason in a comment line; the mean difference is row minus column in the metric's own
    units (positive favours the first method for a higher-is-better metric).
    """
    digits = check_positive_int("digits", digits, minimum=0)
    frame = _result_frame(result, "PairedTests (mcda.paired_tests)")
    needed = ["dataset", "method_a", "method_b", "mean_diff", "ci_low", "ci_high", "p_raw", "p_holm"]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise McdaArgumentTypeError(f"`result` must be a PairedTests (mcda.paired_tests); its table lacks {missing}",
                                    argument="result")
    alpha = float(result.alpha)
    method = str(getattr(result, "method", ""))
    own = getattr(result, "control", None)
    methods = list(pd.unique(pd.concat([frame["method_a"], frame["method_b"]])))
    if control is not None:
        from mcda._core.validation import check_control

        check_control(control, [str(m) for m in methods])
        if own is not None and own != control:
            raise McdaArgumentError(f"`control` {control!r} differs from the control of `result` ({own!r}), which "
                                    f"holds only {own}'s comparisons; pass mcda.paired_tests(..., control={control!r}) "
                                    "or an all-pairs result", argument="control")
        if own is None:
            frame = result.control_rows(control)
    control = control if control is not None else own
    if len(frame) > PAIRWISE_MAX_ROWS:
        per_dataset = frame.groupby("dataset", sort=False).size()
        raise McdaArgumentError(
            f"`result` holds {len(frame):,} (dataset, pair) comparisons ({len(per_dataset):,} datasets × up to "
            f"{int(per_dataset.max()):,} pairs): about {len(frame) * _PAIRWISE_ROW_BYTES / 2**20:,.0f} MiB of LaTeX, "
            f"{len(frame) // _ROWS_PER_PAGE + 1:,} pages, over the {PAIRWISE_MAX_ROWS:,} rows this table is set for. "
            + ("Pass control=... (the k - 1 comparisons of one method per dataset), or a result of fewer datasets "
               "or methods" if control is None else "Pass a result of fewer datasets or methods"),
            argument="result")
    if control is None:
        names, key, key_table = _method_keys(methods)
    else:   # the control is named in the caption; the keys number the other methods from M1
        names, key, key_table = _method_keys([m for m in methods if str(m) != str(control)], noun="other methods",
                                             only_long=True)
    rows, comments = [], []
    previous = None
    for r in frame.itertuples(index=False):
        first = r.dataset != previous
        if first and previous is not None:
            rows.append(r"\addlinespace")
        previous = r.dataset
        diff = "--" if not np.isfinite(r.mean_diff) else _number(r.mean_diff, digits)
        interval = ("" if not (np.isfinite(r.ci_low) and np.isfinite(r.ci_high))
                    else f"\\ [{_number(r.ci_low, digits)}, {_number(r.ci_high, digits)}]")
        mark = significance_marker(r.p_holm, alpha)
        rows.append([latex_escape(r.dataset) if first else "",
                     names[str(r.method_b)] if control is not None else
                     f"{names[str(r.method_a)]} vs {names[str(r.method_b)]}",
                     f"${diff}{interval}$" if diff != "--" else "--",
                     _p_text(r.p_raw, digits), _p_text(r.p_holm, digits),
                     f"${mark.replace('*', '{*}')}$" if mark else ""])
        reason = getattr(r, "reason", "")
        if isinstance(reason, str) and reason:
            comments.append(f"{r.dataset}: {r.method_a} vs {r.method_b}: {reason}")
    test = {"t": "paired t test", "wilcoxon": "Wilcoxon signed-rank test"}.get(
        method, f"{display_name(method)} test" if method else "paired test")   # a test over folds by its name
    direction = getattr(result, "direction", None)
    favours = {"higher_is_better": " (positive favours the first: higher is better)",
               "lower_is_better": " (negative favours the first: lower is better)"}.get(direction, "") \
        if isinstance(direction, str) else ""
    markers = (f"${{*}}$ $p_\\mathrm{{Holm}} \\le {alpha:g}$, ${{*}}{{*}}$ $\\le {alpha / 5:g}$, "
               f"${{*}}{{*}}{{*}}$ $\\le {alpha / 50:g}$.")
    if control is None:
        default_caption = (f"Pairwise {test} over seeds within each dataset, Holm-adjusted over the pairs of a "
                           f"dataset. Difference: first minus second method{favours}, with its "
                           f"{(1 - alpha) * 100:g}\\% t interval. " + markers)
        header = ["Dataset", "Pair", "Difference", "$p$", r"$p_\mathrm{Holm}$", ""]
    else:
        favours = favours.replace("the first", _breakable(control))
        n_other = len(methods) - 1
        default_caption = (f"{_breakable(control)} against each of the {n_other} other methods: {test} over seeds "
                           f"within each dataset, Holm-adjusted over the {n_other} comparisons of a dataset. "
                           f"Difference: {_breakable(control)} minus the other method{favours}, with its "
                           f"{(1 - alpha) * 100:g}\\% t interval. " + markers)
        header = ["Dataset", "Versus", "Difference", "$p$", r"$p_\mathrm{Holm}$", ""]
    scale = scale_of(result)
    default_caption += _scale_caption(scale)
    if any(not isinstance(r, str) and r[2] == "--" for r in rows):
        default_caption += " --: the test does not apply to the pair (each reason is a comment in the table's source)."
    size = _fitting_size(_column_widths(header, [r for r in rows if not isinstance(r, str)])) or _SIZES[-1]
    caption = (caption if caption is not None else default_caption) + key
    return _emit(path, [_float(caption, label, header, rows, "llcccl",
                               [f"mcda: {test}, alpha {alpha:g}" + (f", control {control}" if control else "")
                                + (f"; scale {scale}" if scale else "")]
                               + [f"not applicable: {c}" for c in comments],
                               size[1])] + ([key_table] if key_table else []))


# --------------------------------------------------------------------------- across datasets

def comparison_to_latex(result, path=None, *, caption: str | None = None, label: str | None = None) -> str:
    r"""Mean ranks across datasets and the groups the post-hoc test did not separate.

    Parameters
    ----------
    result : ComparisonResult
        :func:`mcda.compare_over_datasets`'s result.
    path : str or Path, optional
    caption, label : str, optional

    Returns
    -------
    str

    Notes
    -----
    One row per method, best mean rank first. ``Group`` is the compact letter display of
    :func:`mcda.compact_letters` (all pairs): two methods share a letter exactly when the test
    did not separate them; against a control, the one group of ``result.groups`` (the control
    and the methods not separated from it) is letter "a". When the omnibus does not reject, every method is in
    group "a" and the caption says that no difference may be claimed. Excluded (incomplete)
    methods are named in the caption, and what each lacks in a comment line.

    Examples
    --------
    >>> import mcda
    >>> from mcda.export import comparison_to_latex
    >>> text = comparison_to_latex(mcda.compare_over_datasets(mcda.datasets.load("garcia_herrera2008")))
    >>> rows = text.splitlines()
    >>> print("\n".join(rows[rows.index(r"\midrule") + 1:][:3]))
    C4.5 & 2.100 & a \\
    NaiveBayes & 2.200 & ab \\
    CN2 & 3.117 & ab \\
    """
    if not callable(getattr(result, "letters", None)):  # a ComparisonResult: its letters are the table's groups
        raise McdaArgumentTypeError("`result` must be a ComparisonResult (mcda.compare_over_datasets); got "
                        f"{type(result).__name__}", argument="result")
    order = list(result.mean_ranks.sort_values(kind="stable").index)
    letters = result.letters()  # all pairs: mcda.compact_letters; against a control: its groups
    # one method per row: full names fit (the font size follows the longest)
    rows = [[latex_escape(m), f"{result.mean_ranks[m]:.3f}", letters[m]] for m in order]
    f = result.friedman
    test_name = f.test
    if test_name == "skillings-mack":
        verdict = (f"Skillings--Mack $\\chi^2({f.df}) = {f.statistic:.2f}$, $p {_sci(f.pvalue)}$ on the "
                   "unbalanced incomplete design (each method ranked among those present on each dataset)")
    elif test_name == "durbin":
        verdict = (f"Durbin $T_1 = {f.statistic:.2f}$, $F({f.f_df[0]}, {f.f_df[1]}) = {f.f_statistic:.2f}$, "
                   f"$p {_sci(f.f_pvalue)}$ on the balanced incomplete design")
    else:
        verdict = (f"Friedman $\\chi^2_F({f.df}) = {f.statistic:.2f}$, Iman--Davenport "
                   f"$F({f.f_df[0]}, {f.f_df[1]}) = {f.f_statistic:.2f}$, $p {_sci(f.f_pvalue)}$")
    if result.posthoc is None and f.rejected:
        verdict += (f": the omnibus rejects at $\\alpha = {result.alpha:g}$, but no post-hoc test applies to this "
                    "design, so no pair may be claimed different from it.")
    elif result.posthoc is None:
        verdict += f": the omnibus does not reject at $\\alpha = {result.alpha:g}$, so no difference may be claimed."
    else:
        test = latex_escape(result.posthoc_label if getattr(result, "posthoc_test", "") else result.test).replace("–", "--")
        against = f" against {latex_escape(result.control)}" if result.control else ""
        cd = (f", CD $= {result.critical_difference:.3f}$" if result.critical_difference is not None else "")
        verdict += (f"; {test}{against} at $\\alpha = {result.alpha:g}${cd}. "
                    "Methods sharing a letter are not separated.")
    default_caption = f"Mean ranks over {result.n_datasets} datasets (1 = best). {verdict}"
    if result.excluded:  # the table lists only the ranked methods: the caption names the others
        default_caption += (" Not ranked (missing results): "
                            + ", ".join(latex_escape(m) for m in result.excluded) + ".")
    default_caption += _scale_caption(scale_of(result))
    comments = [f"mcda: {result.test}, alpha {result.alpha:g}" + (f"; scale {scale_of(result)}" if scale_of(result)
                                                                  else "")]
    comments += [f"excluded (incomplete): {m} lacks {list(lacks)}" for m, lacks in result.excluded.items()]
    caption = caption if caption is not None else default_caption
    header = ["Method", "Mean rank", "Group"]
    size = _fitting_size(_column_widths(header, rows)) or _SIZES[-1]
    return _emit(path, [_float(caption, label, header, rows, "lcc", comments, size[1])])


def item_leaderboard_to_latex(result, path=None, *, digits: int = 3, caption: str | None = None,
                              label: str | None = None) -> str:
    r"""The leaderboard of each test set over items: rank (tied models share it), mean and interval.

    Parameters
    ----------
    result : ItemLeaderboard
        :func:`mcda.item_leaderboard`'s result.
    path : str or Path, optional
    digits : int
    caption, label : str, optional

    Returns
    -------
    str

    Notes
    -----
    One row per (dataset, model), best first within each dataset; ``1=`` marks a rank shared by
    a tie group (models no paired test separates from the group's best). The interval is the
    result's (cluster-robust when the items carry clusters).

    Examples
    --------
    >>> import pandas as pd, mcda
    >>> from mcda.export import item_leaderboard_to_latex
    >>> rows = [{"dataset": "qa", "method": m, "item": i, "score": float(s)} for m, line in
    ...         (("a", "1101111011" * 3), ("b", "1101101011" * 3), ("c", "0001000010" * 3)) for i, s in enumerate(line)]
    >>> text = item_leaderboard_to_latex(mcda.item_leaderboard(pd.DataFrame(rows), metric="exact_match"))
    >>> text.splitlines()[text.splitlines().index(r"\midrule") + 1]
    'qa & 1= & a & 0.800 & [0.648, 0.952] & 30 \\\\'
    """
    if not hasattr(result, "pairs") or not hasattr(result, "confidence_level"):
        raise McdaArgumentTypeError(f"`result` must be an ItemLeaderboard (mcda.item_leaderboard); got "
                                    f"{type(result).__name__}", argument="result")
    table = _result_frame(result, "ItemLeaderboard (mcda.item_leaderboard)")
    shared = table.groupby(["dataset", "rank"])["rank"].transform("size")
    rows = [[latex_escape(r.dataset), f"{r.rank}{'=' if n > 1 else ''}", latex_escape(r.method),
             _number(r.mean, digits), f"[{_number(r.ci_low, digits)}, {_number(r.ci_high, digits)}]",
             f"{int(r.n_items):,}"] for r, n in zip(table.itertuples(index=False), shared)]
    pairs = result.pairs
    adjust = _display_adjust(pairs.adjust)
    default = (f"Mean item score per model, best first, with {result.confidence_level:.0%} intervals"
               + (" on the cluster-robust standard error" if pairs.clustered else "")
               + f". Models sharing a rank (=) are not separated from their group's best by the paired test over "
               f"items ({adjust}, $\\alpha = {result.alpha:g}$).")
    header = ["Dataset", "Rank", "Model", "Mean", "Interval", "Items"]
    size = _fitting_size(_column_widths(header, rows)) or _SIZES[-1]
    return _emit(path, [_float(caption if caption is not None else default, label, header, rows, "llcccr",
                               [f"mcda: item_leaderboard, test {pairs.test}, adjust {pairs.adjust}"], size[1])])


def _display_adjust(adjust) -> str:
    return f"{adjust}-adjusted" if adjust else "unadjusted"


def item_pairs_to_latex(result, path=None, *, digits: int = 3, caption: str | None = None,
                        label: str | None = None) -> str:
    r"""Every pair of models over items: the difference, its interval, the adjusted p-value and, for a pair
    not separated, the minimum detectable difference.

    Parameters
    ----------
    result : PairedItems
        :func:`mcda.paired_items`'s result.
    path : str or Path, optional
    digits : int
    caption, label : str, optional

    Returns
    -------
    str
    """
    if not hasattr(result, "mde") and not hasattr(result, "power"):
        raise McdaArgumentTypeError(f"`result` must be a PairedItems (mcda.paired_items); got "
                                    f"{type(result).__name__}", argument="result")
    table = _result_frame(result, "PairedItems (mcda.paired_items)")
    rows = []
    for r in table.itertuples(index=False):
        separated = bool(r.significant)
        rows.append([latex_escape(r.dataset), f"{latex_escape(r.method_a)} -- {latex_escape(r.method_b)}",
                     _number(r.mean_diff, digits), f"[{_number(r.ci_low, digits)}, {_number(r.ci_high, digits)}]",
                     _p_text(r.p_adjusted, digits) if np.isfinite(r.p_adjusted) else "--",
                     "" if separated or not np.isfinite(r.mde) else _number(r.mde, digits)])
    default = (f"Paired differences over items (a $-$ b, on the items both have), {result.confidence_level:.0%} "
               "intervals" + (" on the cluster-robust standard error" if result.clustered else "")
               + f"; p-values {_display_adjust(result.adjust)} over the pairs of each dataset. MDE: the difference "
               f"a pair not separated at $\\alpha = {result.alpha:g}$ would have been detected at "
               f"{result.power:.0%} power.")
    header = ["Dataset", "Pair", "Difference", "Interval", "$p$", "MDE"]
    size = _fitting_size(_column_widths(header, rows)) or _SIZES[-1]
    return _emit(path, [_float(caption if caption is not None else default, label, header, rows, "llcccc",
                               [f"mcda: paired_items, test {result.test}, adjust {result.adjust}"], size[1])])
