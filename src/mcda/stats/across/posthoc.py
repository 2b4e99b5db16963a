"""Across datasets: critical differences and the post-hoc procedures on mean ranks.

After a rejecting Friedman test (:mod:`mcda.stats.across.friedman`), say which pairs differ
(Demšar 2006; García & Herrera 2008): Nemenyi for all pairs; Bonferroni–Dunn, Holm, Hochberg,
Hommel, Holland, Finner, Li or Rom against a control named beforehand; Holm, Shaffer's static
procedure, Bergmann–Hommel, Holland or Finner for all pairs. All read the Friedman z of the
rank-sum statistics.
"""

from __future__ import annotations

import functools
import inspect
import math

import numpy as np
import pandas as pd
from scipy import optimize, special

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda.stats._shared.posthoc import PosthocResult, pair_matrix
from mcda._core.results import states_scale
from mcda._core.validation import check_alpha, check_control, check_positive_int
from mcda.stats._shared.multitest import BERGMANN_HOMMEL_MAX_METHODS, adjust_finite, canonical_adjustment, check_bergmann_hommel  # noqa: F401
from mcda.stats._shared.ranks import MeanRanks
from mcda.stats.procedures import PROCEDURES, canonical, load, names
from mcda.stats.across.friedman import _RankStatistics, _check_mean_ranks, _rank_statistics, _standard_error

__all__ = [
    "PosthocResult",
    "q_alpha",
    "critical_difference",
    "nemenyi",
    "bonferroni_dunn",
    "control_test",
    "all_pairs_test",
]

#: The registered post-hocs on the Friedman z: single-step (with a critical difference), against a
#: control, over all pairs; and the other post-hoc statistics of the Friedman ranks (rank_tests),
#: over all pairs and against a control. ``test=`` reads these, and runs a rank post-hoc through
#: the function its registry entry names.
_Q_TESTS = tuple(name for name in names("posthoc") if PROCEDURES[name].single_step)
_CONTROL_TESTS = names("posthoc", "control")
_ALL_PAIRS_TESTS = names("posthoc", "all-pairs")
_OTHER_POSTHOCS = names("rank-posthoc")
_OTHER_CONTROL_POSTHOCS = names("rank-posthoc", "control")


def _against_control_only(test: str) -> bool:
    """Whether the registered procedure ``test`` compares with a control only (Bonferroni–Dunn's k − 1)."""
    return "all-pairs" not in PROCEDURES[test].comparisons



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
    if _against_control_only(test):
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
    test = canonical("test", test, allowed=_Q_TESTS)
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
        _check_mean_ranks(n_methods, "a critical difference", argument="n_methods")
        if n_datasets is not None:
            raise McdaArgumentError("pass `n_datasets` only with an integer `n_methods`; a MeanRanks carries its own "
                             f"({n_methods.n_datasets}); got n_datasets={n_datasets!r}.",
                                    argument="n_datasets", value=n_datasets)
        n_methods, n_datasets = n_methods.n_methods, n_methods.n_datasets
    if n_datasets is None:
        raise McdaArgumentTypeError("critical_difference needs `n_datasets` (N >= 1) with an integer `n_methods`; got None.",
                                    argument="n_datasets", value=n_datasets)
    k = check_positive_int("n_methods", n_methods, minimum=2)
    n = check_positive_int("n_datasets", n_datasets)
    return q_alpha(k, alpha=alpha, test=test) * _standard_error(k, n)


# --------------------------------------------------------------------------- post-hoc procedures


def _two_sided_normal_p(z: np.ndarray) -> np.ndarray:
    return 2.0 * special.ndtr(-np.abs(z))


def _check_exact(exact) -> None:
    if not isinstance(exact, (bool, np.bool_)):
        raise McdaArgumentTypeError(f"`exact` must be True or False; got {exact!r}.", argument="exact", value=exact)


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


def _check_adjust_unused(adjust, test: str) -> None:
    """Refuse an ``adjust`` that ``test`` would not use: a Friedman-z procedure applies the adjustment it names.

    ``adjust`` is checked first (a misspelling names the allowed values); the default "holm" and
    the test's own adjustment pass, anything else raises with the way to get it.
    """
    shown_name = None if adjust is None else canonical_adjustment(adjust, "adjust", optional=True)
    entry = PROCEDURES[test]
    own = entry.adjustment
    if shown_name in ("holm", own):
        return
    if entry.family == "rank-posthoc":
        way = f"{entry.subject} is simultaneous and takes no adjustment; leave `adjust` at its default"
    elif own is None:
        way = (f"{entry.subject} uses the studentized range, not an adjustment; for the Friedman z under "
               f"{shown_name!r} use test='siegel', adjust={shown_name!r}")
    else:
        way = (f"test={test!r} applies its own adjustment ({own!r}); for the Friedman z under {shown_name!r} use "
               f"test='siegel', adjust={shown_name!r}"
               + (f" (or test={shown_name!r})" if shown_name in names("posthoc") else ""))
    raise McdaArgumentError(f"`adjust` {adjust!r} is not used by test={test!r}: {way}.", argument="adjust")


def _rank_posthoc(test: str, scores, direction, *, exact, adjust, alpha, method_names, control=None):
    """Run the registered rank post-hoc ``test`` (its entry's function), passing ``adjust`` when it takes one."""
    if exact:
        raise McdaArgumentError(f"`exact` applies to the Friedman rank-sum tests, not to test={test!r}.",
                                argument="exact", value=exact)
    run = load(test)
    options = {"alpha": alpha, "method_names": method_names}
    if control is not None:
        options["control"] = control
    if "adjust" in inspect.signature(run).parameters:
        options["adjust"] = adjust
    else:
        _check_adjust_unused(adjust, test)
    return run(scores, direction, **options)


def _posthoc(stats: _RankStatistics, test: str, control: str | None, alpha: float,
             exact: bool = False, adjust: str | None = None) -> PosthocResult:
    """The post-hoc comparisons of the Friedman z = (R̄_a − R̄_b)/√(k(k + 1)/(6N)).

    Every procedure on the Friedman z runs here: the registered ones under the adjustment their
    entry names, and Siegel's (``test="siegel"``) under the ``adjust`` given ("none": raw p), so
    that ``all_pairs_test(test="holm")`` and ``test="siegel", adjust="holm"`` are one computation.
    """
    adjustment = PROCEDURES[test].adjustment if adjust is None else adjust
    shown_adjust = None if adjust in (None, "none") else adjust
    k, n = stats.n_methods, stats.n_datasets
    se = _standard_error(k, n)
    mean = stats.mean_ranks
    methods = stats.methods
    ranks = stats.mean_rank_series()
    cd = _q_alpha(k, alpha, test) * se if test in _Q_TESTS else None
    if exact and test in _Q_TESTS:  # the single-step tests become Bonferroni on the exact p-values
        m = k - 1 if _against_control_only(test) else k * (k - 1) // 2
        cd = _exact_critical_difference(stats, alpha / m)
    if control is not None:
        c = methods.index(control)
        others = [j for j in range(k) if j != c]
        z = (mean[c] - mean[others]) / se
        p = _exact_pvalues(stats, [c] * len(others), others) if exact else _two_sided_normal_p(z)
        adjusted = p.copy() if adjustment == "none" else adjust_finite(p, adjustment, alpha=alpha)
        index = pd.Index([methods[j] for j in others], name="method")
        series = lambda values, name: pd.Series(values, index=index, name=name)  # noqa: E731
        return PosthocResult(test=test, control=control, alpha=alpha, mean_ranks=ranks, z=series(z, "z"),
                             pvalues=series(p, "p_raw"), pvalues_adjusted=series(adjusted, "p_adjusted"),
                             significant=series(adjusted <= alpha, "significant"), critical_difference=cd,
                             n_datasets=n, n_methods=k, standard_error=se, exact=exact, adjust=shown_adjust)
    a, b = np.triu_indices(k, 1)
    z_pairs = (mean[a] - mean[b]) / se
    p_pairs = _exact_pvalues(stats, a, b) if exact else _two_sided_normal_p(z_pairs)
    if test == "nemenyi":
        adjusted_pairs = (adjust_finite(p_pairs, "bonferroni") if exact
                          else _studentized_range_sf(math.sqrt(2.0) * z_pairs, k))
    elif adjustment == "none":
        adjusted_pairs = p_pairs.copy()
    else:
        adjusted_pairs = adjust_finite(p_pairs, adjustment, k, alpha=alpha)
    return PosthocResult(test=test, control=None, alpha=alpha, mean_ranks=ranks,
                         z=pair_matrix(z_pairs, methods, 0.0, antisymmetric=True),
                         pvalues=pair_matrix(p_pairs, methods, np.nan),
                         pvalues_adjusted=pair_matrix(adjusted_pairs, methods, np.nan),
                         significant=pair_matrix(adjusted_pairs <= alpha, methods, False), critical_difference=cd,
                         n_datasets=n, n_methods=k, standard_error=se, exact=exact, adjust=shown_adjust)


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
        ``test="nemenyi"``, k × k ``z``, ``pvalues_adjusted`` (the Nemenyi p-values: the
        studentized-range p, as ``scikit_posthocs.posthoc_nemenyi_friedman``), ``pvalues_raw``
        (the unadjusted z-test p of each pair; also under its former name ``pvalues``),
        ``significant``, ``critical_difference``.

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
    by N (``inf`` when none is).

    Without ties these p-values are exact: they equal the permutation p-value that enumerates
    every dataset's k! orders. Tied ranks (average ranks) give half-integer differences, and
    the untied distribution is used at ⌈|d|⌉ (its exact tail P(D ≥ |d|)). With ties that is
    an approximation and not a bound either way: the exact null then permutes each dataset's
    own average ranks, and its p-value can be larger or smaller than this one, in the tail
    too. For example (higher is better) scores [[2, 1, 0], [1, 1, 0]] give the first and the
    third method p = 0.056 where the permutation p is 0.111, and [[2, 2, 0], [0, 2, 1]] give
    them 0.722 where it is 1. With ties, read an exact p near α as approximate.

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
        apply to k − 1 comparisons; None for raw p). The other tests apply the adjustment they
        name: with them ``adjust`` must be left at "holm" or name that adjustment, and any other
        value raises (it would otherwise be ignored).

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
    test = canonical("test", test, allowed=_CONTROL_TESTS + _OTHER_CONTROL_POSTHOCS)
    _check_exact(exact)
    if test in _OTHER_CONTROL_POSTHOCS:
        return _rank_posthoc(test, scores, direction, exact=exact, adjust=adjust, alpha=alpha,
                             method_names=method_names, control=control)
    _check_adjust_unused(adjust, test)
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
        None for raw p). The other tests apply the adjustment they name (Nemenyi the studentized
        range, Miller its simultaneous χ²): with them ``adjust`` must be left at "holm" or name that
        adjustment, and any other value raises (use ``test="siegel"`` for the Friedman z under
        another adjustment).

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
    test = canonical("test", test, allowed=_ALL_PAIRS_TESTS + _OTHER_POSTHOCS)
    _check_exact(exact)
    if test in _OTHER_POSTHOCS:
        return _rank_posthoc(test, scores, direction, exact=exact, adjust=adjust, alpha=alpha,
                             method_names=method_names)
    _check_adjust_unused(adjust, test)
    stats = _rank_statistics(scores, direction, method_names, what=f"the {test} all-pairs test")
    if test == "bergmann-hommel":
        check_bergmann_hommel(stats.n_methods, argument="test")
    return _posthoc(stats, test, None, alpha, exact=bool(exact))
