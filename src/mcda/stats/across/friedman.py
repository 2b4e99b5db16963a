"""Across datasets: the Friedman omnibus and the Iman–Davenport F.

Demšar (2006): rank the methods within each dataset (rank 1 = best, ties averaged) and test
whether the mean ranks differ (Friedman χ² and the Iman–Davenport F).

Everything here works from three sufficient statistics of the rank matrix, which add up over
blocks of datasets: the rank sum of each method, the sum of squared ranks (it carries the
tie correction) and the number of datasets: the rank-sum statistic of :mod:`mcda.stats._shared.ranks`
(block → combine), finalized here by :func:`_rank_statistics` and the tests. The post-hoc
procedures (:mod:`mcda.stats.across.posthoc`) read the same statistics.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.results import OmnibusResult, p_text, states_scale
from mcda._core.validation import check_alpha, check_positive_int
from mcda.data.design import missing_policy, warn_dropped_datasets
from mcda.stats._shared.ranks import MeanRanks, rank_sums, table_rank_sums

__all__ = [
    "FriedmanResult",
    "friedman_test",
    "iman_davenport",
]


# --------------------------------------------------------------------------- ranks in, sufficient statistics


@dataclass(frozen=True)
class _RankStatistics:
    """Rank sums, the sum of squared ranks and N: all the Friedman procedure needs (chunkable)."""

    methods: list
    rank_sums: np.ndarray
    sum_squared_ranks: float
    n_datasets: int
    excluded: dict
    excluded_datasets: dict = field(default_factory=dict)
    missing: str = "complete"

    @property
    def n_methods(self) -> int:
        return len(self.methods)

    @property
    def mean_ranks(self) -> np.ndarray:
        return self.rank_sums / self.n_datasets

    @property
    def tie_sum(self) -> float:
        """Σ over datasets and tied groups of (t³ − t), from Σ r² = N k(k+1)(2k+1)/6 − Σ(t³ − t)/12."""
        k = self.n_methods
        return max(0.0, 12.0 * (self.n_datasets * k * (k + 1) * (2 * k + 1) / 6.0 - self.sum_squared_ranks))

    def mean_rank_series(self) -> pd.Series:
        return pd.Series(self.mean_ranks, index=pd.Index(self.methods, name="method"), name="mean_rank")


def _rank_statistics(scores, direction, method_names, *, what: str, missing: str = "complete",
                     ways_out: str = "none") -> _RankStatistics:
    """The sufficient statistics from any scores input or from a uniform, complete MeanRanks.

    Both come from the rank-sum statistic of :mod:`mcda.stats._shared.ranks` (block by block, so a lazy cube
    or a lazy rank table is summed chunk-wise). Methods lacking a result on some dataset are
    dropped and named (never imputed), with a :class:`~mcda.MissingDataWarning`; with
    ``missing="datasets"`` the incomplete datasets are. ``ways_out``: what the calling public
    function offers when too few methods are complete (a key of :data:`mcda.data.design.WAYS_OUT`).
    """
    missing = missing_policy(missing)
    if missing == "available":
        raise McdaArgumentError(f"{what} ranks a complete design; for the incomplete design as it is use "
                         "mcda.skillings_mack_test (or compare_over_datasets(missing='available'))",
                                argument="missing", value=missing)
    if isinstance(scores, MeanRanks):
        _check_mean_ranks(scores, what, argument="scores")
        sums, squares = table_rank_sums(scores.rank_table)
        return _RankStatistics(methods=[str(m) for m in scores.mean_ranks.index], rank_sums=sums,
                               sum_squared_ranks=squares, n_datasets=scores.n_datasets,
                               excluded=dict(scores.excluded),
                               excluded_datasets=dict(getattr(scores, "excluded_datasets", {}) or {}),
                               missing=scores.missing)
    prep = rank_sums(scores, direction, method_names=method_names, missing=missing, ways_out=ways_out)
    prep.warn_excluded(what)
    warn_dropped_datasets(prep.excluded_datasets, what)
    return _RankStatistics(methods=list(prep.methods), rank_sums=prep.rank_sums,
                           sum_squared_ranks=prep.sum_squared_ranks, n_datasets=prep.n_datasets,
                           excluded=dict(prep.excluded), excluded_datasets=dict(prep.excluded_datasets),
                           missing=missing)


def _check_mean_ranks(mean_ranks: MeanRanks, what: str, *, argument: str) -> None:
    if mean_ranks.is_weighted:
        raise McdaArgumentError(f"{what} needs the uniform mean rank (every dataset counts once); got a MeanRanks with "
                         f"aggregation={mean_ranks.aggregation!r}. Only the uniform mean rank has the "
                         "Friedman/Nemenyi null, so a weighted mean rank supports no critical difference and no "
                         "test: read it as a diagnostic, or pass the scores (or mcda.average_ranks(scores)).",
                                argument=argument)
    if not mean_ranks.supports_critical_difference:
        raise McdaArgumentError(f"{what} needs mean ranks over a complete design; got a MeanRanks with "
                         f"missing={mean_ranks.missing!r}, which is descriptive only (each method ranked among "
                         "different pools). Use missing='complete' (incomplete methods are excluded and named).",
                                argument=argument)


def _standard_error(n_methods: int, n_datasets: int) -> float:
    """√(k(k+1)/(6N)): the standard error of a difference of two mean ranks under the null."""
    return math.sqrt(n_methods * (n_methods + 1) / (6.0 * n_datasets))


# --------------------------------------------------------------------------- Friedman


@dataclass(frozen=True, repr=False)
class FriedmanResult(OmnibusResult):
    """The Friedman omnibus test and the Iman–Davenport F (an :class:`~mcda._core.results.OmnibusResult`).

    Attributes
    ----------
    statistic : float
        Friedman's χ²_F, the default variant: **without** the tie correction (see Notes of
        :func:`friedman_test`); equal to ``statistic_untied``.
    statistic_untied, statistic_tied : float
        χ²_F without and with the tie correction (the tied one is scipy's
        ``friedmanchisquare``; NaN when every dataset is a complete tie).
    pvalue : float
        P(χ²_{k−1} ≥ statistic).
    df : int
        k − 1.
    f_statistic, f_pvalue : float
        Iman–Davenport F_F = (N − 1) χ²_F / (N(k − 1) − χ²_F) and its p-value under
        F(k − 1, (k − 1)(N − 1)); NaN (with ``reason``) when N = 1. At complete concordance
        (every dataset orders the methods the same way, no ties) F_F is infinite and
        ``f_pvalue`` is the exact permutation p-value (k!)^(1 − N), not the F approximation's 0.
        ``pvalue`` and ``f_pvalue`` are NaN (with ``reason``) when every dataset ties all
        methods: the test does not apply.
    f_df : tuple of int
        (k − 1, (k − 1)(N − 1)).
    rejected : bool
        Whether the omnibus rejects at ``alpha``, decided by the Iman–Davenport F.
    alpha : float
    n_datasets, n_methods : int
    mean_ranks : pandas.Series
        Mean rank per method (1 = best), indexed by method.
    tie_correction : float
        C = 1 − Σ(t³ − t) / (N k (k² − 1)); ``statistic_tied = statistic_untied / C``.
    excluded : dict
        Method -> datasets it lacks (dropped, never imputed).
    reason : str
        Why a statistic is NaN ("" when every statistic applies).
    excluded_datasets : dict
        Dataset -> methods it lacks (dropped under ``missing="datasets"``).
    missing : str
        The missing-cell policy applied ("complete": incomplete methods dropped; "datasets").
    """

    statistic: float
    statistic_untied: float
    statistic_tied: float
    pvalue: float
    df: int
    f_statistic: float
    f_pvalue: float
    f_df: tuple
    rejected: bool
    alpha: float
    n_datasets: int
    n_methods: int
    mean_ranks: pd.Series
    tie_correction: float = 1.0
    excluded: dict = field(default_factory=dict)
    reason: str = ""
    excluded_datasets: dict = field(default_factory=dict)
    missing: str = "complete"

    @property
    def test(self) -> str:
        """``"friedman"``."""
        return "friedman"

    @property
    def decision_pvalue(self) -> float:
        """``f_pvalue``: the Iman–Davenport F decides ``rejected``."""
        return self.f_pvalue

    def to_frame(self) -> pd.DataFrame:
        """One row per statistic: ``test, statistic, df1, df2, p_raw`` (χ² untied, χ² tied, F)."""
        k1 = self.df
        return pd.DataFrame({
            "test": ["friedman_chi2", "friedman_chi2_tie_corrected", "iman_davenport_f"],
            "statistic": [self.statistic_untied, self.statistic_tied, self.f_statistic],
            "df1": [k1, k1, self.f_df[0]],
            "df2": [np.nan, np.nan, self.f_df[1]],
            "p_raw": [self.pvalue, _chi2_sf(self.statistic_tied, k1), self.f_pvalue],
        })

    def summary(self) -> str:
        """The verdict, then Friedman χ² and Iman–Davenport F with their p-values."""
        verdict = ("rejects" if self.rejected else "does not reject" if np.isfinite(self.f_pvalue)
                   else "cannot be tested (see the note)")
        return (f"{self.n_methods} methods over {self.n_datasets} datasets; omnibus {verdict} at alpha = "
                f"{self.alpha:g}\n" + self._statistics_text())

    def _statistics_text(self) -> str:
        if self.tie_correction < 1 and np.isfinite(self.statistic_tied):
            ties = (f" (untied, as Demsar 2006 defines it and the post-hoc standard error assumes; with the ties here "
                    f"the tie-corrected chi2 of scipy/R is {self.statistic_tied:.3f}, p = "
                    f"{_chi2_sf(self.statistic_tied, self.df):.3g})")
        elif self.tie_correction < 1:  # C = 0: every dataset one tie of all methods
            ties = " (every dataset ties all methods: the tie-corrected chi2 is 0/0)"
        else:
            ties = " (no ties: the untied and tie-corrected chi2 agree)"
        lines = [f"Friedman chi2({self.df}) = {self.statistic:.3f}, {p_text(self.pvalue)}{ties}",
                 f"Iman-Davenport F({self.f_df[0]}, {self.f_df[1]}) = {self.f_statistic:.3f}, {p_text(self.f_pvalue)}"]
        if self.reason:
            lines.append(f"note: {self.reason}")
        return "\n".join(lines)


def _chi2_sf(statistic: float, df: int) -> float:
    return float(special.chdtrc(df, statistic)) if np.isfinite(statistic) else math.nan


def _f_sf(statistic: float, df1: int, df2: int) -> float:
    if math.isnan(statistic) or df2 <= 0:
        return math.nan
    return 0.0 if math.isinf(statistic) else float(special.fdtrc(df1, df2, statistic))


def _iman_davenport(chi2: float, n_methods: int, n_datasets: int) -> float:
    if n_datasets < 2:
        return math.nan
    denominator = n_datasets * (n_methods - 1) - chi2
    if denominator <= 0:  # complete concordance: every dataset ranks the methods the same way
        return math.inf
    return (n_datasets - 1) * chi2 / denominator


def _friedman(stats: _RankStatistics, alpha: float) -> FriedmanResult:
    n, k = stats.n_datasets, stats.n_methods
    centred = stats.mean_ranks - (k + 1) / 2.0
    untied = 12.0 * n / (k * (k + 1)) * float(centred @ centred)
    correction = 1.0 - stats.tie_sum / (n * k * (k * k - 1))
    tied = untied / correction if correction > 1e-12 else math.nan
    df = k - 1
    f_stat = _iman_davenport(untied, k, n)
    f_df = (df, df * (n - 1))
    f_p = _f_sf(f_stat, *f_df)
    p = _chi2_sf(untied, df)
    reasons = []
    if n < 2:
        reasons.append("the Iman-Davenport F needs at least 2 datasets (its df2 = (k-1)(N-1) is 0)")
    if math.isnan(tied):  # C = 0 exactly when every dataset is one tie of all k methods
        p = f_p = math.nan
        reasons.append("every dataset ties all methods: the ranks carry no information, so the test does not "
                       "apply (and the tie-corrected chi2 is 0/0)")
    elif n >= 2 and np.array_equal(np.sort(stats.rank_sums), n * np.arange(1.0, k + 1)):
        # Complete concordance (every dataset ranks the methods in the same strict order): F_F is
        # infinite and its F approximation would say p = 0. Under the null each dataset's order is
        # uniform over the k! orders, so this most extreme configuration has exact probability
        # k! (1/k!)^N: the exact permutation p-value, reported instead of 0.
        f_p = math.exp((1 - n) * math.lgamma(k + 1))
        reasons.append(f"complete concordance: F is infinite and its F approximation does not apply; f_pvalue is "
                       f"the exact permutation p-value (k!)^(1-N) = {f_p:.3g}")
    return FriedmanResult(statistic=untied, statistic_untied=untied, statistic_tied=tied,
                          pvalue=p, df=df, f_statistic=f_stat, f_pvalue=f_p, f_df=f_df,
                          rejected=bool(f_p <= alpha), alpha=alpha, n_datasets=n, n_methods=k,
                          mean_ranks=stats.mean_rank_series(), tie_correction=correction,
                          excluded=stats.excluded, reason="; ".join(reasons),
                          excluded_datasets=stats.excluded_datasets, missing=stats.missing)


@states_scale
def friedman_test(scores, direction=None, *, alpha: float = 0.05, method_names=None,
                  missing: str = "methods") -> FriedmanResult:
    """Friedman's test that all methods have the same mean rank, with the Iman–Davenport F.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`, or a :class:`~mcda.stats._shared.ranks.MeanRanks`
        One score per (dataset, method); a ``seed`` dim must be reduced first
        (:func:`mcda.reduce_seeds`). Methods lacking a result on some dataset are excluded
        and named (``excluded``), never imputed. A MeanRanks must be uniform and complete.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    alpha : float
        Level at which ``rejected`` is decided (by the Iman–Davenport F).
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.
    missing : {"methods", "datasets", "available"}
        What a missing cell does (nothing is ever imputed): "methods" (default; also spelt
        "complete") drops every method that lacks a dataset (``excluded``); "datasets" drops
        every dataset that lacks a method (``excluded_datasets``); "available" tests the
        incomplete design as it is with the Skillings–Mack test
        (:func:`mcda.skillings_mack_test`, whose result is returned; on a complete design it
        is this χ²_F).

    Returns
    -------
    FriedmanResult
        ``statistic`` (χ²_F, untied), ``statistic_untied``, ``statistic_tied``, ``pvalue``,
        ``df``, ``f_statistic``, ``f_pvalue``, ``f_df``, ``rejected``, ``alpha``,
        ``n_datasets``, ``n_methods``, ``mean_ranks``, ``tie_correction``, ``excluded``,
        ``reason``.

    Raises
    ------
    ValueError
        A ``seed`` or other extra dim; fewer than 2 complete methods; a weighted or
        ``missing="available"`` MeanRanks; ``alpha`` outside (0, 1).

    Notes
    -----
    With R̄_j the mean rank of method j over N datasets and k methods (Demšar 2006, eq. 1–2):

    χ²_F = 12N / (k(k+1)) · Σ_j (R̄_j − (k+1)/2)²,   F_F = (N − 1) χ²_F / (N(k − 1) − χ²_F),

    χ²_F ~ χ²(k − 1) and F_F ~ F(k − 1, (k − 1)(N − 1)) under the null. The χ² approximation
    is poor for small N and k (Demšar: N > 10 and k > 5); Iman & Davenport's F is less
    conservative, and ``rejected`` uses it.

    **Ties.** The default ``statistic`` is the untied χ²_F, as Demšar (2006) and García &
    Herrera (2008) define it and as their published numbers use. The tie-corrected variant
    divides by C = 1 − Σ(t³ − t)/(N k (k² − 1)) ≤ 1, so it is never smaller: the untied
    statistic is conservative under ties. It is also the variance the post-hoc z statistics
    use (SE = √(k(k+1)/(6N)) carries no tie correction), so the omnibus and the post-hoc
    procedures read the same null. ``statistic_tied`` (scipy's ``friedmanchisquare``, R's
    ``friedman.test``) is reported beside it.

    **Edges.** At complete concordance (every dataset orders the methods the same way,
    without ties) χ²_F = N(k − 1) and F_F is infinite: the F approximation would give p = 0,
    which no finite benchmark can support. The exact permutation p-value of that most extreme
    configuration, k!·(1/k!)^N = (k!)^(1 − N), is reported as ``f_pvalue`` instead (for
    k = 2 it is the two-sided sign test, 2/2^N), and ``reason`` says so. When every dataset
    ties all methods the ranks carry no information: the p-values are NaN with a reason.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7:1–30.
    Iman, R. L., Davenport, J. M. (1980). Approximations of the critical region of the Friedman
    statistic. Communications in Statistics 9(6):571–595. doi:10.1080/03610928008827904

    Examples
    --------
    >>> import mcda
    >>> res = mcda.friedman_test(mcda.datasets.load("demsar2006_published_ranks"))
    >>> round(res.statistic, 2), round(res.f_statistic, 2), res.f_df, res.rejected
    (9.28, 3.69, (3, 39), True)
    """
    alpha = check_alpha(alpha)
    if missing_policy(missing) == "available":
        from mcda.stats.across.incomplete import skillings_mack_test

        return skillings_mack_test(scores, direction, alpha=alpha, method_names=method_names)
    stats = _rank_statistics(scores, direction, method_names, what="the Friedman test", missing=missing,
                             ways_out="missing_no_available")
    return _friedman(stats, alpha)


@states_scale
def iman_davenport(chi2, n_methods, n_datasets) -> float:
    """Iman & Davenport's F_F from Friedman's χ²_F.

    Parameters
    ----------
    chi2 : float
        Friedman's χ²_F (0 ≤ χ²_F ≤ N(k − 1)).
    n_methods, n_datasets : int
        k ≥ 2 and N ≥ 1.

    Returns
    -------
    float
        F_F = (N − 1) χ²_F / (N(k − 1) − χ²_F), distributed as F(k − 1, (k − 1)(N − 1))
        under the null; ``inf`` at complete concordance (χ²_F = N(k − 1)); NaN when N = 1.

    Examples
    --------
    >>> from mcda import iman_davenport
    >>> round(iman_davenport(79.093, 15, 8), 3)
    16.825
    """
    k = check_positive_int("n_methods", n_methods, minimum=2)
    n = check_positive_int("n_datasets", n_datasets)
    if isinstance(chi2, bool) or not isinstance(chi2, numbers.Real) or not math.isfinite(float(chi2)):
        raise McdaArgumentTypeError(f"`chi2` must be a finite real number >= 0; got {chi2!r}.",
                                    argument="chi2", value=chi2)
    chi2 = float(chi2)
    top = n * (k - 1)
    if chi2 < 0 or chi2 > top * (1 + 1e-12):
        raise McdaArgumentError(f"`chi2` must lie in [0, N(k-1)] = [0, {top}] for k = {k} methods over N = {n} datasets; "
                         f"got {chi2!r}.", argument="chi2", value=chi2)
    return _iman_davenport(min(chi2, float(top)), k, n)
