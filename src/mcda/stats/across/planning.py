"""Across datasets, before anything is run: can a design show a significant difference at all?

:func:`attainable_significance` (the smallest p-value a per-pair paired test can give over N
datasets against the strictest threshold of a multiplicity adjustment) and
:func:`design_adequacy` (that and Nemenyi's critical difference against the largest possible
mean-rank gap).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd  # noqa: F401

from mcda._core.results import Result
from mcda._core.validation import check_alpha, check_choice, check_positive_int
from mcda.stats._shared.multitest import canonical_adjustment
from mcda.stats.procedures import PROCEDURES, canonical
from mcda.stats.across.posthoc import critical_difference, q_alpha

__all__ = [
    "AttainableSignificance",
    "attainable_significance",
    "DesignAdequacy",
    "design_adequacy",
]

#: The adjustments whose first (strictest) threshold is alpha/m.
_ATTAINABLE_ADJUSTMENTS = tuple(name for name, entry in PROCEDURES.items() if entry.bonferroni_first)


# --------------------------------------------------------------------------- attainable significance


@dataclass(frozen=True, repr=False)
class AttainableSignificance(Result):
    """Whether any pairwise paired test can reach significance after a multiplicity adjustment.

    Attributes
    ----------
    n_datasets, n_methods : int
    n_comparisons : int
        m = k(k − 1)/2 for all pairs, k − 1 against a control.
    comparisons : str
        "all-pairs" or "control".
    test : str
        The per-pair paired test ("wilcoxon" or "sign"), exact and two-sided.
    adjust : str or None
        The canonical name of the adjustment (None: none).
    alpha : float
    min_pvalue : float
        The smallest p-value the test can give over N datasets: 2 / 2^N (every dataset favours
        the same method; no zero differences).
    strictest_threshold : float
        The first (strictest) threshold of the adjustment: α / m (α with no adjustment).
    attainable : bool
        ``min_pvalue <= strictest_threshold``. When False no pair can ever be significant:
        the procedure cannot reject anything, whatever the scores.
    min_datasets : int
        The fewest datasets with which a pair can be significant at this k and adjustment.
    """

    n_datasets: int
    n_methods: int
    n_comparisons: int
    comparisons: str
    test: str
    adjust: str | None
    alpha: float
    min_pvalue: float
    strictest_threshold: float
    attainable: bool
    min_datasets: int

    def to_frame(self) -> pd.DataFrame:
        """One row with every field."""
        return self._one_row()

    def summary(self) -> str:
        relation = "<=" if self.attainable else ">"
        bound = ("alpha" if self.adjust is None else
                 f"alpha/m = {self.alpha:g}/{self.n_comparisons}") + f" = {self.strictest_threshold:.2g}"
        head = (f"{self.test} over {self.n_datasets} datasets: smallest attainable p = 2/2^{self.n_datasets} = "
                f"{self.min_pvalue:.2g} {relation} {bound} ({self.adjust or 'no adjustment'}, {self.n_methods} methods, "
                f"{self.n_comparisons} comparisons)")
        if self.attainable:
            return head + f"; significance is attainable (needs N >= {self.min_datasets})"
        return head + (f"; no pair can ever be significant: at least {self.min_datasets} datasets are needed")



def attainable_significance(n_datasets, n_methods, *, alpha: float = 0.05, comparisons: str = "all-pairs",
                            adjust: str | None = "holm", test: str = "wilcoxon") -> AttainableSignificance:
    """Can a per-pair paired test over N datasets ever be significant after an adjustment over k methods?

    Parameters
    ----------
    n_datasets : int
        N, the datasets each pair is compared on.
    n_methods : int
        k ≥ 2.
    alpha : float
        The family-wise level.
    comparisons : {"all-pairs", "control"}
        m = k(k − 1)/2 comparisons, or k − 1 against a control.
    adjust : {"holm", "bonferroni", "shaffer", "bergmann-hommel", None}
        Each of these first compares the smallest p-value with α/m (Shaffer's t_1 = m; the
        whole family is an exhaustive set for Bergmann–Hommel): if even the smallest
        attainable p misses it, nothing can be rejected. None: no adjustment (threshold α).
    test : {"wilcoxon", "sign"}
        The exact two-sided test per pair; both have 2/2^N as their smallest p-value.

    Returns
    -------
    AttainableSignificance

    Examples
    --------
    >>> from mcda import attainable_significance
    >>> a = attainable_significance(8, 15)
    >>> round(a.min_pvalue, 4), round(a.strictest_threshold, 5), a.attainable, a.min_datasets
    (0.0078, 0.00048, False, 13)
    """
    n = check_positive_int("n_datasets", n_datasets)
    k = check_positive_int("n_methods", n_methods, minimum=2)
    alpha = check_alpha(alpha)
    comparisons = check_choice("comparisons", comparisons.strip().lower().replace("_", "-")
                               if isinstance(comparisons, str) else comparisons, ("all-pairs", "control"))
    if adjust is not None:
        adjust = canonical_adjustment(adjust, "adjust", allowed=_ATTAINABLE_ADJUSTMENTS, optional=True)
    test = canonical("test", test, family="pool-independent")
    m = k * (k - 1) // 2 if comparisons == "all-pairs" else k - 1
    threshold = alpha if adjust is None else alpha / m
    min_p = min(1.0, 2.0 ** (1 - n))
    needed = 1
    while 2.0 ** (1 - needed) > threshold:  # the smallest N with 2^(1−N) <= threshold (powers of 2: exact)
        needed += 1
    return AttainableSignificance(n_datasets=n, n_methods=k, n_comparisons=m, comparisons=comparisons, test=test,
                                  adjust=adjust, alpha=alpha, min_pvalue=min_p,
                                  strictest_threshold=threshold, attainable=bool(min_p <= threshold),
                                  min_datasets=needed)


# --------------------------------------------------------------------------- design adequacy


@dataclass(frozen=True, repr=False)
class DesignAdequacy(Result):
    """Whether k methods on N datasets can reach significance at all, before anything is run.

    Attributes
    ----------
    n_methods, n_datasets : int
    alpha : float
    n_pairs : int
        m = k(k − 1)/2.
    q_alpha : float
        Nemenyi's critical value q_α = studentized range quantile(1 − α; k, ∞)/√2.
    critical_difference : float
        CD = q_α √(k(k + 1)/(6N)), in mean-rank units.
    max_rank_difference : float
        k − 1, the largest mean-rank difference any data can produce.
    min_pvalue : float
        The smallest two-sided p a Wilcoxon signed-rank (or sign) test over N datasets can
        give: 2/2^N (one method better on every dataset).
    strictest_threshold : float
        α/m, the threshold the smallest p must meet in Holm's first step (Bonferroni).
    min_datasets : int
        The smallest N with 2/2^N ≤ α/m.
    nemenyi_possible, pairwise_possible : bool
        CD ≤ k − 1; min_pvalue ≤ strictest_threshold.
    verdict : {"adequate", "inadequate"}
    sentence : str
        The verdict in words.
    """

    n_methods: int
    n_datasets: int
    alpha: float
    n_pairs: int
    q_alpha: float
    critical_difference: float
    max_rank_difference: float
    min_pvalue: float
    strictest_threshold: float
    min_datasets: int
    nemenyi_possible: bool
    pairwise_possible: bool
    verdict: str
    sentence: str

    def to_frame(self) -> pd.DataFrame:
        return self._one_row()

    def summary(self) -> str:
        return (f"Design adequacy: {self.n_methods} methods on {self.n_datasets} datasets, alpha = {self.alpha:g}\n"
                f"  Nemenyi CD = {self.critical_difference:.3f} (q = {self.q_alpha:.3f}); largest possible "
                f"mean-rank gap = {self.max_rank_difference:g}\n"
                f"  smallest attainable p = {self.min_pvalue:.3g}; strictest threshold alpha/m = "
                f"{self.strictest_threshold:.3g} (m = {self.n_pairs})\n"
                f"  verdict: {self.verdict}. {self.sentence}")



def design_adequacy(n_methods, n_datasets, *, alpha: float = 0.05) -> DesignAdequacy:
    """Can k methods on N datasets show any significant difference at all?

    Parameters
    ----------
    n_methods : int
        k ≥ 2.
    n_datasets : int
        N ≥ 1.
    alpha : float
        Family-wise level.

    Returns
    -------
    DesignAdequacy
        ``n_methods, n_datasets, alpha, n_pairs, q_alpha, critical_difference,
        max_rank_difference, min_pvalue, strictest_threshold, min_datasets,
        nemenyi_possible, pairwise_possible, verdict, sentence``.

    Raises
    ------
    TypeError, ValueError
        ``n_methods`` < 2 or ``n_datasets`` < 1 (or not integers); ``alpha`` outside (0, 1).

    Notes
    -----
    Nemenyi: CD = q_α √(k(k+1)/(6N)) with q_α the studentized range quantile over √2
    (Demšar 2006). No data can make two mean ranks differ by more than k − 1, so CD > k − 1
    means Nemenyi can never reject.

    Pairwise: a two-sided Wilcoxon signed-rank test (or sign test) over N datasets cannot
    give p below 2/2^N, reached when one method wins on every dataset. With m = k(k−1)/2
    pairs, Holm's first step (like Bonferroni) asks p ≤ α/m, so 2/2^N > α/m means no pair can
    ever be significant after adjustment, whatever the data. The design is "adequate" when
    both are possible.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    JMLR 7:1–30.

    Examples
    --------
    >>> import mcda
    >>> d = mcda.design_adequacy(10, 5)
    >>> d.verdict, round(d.min_pvalue, 4), round(d.strictest_threshold, 5), d.min_datasets
    ('inadequate', 0.0625, 0.00111, 11)
    """
    n_methods = check_positive_int("n_methods", n_methods, minimum=2)
    n_datasets = check_positive_int("n_datasets", n_datasets, minimum=1)
    alpha = check_alpha(alpha)
    attainable = attainable_significance(n_datasets, n_methods, alpha=alpha, comparisons="all-pairs",
                                         adjust="holm", test="wilcoxon")
    n_pairs = attainable.n_comparisons
    q = q_alpha(n_methods, alpha=alpha, test="nemenyi")
    cd = critical_difference(n_methods, n_datasets, alpha=alpha, test="nemenyi")
    max_gap = float(n_methods - 1)
    min_pvalue = attainable.min_pvalue
    threshold = attainable.strictest_threshold
    min_datasets = attainable.min_datasets
    nemenyi_possible = cd <= max_gap
    pairwise_possible = min_pvalue <= threshold
    adequate = nemenyi_possible and pairwise_possible
    parts = []
    if pairwise_possible:
        parts.append(f"a method that wins on all {n_datasets} datasets reaches p = {min_pvalue:.3g}, below "
                     f"alpha/m = {threshold:.3g}")
    else:
        parts.append(f"even a method that wins on all {n_datasets} datasets gets p = {min_pvalue:.3g}, above "
                     f"alpha/m = {threshold:.3g} for {n_pairs} pairs, so no pairwise test can be significant after "
                     f"adjustment; that needs at least {min_datasets} datasets")
    if nemenyi_possible:
        parts.append(f"the Nemenyi critical difference {cd:.3f} is within the largest possible mean-rank gap "
                     f"{max_gap:g}")
    else:
        parts.append(f"the Nemenyi critical difference {cd:.3f} exceeds the largest possible mean-rank gap "
                     f"{max_gap:g}, so Nemenyi can never reject")
    sentence = ("This design can show significant differences: " if adequate
                else "This design cannot show some differences whatever the data: ") + "; ".join(parts) + "."
    return DesignAdequacy(n_methods=n_methods, n_datasets=n_datasets, alpha=alpha, n_pairs=n_pairs, q_alpha=q,
                          critical_difference=cd, max_rank_difference=max_gap, min_pvalue=min_pvalue,
                          strictest_threshold=threshold, min_datasets=min_datasets,
                          nemenyi_possible=bool(nemenyi_possible), pairwise_possible=bool(pairwise_possible),
                          verdict="adequate" if adequate else "inadequate", sentence=sentence)
