r"""LaTeX tables for papers, from mcda's result objects (booktabs; compute nothing).

- :func:`scores_to_latex`: datasets × methods, the mean and its interval per cell (a t interval
  as ``mean ± half-width``, a bootstrap interval as ``mean^{+up}_{-down}``), the best per
  dataset in bold — direction-aware, ties in bold too.
- :func:`pairwise_to_latex`: the paired tests within each dataset, Holm-adjusted, with
  significance markers.
- :func:`comparison_to_latex`: mean ranks across datasets and the groups of methods the
  post-hoc test did not separate.

Each returns the LaTeX text and writes it to ``path`` when given. The tables need
``\usepackage{booktabs}`` (and ``graphicx`` for wide tables, which are scaled to the line
width); they are floats ready for ``\input``.

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

from ._validation import McdaArgumentError, McdaArgumentTypeError
from ._validation import check_positive_int

__all__ = ["scores_to_latex", "pairwise_to_latex", "comparison_to_latex", "latex_escape", "significance_marker"]

_WIDE = 8  # more method columns than this: the tabular is scaled to \linewidth
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
    """A p-value for math mode: 0.0144, or 1.59 \\times 10^{-9} below 0.001."""
    if not np.isfinite(p):
        return "\\mathrm{NaN}"
    if p >= 1e-3:
        return f"{p:.3g}"
    mantissa, exponent = f"{p:.2e}".split("e")
    return f"{mantissa} \\times 10^{{{int(exponent)}}}"


def _float(path, caption: str | None, default_caption: str, label: str | None, header: list[str], rows: list[str],
           spec: str, comments: list[str], wide: bool) -> str:
    """The LaTeX table float (captioned ``caption``, or ``default_caption`` when it is None), written to
    ``path`` when one is given."""
    caption = caption if caption is not None else default_caption
    lines = [f"% {_one_line(c)}" for c in comments]
    lines += ["% requires \\usepackage{booktabs}" + (" and \\usepackage{graphicx}" if wide else ""),
              r"\begin{table}[tbp]", r"\centering"]
    if caption:
        lines.append(r"\caption{" + caption + "}")
    if label:
        lines.append(r"\label{" + _one_line(label) + "}")
    if wide:
        lines.append(r"\resizebox{\linewidth}{!}{%")
    lines += [r"\begin{tabular}{" + spec + "}", r"\toprule", " & ".join(header) + r" \\", r"\midrule"]
    lines += rows
    lines += [r"\bottomrule", r"\end{tabular}" + ("}" if wide else ""), r"\end{table}", ""]
    text = "\n".join(lines)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def _result_frame(result, expected: str) -> pd.DataFrame:
    """``result.to_frame()``, or a TypeError naming what was expected when ``result`` has none."""
    to_frame = getattr(result, "to_frame", None)
    if not callable(to_frame) or isinstance(result, (pd.DataFrame, pd.Series)) or hasattr(result, "dims"):
        raise McdaArgumentTypeError(f"`result` must be a {expected}; got {type(result).__name__}")
    return to_frame()


# --------------------------------------------------------------------------- scores table

def _scores_frame(source) -> tuple[pd.DataFrame, str | None, float | None, str, str, str | None]:
    """(table with dataset, method, mean, ci_low, ci_high; ci_method; level; direction; metric; seeds note)."""
    if hasattr(source, "table") and hasattr(source, "ci_method"):  # an IntervalSummary
        table = source.table
        if "metric" in table.columns:
            raise McdaArgumentError("`source` summarises several metrics; a scores table is about one metric "
                             "(summarise a single-metric cube)")
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
    from .cube import as_cube

    cube = as_cube(source)
    if "seed" in cube.dims:
        raise McdaArgumentError("`source` has a `seed` dim; pass its interval summary (mcda.summary(cube)) so each cell "
                         "shows a mean and an interval, or reduce the seeds first (mcda.reduce_seeds)")
    extra = [d for d in cube.dims if d not in ("dataset", "method")]
    if extra:
        raise McdaArgumentError(f"`source` has extra dims {extra}; select one value along each first")
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
    if direction not in ("higher_is_better", "lower_is_better"):
        raise McdaArgumentError(f"`direction` must be one of {{'higher_is_better', 'lower_is_better'}}; got {direction!r}")
    shown = means.round(digits)
    target = shown.max(axis=1) if direction == "higher_is_better" else shown.min(axis=1)
    return shown.eq(target, axis=0) & shown.notna()


def scores_to_latex(source, path=None, *, bold_best: bool = True, digits: int = 3, caption: str | None = None,
                    label: str | None = None, direction: str | None = None, metric: str | None = None,
                    scale: str | None = None) -> str:
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

    Returns
    -------
    str
        The LaTeX text (also written to ``path``).

    Notes
    -----
    A t interval is symmetric and shown as ``mean ± half-width``; a percentile-bootstrap
    interval generally is not and is shown as ``mean^{+(high − mean)}_{−(mean − low)}``. A cell
    without an interval (one seed) shows the mean alone; a missing cell shows "--".

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
        raise McdaArgumentTypeError(f"`bold_best` must be True or False; got {bold_best!r}")
    frame, ci_method, level, src_direction, src_metric, seeds = _scores_frame(source)
    direction = direction or src_direction
    metric = metric or src_metric or "score"
    datasets = list(pd.unique(frame["dataset"]))
    methods = list(pd.unique(frame["method"]))
    wide = {c: frame.pivot(index="dataset", columns="method", values=c).reindex(index=datasets, columns=methods)
            for c in ("mean", "ci_low", "ci_high")}
    bold = best_in_rows(wide["mean"], direction, digits) if bold_best else \
        pd.DataFrame(False, index=datasets, columns=methods)
    rows = []
    for d in datasets:
        cells = [_cell(float(wide["mean"].at[d, m]), float(wide["ci_low"].at[d, m]), float(wide["ci_high"].at[d, m]),
                       ci_method, digits, bool(bold.at[d, m])) for m in methods]
        rows.append(" & ".join([latex_escape(d)] + cells) + r" \\")
    better = "higher is better" if direction == "higher_is_better" else "lower is better"
    if ci_method is None:
        what = "one score per dataset and method"
    else:
        kind = "t interval" if ci_method == "t" else "percentile-bootstrap interval"
        what = f"mean and {level * 100:g}\\% {kind} over {seeds or 'seeds'}"
    default_caption = f"{latex_escape(metric)} ({better}): {what}."
    if scale is None and not hasattr(source, "to_frame") and hasattr(source, "attrs"):
        scale = source.attrs.get("scale") or None
    if scale:
        default_caption += f" Scores converted: {latex_escape(scale.replace('->', 'to'))}."
    if bold_best:
        default_caption += " Best per dataset in bold (ties in bold too)."
    if ci_method == "bootstrap":
        default_caption += r" Intervals as mean$^{+\mathrm{up}}_{-\mathrm{down}}$."
    comments = [f"mcda: {metric}, {better}; {what.replace(chr(92), '')}" + (f"; scale {scale}" if scale else ""),
                "missing cells: --" if frame["mean"].isna().any() else "no missing cell"]
    header = ["Dataset"] + [latex_escape(m) for m in methods]
    return _float(path, caption, default_caption, label, header, rows, "l" + "c" * len(methods), comments,
                  wide=len(methods) > _WIDE)


# --------------------------------------------------------------------------- paired tests

def pairwise_to_latex(result, path=None, *, digits: int = 3, caption: str | None = None,
                      label: str | None = None) -> str:
    r"""The paired tests within each dataset: mean difference and interval, raw and Holm-adjusted p, markers.

    Parameters
    ----------
    result : PairedTests
        :func:`mcda.paired_tests`'s result (Holm over the pairs of each dataset).
    path : str or Path, optional
    digits : int, default 3
        Decimals of differences and p-values (p below 10^-digits shows as "<0.001").
    caption, label : str, optional

    Returns
    -------
    str

    Notes
    -----
    Markers follow the Holm-adjusted p-value: ``*`` p ≤ α, ``**`` p ≤ α/5, ``***`` p ≤ α/50
    (0.05, 0.01, 0.001 at α = 0.05). A pair whose test does not apply shows "--" and its
    reason in a comment line; the mean difference is row minus column in the metric's own
    units (positive favours the first method for a higher-is-better metric).
    """
    digits = check_positive_int("digits", digits, minimum=0)
    frame = _result_frame(result, "PairedTests (mcda.paired_tests)")
    needed = ["dataset", "method_a", "method_b", "mean_diff", "ci_low", "ci_high", "p_raw", "p_holm"]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise McdaArgumentTypeError(f"`result` must be a PairedTests (mcda.paired_tests); its table lacks {missing}")
    alpha = float(result.alpha)
    method = str(getattr(result, "method", ""))
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
        rows.append(" & ".join([latex_escape(r.dataset) if first else "",
                                f"{latex_escape(r.method_a)} vs {latex_escape(r.method_b)}",
                                f"${diff}{interval}$" if diff != "--" else "--",
                                _p_text(r.p_raw, digits), _p_text(r.p_holm, digits),
                                f"${mark.replace('*', '{*}')}$" if mark else ""]) + r" \\")
        reason = getattr(r, "reason", "")
        if isinstance(reason, str) and reason:
            comments.append(f"{r.dataset}: {r.method_a} vs {r.method_b}: {reason}")
    test = {"t": "paired t test", "wilcoxon": "Wilcoxon signed-rank test"}.get(method, method or "paired test")
    direction = getattr(result, "direction", None)
    favours = {"higher_is_better": " (positive favours the first: higher is better)",
               "lower_is_better": " (negative favours the first: lower is better)"}.get(direction, "") \
        if isinstance(direction, str) else ""
    default_caption = (f"Pairwise {test} over seeds within each dataset, Holm-adjusted over the pairs of a dataset. "
                       f"Difference: first minus second method{favours}, with its {(1 - alpha) * 100:g}\\% t interval. "
                       f"${{*}}$ $p_\\mathrm{{Holm}} \\le {alpha:g}$, ${{*}}{{*}}$ $\\le {alpha / 5:g}$, "
                       f"${{*}}{{*}}{{*}}$ $\\le {alpha / 50:g}$.")
    header = ["Dataset", "Pair", "Difference", "$p$", r"$p_\mathrm{Holm}$", ""]
    return _float(path, caption, default_caption, label, header, rows, "llcccl",
                  [f"mcda: {test}, alpha {alpha:g}"] + [f"not applicable: {c}" for c in comments], wide=False)


# --------------------------------------------------------------------------- across datasets

def _group_letters(groups: list, methods: list) -> dict:
    """Compact letter display: methods sharing a letter belong to one group (not separated)."""
    letters = {m: "" for m in methods}
    for i, group in enumerate(g for g in groups if len(g) >= 1):
        letter = _letter(i)
        for m in group:
            letters[m] += letter
    return letters


def _letter(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("a") + r) + out
    return out


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
    One row per method, best mean rank first. ``Group`` is a compact letter display of
    ``result.groups``: two methods share a letter exactly when they lie in one group of
    methods not separated by the test. When the omnibus does not reject, every method is in
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
    from .frequentist import ComparisonResult

    if not isinstance(result, ComparisonResult):
        raise McdaArgumentTypeError("`result` must be a ComparisonResult (mcda.compare_over_datasets); got "
                        f"{type(result).__name__}")
    order = list(result.mean_ranks.sort_values(kind="stable").index)
    letters = _group_letters(list(result.groups), order)
    rows = [f"{latex_escape(m)} & {result.mean_ranks[m]:.3f} & {letters[m]} \\\\" for m in order]
    f = result.friedman
    test_name = getattr(f, "test", "friedman")
    if test_name == "skillings-mack":
        verdict = (f"Skillings--Mack $\\chi^2({f.df}) = {f.statistic:.2f}$, $p = {_sci(f.pvalue)}$ on the "
                   "unbalanced incomplete design (each method ranked among those present on each dataset)")
    elif test_name == "durbin":
        verdict = (f"Durbin $T_1 = {f.statistic:.2f}$, $F({f.f_df[0]}, {f.f_df[1]}) = {f.f_statistic:.2f}$, "
                   f"$p = {_sci(f.f_pvalue)}$ on the balanced incomplete design")
    else:
        verdict = (f"Friedman $\\chi^2_F({f.df}) = {f.statistic:.2f}$, Iman--Davenport "
                   f"$F({f.f_df[0]}, {f.f_df[1]}) = {f.f_statistic:.2f}$, $p = {_sci(f.f_pvalue)}$")
    if result.posthoc is None and f.rejected:
        verdict += (f": the omnibus rejects at $\\alpha = {result.alpha:g}$, but no post-hoc test applies to this "
                    "design, so no pair may be claimed different from it.")
    elif result.posthoc is None:
        verdict += f": the omnibus does not reject at $\\alpha = {result.alpha:g}$, so no difference may be claimed."
    else:
        test = latex_escape(result.test)
        against = f" against {latex_escape(result.control)}" if result.control else ""
        cd = (f", CD $= {result.critical_difference:.3f}$" if result.critical_difference is not None else "")
        verdict += (f"; {test}{against} at $\\alpha = {result.alpha:g}${cd}. "
                    "Methods sharing a letter are not separated.")
    default_caption = f"Mean ranks over {result.n_datasets} datasets (1 = best). {verdict}"
    if result.excluded:  # the table lists only the ranked methods: the caption names the others
        default_caption += (" Not ranked (missing results): "
                            + ", ".join(latex_escape(m) for m in result.excluded) + ".")
    comments = [f"mcda: {result.test}, alpha {result.alpha:g}"]
    comments += [f"excluded (incomplete): {m} lacks {list(lacks)}" for m, lacks in result.excluded.items()]
    return _float(path, caption, default_caption, label, ["Method", "Mean rank", "Group"], rows, "lcc", comments,
                  wide=False)

