"""Compact letter displays: which methods a pairwise procedure did not separate, as letters.

:func:`compact_letters` turns any all-pairs result of mcda into the letters a results table
prints next to each method ("a", "ab", "b", ...): two methods share a letter exactly when the
procedure did not reject their pair.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mcda.stats._shared.cliques import groups_from_decisions
from mcda._core.results import PAIR_DECISION_COLUMNS, Result, states_scale
from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError

__all__ = ["CompactLetters", "compact_letters", "control_letters", "letter_name"]


def letter_name(i: int) -> str:
    """The ``i``-th letter (0-based): ``a`` … ``z``, then ``aa``, ``ab``, … (spreadsheet columns).

    Examples
    --------
    >>> [letter_name(i) for i in (0, 1, 25, 26, 27)]
    ['a', 'b', 'z', 'aa', 'ab']
    """
    out = ""
    i = int(i) + 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("a") + r) + out
    return out


@dataclass(frozen=True, repr=False)
class CompactLetters(Result):
    """A compact letter display of an all-pairs procedure.

    Attributes
    ----------
    letters : pandas.Series
        Method -> its letters (``"ab"``), best method first; for a per-dataset result
        (:class:`~mcda.stats.within.seeds.PairedTests`) indexed by (dataset, method) (and metric, for a
        multi-metric cube). Letters are separated by nothing up to ``z`` and by a space once
        two-character letters (``aa``, ``ab``, ...) are needed, so that they stay readable.
    groups : dict
        Letter -> the methods carrying it (a maximal group of methods no pair of which was
        rejected), best first; per dataset the key is (dataset, letter) (and metric).
    table : pandas.DataFrame
        See :meth:`to_frame`.
    test : str
        The procedure the letters display (e.g. ``"nemenyi"``, ``"Wilcoxon–Holm"``,
        ``"paired t, Holm within dataset"``).
    alpha : float
        The level at which the procedure's pairs were rejected.
    note : str
        What the letters cannot show (e.g. the omnibus did not reject, so no pair was tested;
        pairs without a p-value, counted as not rejected).
    n_methods : int
    scope : {"across datasets", "within datasets"}
        One display over datasets, or one per dataset (paired tests over seeds).
    """

    letters: pd.Series
    groups: dict
    table: pd.DataFrame
    test: str
    alpha: float
    note: str = ""
    n_methods: int = 0
    scope: str = "across datasets"

    def to_frame(self) -> pd.DataFrame:
        """One row per method (per dataset and method for paired tests), best first.

        Columns: across datasets ``method, mean_rank, letters``; per dataset ``dataset,
        [metric,] method, rank, letters`` (``rank`` = position by mean score in the dataset,
        1 = best).
        """
        return self.table.copy()

    def summary(self) -> str:
        head = f"compact letter display of {self.test} (alpha = {self.alpha:g}): methods sharing a letter are not separated"
        lines = [head]
        shown = self.table.copy()
        if "mean_rank" in shown:
            shown["mean_rank"] = shown["mean_rank"].round(3)
        lines.append(shown.to_string(index=False) if len(shown) <= 60 else
                     shown.head(60).to_string(index=False) + f"\n... ({len(shown) - 60} more rows)")
        if self.note:
            lines.append(f"note: {self.note}")
        return "\n".join(lines)


def _letters_of(order: list, groups: list) -> tuple[dict, dict]:
    """Method -> letters and letter -> group, letter i naming the i-th group (groups in rank order)."""
    names = [letter_name(i) for i in range(len(groups))]
    sep = " " if len(groups) > 26 else ""
    held = {m: [] for m in order}
    for name, group in zip(names, groups):
        for m in group:
            held[m].append(name)
    return {m: sep.join(held[m]) for m in order}, dict(zip(names, groups))


def _from_decisions(mean_ranks: pd.Series, separated: np.ndarray):
    """(order, method -> letters, letter -> group) from a k × k rejection matrix in ``mean_ranks`` order."""
    groups = groups_from_decisions(mean_ranks, separated)
    order = list(mean_ranks.sort_values(kind="stable").index)
    letters, by_letter = _letters_of(order, groups)
    return order, letters, by_letter


def _refuse_control(control) -> None:
    if control is not None:
        raise McdaArgumentError(
            f"`result` compares every method with the control {control!r} only, so most pairs were never tested and a "
            "letter display would claim what the test did not decide; compact_letters needs an all-pairs result "
            "(e.g. compare_over_datasets(..., control=None), pairwise_over_datasets(..., control=None)).",
            argument="result")


def _separated(pairs: pd.DataFrame, methods: list) -> tuple[pd.Series, np.ndarray]:
    """The methods' ranks and the k × k rejection matrix of one block of a pair-decisions table."""
    position = {m: i for i, m in enumerate(methods)}
    a = pairs["method_a"].map(position).to_numpy()
    b = pairs["method_b"].map(position).to_numpy()
    ranks = np.full(len(methods), np.nan)
    ranks[a], ranks[b] = pairs["rank_a"].to_numpy(dtype=float), pairs["rank_b"].to_numpy(dtype=float)
    separated = np.zeros((len(methods), len(methods)), dtype=bool)
    significant = pairs["significant"].to_numpy(dtype=bool)
    separated[a, b] = significant
    separated[b, a] = significant
    return pd.Series(ranks, index=methods), separated


def _across(mean_ranks: pd.Series, separated: np.ndarray, test: str, alpha: float, note: str = "") -> CompactLetters:
    order, letters, by_letter = _from_decisions(mean_ranks, separated)
    table = pd.DataFrame({"method": order, "mean_rank": mean_ranks.loc[order].to_numpy(dtype=float),
                          "letters": [letters[m] for m in order]})
    series = pd.Series([letters[m] for m in order], index=pd.Index(order, name="method"), name="letters")
    return CompactLetters(letters=series, groups=by_letter, table=table, test=test, alpha=float(alpha), note=note,
                          n_methods=len(order))


def _within(decisions: pd.DataFrame, keys: list) -> CompactLetters:
    """One display per dataset (and metric) of a pair-decisions table keyed by them."""
    rows, series_index, series_values, by_letter = [], [], [], {}
    for key, block in decisions.groupby(keys, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        methods = list(dict.fromkeys(list(block["method_a"]) + list(block["method_b"])))
        ranking, separated = _separated(block, methods)
        order, letters, groups = _from_decisions(ranking, separated)
        for m in order:
            rows.append((*key, m, float(ranking[m]), letters[m]))
            series_index.append((*key, m))
            series_values.append(letters[m])
        for letter, group in groups.items():
            by_letter[(*key, letter)] = group
    frame = pd.DataFrame(rows, columns=[*keys, "method", "rank", "letters"])
    series = pd.Series(series_values, index=pd.MultiIndex.from_tuples(series_index, names=[*keys, "method"]),
                       name="letters")
    return CompactLetters(letters=series, groups=by_letter, table=frame, test=decisions.attrs["test"],
                          alpha=float(decisions.attrs["alpha"]), note=decisions.attrs["note"],
                          n_methods=int(frame["method"].nunique()), scope="within datasets")


def control_letters(groups: list, order: list) -> dict:
    """Method -> letters from the groups of a comparison against a control: letter i names the i-th group
    (a results table's "Group" column; the methods in ``order``, best first).

    Examples
    --------
    >>> control_letters([("a", "b"), ("c",)], ["a", "b", "c"])
    {'a': 'a', 'b': 'a', 'c': 'b'}
    """
    letters = {m: "" for m in order}
    for i, group in enumerate(g for g in groups if len(g) >= 1):
        for m in group:
            letters[m] += letter_name(i)
    return letters


@states_scale
def compact_letters(result) -> CompactLetters:
    """The compact letter display of an all-pairs result: methods sharing a letter are not separated.

    Parameters
    ----------
    result : ComparisonResult, PosthocResult, PairwiseOverDatasets or PairedTests
        An all-pairs result: :func:`mcda.compare_over_datasets` (its post-hoc; when the omnibus
        does not reject, no pair is separated and every method gets ``"a"``),
        :func:`mcda.nemenyi` / :func:`mcda.all_pairs_test` or any other mean-rank post-hoc
        (:class:`~mcda.stats.across.posthoc.PosthocResult`), :func:`mcda.pairwise_over_datasets`
        (Wilcoxon or sign test, adjusted), or :func:`mcda.paired_tests` (one display per dataset,
        from its Holm-adjusted decisions).

    Returns
    -------
    CompactLetters
        ``letters`` (method -> letters, best first), ``groups`` (letter -> methods),
        ``table`` (see :meth:`CompactLetters.to_frame`), ``test``, ``alpha``, ``note``.

    Raises
    ------
    TypeError
        ``result`` is not one of the all-pairs results.
    ValueError
        ``result`` compares against a control (most pairs were never tested).

    Notes
    -----
    The letters are the maximal cliques of the graph whose edges join the pairs the
    procedure did **not** reject (its ``significant`` is False: adjusted p > alpha, or
    \\|rank difference\\| < CD for Nemenyi). This is the display Piepho's (2004) insert-absorb
    algorithm reaches: every non-rejected pair shares at least one letter, no rejected pair
    shares any, and no letter can be dropped without breaking the first property (each letter
    is a maximal clique). Letter ``a`` goes to the group holding the best method; the groups,
    and so the letters, are in the order of their best member's mean rank (then their
    worst's). A pair without a p-value (a test that did not apply, NaN with a reason) is not
    rejected, so it shares a letter; the ``note`` counts them.

    Per dataset (paired tests over seeds), methods are ordered by the sum of their mean
    differences against all others (with every seed shared: by mean score), oriented so
    that the best comes first.

    References
    ----------
    Piepho, H.-P. (2004). An algorithm for a letter-based representation of all-pairwise
    comparisons. Journal of Computational and Graphical Statistics 13(2):456–466.
    doi:10.1198/1061860043515

    Examples
    --------
    >>> import mcda
    >>> res = mcda.compare_over_datasets(mcda.datasets.load("garcia_herrera2008"))
    >>> mcda.compact_letters(res).letters.to_dict()
    {'C4.5': 'a', 'NaiveBayes': 'ab', 'CN2': 'ab', 'k-NN(k=1)': 'bc', 'Kernel': 'c'}
    """
    decide = getattr(result, "pair_decisions", None)
    if not callable(decide):
        raise McdaArgumentTypeError(
            "`result` must be an all-pairs result: a ComparisonResult (mcda.compare_over_datasets), a PosthocResult "
            "(mcda.nemenyi, mcda.all_pairs_test), a PairwiseOverDatasets (mcda.pairwise_over_datasets) or a "
            f"PairedTests (mcda.paired_tests); got {type(result).__name__}.", argument="result")
    decisions = decide()
    attrs = decisions.attrs
    keys = [c for c in decisions.columns if c not in PAIR_DECISION_COLUMNS]
    if attrs["scope"] == "within datasets":
        return _within(decisions, keys)
    _refuse_control(attrs["control"])
    note = attrs["note"] + ("" if attrs.get("tested", True) else ", so every method shares the letter a")
    mean_ranks, separated = _separated(decisions, attrs["methods"])
    return _across(mean_ranks, separated, attrs["test"], attrs["alpha"], note)
