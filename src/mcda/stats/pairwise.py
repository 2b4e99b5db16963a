"""Pool-independent pairwise evidence: per pair of methods, on the datasets both have, how often
one outperforms the other by more than the rope.

:func:`pairwise_counts` is the one place these counts are computed; superiority,
transitivity, the Bayesian sign comparison and the multi-criteria dominance all read them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.results import Result, states_scale
from mcda._core.validation import SmallSampleWarning, check_alpha, check_choice, check_probability, warn
from mcda.data.cards import direction_sign
from mcda._core.numeric import tie_key
from mcda.stats._shared.multitest import (PAIR_STRUCTURED, PVALUE_ADJUSTMENTS, adjust_pvalues, canonical_adjustment)
from mcda.data.cube import single_score_cube
from mcda.data.checks import cube_direction
from mcda.data import blocks as _chunks
from mcda.stats._shared.counts import SHOWN_PAIRS as _SHOWN_PAIRS
from mcda.stats._shared.counts import PairwiseCounts, add_partials, beyond_rope, count_regions, counts_from_cube

__all__ = [
    "PairwiseCounts",
    "pairwise_counts",
    "count_regions",
    "beyond_rope",
    "SuperiorityReport",
    "pairwise_superiority",
    "TransitivityResult",
    "pairwise_transitivity",
    "BradleyTerryResult",
    "bradley_terry",
    "MarginalMeans",
    "marginal_means",
]


@states_scale
def pairwise_counts(scores, direction=None, *, rope=None, method_names=None) -> PairwiseCounts:
    """Wins, equivalences and shared datasets for every pair of methods.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` (one score per dataset and method)
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    rope : float, optional
        Half-width of the region of practical equivalence; None uses the card's noise floor.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Notes
    -----
    Per pair, a dataset counts when both methods have a result there (NaN cells are dropped
    pairwise and the count is reported). With d the oriented difference (row − column), the
    dataset is a win for the row when d > rope, a loss when d < −rope, and an equivalence when
    |d| ≤ rope. The boundary counts as equivalent, as in baycomp; floating-point noise of the
    subtraction itself is forgiven (tolerance 8 ulp of the larger operand), so
    0.77 − 0.76 against a rope of 0.01 is an equivalence.

    Examples
    --------
    >>> from mcda import pairwise_counts
    >>> c = pairwise_counts({"d1": {"a": 0.77, "b": 0.76}, "d2": {"a": 0.9, "b": 0.7}},
    ...                     "higher_is_better", rope=0.01)
    >>> c.to_frame().to_dict("records")
    [{'method_a': 'a', 'method_b': 'b', 'n_datasets': 2, 'wins_a': 1, 'n_equivalent': 1, 'wins_b': 0}]
    """
    return counts_from_cube(single_score_cube(scores, direction, method_names=method_names,
                                              what="pairwise counts"), rope)


def _pair_sums_block(values: np.ndarray, offset: int):
    """Block: Σ a over the datasets a and b share, and the shared counts, per ordered pair (own units)."""
    present = ~np.isnan(values)
    mask = present.astype(np.float64)
    return np.where(present, values, 0.0).T @ mask, mask.T @ mask


# --------------------------------------------------------------------------- shared helpers

_SIGN_TEST_ADJUSTMENTS = tuple(m for m in PVALUE_ADJUSTMENTS if m not in PAIR_STRUCTURED)


def _as_counts(scores, direction, rope, method_names) -> PairwiseCounts:
    """Counts from scores (via :func:`pairwise_counts`), or the PairwiseCounts given."""
    if isinstance(scores, PairwiseCounts):
        given = {k: v for k, v in (("direction", direction), ("rope", rope), ("method_names", method_names))
                 if v is not None}
        if given:
            raise McdaArgumentError(f"`scores` is already a PairwiseCounts (rope {scores.rope}, {scores.direction}); "
                             f"{', '.join(f'`{k}`' for k in given)} cannot change it. Pass the scores instead, "
                             "or drop the argument.", argument="scores")
        return scores
    return pairwise_counts(scores, direction, rope=rope, method_names=method_names)


def _counts_of(report, function: str) -> PairwiseCounts:
    """The PairwiseCounts behind a SuperiorityReport (or the counts themselves)."""
    if isinstance(report, SuperiorityReport):
        return report.counts
    if isinstance(report, PairwiseCounts):
        return report
    raise McdaArgumentTypeError(f"`report` must be the SuperiorityReport of mcda.pairwise_superiority(...) or a PairwiseCounts "
                    f"(e.g. PairwiseCounts.from_matrix(wins)); got {type(report).__name__}. "
                    f"For raw scores call {function}(mcda.pairwise_superiority(scores, ...)).", argument="report")


def _arrays(counts: PairwiseCounts):
    return (counts.wins.to_numpy(dtype=np.int64), counts.n_equivalent.to_numpy(dtype=np.int64),
            counts.n_shared.to_numpy(dtype=np.int64))


def _labelled(values, methods, *, name=None):
    idx = pd.Index(methods, name="method")
    if np.ndim(values) == 1:
        return pd.Series(values, index=idx, name=name)
    return pd.DataFrame(values, index=idx, columns=idx.rename("versus"))


def _order_by(*keys: np.ndarray) -> np.ndarray:
    """Indices by decreasing first key, ties (equal up to the tie tolerance) broken by the next
    keys, then by input order; NaN last."""
    return np.lexsort((np.arange(len(keys[0])),) + tuple(-tie_key(k) for k in reversed(keys)))


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _pairs_text(pairs, sep=" vs ") -> str:
    pairs = list(pairs)
    text = ", ".join(sep.join(p) for p in pairs[:_SHOWN_PAIRS])
    if len(pairs) > _SHOWN_PAIRS:
        text += f", … ({len(pairs) - _SHOWN_PAIRS} more)"
    return text or "none"


def sign_test_pvalues(wins_a, wins_b) -> np.ndarray:
    """Exact two-sided sign test (binomial, p = 1/2) of ``wins_a`` against ``wins_b``.

    Equivalences are not passed in: they are dropped before the test. NaN where there is no
    decisive comparison (the test does not apply). Identical to
    ``scipy.stats.binomtest(wins_a, wins_a + wins_b).pvalue``, vectorised: for p = 1/2 the
    two-sided p-value is ``min(1, 2 · P(X ≤ min(wins_a, wins_b)))``, X ~ Binomial(n, 1/2).
    """
    wins_a = np.asarray(wins_a, dtype=np.int64)
    wins_b = np.asarray(wins_b, dtype=np.int64)
    n = wins_a + wins_b
    p = np.minimum(1.0, 2.0 * stats.binom.cdf(np.minimum(wins_a, wins_b), n, 0.5))
    return np.where(n > 0, p, np.nan)


def check_adjust(adjust) -> str | None:
    """The canonical name of a multiplicity adjustment for sign-test p-values, or None."""
    if adjust is None:
        return None
    return canonical_adjustment(adjust, "adjust", allowed=_SIGN_TEST_ADJUSTMENTS, optional=True, why_not=(
        "Shaffer's and Bergmann–Hommel's logical restrictions hold for equalities of means or mean ranks, "
        "not for sign-test hypotheses, which need not be transitive."))


# --------------------------------------------------------------------------- superiority

@dataclass(frozen=True, repr=False)
class SuperiorityReport(Result):
    """Pairwise superiority: per pair, who outperforms whom how often, and is it more than chance.

    Attributes
    ----------
    methods : list of str
    counts : PairwiseCounts
        The wins, equivalences and shared datasets behind everything below.
    probability_superior : pandas.DataFrame
        ``probability_superior.loc[a, b]``: share of the datasets a and b share on which a
        outperforms b by more than the rope (NaN on the diagonal and for pairs with no
        shared dataset).
    probability_equivalent : pandas.DataFrame
        Share of the shared datasets on which |a − b| ≤ rope (symmetric). For every pair,
        ``P[a, b] + P[b, a] + probability_equivalent[a, b] == 1``.
    pvalues : pandas.DataFrame
        Exact two-sided sign test on the decisive datasets (symmetric; NaN on the diagonal
        and where a pair has no decisive dataset, the reason in ``reasons``).
    pvalues_adjusted : pandas.DataFrame
        ``pvalues`` adjusted over the pairs that have one (``adjust``); a copy of ``pvalues``
        when ``adjust`` is None.
    superior_pairs : list of tuple
        ``(better, worse)`` for every pair whose adjusted p-value is ≤ ``alpha``.
    equivalent_pairs : list of tuple
        ``(a, b)`` (in method order) for every pair with shared datasets that the sign test
        cannot tell apart: adjusted p-value > ``alpha``, or no decisive dataset at all. Not a
        proof of equivalence when there are few datasets.
    incomparable_pairs : list of tuple
        Pairs with no shared dataset (no evidence either way).
    standing : pandas.Series
        Copeland-style score: the mean over the other methods of the share of shared datasets
        on which the method outperforms or is equivalent to them, in [0, 1].
    order : list of str
        Methods by decreasing standing (ties: by mean ``probability_superior``, then input order;
        methods with no shared dataset last).
    alpha : float
    adjust : str or None
        The canonical name of the multiplicity adjustment.
    rope : float
        In the metric's own units.
    direction : str
        The metric's direction.
    reasons : dict
        ``(a, b) -> why the pair has no p-value``.
    """

    methods: list
    counts: PairwiseCounts
    probability_superior: pd.DataFrame
    probability_equivalent: pd.DataFrame
    pvalues: pd.DataFrame
    pvalues_adjusted: pd.DataFrame
    superior_pairs: list
    equivalent_pairs: list
    incomparable_pairs: list
    standing: pd.Series
    order: list
    alpha: float
    adjust: str | None
    rope: float
    direction: str
    reasons: dict = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """One row per unordered pair (in method order).

        Columns: ``method_a, method_b, n_datasets, wins_a, n_equivalent, wins_b, n_decisive,
        probability_a_superior, probability_b_superior, probability_equivalent, p_raw,
        p_adjusted, superior`` (the significantly better method, or None) and ``reason``
        (why the p-value is NaN, else "").
        """
        out = self.counts.to_frame()  # rows in np.triu_indices order: (0, 1), (0, 2), …
        i, j = np.triu_indices(len(self.methods), 1)
        a, b = out["method_a"], out["method_b"]
        out["n_decisive"] = out["wins_a"] + out["wins_b"]
        out["probability_a_superior"] = self.probability_superior.to_numpy()[i, j]
        out["probability_b_superior"] = self.probability_superior.to_numpy()[j, i]
        out["probability_equivalent"] = self.probability_equivalent.to_numpy()[i, j]
        out["p_raw"] = self.pvalues.to_numpy()[i, j]
        out["p_adjusted"] = self.pvalues_adjusted.to_numpy()[i, j]
        better = {frozenset(p): p[0] for p in self.superior_pairs}
        out["superior"] = [better.get(frozenset((x, y))) for x, y in zip(a, b)]
        out["reason"] = [self.reasons.get((x, y), "") for x, y in zip(a, b)]
        return out

    def summary(self) -> str:
        """A few lines for people: standing, the pairs told apart, the pairs not."""
        adjust = f", {self.adjust} adjustment" if self.adjust else ", no multiplicity adjustment"
        lines = [f"Pairwise superiority of {len(self.methods)} methods (rope {self.rope:g}, {self.direction}); "
                 f"exact sign test, alpha {self.alpha:g}{adjust}",
                 "standing: " + ", ".join(f"{m} {self.standing[m]:.3f}" for m in self.order)]
        c = self.counts
        label = "p_adj" if self.adjust else "p (unadjusted)"
        shown = [f"{a} > {b} ({c.wins.loc[a, b]}/{c.n_shared.loc[a, b]} datasets, "
                 f"{label} {self.pvalues_adjusted.loc[a, b]:.3g})" for a, b in self.superior_pairs]
        more = f"; … ({len(shown) - _SHOWN_PAIRS} more)" if len(shown) > _SHOWN_PAIRS else ""
        lines.append("superior: " + ("; ".join(shown[:_SHOWN_PAIRS]) or "none") + more)
        lines.append("not told apart: " + _pairs_text(self.equivalent_pairs))
        if self.incomparable_pairs:
            lines.append("no shared dataset: " + _pairs_text(self.incomparable_pairs))
        return "\n".join(lines)


@states_scale
def pairwise_superiority(scores, direction=None, *, rope=None, alpha: float = 0.05, adjust: str | None = "holm",
                         method_names=None) -> SuperiorityReport:
    """Probability of superiority and an exact sign test for every pair of methods.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`, or a :class:`PairwiseCounts`
        One score per dataset and method (a datasets × methods array with ``method_names``, a
        DataFrame, a nested dict or a cube). Counts built with
        :meth:`PairwiseCounts.from_matrix` are taken as they are.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    rope : float, optional
        Half-width of the region of practical equivalence, in the metric's units; None uses
        the card's noise floor.
    alpha : float
        Level at which a pair counts as told apart (adjusted p-value ≤ ``alpha``).
    adjust : str or None, default "holm"
        Multiplicity adjustment over the pairs that have a p-value (those without one are
        outside the family), by :func:`mcda.adjust_pvalues` (the default of
        :meth:`mcda.Report.superiority` too); None for unadjusted p-values: "holm", "bonferroni",
        "hochberg", "hommel", "sidak", "holm-sidak", "fdr-bh", "fdr-by" or their aliases.
        Not "shaffer" or "bergmann-hommel": their logical restrictions assume transitive
        null hypotheses (equal means or mean ranks), which sign-test hypotheses are not.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    SuperiorityReport
        ``methods, counts, probability_superior, probability_equivalent, pvalues,
        pvalues_adjusted, superior_pairs, equivalent_pairs, incomparable_pairs, standing,
        order, alpha, adjust, rope, direction, reasons``; ``to_frame()`` gives one row per
        pair with every count and p-value.

    Raises
    ------
    ValueError
        For a bad ``alpha``, ``adjust`` or ``rope``, for scores with a ``seed`` or ``metric``
        dim, and for ``direction``/``rope``/``method_names`` given with a PairwiseCounts.

    Warns
    -----
    SmallSampleWarning
        When some pair has so few decisive datasets that even a clean sweep cannot reach
        ``alpha`` (fewer than 1 − log2(alpha) decisive datasets: 6 at alpha = 0.05).

    Notes
    -----
    Per pair (a, b), on the N datasets where both have a result (NaN cells dropped pairwise),
    a dataset is a win for a when the oriented difference d = a − b exceeds the rope, a loss
    when d < −rope and an equivalence when |d| ≤ rope (the boundary is equivalent, as in
    baycomp; the rounding error of the subtraction is forgiven, so 0.77 − 0.76 against a rope
    of 0.01 is an equivalence: see :func:`pairwise_counts`). The probability of superiority
    is wins / N, Grissom's (1994) probability of the superior outcome, the common-language
    effect size of McGraw & Wong (1992) on paired data.

    The sign test drops the equivalences and tests wins against losses with the exact
    two-sided binomial test at p = 1/2 (what ``scipy.stats.binomtest`` computes). With no
    decisive dataset the test does not apply: the p-value is NaN with a reason, never 1.

    The standing of a method is a Copeland-style score (Saari & Merlin 1996) on the shares:
    s_a = mean over b of (wins_ab + equivalent_ab) / N_ab. It does not depend on which other
    methods were run on a dataset, only on the pairs, and is descriptive.

    References
    ----------
    Grissom, R. J. (1994). Probability of the superior outcome of one treatment over another.
    Journal of Applied Psychology 79(2):314–316. doi:10.1037/0021-9010.79.2.314
    McGraw, K. O. & Wong, S. P. (1992). A common language effect size statistic.
    Psychological Bulletin 111(2):361–365. doi:10.1037/0033-2909.111.2.361
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    JMLR 7:1–30 (the sign test over datasets, §3.1.3).
    Holm, S. (1979). A simple sequentially rejective multiple test procedure.
    Scandinavian Journal of Statistics 6(2):65–70.
    Saari, D. G. & Merlin, V. R. (1996). The Copeland method. Economic Theory 8:51–76.
    doi:10.1007/BF01212012

    Examples
    --------
    >>> import warnings
    >>> from mcda import datasets, pairwise_superiority
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")   # few datasets: some pairs cannot reach alpha
    ...     report = pairwise_superiority(datasets.load("demsar2006"))   # Holm over the pairs
    >>> report.order[0]
    'C4.5+m+cf'
    >>> float(report.probability_superior.loc["C4.5+m", "C4.5"])   # 6 wins of 14 shared datasets
    0.42857142857142855
    >>> row = report.to_frame().loc[0]
    >>> row["method_a"], row["method_b"], row[["wins_a", "n_equivalent", "wins_b"]].astype(int).tolist()
    ('C4.5', 'C4.5+m', [0, 8, 6])
    >>> float(report.pvalues.loc["C4.5", "C4.5+m"])   # 6 of 6 decisive datasets: 2 / 2**6
    0.03125
    """
    alpha = check_alpha(alpha)
    adjust = check_adjust(adjust)
    counts = _as_counts(scores, direction, rope, method_names)
    methods = list(counts.methods)
    wins, equivalent, shared = _arrays(counts)
    k = len(methods)
    off = ~np.eye(k, dtype=bool)
    compared = off & (shared > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_superior = np.where(compared, wins / shared, np.nan)
        p_equivalent = np.where(compared, equivalent / shared, np.nan)
    pvalues = sign_test_pvalues(wins, wins.T)
    pvalues[~off] = np.nan
    upper = np.triu_indices(k, 1)
    adjusted = np.full((k, k), np.nan)
    if adjust:
        adjusted[upper] = adjust_pvalues(pvalues[upper], method=adjust)
    else:
        adjusted[upper] = pvalues[upper]
    adjusted[upper[::-1]] = adjusted[upper]

    reasons, superior, equivalent_pairs, incomparable, too_few = {}, [], [], [], []
    needed = math.ceil(1.0 - math.log2(alpha) - 1e-12)  # decisive datasets a clean sweep needs to reach alpha
    for i, j in zip(*upper):
        a, b = methods[i], methods[j]
        decisive = wins[i, j] + wins[j, i]
        if shared[i, j] == 0:
            reasons[(a, b)] = reasons[(b, a)] = "no dataset where both have a result"
            incomparable.append((a, b))
            continue
        if decisive == 0:
            reasons[(a, b)] = reasons[(b, a)] = (f"all {shared[i, j]} shared datasets are within the rope: "
                                                 "no decisive dataset for the sign test")
        elif decisive < needed:
            too_few.append((a, b))
        if adjusted[i, j] <= alpha:
            superior.append((a, b) if wins[i, j] > wins[j, i] else (b, a))
        else:
            equivalent_pairs.append((a, b))
    if too_few:
        warn(f"{len(too_few)} of {len(upper[0])} pairs have fewer than {needed} decisive datasets, so their sign "
             f"test cannot reach alpha={alpha:g} even with a clean sweep ({_pairs_text(too_few)}).",
             SmallSampleWarning)

    with np.errstate(invalid="ignore"):
        n_compared = compared.sum(axis=1)
        standing = np.where(n_compared > 0, np.nansum(p_superior + p_equivalent, axis=1) / np.maximum(n_compared, 1),
                            np.nan)
        mean_superior = np.where(n_compared > 0, np.nansum(p_superior, axis=1) / np.maximum(n_compared, 1), np.nan)
    order_idx = _order_by(standing, mean_superior)
    return SuperiorityReport(
        methods=methods, counts=counts,
        probability_superior=_labelled(p_superior, methods), probability_equivalent=_labelled(p_equivalent, methods),
        pvalues=_labelled(pvalues, methods), pvalues_adjusted=_labelled(adjusted, methods),
        superior_pairs=superior, equivalent_pairs=equivalent_pairs, incomparable_pairs=incomparable,
        standing=_labelled(standing, methods, name="standing"), order=[methods[i] for i in order_idx],
        alpha=alpha, adjust=adjust, rope=counts.rope, direction=counts.direction, reasons=reasons)


# --------------------------------------------------------------------------- transitivity

@dataclass(frozen=True, repr=False)
class TransitivityResult(Result):
    """The pairwise-majority relation and how far it is from a single order.

    Attributes
    ----------
    methods : list of str
    relation : pandas.DataFrame
        Boolean; ``relation.loc[a, b]`` is True when a outperforms b on more shared datasets
        than b outperforms a (a → b).
    tied_pairs : list of tuple
        Pairs with no edge: an even split of the decisive datasets, or none.
    is_complete : bool
        No pair is tied.
    is_transitive : bool
        a → b and b → c imply a → c for every triple (a strict partial order).
    circular_triads : list of tuple
        Every cycle a → b → c → a as an ordered triple, starting from its method that comes
        first in ``methods``.
    n_circular_triads : int
        Kendall's d.
    max_circular_triads : int
        The most a tournament on this many methods can have: n(n² − 1)/24 (n odd),
        n(n² − 4)/24 (n even).
    coefficient_of_consistence : float or None
        Kendall & Babington Smith's ζ = 1 − d/d_max; None (with ``reason``) when a pair is
        tied or there are fewer than 3 methods.
    condorcet_choice : str or None
        The method that beats every other one, if any.
    order : list of str or None
        The single order the relation implies (best first) when it is transitive and complete.
    scores : pandas.Series
        How many methods each method beats (Kendall's a_i, the Copeland win count).
    reason : str
        Why ``coefficient_of_consistence`` or ``order`` is None ("" when neither is).
    """

    methods: list
    relation: pd.DataFrame
    tied_pairs: list
    is_complete: bool
    is_transitive: bool
    circular_triads: list
    n_circular_triads: int
    max_circular_triads: int
    coefficient_of_consistence: float | None
    condorcet_choice: str | None
    order: list | None
    scores: pd.Series
    reason: str = ""

    def to_frame(self) -> pd.DataFrame:
        """One row per unordered pair: ``method_a, method_b, preferred`` (the method the majority
        prefers, or None when tied) and ``n_circular_triads`` (cycles through this pair)."""
        through: dict = {}
        for a, b, c in self.circular_triads:
            for pair in ((a, b), (b, c), (c, a)):
                key = frozenset(pair)
                through[key] = through.get(key, 0) + 1
        rel = self.relation
        rows = []
        for i, a in enumerate(self.methods):
            for b in self.methods[i + 1:]:
                preferred = a if rel.loc[a, b] else (b if rel.loc[b, a] else None)
                rows.append((a, b, preferred, through.get(frozenset((a, b)), 0)))
        return pd.DataFrame(rows, columns=["method_a", "method_b", "preferred", "n_circular_triads"])

    def summary(self) -> str:
        """A few lines for people."""
        zeta = ("undefined" if self.coefficient_of_consistence is None
                else f"{self.coefficient_of_consistence:.3f}")
        lines = [f"Pairwise-majority relation on {len(self.methods)} methods: "
                 f"{'transitive' if self.is_transitive else 'not transitive'}, "
                 f"{'complete' if self.is_complete else _plural(len(self.tied_pairs), 'tied pair')}",
                 f"circular triads: {self.n_circular_triads} of at most {self.max_circular_triads}; "
                 f"coefficient of consistence {zeta}",
                 f"Condorcet choice: {self.condorcet_choice}"]
        if self.circular_triads:
            lines.append("cycles: " + _pairs_text([t + (t[0],) for t in self.circular_triads], sep=" → "))
        if self.order is not None:
            lines.append("order: " + " > ".join(self.order))
        if self.reason:
            lines.append(self.reason)
        return "\n".join(lines)


def _max_circular_triads(n: int) -> int:
    """Kendall & Babington Smith's d_max: n(n² − 1)/24 for odd n, n(n² − 4)/24 for even n."""
    return n * (n * n - 1) // 24 if n % 2 else n * (n * n - 4) // 24


def _circular_triads(relation: np.ndarray) -> list:
    """Every directed 3-cycle (i, j, l), i → j → l → i, as index triples with i the smallest index."""
    n = relation.shape[0]
    out = []
    for i in range(n - 2):
        after = np.arange(i + 1, n)
        # i → j, j → l, l → i with j, l > i
        sub = relation[i, after][:, None] & relation[np.ix_(after, after)] & relation[after, i][None, :]
        for j, l in zip(*np.nonzero(sub)):
            out.append((i, int(after[j]), int(after[l])))
    return out


@states_scale
def pairwise_transitivity(report) -> TransitivityResult:
    """Is the pairwise-majority relation a single order? Circular triads, Kendall's ζ, the Condorcet choice.

    Parameters
    ----------
    report : SuperiorityReport or PairwiseCounts
        From :func:`pairwise_superiority`, :func:`pairwise_counts`, or a preference table via
        :meth:`PairwiseCounts.from_matrix`.

    Returns
    -------
    TransitivityResult
        ``methods, relation, tied_pairs, is_complete, is_transitive, circular_triads,
        n_circular_triads, max_circular_triads, coefficient_of_consistence,
        condorcet_choice, order, scores, reason``.

    Raises
    ------
    TypeError
        When ``report`` is neither a SuperiorityReport nor a PairwiseCounts.

    Notes
    -----
    a → b when a outperforms b on more of their shared datasets than b outperforms a
    (equivalences do not count); an even split, or no decisive dataset, leaves the pair tied
    (no edge). A circular triad is a cycle a → b → c → a. For a complete relation (a
    tournament) with a_i the number of methods i beats, Kendall & Babington Smith (1940)
    count d = n(n − 1)(2n − 1)/12 − ½ Σ a_i² circular triads, at most
    d_max = n(n² − 1)/24 (n odd) or n(n² − 4)/24 (n even), and define the coefficient of
    consistence ζ = 1 − d/d_max: 1 for a transitive tournament, 0 for the most circular one.
    Here the cycles are listed directly (so d holds with ties too), and ζ is reported only
    for complete relations. The relation is transitive when a → b → c always implies a → c;
    with tied pairs it can be transitive without implying a single order.

    References
    ----------
    Kendall, M. G. & Babington Smith, B. (1940). On the method of paired comparisons.
    Biometrika 31(3/4):324–345. doi:10.1093/biomet/31.3-4.324

    Examples
    --------
    >>> from mcda.stats.pairwise import PairwiseCounts, pairwise_transitivity
    >>> wins = [[0, 1, 0], [0, 0, 1], [1, 0, 0]]      # a beats b, b beats c, c beats a
    >>> t = pairwise_transitivity(PairwiseCounts.from_matrix(wins, methods=["a", "b", "c"]))
    >>> t.circular_triads, t.coefficient_of_consistence, t.condorcet_choice
    ([('a', 'b', 'c')], 0.0, None)
    """
    counts = _counts_of(report, "pairwise_transitivity")
    methods = list(counts.methods)
    wins, _, _ = _arrays(counts)
    n = len(methods)
    relation = wins > wins.T
    np.fill_diagonal(relation, False)
    tied = [(methods[i], methods[j]) for i, j in zip(*np.triu_indices(n, 1))
            if not relation[i, j] and not relation[j, i]]
    cycles = [tuple(methods[x] for x in t) for t in _circular_triads(relation)]
    d_max = _max_circular_triads(n)
    beats = relation.sum(axis=1)
    two_steps = (relation.astype(np.int64) @ relation.astype(np.int64)) > 0
    violations = np.argwhere(two_steps & ~relation & ~np.eye(n, dtype=bool))
    is_transitive = len(violations) == 0
    is_complete = not tied
    reasons = []
    if not is_complete:
        reasons.append(f"{_plural(len(tied), 'pair')} tied ({_pairs_text(tied)}): Kendall's coefficient of consistence "
                       "needs a winner in every pair")
    if n < 3:
        reasons.append("fewer than 3 methods: no triad, so no coefficient of consistence")
    zeta = 1.0 - len(cycles) / d_max if is_complete and d_max > 0 else None
    if is_transitive and is_complete:
        order = [methods[i] for i in np.argsort(-beats, kind="stable")]
    else:
        order = None
        if cycles:
            reasons.append(f"{_plural(len(cycles), 'circular triad')}: the pairwise majorities admit no single order")
        elif not is_transitive:
            a, c = violations[0]
            b = int(np.nonzero(relation[a] & relation[:, c])[0][0])
            reasons.append(f"not transitive: {methods[a]} → {methods[b]} → {methods[c]} but {methods[a]} and "
                           f"{methods[c]} are tied")
        else:
            reasons.append("the relation is transitive but has tied pairs, so it implies no single order")
    winners = np.nonzero(beats == n - 1)[0]
    return TransitivityResult(
        methods=methods, relation=_labelled(relation, methods), tied_pairs=tied, is_complete=is_complete,
        is_transitive=is_transitive, circular_triads=cycles, n_circular_triads=len(cycles),
        max_circular_triads=d_max, coefficient_of_consistence=zeta,
        condorcet_choice=methods[winners[0]] if len(winners) else None, order=order,
        scores=_labelled(beats.astype(np.int64), methods, name="beats"), reason="; ".join(reasons))


# --------------------------------------------------------------------------- Bradley–Terry

_TIES = ("half", "drop")


@dataclass(frozen=True, repr=False)
class BradleyTerryResult(Result):
    """Bradley–Terry strengths fitted by maximum likelihood to the pairwise wins.

    Attributes
    ----------
    methods : list of str
    strengths : pandas.Series
        Log-strengths β (centred: they sum to 0); P(a beats b) = 1 / (1 + exp(β_b − β_a)).
    standard_errors : pandas.Series
        Asymptotic standard errors of the centred β (from the Fisher information).
    confidence_interval : pandas.DataFrame
        Wald intervals, columns ``low`` and ``high``, at ``confidence_level``.
    confidence_level : float
    worth : pandas.Series
        exp(β) normalised to sum 1.
    win_probability : pandas.DataFrame
        ``win_probability.loc[a, b]``: the fitted P(a beats b) (NaN on the diagonal).
    order : list of str or None
        Methods by decreasing strength; None when the strengths do not exist.
    ties : str
        How equivalences entered the fit ("half" or "drop").
    log_likelihood : float
    n_iterations : int
    converged : bool
    reason : str
        Why the strengths are NaN ("" when they are fitted).
    """

    methods: list
    strengths: pd.Series
    standard_errors: pd.Series
    confidence_interval: pd.DataFrame
    confidence_level: float
    worth: pd.Series
    win_probability: pd.DataFrame
    order: list | None
    ties: str
    log_likelihood: float
    n_iterations: int
    converged: bool
    reason: str = ""

    def to_frame(self) -> pd.DataFrame:
        """One row per method, strongest first: ``method, strength, standard_error, ci_low, ci_high, worth``."""
        out = pd.DataFrame({"method": self.methods, "strength": self.strengths.to_numpy(),
                            "standard_error": self.standard_errors.to_numpy(),
                            "ci_low": self.confidence_interval["low"].to_numpy(),
                            "ci_high": self.confidence_interval["high"].to_numpy(),
                            "worth": self.worth.to_numpy()})
        if self.order is not None:
            out = out.set_index("method").loc[self.order].reset_index()
        return out

    def summary(self) -> str:
        """A few lines for people."""
        if self.order is None:
            return f"Bradley–Terry (ties: {self.ties}): no strengths; {self.reason}"
        pct = f"{100 * self.confidence_level:g}%"
        body = "\n".join(f"  {r.method}: {r.strength:+.3f} (SE {r.standard_error:.3f}, {pct} CI "
                         f"[{r.ci_low:+.3f}, {r.ci_high:+.3f}])" for r in self.to_frame().itertuples())
        return (f"Bradley–Terry log-strengths (ties: {self.ties}; log-likelihood {self.log_likelihood:.4g}, "
                f"{self.n_iterations} Newton steps)\n{body}")


def _never_loses(won: np.ndarray, methods: list):
    """A set of methods none of the others ever beats when the comparison graph is not strongly
    connected (then the maximum-likelihood strengths diverge); None when it is connected."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    n_components, labels = connected_components(csr_matrix(won > 0), directed=True, connection="strong")
    if n_components == 1:
        return None
    for c in range(n_components):
        inside = labels == c
        if not (won[np.ix_(~inside, inside)] > 0).any():  # nobody outside beats anyone inside
            return [m for m, x in zip(methods, inside) if x], [m for m, x in zip(methods, inside) if not x]
    raise AssertionError("a condensation of a directed graph always has a source")  # pragma: no cover


def _fit_bradley_terry(won: np.ndarray, *, tol: float = 1e-10, max_iter: int = 100):
    """Newton's method on the concave log-likelihood, last strength pinned at 0 during the fit."""
    total = won + won.T

    def loglik(beta):
        diff = beta[:, None] - beta[None, :]
        return float(-(won * np.logaddexp(0.0, -diff)).sum())

    beta = np.zeros(won.shape[0])
    current = loglik(beta)
    scale = max(1.0, float(total.sum()) / 2)
    converged = False
    for iteration in range(1, max_iter + 1):
        prob = special.expit(beta[:, None] - beta[None, :])
        gradient = (won - total * prob).sum(axis=1)
        if np.max(np.abs(gradient)) <= tol * scale:
            converged = True
            break
        weight = total * prob * prob.T
        information = np.diag(weight.sum(axis=1)) - weight
        step = np.zeros_like(beta)
        step[:-1] = np.linalg.solve(information[:-1, :-1], gradient[:-1])
        t = 1.0
        while True:  # step halving keeps every step uphill
            candidate = loglik(beta + t * step)
            if candidate >= current - 1e-12 * abs(current) or t < 1e-10:
                break
            t /= 2
        beta, current = beta + t * step, candidate
    else:
        iteration = max_iter
    beta = beta - beta.mean()
    prob = special.expit(beta[:, None] - beta[None, :])
    weight = total * prob * prob.T
    # the information has null space 1 (connected design), so its pseudo-inverse, the covariance
    # of the centred β, is inv(I + 11ᵀ/k) − 11ᵀ/k
    centre = np.full(weight.shape, 1.0 / weight.shape[0])
    covariance = np.linalg.inv(np.diag(weight.sum(axis=1)) - weight + centre) - centre
    return beta, covariance, loglik(beta), iteration, converged


@states_scale
def bradley_terry(report, *, ties: str = "half", confidence_level: float = 0.95) -> BradleyTerryResult:
    """Bradley–Terry strengths from the pairwise wins, by maximum likelihood.

    Parameters
    ----------
    report : SuperiorityReport or PairwiseCounts
        From :func:`pairwise_superiority` (its counts are used) or a :class:`PairwiseCounts`.
    ties : {"half", "drop"}
        ``"half"`` (default): an equivalence counts as half a win for each method;
        ``"drop"``: equivalences are left out of the fit.
    confidence_level : float
        Of the Wald intervals.

    Returns
    -------
    BradleyTerryResult
        ``methods, strengths, standard_errors, confidence_interval, confidence_level, worth,
        win_probability, order, ties, log_likelihood, n_iterations, converged, reason``.
        When the maximum-likelihood strengths do not exist, every number is NaN, ``order``
        is None and ``reason`` names the methods that never lose.

    Raises
    ------
    ValueError
        For a bad ``ties`` or ``confidence_level``.
    TypeError
        When ``report`` is neither a SuperiorityReport nor a PairwiseCounts.

    Notes
    -----
    With w_ab the wins of a over b (plus half their equivalences under ``ties="half"``) and
    n_ab = w_ab + w_ba, the log-likelihood Σ_{a≠b} w_ab log σ(β_a − β_b), σ the logistic
    function, is maximised by Newton's method; β is centred to sum 0. The maximum exists
    and is unique if and only if, for every split of the methods into two groups, some
    method of each group beats some method of the other (the "beats" graph is strongly
    connected; Hunter 2004, Assumption 1). Otherwise the strengths of the methods that
    never lose diverge, and mcda returns NaN with that reason rather than a regularised
    number. Standard errors come from the inverse Fisher information
    I_aa = Σ_b n_ab p_ab p_ba, I_ab = −n_ab p_ab p_ba (its pseudo-inverse, for centred β);
    under ``ties="half"`` each equivalence is treated as one comparison with outcome ½, which
    keeps the estimating equations of the model (the expected score equals the observed
    score) but makes the standard errors approximate. The datasets are the comparisons: the
    model assumes them independent given the strengths.

    References
    ----------
    Bradley, R. A. & Terry, M. E. (1952). Rank analysis of incomplete block designs: I. The
    method of paired comparisons. Biometrika 39(3/4):324–345. doi:10.2307/2334029
    Hunter, D. R. (2004). MM algorithms for generalized Bradley–Terry models. The Annals of
    Statistics 32(1):384–406. doi:10.1214/aos/1079120141

    Examples
    --------
    >>> import warnings
    >>> from mcda import datasets, pairwise_superiority, bradley_terry
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     report = pairwise_superiority(datasets.load("demsar2006"))
    >>> bt = bradley_terry(report)
    >>> bt.order
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    >>> round(float(bt.strengths.sum()), 12)
    0.0
    """
    check_choice("ties", ties, _TIES)
    confidence_level = check_probability("confidence_level", confidence_level)
    counts = _counts_of(report, "bradley_terry")
    methods = list(counts.methods)
    wins, equivalent, _ = _arrays(counts)
    won = wins.astype(np.float64) + (equivalent / 2.0 if ties == "half" else 0.0)
    np.fill_diagonal(won, 0.0)
    k = len(methods)
    blocked = _never_loses(won, methods)
    if blocked is not None:
        top, rest = blocked
        reason = (f"the maximum-likelihood strengths do not exist: {top} never lose to any of {rest} "
                  "(the comparison graph is not strongly connected, Hunter 2004), so their strengths diverge")
        nan = np.full(k, np.nan)
        return BradleyTerryResult(
            methods=methods, strengths=_labelled(nan, methods, name="strength"),
            standard_errors=_labelled(nan, methods, name="standard_error"),
            confidence_interval=pd.DataFrame({"low": nan, "high": nan}, index=pd.Index(methods, name="method")),
            confidence_level=confidence_level, worth=_labelled(nan, methods, name="worth"),
            win_probability=_labelled(np.full((k, k), np.nan), methods), order=None, ties=ties,
            log_likelihood=math.nan, n_iterations=0, converged=False, reason=reason)
    beta, covariance, loglik, n_iter, converged = _fit_bradley_terry(won)
    se = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    z = stats.norm.ppf(0.5 + confidence_level / 2)
    worth = np.exp(beta - beta.max())
    probability = special.expit(beta[:, None] - beta[None, :])
    np.fill_diagonal(probability, np.nan)
    return BradleyTerryResult(
        methods=methods, strengths=_labelled(beta, methods, name="strength"),
        standard_errors=_labelled(se, methods, name="standard_error"),
        confidence_interval=pd.DataFrame({"low": beta - z * se, "high": beta + z * se},
                                         index=pd.Index(methods, name="method")),
        confidence_level=confidence_level, worth=_labelled(worth / worth.sum(), methods, name="worth"),
        win_probability=_labelled(probability, methods),
        order=[methods[i] for i in _order_by(beta)], ties=ties, log_likelihood=loglik,
        n_iterations=n_iter, converged=converged,
        reason="" if converged else "Newton's method did not converge in 100 steps")


# --------------------------------------------------------------------------- marginal means

@dataclass(frozen=True, repr=False)
class MarginalMeans(Result):
    """Mean scores per method, and per pair over the datasets the pair shares.

    Attributes
    ----------
    methods : list of str
    means : pandas.Series
        Mean score of each method over the datasets where it has a result (metric's units).
    n_datasets : pandas.Series
        Datasets where each method has a result.
    pairwise_means : pandas.DataFrame
        ``pairwise_means.loc[a, b]``: mean score of a over the datasets a shares with b
        (the diagonal is ``means``).
    n_shared : pandas.DataFrame
        Datasets each pair shares.
    mean_differences : pandas.DataFrame
        ``mean_differences.loc[a, b]``: mean of a − b over their shared datasets, in the
        metric's own units and direction (NaN when they share none).
    mean_advantage : pandas.Series
        The mean over the other methods of the oriented mean difference (positive: better
        than the average opponent on the datasets they share), in the metric's units.
    order : list of str
        Methods by decreasing ``mean_advantage``.
    direction : str
    """

    methods: list
    means: pd.Series
    n_datasets: pd.Series
    pairwise_means: pd.DataFrame
    n_shared: pd.DataFrame
    mean_differences: pd.DataFrame
    mean_advantage: pd.Series
    order: list
    direction: str

    def to_frame(self) -> pd.DataFrame:
        """One row per method, best first: ``method, mean, n_datasets, mean_advantage``."""
        out = pd.DataFrame({"mean": self.means, "n_datasets": self.n_datasets, "mean_advantage": self.mean_advantage})
        return out.loc[self.order].rename_axis("method").reset_index()

    def summary(self) -> str:
        """One line per method."""
        rows = self.to_frame().itertuples()
        return (f"Marginal means ({self.direction}); mean advantage over the shared datasets of each pair\n"
                + "\n".join(f"  {r.method}: mean {r.mean:.4g} on {r.n_datasets} datasets, advantage "
                            f"{r.mean_advantage:+.4g}" for r in rows))


@states_scale
def marginal_means(scores, direction=None, *, method_names=None) -> MarginalMeans:
    """Mean score per method, and per pair over the datasets both have, for comparison with the rankings.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` (one score per dataset and method)
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    MarginalMeans
        ``methods, means, n_datasets, pairwise_means, n_shared, mean_differences,
        mean_advantage, order, direction``.

    Notes
    -----
    With missing results a method's plain mean is over its own datasets, which may be
    easier or harder than another method's; the pairwise means compare a and b only on the
    datasets both have (NaN cells dropped pairwise). The mean advantage of a is
    (1/m) Σ_b sign · mean_{shared(a, b)}(a − b) over the m methods it shares a dataset with
    (sign = −1 for lower-is-better metrics). Means weigh every dataset by its score scale,
    unlike the counts of :func:`pairwise_superiority`: report them beside it, not instead.

    Examples
    --------
    >>> from mcda import marginal_means
    >>> m = marginal_means({"d1": {"a": 0.9, "b": 0.7}, "d2": {"a": 0.5, "b": None}}, "higher_is_better")
    >>> m.means.to_dict(), float(m.pairwise_means.loc["a", "b"])
    ({'a': 0.7, 'b': 0.7}, 0.9)
    >>> m.order
    ['a', 'b']
    """
    cube = single_score_cube(scores, direction, method_names=method_names, what="marginal means")
    methods = [str(m) for m in cube.coords["method"].values]
    sums, mask_products = _chunks.reduce(cube, _pair_sums_block, add_partials, whole=True)
    shared = mask_products.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        pairwise = np.where(shared > 0, sums / shared, np.nan)
    differences = pairwise - pairwise.T
    np.fill_diagonal(differences, np.nan)
    sign = direction_sign(cube_direction(cube))
    oriented = sign * differences
    n_opponents = (~np.isnan(oriented)).sum(axis=1)
    advantage = np.where(n_opponents > 0, np.nansum(oriented, axis=1) / np.maximum(n_opponents, 1), np.nan)
    order_idx = _order_by(advantage)
    return MarginalMeans(
        methods=methods, means=_labelled(np.diag(pairwise).copy(), methods, name="mean"),
        n_datasets=_labelled(np.diag(shared).copy(), methods, name="n_datasets"),
        pairwise_means=_labelled(pairwise, methods), n_shared=_labelled(shared, methods),
        mean_differences=_labelled(differences, methods), mean_advantage=_labelled(advantage, methods,
                                                                                   name="mean_advantage"),
        order=[methods[i] for i in order_idx], direction=str(cube_direction(cube)))
