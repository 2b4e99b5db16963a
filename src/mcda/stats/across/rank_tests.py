"""Across datasets, other rank tests: Friedman aligned ranks, Quade, and Conover / Siegel / Miller.

The Friedman test ranks the methods within each dataset, so it ignores how far apart they
are and how much a dataset can separate them. Two omnibus tests use more of the scores:

- :func:`friedman_aligned_ranks_test` (Hodges & Lehmann 1962): subtract each dataset's mean
  score, rank all k·N aligned values together, so a large win on one dataset counts more
  than a narrow one. Its χ² statistic and post-hoc z follow García et al. (2010).
- :func:`quade_test` (Quade 1979): ranks within each dataset weighted by the rank of that
  dataset's range, so datasets that separate the methods more weigh more. The F statistic
  is R's ``quade.test``; its post-hoc is Conover's (1999) t on the weighted rank sums,
  ``scikit_posthocs.posthoc_quade``.

Each returns the omnibus first and the post-hoc comparisons only when the omnibus rejects
(``posthoc`` is None otherwise), all pairs or against a control named beforehand, adjusted
with any of :data:`mcda.stats._shared.multitest.PVALUE_ADJUSTMENTS`.

On the Friedman ranks themselves, :func:`conover_posthoc`, :func:`siegel_posthoc` and
:func:`miller_posthoc` are the Conover (t on rank sums), Siegel & Castellan (z on mean ranks)
and Miller (simultaneous χ²) post-hocs of scikit-posthocs; they are reached through
``mcda.all_pairs_test(test="conover" | "siegel" | "miller")`` and ``mcda.control_test``.

Both new omnibus tests need every dataset at once (aligned ranks rank all cells together;
Quade ranks the datasets' ranges), so they refuse a lazy (dask) cube by name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.results import OmnibusResult, states_scale
from mcda._core.validation import Reason, check_alpha, check_choice, check_control, shown
from mcda._core.numeric import rank
from mcda.stats._shared.posthoc import PosthocResult, pair_matrix
from mcda.stats._shared.multitest import PAIR_STRUCTURED, adjust_pvalues, canonical_adjustment
from mcda.data.blocks import require_in_memory
from mcda.stats._shared.ranks import prepare_across, rank_rows, rank_sums
from mcda.stats.across.friedman import _RankStatistics
from mcda.stats.across.posthoc import _posthoc

__all__ = [
    "OmnibusResult",
    "RankTestResult",
    "friedman_aligned_ranks_test",
    "quade_test",
    "conover_posthoc",
    "siegel_posthoc",
    "miller_posthoc",
]


# --------------------------------------------------------------------------- shared input and output


@dataclass(frozen=True)
class _Design:
    values: np.ndarray  # oriented (n_datasets, n_methods), higher is better, complete
    methods: list
    excluded: dict

    @property
    def n_datasets(self) -> int:
        return self.values.shape[0]

    @property
    def n_methods(self) -> int:
        return self.values.shape[1]


def _checked(prep, what: str):
    """Warn about the excluded methods and refuse a design too small for ``what``."""
    prep.warn_excluded(what)
    if prep.n_methods < 2:
        raise McdaArgumentError(f"{what} needs at least 2 complete methods; got {prep.n_methods} "
                         f"({shown(prep.methods, fmt=str)}).", argument=None)
    if prep.n_datasets < 2:
        raise McdaArgumentError(f"{what} needs at least 2 datasets with a result for every method; got {prep.n_datasets}.",
                                argument=None)
    return prep


def _design(scores, direction, method_names, what: str) -> _Design:
    require_in_memory(scores, what, reason="it ranks values across datasets, which needs every dataset at once",
                      instead="load the cube (cube.load()), or use the Friedman procedure (chunk-wise)")
    prep = _checked(prepare_across(scores, direction, method_names=method_names, missing="complete"), what)
    return _Design(values=prep.values, methods=list(prep.methods), excluded=dict(prep.excluded))


def _adjustment(adjust, *, control, allow_single_step: bool = False) -> str:
    """The canonical adjustment name ("none" for None), checked against the family it is used on."""
    if adjust is None:
        return "none"
    if isinstance(adjust, str) and adjust.strip().lower() in ("none", "single-step", "single_step"):
        key = adjust.strip().lower().replace("_", "-")
        if key == "single-step" and not allow_single_step:
            raise McdaArgumentError("`adjust` 'single-step' (the studentized range over all pairs) applies to the "
                             "Conover all-pairs test only; got it here.", argument="adjust")
        if key == "single-step" and control is not None:
            raise McdaArgumentError("`adjust` 'single-step' is an all-pairs procedure; against a control use a "
                             "step-down adjustment such as 'holm'.", argument="adjust")
        return key
    name = canonical_adjustment(adjust, "adjust", optional=True)
    if control is not None and name in PAIR_STRUCTURED:
        raise McdaArgumentError(f"`adjust` {name!r} needs the k(k-1)/2 pairs of all methods; against a control use "
                         f"'holm', 'hochberg', 'hommel', 'bonferroni', ...; got adjust={adjust!r} with "
                         f"control={control!r}.", argument="adjust", value=adjust)
    return name


def _shown_adjust(name: str):
    """The ``adjust`` field of a result: the canonical name, None when the p-values are raw or simultaneous."""
    return None if name in ("none", "miller") else name


def _two_sided(statistic: np.ndarray, distribution: str, df: float | None) -> np.ndarray:
    if distribution == "t":
        return np.minimum(2.0 * stats.t.sf(np.abs(statistic), df), 1.0)
    return np.minimum(2.0 * special.ndtr(-np.abs(statistic)), 1.0)


def _build_posthoc(*, test: str, methods: list, mean_ranks: np.ndarray, scale: np.ndarray, standard_error: float,
                   control, adjust: str, alpha: float, n_datasets: int, distribution: str = "normal",
                   df: float | None = None, simultaneous=None, reason: str = "",
                   reason_code: Reason = Reason.NONE) -> PosthocResult:
    """A PosthocResult from per-method locations ``scale`` (statistic = (scale_a − scale_b) / SE).

    ``simultaneous(statistic) -> adjusted p`` replaces the adjustment (Miller, single-step).
    """
    k = len(methods)
    ranks = pd.Series(mean_ranks, index=pd.Index(methods, name="method"), name="mean_rank")
    if control is not None:
        c = methods.index(control)
        others = [j for j in range(k) if j != c]
        statistic = (scale[c] - scale[others]) / standard_error
        raw = _two_sided(statistic, distribution, df)
        adjusted = raw.copy() if adjust == "none" else np.asarray(adjust_pvalues(raw, method=adjust))
        index = pd.Index([methods[j] for j in others], name="method")
        series = lambda values, name: pd.Series(values, index=index, name=name)  # noqa: E731
        return PosthocResult(test=test, control=control, alpha=alpha, mean_ranks=ranks,
                             z=series(statistic, "z"), pvalues=series(raw, "p_raw"),
                             pvalues_adjusted=series(adjusted, "p_adjusted"),
                             significant=series(adjusted <= alpha, "significant"), critical_difference=None,
                             n_datasets=n_datasets, n_methods=k, standard_error=standard_error,
                             distribution=distribution, df=df, adjust=_shown_adjust(adjust), reason=reason,
                             reason_code=reason_code)
    a, b = np.triu_indices(k, 1)
    statistic = (scale[a] - scale[b]) / standard_error
    raw = _two_sided(statistic, distribution, df)
    if simultaneous is not None:
        adjusted = np.minimum(simultaneous(statistic), 1.0)
    elif adjust == "none":
        adjusted = raw.copy()
    else:
        adjusted = np.asarray(adjust_pvalues(raw, method=adjust))
    return PosthocResult(test=test, control=None, alpha=alpha, mean_ranks=ranks,
                         z=pair_matrix(statistic, methods, 0.0, antisymmetric=True), pvalues=pair_matrix(raw, methods, np.nan),
                         pvalues_adjusted=pair_matrix(adjusted, methods, np.nan),
                         significant=pair_matrix(adjusted <= alpha, methods, False),
                         critical_difference=None, n_datasets=n_datasets, n_methods=k,
                         standard_error=standard_error, distribution=distribution, df=df,
                         adjust=_shown_adjust(adjust), reason=reason, reason_code=reason_code)


@dataclass(frozen=True, repr=False)
class RankTestResult(OmnibusResult):
    """An omnibus rank test over datasets (aligned ranks or Quade) and its post-hoc, if it rejects; an
    :class:`~mcda._core.results.OmnibusResult` like every omnibus across datasets.

    Attributes
    ----------
    test : str
        "friedman-aligned-ranks" or "quade".
    statistic : float
        Aligned ranks: T, compared with χ²(k − 1). Quade: F, compared with
        F(k − 1, (k − 1)(N − 1)).
    pvalue : float
        Its upper-tail p-value; NaN (with ``reason``) when the test does not apply.
    df : tuple
        (k − 1,) for aligned ranks; (k − 1, (k − 1)(N − 1)) for Quade.
    rejected : bool
        ``pvalue <= alpha``.
    alpha : float
    n_datasets, n_methods : int
    mean_ranks : pandas.Series
        Aligned ranks: the mean aligned rank of each method, on the scale 1..kN (1 = best).
        Quade: the Quade average rank T_j = W_j / (N(N + 1)/2), on the scale 1..k (1 = best).
    posthoc : PosthocResult or None
        The post-hoc comparisons (all pairs, or against ``control``) when the omnibus
        rejects; None when it does not (then no difference may be claimed).
    control : str or None
    adjust : str or None
        The canonical name of the post-hoc family's p-value adjustment (None: raw p).
    excluded : dict
        Method -> datasets it lacks (dropped, never imputed).
    reason : str
        Why a statistic is NaN or infinite ("" otherwise).
    """

    test: str
    statistic: float
    pvalue: float
    df: tuple
    rejected: bool
    alpha: float
    n_datasets: int
    n_methods: int
    mean_ranks: pd.Series
    posthoc: PosthocResult | None
    control: str | None
    adjust: str | None
    excluded: dict = field(default_factory=dict)
    reason: str = ""

    @property
    def kind(self) -> str:
        """``"chi2"`` for aligned ranks' T, ``"F"`` for Quade's F."""
        return "F" if self.test == "quade" else "chi2"

    def to_frame(self) -> pd.DataFrame:
        """One row per method: ``method, mean_rank, n_separated`` (0 without a post-hoc)."""
        frame = self.mean_ranks.rename("mean_rank").rename_axis("method").reset_index()
        counts = pd.Series(0, index=self.mean_ranks.index)
        if self.posthoc is not None:
            sig = self.posthoc.significant
            if self.control is None:
                counts = sig.sum(axis=1).reindex(self.mean_ranks.index).astype(int)
            else:
                counts.loc[self.control] = int(sig.sum())
                counts.loc[list(sig.index)] = sig.astype(int).to_numpy()
        frame["n_separated"] = counts.to_numpy()
        return frame

    def summary(self) -> str:
        """The omnibus line, then the post-hoc's separated pairs (or why there is none)."""
        what = {"friedman-aligned-ranks": "Friedman aligned ranks T", "quade": "Quade F"}[self.test]
        dfs = ", ".join(str(d) for d in self.df)
        lines = [f"{self.n_methods} methods over {self.n_datasets} datasets",
                 f"  {what}({dfs}) = {self.statistic:.3f}, p = {self.pvalue:.3g}"]
        if self.reason:
            lines.append(f"  note: {self.reason}")
        order = self.mean_ranks.sort_values(kind="stable")
        lines.append("  mean ranks: " + ", ".join(f"{m} {r:.3f}" for m, r in order.items()))
        if self.posthoc is None:
            lines.append(f"  omnibus does not reject at alpha = {self.alpha:g}: no difference may be claimed")
        else:
            lines.append(f"  omnibus rejects at alpha = {self.alpha:g}; post-hoc:")
            lines += ["    " + line for line in self.posthoc.summary().split("\n")]
        for method, lacks in self.excluded.items():
            lines.append(f"  excluded (incomplete): {method} lacks [{shown(lacks, 8, fmt=str)}]")
        return "\n".join(lines)

# --------------------------------------------------------------------------- Friedman aligned ranks


def _tolerant_ranks(values: np.ndarray, scale: float) -> np.ndarray:
    """Average ranks (1 = smallest) of a 1-D array, values within ``score_tolerance(scale)`` tied.

    Aligned values x_ij − x̄_i and ranges max − min are differences: two that are equal in exact
    arithmetic (0.768 − 0.763 and 0.936 − 0.931) can differ in their last bits, which would
    break a real tie at random. Such near-equal values are ranked as one, at the scores' scale.
    """
    return rank(values, scale=max(scale, np.finfo(np.float64).tiny))


def _aligned_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks of x_ij − mean_i over all k·N cells, 1 = largest (best), ties averaged."""
    aligned = values - values.mean(axis=1, keepdims=True)
    scale = float(np.max(np.abs(values))) if values.size else 0.0
    return _tolerant_ranks(-aligned.ravel(), scale).reshape(values.shape)


@states_scale
def friedman_aligned_ranks_test(scores, direction=None, *, control: str | None = None, adjust: str = "holm",
                                alpha: float = 0.05, method_names=None) -> RankTestResult:
    """The Friedman aligned ranks test (Hodges & Lehmann) and, if it rejects, its post-hoc.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method); methods with a missing cell are excluded and named.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    control : str, optional
        Compare every method with this one (chosen before looking at the results) instead
        of all pairs.
    adjust : str or None
        The p-value adjustment of the post-hoc family: any name of
        :data:`mcda.stats._shared.multitest.PVALUE_ADJUSTMENTS` ("holm", "hochberg", "hommel",
        "bonferroni", "shaffer" and "bergmann-hommel" for all pairs, ...); None for raw p.
    alpha : float
        Level of the omnibus and of the post-hoc family.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    RankTestResult
        ``test="friedman-aligned-ranks"``, ``statistic`` T, ``pvalue``, ``df`` (k − 1,),
        ``mean_ranks`` (mean aligned rank, 1..kN), ``posthoc`` (None unless it rejects).

    Notes
    -----
    Each score is aligned by its dataset's mean, x̂_ij = x_ij − x̄_i, and the k·N aligned
    values are ranked together (1 = best). With R̂_j the rank total of method j and R̂_i that
    of dataset i,

        T = (k − 1) [Σ_j R̂_j² − (kN²/4)(kN + 1)²] / ([kN(kN + 1)(2kN + 1)/6] − (1/k) Σ_i R̂_i²),

    compared with χ²(k − 1) (García et al. 2010, eq. of §4.2; scmamp's
    ``friedmanAlignedRanksTest``). The denominator uses the untied Σ r², as published.
    Aligned values equal up to the rounding of the subtraction (8 ulps of the scores) are
    ranked as ties (ranges in :func:`quade_test` likewise). The
    post-hoc statistic is z = (R̄_a − R̄_b) / √(k(kN + 1)/6) on mean aligned ranks (the null
    variance of a difference of two means of N ranks drawn from 1..kN without replacement),
    as scmamp's ``friedmanAlignedRanksPost``. Aligning lets a dataset's size of win count,
    so the test is more powerful than Friedman's when k is small (García et al. 2010), but
    it compares raw score differences across datasets: use it only when those differences
    are commensurable (the same metric, on comparable scales).

    References
    ----------
    Hodges, J. L., Lehmann, E. L. (1962). Rank methods for combination of independent
    experiments in analysis of variance. Ann. Math. Statist. 33:482–497. doi:10.1214/aoms/1177704575
    García, S., Fernández, A., Luengo, J., Herrera, F. (2010). Advanced nonparametric tests for
    multiple comparisons in the design of experiments in computational intelligence and data
    mining. Information Sciences 180:2044–2064. doi:10.1016/j.ins.2009.12.010

    Examples
    --------
    >>> import mcda
    >>> res = mcda.friedman_aligned_ranks_test(mcda.datasets.load("garcia_herrera2008"))
    >>> round(res.statistic, 3), res.rejected, res.posthoc.n_significant
    (41.728, True, 5)
    """
    alpha = check_alpha(alpha)
    adjust_name = _adjustment(adjust, control=control)
    design = _design(scores, direction, method_names, "the Friedman aligned ranks test")
    control = None if control is None else check_control(control, design.methods, design.excluded)
    n, k = design.n_datasets, design.n_methods
    ranks = _aligned_ranks(design.values)
    totals_methods = ranks.sum(axis=0)
    totals_datasets = ranks.sum(axis=1)
    kn = k * n
    numerator = (k - 1) * (float(totals_methods @ totals_methods) - (kn * n / 4.0) * (kn + 1) ** 2)
    denominator = kn * (kn + 1) * (2 * kn + 1) / 6.0 - float(totals_datasets @ totals_datasets) / k
    reason = ""
    if np.ptp(ranks) == 0 or denominator <= 1e-12 * kn ** 3:
        statistic, pvalue = math.nan, math.nan
        reason = "every aligned value is tied: the aligned ranks carry no information"
    else:
        statistic = numerator / denominator
        pvalue = float(special.chdtrc(k - 1, statistic))
    rejected = bool(pvalue <= alpha)
    mean = totals_methods / n
    posthoc = None
    if rejected:
        posthoc = _build_posthoc(test="friedman-aligned-ranks", methods=design.methods, mean_ranks=mean, scale=mean,
                                 standard_error=math.sqrt(k * (kn + 1) / 6.0), control=control, adjust=adjust_name,
                                 alpha=alpha, n_datasets=n)
    return RankTestResult(test="friedman-aligned-ranks", statistic=float(statistic), pvalue=pvalue, df=(k - 1,),
                         rejected=rejected, alpha=alpha, n_datasets=n, n_methods=k,
                         mean_ranks=pd.Series(mean, index=pd.Index(design.methods, name="method"), name="mean_rank"),
                         posthoc=posthoc, control=control, adjust=_shown_adjust(adjust_name), excluded=design.excluded,
                         reason=reason)


# --------------------------------------------------------------------------- Quade


@states_scale
def quade_test(scores, direction=None, *, control: str | None = None, adjust: str = "holm", alpha: float = 0.05,
               method_names=None) -> RankTestResult:
    """Quade's test (ranks weighted by each dataset's range) and, if it rejects, its post-hoc.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    control : str, optional
        Compare every method with this one instead of all pairs.
    adjust : str or None
        The post-hoc family's p-value adjustment (names of
        :data:`mcda.stats._shared.multitest.PVALUE_ADJUSTMENTS`); None for raw p.
    alpha : float
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    RankTestResult
        ``test="quade"``, ``statistic`` F, ``pvalue``, ``df`` (k − 1, (k − 1)(N − 1)),
        ``mean_ranks`` (Quade average ranks T_j, 1..k), ``posthoc``.

    Notes
    -----
    r_ij is the rank of method j within dataset i (1 = best, ties averaged), Q_i the rank of
    dataset i's range max_j x_ij − min_j x_ij among the N datasets (ties averaged), and
    S_ij = Q_i (r_ij − (k + 1)/2). With A = Σ S_ij² and B = Σ_j S_j² / N,

        F = (N − 1) B / (A − B)  ~  F(k − 1, (k − 1)(N − 1))

    (Quade 1979; Conover 1999, §5.8; R's ``quade.test``). The post-hoc is Conover's t on the
    weighted rank totals, t = (S_a − S_b) / √(2N(A − B) / ((N − 1)(k − 1))) with
    (N − 1)(k − 1) degrees of freedom, which is ``scikit_posthocs.posthoc_quade`` (its
    default ``dist="t"``). ``mean_ranks`` reports the Quade average rank
    T_j = Σ_i Q_i r_ij / (N(N + 1)/2) used in García et al. (2010).

    García et al. (2010) and scmamp's ``quadePost`` compare T_a − T_b with a normal
    standard error √(k(k + 1)(2N + 1)(k − 1) / (18 N (N + 1))); the null variance of
    T_a − T_b is k(k + 1)(2N + 1) / (9 N (N + 1)) (no ties), so that formula is right only
    for k = 3, and scikit-posthocs' ``dist="normal"`` puts N·k for N in it. mcda offers the
    t post-hoc only.

    Weighting by the range ranks means a dataset where the methods differ more counts more:
    use Quade only when the ranges are comparable across datasets (the same metric).
    When every dataset orders the methods the same way and all ranges tie (A = B), F is infinite; the F approximation's p = 0 is replaced
    by the exact permutation p-value of that configuration, (k!)^(1 − N'), N' the datasets
    with a non-zero range, and ``reason`` says so.

    References
    ----------
    Quade, D. (1979). Using weighted rankings in the analysis of complete blocks with additive
    block effects. JASA 74(367):680–683. doi:10.1080/01621459.1979.10481670
    Conover, W. J. (1999). Practical Nonparametric Statistics, 3rd ed. Wiley.

    Examples
    --------
    >>> import mcda
    >>> res = mcda.quade_test(mcda.datasets.load("garcia_herrera2008"))
    >>> round(res.statistic, 3), res.df, res.rejected
    (10.943, (4, 116), True)
    """
    alpha = check_alpha(alpha)
    adjust_name = _adjustment(adjust, control=control)
    design = _design(scores, direction, method_names, "the Quade test")
    control = None if control is None else check_control(control, design.methods, design.excluded)
    n, k = design.n_datasets, design.n_methods
    ranks = rank_rows(design.values)
    spread = design.values.max(axis=1) - design.values.min(axis=1)
    # a zero range still gets its (lowest) rank, as in R's quade.test; near-equal ranges are one tie
    weights = _tolerant_ranks(spread, float(np.max(np.abs(design.values))))
    centred = weights[:, None] * (ranks - (k + 1) / 2.0)
    a_total = float(np.einsum("ij,ij->", centred, centred))
    s = centred.sum(axis=0)
    b_total = float(s @ s) / n
    df = (k - 1, (k - 1) * (n - 1))
    reason = ""
    if a_total <= 1e-12:
        statistic, pvalue = math.nan, math.nan
        reason = "every dataset ties all methods: the ranks carry no information"
    elif a_total - b_total <= 1e-12 * a_total:
        statistic = math.inf
        informative = int(np.count_nonzero(spread > 0))
        pvalue = math.exp((1 - informative) * math.lgamma(k + 1))
        reason = (f"complete concordance (every dataset orders the methods the same way, all ranges tied): F is "
                  f"infinite; the "
                  f"p-value is the exact permutation probability (k!)^(1-N') = {pvalue:.3g} of that "
                  f"configuration (N' = {informative} datasets with a non-zero range), not the F approximation's 0")
    else:
        statistic = (n - 1) * b_total / (a_total - b_total)
        pvalue = float(special.fdtrc(df[0], df[1], statistic))
    rejected = bool(pvalue <= alpha)
    weighted = (weights[:, None] * ranks).sum(axis=0) / (n * (n + 1) / 2.0)
    posthoc = None
    if rejected:
        se = math.sqrt(2.0 * n * max(a_total - b_total, 0.0) / ((n - 1) * (k - 1)))
        posthoc = _build_posthoc(test="quade", methods=design.methods, mean_ranks=weighted, scale=s,
                                 standard_error=se if se > 0 else math.nan, control=control, adjust=adjust_name,
                                 alpha=alpha, n_datasets=n, distribution="t", df=float((n - 1) * (k - 1)))
    return RankTestResult(test="quade", statistic=float(statistic), pvalue=pvalue, df=df, rejected=rejected,
                         alpha=alpha, n_datasets=n, n_methods=k,
                         mean_ranks=pd.Series(weighted, index=pd.Index(design.methods, name="method"),
                                              name="mean_rank"),
                         posthoc=posthoc, control=control, adjust=_shown_adjust(adjust_name), excluded=design.excluded,
                         reason=reason)


# --------------------------------------------------------------------------- post-hocs on Friedman ranks


def _friedman_ranks(scores, direction, method_names, what):
    """The rank-sum statistic of :mod:`mcda.stats._shared.ranks` (chunk-wise on a lazy cube): design, R_j, Σ r², N, k."""
    prep = _checked(rank_sums(scores, direction, method_names=method_names, missing="complete"), what)
    design = _Design(values=None, methods=list(prep.methods), excluded=dict(prep.excluded))
    return design, prep.rank_sums, prep.sum_squared_ranks, prep.n_datasets, prep.n_methods


def conover_posthoc(scores, direction=None, *, adjust: str = "holm", control: str | None = None,
                    alpha: float = 0.05, method_names=None) -> PosthocResult:
    """Conover's post-hoc for the Friedman test: t on rank sums with (N − 1)(k − 1) df.

    Reached as ``mcda.all_pairs_test(test="conover", adjust=...)`` or
    ``mcda.control_test(test="conover", control=..., adjust=...)``; see those for the
    parameters. ``adjust="single-step"`` (all pairs only) gives the studentized-range
    p-values of scikit-posthocs' ``p_adjust="single-step"``.

    Notes
    -----
    With R_j the rank sums, A1 = Σ r_ij², S² = (A1 − Nk(k + 1)²/4)/(k − 1),
    T² = Σ_j (R_j − N(k + 1)/2)² / S², A = 2N(k − 1) S² / ((N − 1)(k − 1)) and
    B = 1 − T² / (N(k − 1)):  t = (R_a − R_b) / √(A B), referred to t with (N − 1)(k − 1)
    degrees of freedom (Conover 1999, §5.8; ``scikit_posthocs.posthoc_conover_friedman``).
    The standard error uses the observed rank dispersion and the Friedman statistic, so it
    is smaller than Nemenyi's whenever the omnibus is large: Conover's test is more
    powerful, and its p-values are not comparable with the normal-z procedures'.
    """
    design, sums, a1, n, k = _friedman_ranks(scores, direction, method_names, "the Conover post-hoc")
    control = None if control is None else check_control(control, design.methods, design.excluded)
    adjust_name = _adjustment(adjust, control=control, allow_single_step=True)
    s2 = (a1 - k * n * (k + 1) ** 2 / 4.0) / (k - 1)
    df = float((n - 1) * (k - 1))
    reason, code = "", Reason.NONE
    if s2 <= 0:
        se = math.nan  # every dataset ties every method
        reason, code = ("every dataset ties all methods: the ranks carry no information, so the rank variance "
                        "S² is 0 and every p-value is NaN"), Reason.ALL_TIED
    else:
        t2 = float(((sums - n * (k + 1) / 2.0) ** 2).sum()) / s2
        a = s2 * 2.0 * n * (k - 1) / df
        b = 1.0 - t2 / (n * (k - 1))
        se = math.sqrt(a * b) if a * b > 0 else 0.0
    simultaneous = None
    if adjust_name == "single-step":
        simultaneous = lambda t: stats.studentized_range.sf(math.sqrt(2.0) * np.abs(t), k, np.inf)  # noqa: E731
    return _build_posthoc(test="conover", methods=design.methods, mean_ranks=sums / n, scale=sums,
                          standard_error=se, control=control, adjust=adjust_name, alpha=alpha, n_datasets=n,
                          distribution="t", df=df, simultaneous=simultaneous, reason=reason, reason_code=code)


def siegel_posthoc(scores, direction=None, *, adjust: str = "holm", control: str | None = None,
                   alpha: float = 0.05, method_names=None) -> PosthocResult:
    """Siegel & Castellan's post-hoc: z = (R̄_a − R̄_b) / √(k(k + 1)/(6N)), adjusted by ``adjust``.

    The statistic of Demšar (2006) and of mcda's step-down procedures, computed by the one
    function that runs them (``all_pairs_test(test="holm")`` is ``test="siegel", adjust="holm"``,
    number for number), named as in
    ``scikit_posthocs.posthoc_siegel_friedman``, and with every adjustment of
    :data:`mcda.stats._shared.multitest.PVALUE_ADJUSTMENTS` (or None).
    """
    design, sums, squares, n, _ = _friedman_ranks(scores, direction, method_names, "the Siegel post-hoc")
    control = None if control is None else check_control(control, design.methods, design.excluded)
    adjust_name = _adjustment(adjust, control=control)
    stats = _RankStatistics(methods=design.methods, rank_sums=sums, sum_squared_ranks=squares, n_datasets=n,
                            excluded=design.excluded)
    return _posthoc(stats, "siegel", control, alpha, adjust=adjust_name)


def miller_posthoc(scores, direction=None, *, alpha: float = 0.05, method_names=None) -> PosthocResult:
    """Miller's simultaneous post-hoc: p = P(χ²_{k−1} ≥ z²) for every pair, no further adjustment.

    Notes
    -----
    z = (R̄_a − R̄_b) / √(k(k + 1)/(6N)) as in Siegel's test; referring z² to χ²(k − 1)
    makes the family of all contrasts simultaneous (Scheffé-type; Miller 1966), so
    ``pvalues_adjusted`` is that p and no step-down is applied
    (``scikit_posthocs.posthoc_miller_friedman``). It is conservative for pairwise
    comparisons alone: prefer Nemenyi or a step-down when only pairs are of interest.
    """
    design, sums, _, n, k = _friedman_ranks(scores, direction, method_names, "the Miller post-hoc")
    mean = sums / n
    return _build_posthoc(test="miller", methods=design.methods, mean_ranks=mean, scale=mean,
                          standard_error=math.sqrt(k * (k + 1) / (6.0 * n)), control=None, adjust="miller",
                          alpha=alpha, n_datasets=n, simultaneous=lambda z: special.chdtrc(k - 1, z * z))
