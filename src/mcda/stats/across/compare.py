"""Across datasets: the Friedman omnibus, critical differences and the post-hoc procedures.

The procedure of Demšar (2006), extended to all pairwise comparisons as García & Herrera
(2008) describe: rank the methods within each dataset (rank 1 = best, ties averaged), test
whether the mean ranks differ (Friedman χ² and the Iman–Davenport F), and only if they do,
say which pairs differ (Nemenyi for all pairs; Bonferroni–Dunn, Holm, Hochberg or Hommel
against a control named beforehand; Holm, Shaffer's static procedure or Bergmann–Hommel for
all pairs).

Everything here works from three sufficient statistics of the rank matrix, which add up over
blocks of datasets: the rank sum of each method, the sum of squared ranks (it carries the
tie correction) and the number of datasets: the rank-sum statistic of :mod:`mcda.stats._shared.ranks`
(block → combine), finalized here by :func:`_rank_statistics` and the tests.
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import optimize, special

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda.stats._shared.cliques import (groups_from_decisions, maximal_cliques as _maximal_cliques)  # noqa: F401 (tests use it)
from mcda._core.numeric import TIE_TOLERANCE
from mcda.stats._shared.posthoc import PosthocResult, pair_matrix
from mcda._core.results import Result, p_text, states_scale
from mcda._core.validation import check_alpha, check_choice, check_control, check_positive_int
from mcda.stats._shared.multitest import (BERGMANN_HOMMEL_MAX_METHODS, adjust_finite, canonical_adjustment, check_bergmann_hommel)
# re-exported from their home for code written against mcda.stats.across.compare
from mcda.stats._shared.multitest import PVALUE_ADJUSTMENTS, adjust_pvalues  # noqa: F401
from mcda.stats._shared.ranks import (MeanRanks, warn_dropped_datasets, missing_policy, rank_sums, table_rank_sums)

__all__ = [
    "FriedmanResult",
    "PosthocResult",
    "ComparisonResult",
    "AttainableSignificance",
    "friedman_test",
    "iman_davenport",
    "q_alpha",
    "critical_difference",
    "nemenyi",
    "bonferroni_dunn",
    "control_test",
    "all_pairs_test",
    "compare_over_datasets",
    "attainable_significance",
    "DesignAdequacy",
    "design_adequacy",
]

_Q_TESTS = ("nemenyi", "bonferroni-dunn")
_CONTROL_TESTS = ("bonferroni-dunn", "holm", "hochberg", "hommel", "holland", "finner", "li", "rom")
_ALL_PAIRS_TESTS = ("nemenyi", "holm", "shaffer", "bergmann-hommel", "holland", "finner")
_OTHER_POSTHOCS = ("conover", "siegel", "miller")  # Friedman-rank post-hocs of mcda.stats.across.rank_tests
_COMPARISON_TESTS = ("nemenyi", "bonferroni-dunn", "holm", "hochberg", "hommel", "holland", "finner", "li", "rom",
                     "shaffer", "bergmann-hommel")
#: The post-hoc tests :func:`compare_over_datasets` runs (its ``test=``).
COMPARISON_TESTS = _COMPARISON_TESTS
#: post-hoc test name -> the p-value adjustment it applies (mcda.stats._shared.multitest)
_ADJUSTMENT_OF_TEST = {"bonferroni-dunn": "bonferroni", "holland": "holm-sidak"}
_ATTAINABLE_ADJUSTMENTS = ("bonferroni", "holm", "shaffer", "bergmann-hommel")
_SHOWN = 8


def _test_name(name: str, value, allowed: Sequence[str]) -> str:
    """``value`` with "_" read as "-" and case ignored, checked against ``allowed``."""
    if isinstance(value, str):
        value = value.strip().lower().replace("_", "-")
    return check_choice(name, value, allowed)


def _listed(items, limit: int = _SHOWN) -> str:
    items = [str(i) for i in items]
    text = ", ".join(items[:limit])
    return "[" + text + (f", … ({len(items) - limit} more)" if len(items) > limit else "") + "]"


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


def _rank_statistics(scores, direction, method_names, *, what: str, missing: str = "complete") -> _RankStatistics:
    """The sufficient statistics from any scores input or from a uniform, complete MeanRanks.

    Both come from the rank-sum statistic of :mod:`mcda.stats._shared.ranks` (block by block, so a lazy cube
    or a lazy rank table is summed chunk-wise). Methods lacking a result on some dataset are
    dropped and named (never imputed), with a :class:`~mcda.MissingDataWarning`; with
    ``missing="datasets"`` the incomplete datasets are.
    """
    missing = missing_policy(missing)
    if missing == "available":
        raise McdaArgumentError(f"{what} ranks a complete design; for the incomplete design as it is use "
                         "mcda.skillings_mack_test (or compare_over_datasets(missing='available'))")
    if isinstance(scores, MeanRanks):
        _check_mean_ranks(scores, what)
        sums, squares = table_rank_sums(scores.rank_table)
        return _RankStatistics(methods=[str(m) for m in scores.mean_ranks.index], rank_sums=sums,
                               sum_squared_ranks=squares, n_datasets=scores.n_datasets,
                               excluded=dict(scores.excluded),
                               excluded_datasets=dict(getattr(scores, "excluded_datasets", {}) or {}),
                               missing=scores.missing)
    prep = rank_sums(scores, direction, method_names=method_names, missing=missing)
    prep.warn_excluded(what)
    warn_dropped_datasets(prep.excluded_datasets, what)
    return _RankStatistics(methods=list(prep.methods), rank_sums=prep.rank_sums,
                           sum_squared_ranks=prep.sum_squared_ranks, n_datasets=prep.n_datasets,
                           excluded=dict(prep.excluded), excluded_datasets=dict(prep.excluded_datasets),
                           missing=missing)


def _check_mean_ranks(mean_ranks: MeanRanks, what: str) -> None:
    if mean_ranks.is_weighted:
        raise McdaArgumentError(f"{what} needs the uniform mean rank (every dataset counts once); got a MeanRanks with "
                         f"aggregation={mean_ranks.aggregation!r}. Only the uniform mean rank has the "
                         "Friedman/Nemenyi null, so a weighted mean rank supports no critical difference and no "
                         "test: read it as a diagnostic, or pass the scores (or mcda.average_ranks(scores)).")
    if not mean_ranks.supports_critical_difference:
        raise McdaArgumentError(f"{what} needs mean ranks over a complete design; got a MeanRanks with "
                         f"missing={mean_ranks.missing!r}, which is descriptive only (each method ranked among "
                         "different pools). Use missing='complete' (incomplete methods are excluded and named).")


def _standard_error(n_methods: int, n_datasets: int) -> float:
    """√(k(k+1)/(6N)): the standard error of a difference of two mean ranks under the null."""
    return math.sqrt(n_methods * (n_methods + 1) / (6.0 * n_datasets))


# --------------------------------------------------------------------------- Friedman


@dataclass(frozen=True, repr=False)
class FriedmanResult(Result):
    """The Friedman omnibus test and the Iman–Davenport F.

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
        verdict = "rejects" if self.rejected else "does not reject"
        return (f"{self.n_methods} methods over {self.n_datasets} datasets; omnibus {verdict} at alpha = "
                f"{self.alpha:g}\n" + self._statistics_text())

    def _statistics_text(self) -> str:
        if self.tie_correction < 1 and np.isfinite(self.statistic_tied):
            ties = (f" (untied, as Demsar 2006 defines it and the post-hoc standard error assumes; with the ties here "
                    f"the tie-corrected chi2 of scipy/R is {self.statistic_tied:.3f}, p = "
                    f"{_chi2_sf(self.statistic_tied, self.df):.3g})")
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
def friedman_test(scores, direction=None, *, alpha: float = 0.05, method_names=None, missing: str = "methods"):
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
    stats = _rank_statistics(scores, direction, method_names, what="the Friedman test", missing=missing)
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
        raise McdaArgumentTypeError(f"`chi2` must be a finite real number >= 0; got {chi2!r}.")
    chi2 = float(chi2)
    top = n * (k - 1)
    if chi2 < 0 or chi2 > top * (1 + 1e-12):
        raise McdaArgumentError(f"`chi2` must lie in [0, N(k-1)] = [0, {top}] for k = {k} methods over N = {n} datasets; "
                         f"got {chi2!r}.")
    return _iman_davenport(min(chi2, float(top)), k, n)


# --------------------------------------------------------------------------- q_alpha and the studentized range


_SRANGE_STEP = 0.1  # trapezoid step in z; the integrand is smooth and Gaussian-tailed (error < 1e-13)
_SRANGE_TAIL = 9.0  # φ(9) ≈ 1e-18


def _studentized_range_sf(q, n_methods: int) -> np.ndarray:
    """P(R ≥ q) for the range R of k independent standard normals (the studentized range, df = ∞).

    sf(q) = k ∫ φ(z) [Φ(z)^{k−1} − (Φ(z) − Φ(z − q))^{k−1}] dz, with the bracket computed as
    Φ(z)^{k−1} · (−expm1((k−1)·log1p(−Φ(z − q)/Φ(z)))) so that tiny p-values keep their
    relative accuracy. The trapezoid rule on this smooth, Gaussian-tailed integrand converges
    geometrically; it agrees with ``scipy.stats.studentized_range.sf(q, k, inf)`` to 1e-13
    (absolute) and with the exact k = 2 case 2Φ(−q/√2) to 1e-13 (relative).
    """
    q = np.abs(np.atleast_1d(np.asarray(q, dtype=np.float64)))
    if q.size == 0:
        return q
    unique, inverse = np.unique(q, return_inverse=True)
    m = n_methods - 1
    upper = max(_SRANGE_TAIL, float(unique[-1]) / 2.0 + _SRANGE_TAIL)
    z = np.arange(-_SRANGE_TAIL, upper + _SRANGE_STEP, _SRANGE_STEP)
    log_cdf = special.log_ndtr(z)
    weight = np.exp(-0.5 * z * z + m * log_cdf) / math.sqrt(2.0 * math.pi)  # φ(z) Φ(z)^{k−1}
    out = np.empty(unique.size)
    block = max(1, 2_000_000 // z.size)
    with np.errstate(divide="ignore"):
        for start in range(0, unique.size, block):
            ratio = special.ndtr(z[None, :] - unique[start:start + block, None]) / np.exp(log_cdf)[None, :]
            inner = -np.expm1(m * np.log1p(-np.minimum(ratio, 1.0)))
            out[start:start + block] = n_methods * _SRANGE_STEP * (inner @ weight)
    return np.clip(out, 0.0, 1.0)[inverse].reshape(q.shape)


@functools.lru_cache(maxsize=512)
def _q_alpha(n_methods: int, alpha: float, test: str) -> float:
    if test == "bonferroni-dunn":
        return float(-special.ndtri(alpha / (2.0 * (n_methods - 1))))
    if n_methods == 2:  # the range of two normals: |X1 − X2| = √2 |Z|
        return float(-special.ndtri(alpha / 2.0))
    hi = 2.0
    while _studentized_range_sf(hi, n_methods)[0] > alpha:
        hi *= 2.0
    root = optimize.brentq(lambda x: _studentized_range_sf(x, n_methods)[0] - alpha, 0.0, hi, xtol=1e-13, rtol=1e-14)
    return float(root / math.sqrt(2.0))


def q_alpha(n_methods, *, alpha: float = 0.05, test: str = "nemenyi") -> float:
    """The critical value q_α of Demšar's Table 5, for any k ≥ 2 and any α.

    Parameters
    ----------
    n_methods : int
        k ≥ 2.
    alpha : float
        Family-wise level in (0, 1).
    test : {"nemenyi", "bonferroni-dunn"}
        Nemenyi (all pairs) or Bonferroni–Dunn (k − 1 comparisons with a control).

    Returns
    -------
    float
        Nemenyi: the 1 − α quantile of the studentized range of k normals (df = ∞) divided by
        √2; Bonferroni–Dunn: the normal quantile z_{1 − α/(2(k−1))}.

    Notes
    -----
    The studentized range is computed here (a trapezoid rule on its integral, inverted by
    Brent's method), not looked up: it matches ``scipy.stats.studentized_range.ppf(1 − α, k,
    inf) / √2`` to 1e-9 for k = 2..50 and Demšar's Table 5 to its printed 3 decimals, except
    Table 5(b)'s Bonferroni–Dunn entry for k = 9 at α = 0.05, printed 2.724 for 2.734 (a
    misprint in the paper).

    Examples
    --------
    >>> from mcda import q_alpha
    >>> round(q_alpha(4), 3), round(q_alpha(4, test="bonferroni-dunn"), 3)
    (2.569, 2.394)
    """
    k = check_positive_int("n_methods", n_methods, minimum=2)
    alpha = check_alpha(alpha)
    test = _test_name("test", test, _Q_TESTS)
    return _q_alpha(k, alpha, test)


def critical_difference(n_methods, n_datasets=None, *, alpha: float = 0.05, test: str = "nemenyi") -> float:
    """Demšar's critical difference CD = q_α √(k(k+1)/(6N)) between two mean ranks.

    Parameters
    ----------
    n_methods : int or MeanRanks
        k ≥ 2, or a uniform, complete :class:`~mcda.stats._shared.ranks.MeanRanks` (then ``n_datasets`` is
        taken from it and must not be given). A weighted MeanRanks is refused: only the
        uniform mean rank has the Friedman/Nemenyi null.
    n_datasets : int
        N ≥ 1.
    alpha : float
    test : {"nemenyi", "bonferroni-dunn"}

    Returns
    -------
    float

    Raises
    ------
    ValueError
        A weighted or ``missing="available"`` MeanRanks; ``n_datasets`` missing (or given
        together with a MeanRanks).

    Examples
    --------
    >>> from mcda import critical_difference
    >>> round(critical_difference(15, 8), 3), round(critical_difference(15, 32), 3)
    (7.583, 3.792)
    """
    if isinstance(n_methods, MeanRanks):
        _check_mean_ranks(n_methods, "a critical difference")
        if n_datasets is not None:
            raise McdaArgumentError("pass `n_datasets` only with an integer `n_methods`; a MeanRanks carries its own "
                             f"({n_methods.n_datasets}); got n_datasets={n_datasets!r}.")
        n_methods, n_datasets = n_methods.n_methods, n_methods.n_datasets
    if n_datasets is None:
        raise McdaArgumentTypeError("critical_difference needs `n_datasets` (N >= 1) with an integer `n_methods`; got None.")
    k = check_positive_int("n_methods", n_methods, minimum=2)
    n = check_positive_int("n_datasets", n_datasets)
    return q_alpha(k, alpha=alpha, test=test) * _standard_error(k, n)


# --------------------------------------------------------------------------- post-hoc procedures


def _two_sided_normal_p(z: np.ndarray) -> np.ndarray:
    return 2.0 * special.ndtr(-np.abs(z))


def _check_exact(exact) -> None:
    if not isinstance(exact, (bool, np.bool_)):
        raise McdaArgumentTypeError(f"`exact` must be True or False; got {exact!r}.")


def _exact_pvalues(stats: _RankStatistics, first, second) -> np.ndarray:
    """Exact two-sided p-values of the rank-sum differences R_a − R_b (Eisinga et al. 2017)."""
    from mcda.stats._shared.exact import rank_sum_difference_pvalue

    k, n = stats.n_methods, stats.n_datasets
    diffs = stats.rank_sums[np.asarray(first)] - stats.rank_sums[np.asarray(second)]
    return np.array([rank_sum_difference_pvalue(float(d), k, n) for d in np.atleast_1d(diffs)])


def _exact_critical_difference(stats: _RankStatistics, level: float) -> float:
    """The exact single-step CD in mean-rank units: the smallest rank-sum difference with p ≤ level, / N."""
    from mcda.stats._shared.exact import exact_critical_rank_sum

    d = exact_critical_rank_sum(stats.n_methods, stats.n_datasets, level)
    return math.inf if d is None else d / stats.n_datasets


def _posthoc(stats: _RankStatistics, test: str, control: str | None, alpha: float,
             exact: bool = False) -> PosthocResult:
    k, n = stats.n_methods, stats.n_datasets
    se = _standard_error(k, n)
    mean = stats.mean_ranks
    methods = stats.methods
    ranks = stats.mean_rank_series()
    cd = _q_alpha(k, alpha, test) * se if test in _Q_TESTS else None
    if exact and test in _Q_TESTS:  # the single-step tests become Bonferroni on the exact p-values
        m = k - 1 if test == "bonferroni-dunn" else k * (k - 1) // 2
        cd = _exact_critical_difference(stats, alpha / m)
    if control is not None:
        c = methods.index(control)
        others = [j for j in range(k) if j != c]
        z = (mean[c] - mean[others]) / se
        p = _exact_pvalues(stats, [c] * len(others), others) if exact else _two_sided_normal_p(z)
        adjusted = adjust_finite(p, _ADJUSTMENT_OF_TEST.get(test, test), alpha=alpha)
        index = pd.Index([methods[j] for j in others], name="method")
        series = lambda values, name: pd.Series(values, index=index, name=name)  # noqa: E731
        return PosthocResult(test=test, control=control, alpha=alpha, mean_ranks=ranks, z=series(z, "z"),
                             pvalues=series(p, "p_raw"), pvalues_adjusted=series(adjusted, "p_adjusted"),
                             significant=series(adjusted <= alpha, "significant"), critical_difference=cd,
                             n_datasets=n, n_methods=k, standard_error=se, exact=exact)
    a, b = np.triu_indices(k, 1)
    z_pairs = (mean[a] - mean[b]) / se
    p_pairs = _exact_pvalues(stats, a, b) if exact else _two_sided_normal_p(z_pairs)
    if test == "nemenyi":
        adjusted_pairs = (adjust_finite(p_pairs, "bonferroni") if exact
                          else _studentized_range_sf(math.sqrt(2.0) * z_pairs, k))
    else:
        adjusted_pairs = adjust_finite(p_pairs, _ADJUSTMENT_OF_TEST.get(test, test), k, alpha=alpha)
    return PosthocResult(test=test, control=None, alpha=alpha, mean_ranks=ranks,
                         z=pair_matrix(z_pairs, methods, 0.0, antisymmetric=True),
                         pvalues=pair_matrix(p_pairs, methods, np.nan),
                         pvalues_adjusted=pair_matrix(adjusted_pairs, methods, np.nan),
                         significant=pair_matrix(adjusted_pairs <= alpha, methods, False), critical_difference=cd,
                         n_datasets=n, n_methods=k, standard_error=se, exact=exact)


@states_scale
def nemenyi(scores, direction=None, *, alpha: float = 0.05, exact: bool = False,
            method_names=None) -> PosthocResult:
    """Nemenyi's test for all pairs of methods: |R̄_a − R̄_b| ≥ CD separates a pair.

    Run it after a rejecting Friedman test (:func:`compare_over_datasets` does both, and no
    post-hoc result without the omnibus).

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`, or a uniform, complete MeanRanks
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    alpha : float
    exact : bool
        True: exact p-values of the rank-sum differences (Eisinga et al. 2017) with the
        single-step Bonferroni adjustment over the k(k − 1)/2 pairs, and the exact
        critical difference (see Notes). False (default): Nemenyi's normal approximation.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    PosthocResult
        ``test="nemenyi"``, k × k ``z``, raw ``pvalues``, ``pvalues_adjusted`` (the
        studentized-range p-values), ``significant``, ``critical_difference``.

    Notes
    -----
    CD = q_α √(k(k+1)/(6N)) with q_α the studentized range quantile / √2 (:func:`q_alpha`).
    The adjusted p-value of a pair is P(range of k standard normals ≥ √2 |z|): it is below α
    exactly when the pair's rank difference exceeds CD.

    **Exact p-values** (``exact=True``). Under the Friedman null (each dataset's ranking
    uniform over the k! orders, no ties) the difference D of two methods' rank sums has the
    exact distribution of Eisinga, Heskes, Pelzer & Te Grotenhuis (2017): the number of the
    (k(k − 1))^N equally likely outcomes with D ≥ d is

    W(D ≥ d) = (−1)^N Σ_{h=0}^{N} C(N, h) k^{N−h} Σ_{s=0}^{h} (−1)^s C(2h, h+s) C(ks − d + h, 2h)

    (terms with ks − d − h < 0 omitted), and p = 2 W(D ≥ |d|)/(k(k − 1))^N. It is evaluated
    in exact integers for N ≤ 100 (the sum alternates and cancels massively: floating point
    would not do), and for larger N by convolving the whole distribution once in floating
    point, where every term is positive (relative error below 2Nk·2⁻⁵³, e.g. 1e-11 at k = 50,
    N = 1,000, which takes about 5 s). The normal approximation behind Nemenyi's p-values is
    good in the centre and poor in the tail, exactly where a multiplicity correction looks.
    With exact p-values the single-step procedure is Bonferroni over the m = k(k − 1)/2
    pairs (the exact joint law of all differences — the exact range — is not available), and
    ``critical_difference`` is the smallest rank-sum difference with exact p ≤ α/m, divided
    by N (``inf`` when none is). Tied ranks (average ranks) give half-integer differences:
    the untied distribution is used at ⌈|d|⌉, its exact tail P(D ≥ |d|); ties make the true
    null narrower, so this errs on the conservative side.

    Examples
    --------
    >>> import mcda
    >>> res = mcda.nemenyi(mcda.datasets.load("demsar2006_published_ranks"), alpha=0.10)
    >>> round(res.critical_difference, 2), int(res.significant.loc["C4.5"].sum())
    (1.12, 2)
    """
    alpha = check_alpha(alpha)
    _check_exact(exact)
    stats = _rank_statistics(scores, direction, method_names, what="the Nemenyi test")
    return _posthoc(stats, "nemenyi", None, alpha, exact=bool(exact))


@states_scale
def bonferroni_dunn(scores, direction=None, *, control: str, alpha: float = 0.05, exact: bool = False,
                    method_names=None) -> PosthocResult:
    """Bonferroni–Dunn: every method against a ``control`` with a critical difference.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`, or a uniform, complete MeanRanks
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    control : str
        The method the others are compared with, chosen before looking at the results.
    alpha : float
    exact : bool
        False (default): the normal approximation 2Φ(−|z|) of each pair's p-value. True: the
        exact p-value of the pair's rank-sum difference under the Friedman null (Eisinga et
        al. 2017; see Notes of :func:`nemenyi`), Bonferroni over the k − 1 comparisons,
        and the exact CD.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    PosthocResult
        Series over the k − 1 other methods; ``critical_difference`` = q_α √(k(k+1)/(6N)) with
        q_α = z_{1 − α/(2(k−1))}; ``pvalues_adjusted`` = min(1, (k − 1) p).

    Examples
    --------
    >>> import mcda
    >>> res = mcda.bonferroni_dunn(mcda.datasets.load("demsar2006_published_ranks"), control="C4.5")
    >>> round(res.critical_difference, 3), res.significant.to_dict()
    (1.168, {'C4.5+m': False, 'C4.5+cf': False, 'C4.5+m+cf': True})
    """
    alpha = check_alpha(alpha)
    _check_exact(exact)
    stats = _rank_statistics(scores, direction, method_names, what="the Bonferroni-Dunn test")
    return _posthoc(stats, "bonferroni-dunn", check_control(control, stats.methods, stats.excluded), alpha, exact=bool(exact))


@states_scale
def control_test(scores, direction=None, *, control: str, test: str = "holm", alpha: float = 0.05,
                 exact: bool = False, method_names=None, adjust: str | None = "holm") -> PosthocResult:
    """Every method against a ``control``: Holm, Hochberg, Hommel or Bonferroni–Dunn.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`, or a uniform, complete MeanRanks
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    control : str
        The control method, chosen before looking at the results.
    test : {"holm", "hochberg", "hommel", "holland", "finner", "li", "rom", "bonferroni-dunn", "conover", "siegel"}
        The multiplicity procedure over the k − 1 comparisons of the Friedman z; Holland
        (step-down Šidák), Finner, Li and Rom as García, Fernández, Luengo & Herrera (2010)
        use them against a control (formulas and assumptions: :func:`mcda.adjust_pvalues`;
        Rom's adjusted p-values are computed at ``alpha``); or "conover" (Conover's t on rank
        sums) / "siegel" (the Friedman z), adjusted by ``adjust`` (:mod:`mcda.stats.across.rank_tests`).
    alpha : float
    exact : bool
        False (default): the normal approximation 2Φ(−|z|) of each pair's p-value. True: the
        exact p-value of the pair's rank-sum difference under the Friedman null (Eisinga et
        al. 2017; see Notes of :func:`nemenyi`).
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.
    adjust : str or None
        The adjustment for "conover" and "siegel" (names of :data:`PVALUE_ADJUSTMENTS` that
        apply to k − 1 comparisons; None for raw p); ignored by the other tests.

    Returns
    -------
    PosthocResult
        Series over the other methods: ``z = (R̄_control − R̄_b)/SE``, raw and adjusted
        p-values, ``significant``; ``critical_difference`` only for Bonferroni–Dunn.

    Notes
    -----
    The z statistics are those of Demšar (2006, §3.2.2); Holm is a step-down, Hochberg and
    Hommel step-up procedures (Hochberg and Hommel assume the p-values positively dependent,
    which holds here: all comparisons share the control).

    Examples
    --------
    >>> import mcda
    >>> res = mcda.control_test(mcda.datasets.load("demsar2006_published_ranks"), control="C4.5")
    >>> res.pvalues.round(3).to_dict()
    {'C4.5+m': 0.019, 'C4.5+cf': 0.608, 'C4.5+m+cf': 0.016}
    >>> res.significant.to_dict()
    {'C4.5+m': True, 'C4.5+cf': False, 'C4.5+m+cf': True}
    """
    alpha = check_alpha(alpha)
    test = _test_name("test", test, _CONTROL_TESTS + ("conover", "siegel"))
    _check_exact(exact)
    if test in ("conover", "siegel"):
        if exact:
            raise McdaArgumentError(f"`exact` applies to the Friedman rank-sum tests, not to test={test!r}.")
        from mcda.stats.across import rank_tests as omnibus

        run = omnibus.conover_posthoc if test == "conover" else omnibus.siegel_posthoc
        return run(scores, direction, adjust=adjust, control=control, alpha=alpha, method_names=method_names)
    stats = _rank_statistics(scores, direction, method_names, what=f"the {test} control test")
    return _posthoc(stats, test, check_control(control, stats.methods, stats.excluded), alpha, exact=bool(exact))


@states_scale
def all_pairs_test(scores, direction=None, *, test: str = "holm", alpha: float = 0.05, exact: bool = False,
                   method_names=None, adjust: str | None = "holm") -> PosthocResult:
    """All pairwise comparisons of mean ranks: Nemenyi, Holm, Shaffer, Bergmann–Hommel, Conover, Siegel, Miller.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`, or a uniform, complete MeanRanks
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    test : {"holm", "shaffer", "bergmann-hommel", "nemenyi", "holland", "finner"}
        Holm's step-down over the m = k(k − 1)/2 pairs; Shaffer's static procedure (Holm with
        t_i, the most hypotheses that can still be true, in place of m − i + 1; any k);
        Bergmann–Hommel (rejects every hypothesis outside all exhaustive sets that would be
        accepted; k ≤ :data:`BERGMANN_HOMMEL_MAX_METHODS`); Nemenyi; or the step-down
        Holland (Šidák) and Finner procedures over the m pairs (see :func:`mcda.adjust_pvalues`).
        The other post-hocs of the Friedman ranks, as scikit-posthocs has them (:mod:`mcda.stats.across.rank_tests`):
        "conover" (Conover's t on rank sums, (N − 1)(k − 1) df, adjusted by ``adjust``;
        ``adjust="single-step"`` for the studentized range), "siegel" (Siegel & Castellan's z,
        the Friedman z of the procedures above, adjusted by ``adjust``) and "miller" (Miller's
        simultaneous χ²; ``adjust`` is not used).
    alpha : float
    exact : bool
        False (default): the normal approximation 2Φ(−|z|) of each pair's p-value. True: the
        exact p-value of the pair's rank-sum difference under the Friedman null (Eisinga et
        al. 2017; see Notes of :func:`nemenyi`).
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.
    adjust : str or None
        The adjustment for "conover" and "siegel" (any name of :data:`PVALUE_ADJUSTMENTS`,
        None for raw p); ignored by the other tests, whose name is their adjustment.

    Returns
    -------
    PosthocResult
        k × k ``z``, ``pvalues``, ``pvalues_adjusted``, ``significant``.

    Raises
    ------
    ValueError
        Bergmann–Hommel with more than 12 methods (the message suggests Shaffer).

    Notes
    -----
    Power increases from Nemenyi to Holm, Shaffer and Bergmann–Hommel, all controlling the
    family-wise error (García & Herrera 2008). Adjusted p-values follow García & Herrera:
    Shaffer APV_i = min(1, max_{j ≤ i} t_j p_(j)); Bergmann–Hommel
    APV_i = min(1, max{|I| min_{j ∈ I} p_j : I exhaustive, i ∈ I}).

    Examples
    --------
    >>> import mcda
    >>> res = mcda.all_pairs_test(mcda.datasets.load("garcia_herrera2008"), test="bergmann-hommel")
    >>> int(res.significant.to_numpy().sum() // 2)
    8
    """
    alpha = check_alpha(alpha)
    test = _test_name("test", test, _ALL_PAIRS_TESTS + _OTHER_POSTHOCS)
    _check_exact(exact)
    if test in _OTHER_POSTHOCS:
        if exact:
            raise McdaArgumentError(f"`exact` applies to the Friedman rank-sum tests, not to test={test!r}.")
        from mcda.stats.across import rank_tests as omnibus

        if test == "miller":
            return omnibus.miller_posthoc(scores, direction, alpha=alpha, method_names=method_names)
        run = omnibus.conover_posthoc if test == "conover" else omnibus.siegel_posthoc
        return run(scores, direction, adjust=adjust, alpha=alpha, method_names=method_names)
    stats = _rank_statistics(scores, direction, method_names, what=f"the {test} all-pairs test")
    if test == "bergmann-hommel":
        check_bergmann_hommel(stats.n_methods)
    return _posthoc(stats, test, None, alpha, exact=bool(exact))


# --------------------------------------------------------------------------- the whole procedure


@dataclass(frozen=True, repr=False)
class ComparisonResult(Result):
    """Ranks, omnibus and (only if it rejects) the post-hoc procedure, with the cliques.

    Attributes
    ----------
    mean_ranks : pandas.Series
        Mean rank per method (1 = best), over the complete design.
    friedman : FriedmanResult
    posthoc : PosthocResult or None
        None when the omnibus does not reject: then no difference may be claimed.
    critical_difference : float or None
        The CD of Nemenyi or Bonferroni–Dunn when the post-hoc ran; None otherwise (and for
        the step procedures, which have no single CD).
    groups : list of tuple of str
        Maximal cliques of methods not separated from each other, computed from the pairwise
        decisions (a group never contains a pair the test separated), each ordered by mean
        rank and the list ordered by the mean rank of their members. A method separated from
        every other forms a group of its own. Against a control only the pairs with the
        control are tested: the one group is the control with the methods not separated from
        it. When the omnibus does not reject, one group holds every method.
    excluded : dict
        Method -> datasets it lacks (excluded, never imputed).
    n_datasets, n_methods : int
    alpha : float
    test : str
    control : str or None
    missing : str
        The policy applied: "complete" (incomplete methods dropped), "datasets" (incomplete
        datasets dropped) or "available" (the incomplete design tested as it is).
    design : str
        The design tested: "complete", "balanced incomplete" (Durbin's test, Conover's
        post-hoc) or "unbalanced incomplete" (Skillings–Mack, no post-hoc).
    datasets_per_method : pandas.Series or None
        Datasets on which each method has a result (in the design tested).
    excluded_datasets : dict
        Dataset -> methods it lacks (dropped under ``missing="datasets"``).
    note : str
        What the procedure could not do, in words (e.g. no post-hoc for an unbalanced design).
    """

    mean_ranks: pd.Series
    friedman: FriedmanResult
    posthoc: PosthocResult | None
    critical_difference: float | None
    groups: list
    excluded: dict
    n_datasets: int
    n_methods: int
    alpha: float
    test: str
    control: str | None
    missing: str = "complete"
    design: str = "complete"
    datasets_per_method: pd.Series | None = None
    excluded_datasets: dict = field(default_factory=dict)
    note: str = ""

    def _separated_counts(self) -> pd.Series:
        methods = list(self.mean_ranks.index)
        counts = pd.Series(0, index=pd.Index(methods, name="method"), name="n_separated")
        if self.posthoc is None:
            return counts
        sig = self.posthoc.significant
        if self.control is None:
            return counts + sig.sum(axis=1).reindex(methods).astype(int)
        counts.loc[self.control] = int(sig.sum())
        counts.loc[list(sig.index)] = sig.astype(int).to_numpy()
        return counts

    def to_frame(self) -> pd.DataFrame:
        """One row per method: ``method, mean_rank, n_separated, excluded``.

        ``n_separated`` counts the comparisons in which the method was separated (0 without a
        post-hoc); methods excluded as incomplete come last, with NaN mean rank.
        """
        frame = self.mean_ranks.rename("mean_rank").rename_axis("method").reset_index()
        frame["n_separated"] = self._separated_counts().to_numpy()
        frame["excluded"] = False
        if self.excluded:
            extra = pd.DataFrame({"method": list(self.excluded), "mean_rank": np.nan, "n_separated": 0,
                                  "excluded": True})
            frame = pd.concat([frame, extra], ignore_index=True)
        return frame

    def summary(self) -> str:
        """A block in the words of a methods section (see the user guide, "Across datasets")."""
        f = self.friedman
        order = self.mean_ranks.sort_values(kind="stable")
        best, best_rank = str(order.index[0]), float(order.iloc[0])
        # every method sharing the lowest mean rank is named: picking one of a tie would be arbitrary
        tied = [str(m) for m, r in order.items() if r - best_rank <= TIE_TOLERANCE]
        at = f"{', '.join(tied)} (tied at rank {best_rank:.2f})" if len(tied) > 1 else f"{best} (rank {best_rank:.2f})"
        lines = [f"{self.n_methods} methods over {self.n_datasets} datasets"
                 + (f" ({self.design} design tested as it is)" if self.design != "complete" else "")]
        if hasattr(f, "_statistics_text"):
            statistics = f._statistics_text()
        else:  # the incomplete-design tests: Durbin (without its pairs, the post-hoc below lists them) or Skillings-Mack
            statistics = f.summary(pairs=False) if hasattr(f, "pairwise") else f.summary()
        lines += ["  " + line for line in statistics.split("\n")]
        if self.posthoc is None and f.rejected:
            lines.append(f"  omnibus rejects at alpha = {self.alpha:g}; {self.note}")
            lines.append(f"  lowest mean rank: {at}, descriptive only")
        elif self.posthoc is None:
            lines.append(f"  omnibus does not reject at alpha = {self.alpha:g}: no difference may be claimed")
            lines.append(f"  lowest mean rank: {at}, descriptive only")
        else:
            spread = float(order.iloc[-1] - order.iloc[0])
            what = (f"{self.test} CD = {self.critical_difference:.3f} over a rank range of {spread:.2f}"
                    if self.critical_difference is not None else
                    f"{self.test}{' against control ' + self.control if self.control else ' over all pairs'}")
            lines.append(f"  omnibus rejects at alpha = {self.alpha:g}; {what}")
            lines.append(f"  best: {at}")
            sig = self.posthoc.significant
            if self.control is None:
                separated = [m for m in order.index if bool(sig.at[best, m])]
                lines.append(f"  separated from best: {len(separated)}/{self.n_methods - 1} -> {_listed(separated)}")
                n_pairs = self.n_methods * (self.n_methods - 1) // 2
                lines.append(f"  separated pairs: {int(sig.to_numpy().sum()) // 2}/{n_pairs}")
            else:
                separated = [m for m in order.index if m in sig.index and bool(sig[m])]
                # "separated" alone hides the direction: say how many rank better or worse than the control
                better = sum(self.mean_ranks[m] < self.mean_ranks[self.control] for m in separated)
                lines.append(f"  separated from control {self.control}: {len(separated)}/{self.n_methods - 1} -> "
                             f"{_listed(separated)} ({better} ranked better, {len(separated) - better} worse)")
        for method, lacks in self.excluded.items():
            lines.append(f"  excluded (incomplete): {method} lacks {_listed(lacks)}")
        if self.excluded_datasets:
            lines.append(f"  excluded datasets (missing='datasets'): {len(self.excluded_datasets)} -> "
                         f"{_listed(self.excluded_datasets)}")
        if self.note and self.posthoc is not None:
            lines.append(f"  note: {self.note}")
        return "\n".join(lines)


def _groups(mean_ranks: pd.Series, posthoc: PosthocResult | None) -> list[tuple[str, ...]]:
    methods = list(mean_ranks.index)
    position = {m: i for i, m in enumerate(mean_ranks.sort_values(kind="stable").index)}
    by_rank = lambda names: tuple(sorted(names, key=position.__getitem__))  # noqa: E731
    if posthoc is None:
        return [by_rank(methods)]
    if posthoc.control is not None:
        kept = [posthoc.control] + [m for m in posthoc.significant.index if not posthoc.significant[m]]
        return [by_rank(kept)]
    return groups_from_decisions(mean_ranks, posthoc.significant.to_numpy(dtype=bool))


@states_scale
def compare_over_datasets(scores, direction=None, *, test: str = "nemenyi", control: str | None = None,
                          alpha: float = 0.05, exact: bool = False, method_names=None,
                          missing: str = "methods") -> ComparisonResult:
    """Does a method win in general? Ranks, the Friedman omnibus, and a post-hoc only if it rejects.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`, or a uniform, complete MeanRanks
        One score per (dataset, method). Methods with a missing cell are excluded and named
        (``excluded``), never imputed; reduce a ``seed`` dim first (:func:`mcda.reduce_seeds`).
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    test : {"nemenyi", "bonferroni-dunn", "holm", "hochberg", "hommel", "holland", "finner", "li", "rom", "shaffer", "bergmann-hommel"}
        Without ``control``: "nemenyi", "holm", "shaffer", "bergmann-hommel", "holland" or
        "finner" over all pairs. With ``control``: "bonferroni-dunn", "holm", "hochberg",
        "hommel", "holland", "finner", "li" or "rom" against it.
    control : str, optional
        A method chosen before looking at the results.
    alpha : float
        Level of the omnibus and of the post-hoc family.
    exact : bool
        Exact p-values of the rank-sum differences in the post-hoc (Eisinga et al. 2017; see
        :func:`nemenyi`); Nemenyi and Bonferroni–Dunn become Bonferroni on them, with the
        exact critical difference.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.
    missing : {"methods", "datasets", "available"}
        What a missing cell does; nothing is ever imputed. "methods" (default; also spelt
        "complete"): drop every method lacking a dataset (named in ``excluded``).
        "datasets": drop every dataset lacking a method (``excluded_datasets``).
        "available": test the incomplete design as it is — Durbin's test with Conover's
        post-hoc (``test`` chooses the adjustment: Holm for "nemenyi"/"holm", Shaffer, or
        against ``control``) when the design is balanced incomplete, the Skillings–Mack test
        without a post-hoc otherwise (see :mod:`mcda.stats.across.incomplete`). ``design`` and
        ``datasets_per_method`` say which design was tested.

    Returns
    -------
    ComparisonResult
        ``mean_ranks``, ``friedman``, ``posthoc`` (None when the omnibus does not reject),
        ``critical_difference``, ``groups``, ``excluded``, ``n_datasets``, ``n_methods``,
        ``alpha``, ``test``, ``control``; ``summary()`` and ``to_frame()``.

    Raises
    ------
    ValueError
        A test that does not fit ``control`` (e.g. "bonferroni-dunn" without one, "nemenyi"
        with one), an unknown or excluded ``control``, a weighted MeanRanks, a ``seed`` dim.

    Examples
    --------
    >>> import mcda
    >>> res = mcda.compare_over_datasets(mcda.datasets.load("garcia_herrera2008"))
    >>> print(res.summary())  # doctest: +NORMALIZE_WHITESPACE
    5 methods over 30 datasets
      Friedman chi2(4) = 39.647, p = 5.12e-08 (untied, as Demsar 2006 defines it and the post-hoc standard
      error assumes; with the ties here the tie-corrected chi2 of scipy/R is 39.913, p = 4.51e-08)
      Iman-Davenport F(4, 116) = 14.309, p = 1.59e-09
      omnibus rejects at alpha = 0.05; nemenyi CD = 1.114 over a rank range of 2.23
      best: C4.5 (rank 2.10)
      separated from best: 2/4 -> [k-NN(k=1), Kernel]
      separated pairs: 4/10
    >>> res.groups
    [('C4.5', 'NaiveBayes', 'CN2'), ('NaiveBayes', 'CN2', 'k-NN(k=1)'), ('k-NN(k=1)', 'Kernel')]
    """
    alpha = check_alpha(alpha)
    _check_exact(exact)
    test = _test_name("test", test, _COMPARISON_TESTS)
    if control is None and test not in _ALL_PAIRS_TESTS:
        raise McdaArgumentError(f"`test` {test!r} compares methods with a control; pass `control=` (a method chosen "
                         f"beforehand), or use an all-pairs test {{{', '.join(map(repr, _ALL_PAIRS_TESTS))}}}.")
    if control is not None and test not in _CONTROL_TESTS:
        raise McdaArgumentError(f"`test` {test!r} compares all pairs and takes no `control`; against a control use one of "
                         f"{{{', '.join(map(repr, _CONTROL_TESTS))}}}; got control={control!r}.")
    policy = missing_policy(missing)
    if policy == "available" and not isinstance(scores, MeanRanks):
        incomplete = _compare_incomplete(scores, direction, test=test, control=control, alpha=alpha,
                                         method_names=method_names)
        if incomplete is not None:
            return incomplete
        policy = "complete"  # every cell present: the incomplete design is the complete one
    stats = _rank_statistics(scores, direction, method_names, what="the comparison over datasets", missing=policy)
    if control is not None:
        control = check_control(control, stats.methods, stats.excluded)
    if test == "bergmann-hommel":
        check_bergmann_hommel(stats.n_methods)
    friedman = _friedman(stats, alpha)
    posthoc = _posthoc(stats, test, control, alpha, exact=bool(exact)) if friedman.rejected else None
    per_method = pd.Series(stats.n_datasets, index=pd.Index(stats.methods, name="method"), name="n_datasets")
    return ComparisonResult(mean_ranks=friedman.mean_ranks, friedman=friedman, posthoc=posthoc,
                            critical_difference=posthoc.critical_difference if posthoc is not None else None,
                            groups=_groups(friedman.mean_ranks, posthoc), excluded=stats.excluded,
                            n_datasets=stats.n_datasets, n_methods=stats.n_methods, alpha=alpha, test=test,
                            control=control, missing="available" if missing_policy(missing) == "available" else policy,
                            design="complete", datasets_per_method=per_method,
                            excluded_datasets=stats.excluded_datasets)


def _compare_incomplete(scores, direction, *, test, control, alpha, method_names):
    """compare_over_datasets(missing="available") on an incomplete design (None when no cell is missing)."""
    from mcda.stats.across.incomplete import design_of, durbin_test, prepared_incomplete, skillings_mack_test

    values, present, methods, datasets, _ = prepared_incomplete(scores, direction, method_names, "the comparison over datasets")
    if present.all():
        return None
    design = design_of(present, methods, datasets)
    if control is not None:
        check_control(control, methods)
    if design.kind == "unbalanced incomplete":
        omnibus = skillings_mack_test(scores, direction, alpha=alpha, method_names=method_names)
        note = ("no post-hoc test applies to an unbalanced incomplete design here (Durbin's and Conover's need a "
                "balanced one), so no pair may be claimed different from this procedure; the pairwise views (sign "
                "test, Bayesian) compare each pair on the datasets it shares")
        return ComparisonResult(mean_ranks=omnibus.mean_ranks, friedman=omnibus, posthoc=None,
                                critical_difference=None, groups=[tuple(omnibus.mean_ranks.sort_values(
                                    kind="stable").index)], excluded={}, n_datasets=omnibus.n_datasets,
                                n_methods=omnibus.n_methods, alpha=alpha, test="skillings-mack", control=control,
                                missing="available", design=design.kind,
                                datasets_per_method=design.n_datasets_per_method, note=note)
    adjust = {"nemenyi": "holm", "holm": "holm", "shaffer": "shaffer", "bergmann-hommel": "bergmann-hommel",
              "bonferroni-dunn": "bonferroni", "hochberg": "hochberg", "hommel": "hommel"}[test]
    omnibus = durbin_test(scores, direction, alpha=alpha, adjust=None, method_names=method_names)
    note = ("Durbin's test on the balanced incomplete design; post-hoc: Conover's t on rank sums, "
            f"{adjust}-adjusted" + (" (Nemenyi's studentized range needs a complete design)" if test == "nemenyi"
                                    else ""))
    posthoc = _durbin_posthoc(omnibus, adjust, control, alpha) if omnibus.rejected else None
    return ComparisonResult(mean_ranks=omnibus.mean_ranks, friedman=omnibus, posthoc=posthoc, critical_difference=None,
                            groups=_groups(omnibus.mean_ranks, posthoc), excluded={}, n_datasets=omnibus.n_datasets,
                            n_methods=omnibus.n_methods, alpha=alpha, test=f"durbin-conover ({adjust})",
                            control=control, missing="available", design=design.kind,
                            datasets_per_method=design.n_datasets_per_method, note=note)


def _durbin_posthoc(omnibus, adjust: str, control, alpha: float) -> PosthocResult:
    """Conover's pairwise t on Durbin rank sums as a PosthocResult (``z`` holds the t statistics)."""
    methods = list(omnibus.mean_ranks.index)
    k = len(methods)
    frame = omnibus.pairwise
    b, kk, r = omnibus.n_datasets, omnibus.methods_per_dataset, omnibus.datasets_per_method
    t_stat = np.zeros((k, k))
    p_raw = np.full((k, k), np.nan)
    for row in frame.itertuples(index=False):
        i, j = methods.index(row.method_a), methods.index(row.method_b)
        signed = row.statistic * np.sign(row.rank_sum_diff)
        t_stat[i, j], t_stat[j, i] = signed, -signed
        p_raw[i, j] = p_raw[j, i] = row.p_raw
    del b, kk, r
    index = pd.Index(methods, name="method")
    if control is not None:
        c = methods.index(control)
        others = [j for j in range(k) if j != c]
        raw = p_raw[c, others]
        adjusted = adjust_finite(raw, adjust)
        oi = pd.Index([methods[j] for j in others], name="method")
        return PosthocResult(test=f"durbin-conover ({adjust})", control=control, alpha=alpha,
                             mean_ranks=omnibus.mean_ranks, z=pd.Series(t_stat[c, others], index=oi, name="z"),
                             pvalues=pd.Series(raw, index=oi, name="p_raw"),
                             pvalues_adjusted=pd.Series(adjusted, index=oi, name="p_adjusted"),
                             significant=pd.Series(adjusted <= alpha, index=oi, name="significant"),
                             critical_difference=None, n_datasets=omnibus.n_datasets, n_methods=k,
                             standard_error=math.nan)
    a, bb = np.triu_indices(k, 1)
    adjusted_pairs = adjust_finite(p_raw[a, bb], adjust, k)
    columns = index.rename("versus")
    frame_of = lambda values: pd.DataFrame(values, index=index, columns=columns)  # noqa: E731
    return PosthocResult(test=f"durbin-conover ({adjust})", control=None, alpha=alpha, mean_ranks=omnibus.mean_ranks,
                         z=frame_of(t_stat), pvalues=frame_of(p_raw),
                         pvalues_adjusted=pair_matrix(adjusted_pairs, methods, np.nan),
                         significant=pair_matrix(adjusted_pairs <= alpha, methods, False), critical_difference=None,
                         n_datasets=omnibus.n_datasets, n_methods=k, standard_error=math.nan)


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
    comparisons = _test_name("comparisons", comparisons, ("all-pairs", "control"))
    if adjust is not None:
        adjust = canonical_adjustment(adjust, "adjust", allowed=_ATTAINABLE_ADJUSTMENTS, optional=True)
    test = _test_name("test", test, ("wilcoxon", "sign"))
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
