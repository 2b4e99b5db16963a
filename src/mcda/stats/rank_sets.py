"""Confidence sets for ranks (Mogstad, Romano, Shaikh & Wilhelm 2024): which places of a ranking are real.

Each method's estimate (its mean score or mean rank over the datasets, or any estimate with a
covariance, such as per-item means) gets a set of ranks that contains its true rank with the
stated confidence, marginally (each method on its own) or simultaneously (all methods at once),
and the set of methods that contains the best (or the τ best) with that confidence.

The construction tests every pairwise difference θ_j − θ_k: a method's rank set runs from one
plus the number of methods confidently above it to the number of methods minus the number
confidently below it. The critical value is the (1 − α) quantile of the largest studentized
difference over the pairs in play, drawn by a parametric bootstrap from N(0, Σ), and pairs are
removed step by step as they are decided (the stepwise refinement of the paper and of its
authors' R package ``csranks``). The means and their covariance over the datasets are one
block → combine → finalize statistic, so a dask-backed cube is read chunk by chunk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from mcda._core.numeric import tie_key, tied
from mcda._core.results import Result, states_scale
from mcda._core.validation import (McdaArgumentError, McdaArgumentTypeError, as_rng, check_choice, check_positive_int,
                                   check_probability, shown)
from mcda.data import blocks as _chunks
from mcda.data.cards import direction_sign
from mcda.data.checks import cube_direction, cube_metric
from mcda.data.design import missing_policy, warn_dropped_datasets, warn_excluded
from mcda.stats._shared.ranks import _ranks_of, prepare_across

__all__ = ["RankConfidenceSets", "rank_confidence_sets", "rank_confidence_sets_from_estimates",
           "rank_confidence_sets_over_items"]
# per-item means read the item cube through the items family's one reading of it
__composes__ = ("items",)

ESTIMATES = ("mean_rank", "mean")
#: Each ``estimate`` in words, as summaries and sentences print it.
ESTIMATE_WORDS = {"mean_rank": "mean rank", "mean": "mean score", "given": "estimate", "item_mean": "mean score"}
_DIRECTIONS = ("higher_is_better", "lower_is_better")


@dataclass(frozen=True, repr=False)
class RankConfidenceSets(Result):
    """Confidence sets for the rank of each method, and the sets that contain the best (top-τ) methods.

    Attributes
    ----------
    estimates : pandas.Series
        Each method's estimate in its own units (the mean score in the metric's direction, or the
        mean rank, 1 = best), by method.
    std_errors : pandas.Series
        √ of the covariance's diagonal.
    covariance : pandas.DataFrame
        The estimated covariance of the estimates (methods × methods).
    ranks : pandas.Series
        The estimated rank (1 = best; tied estimates share the best of their places).
    rank_low, rank_high : pandas.Series
        The ends of each method's rank confidence set {rank_low, …, rank_high}: marginal or
        simultaneous as ``simultaneous`` says.
    rank_low_simultaneous : pandas.Series
        The simultaneous lower ends, which give the top-τ sets (:meth:`top`) whatever
        ``simultaneous`` is.
    best_set : tuple of str
        The methods that may be the best: a set containing every best method with probability
        at least ``confidence_level`` (:meth:`top` with τ = 1).
    estimate : str
        What ranks the methods: "mean_rank", "mean" (score over the datasets), "item_mean" (score
        over the items of one test set, :func:`rank_confidence_sets_over_items`) or "given"
        (:func:`rank_confidence_sets_from_estimates`).
    direction : str
        "higher_is_better" or "lower_is_better": which estimates rank first.
    simultaneous : bool
        Whether ``rank_low`` / ``rank_high`` cover all true ranks at once (else each on its own).
    stepdown : bool
        Whether pairs decided at one step leave the maximum of the next (the stepwise procedure).
    confidence_level : float
    n_resamples : int
        Parametric-bootstrap draws of N(0, Σ) behind every critical value.
    critical_values : tuple of float
        The simultaneous procedure's critical value at each step (the largest first).
    n_datasets : int or None
        Datasets the estimates come from (None for given estimates).
    n_methods : int
    excluded : dict
        Methods (or datasets) left out for missing results, with what they lack.
    metric : str or None
    n_items, n_clusters : int or None
        Over items: the items every method has a score on, and the clusters they fall in (None
        without clusters, and for the other estimates).
    """

    estimates: pd.Series
    std_errors: pd.Series
    covariance: pd.DataFrame
    ranks: pd.Series
    rank_low: pd.Series
    rank_high: pd.Series
    rank_low_simultaneous: pd.Series
    best_set: tuple
    estimate: str
    direction: str
    simultaneous: bool
    stepdown: bool
    confidence_level: float
    n_resamples: int
    critical_values: tuple
    n_datasets: int | None
    n_methods: int
    excluded: dict = field(default_factory=dict)
    metric: str | None = None
    n_items: int | None = None
    n_clusters: int | None = None

    def top(self, tau: int) -> tuple:
        """The methods that may be among the ``tau`` best: a set containing every method whose true rank is
        at most ``tau``, with probability at least ``confidence_level`` (the paper's projection set).

        Examples
        --------
        >>> import mcda
        >>> res = mcda.rank_confidence_sets(mcda.datasets.load("demsar2006"), rng=0)
        >>> res.top(1) == res.best_set
        True
        """
        tau = check_positive_int("tau", tau)
        if tau > self.n_methods:
            raise McdaArgumentError(f"`tau` must be at most the number of methods ({self.n_methods}); got {tau}.",
                                    argument="tau", value=tau)
        keep = self.rank_low_simultaneous.to_numpy() <= tau
        order = np.argsort(self.ranks.to_numpy(), kind="stable")
        return tuple(str(self.ranks.index[j]) for j in order if keep[j])

    def to_frame(self) -> pd.DataFrame:
        """One row per method, best estimate first: ``method, estimate, std_error, rank, rank_low, rank_high,
        in_best_set``."""
        frame = pd.DataFrame({"method": [str(m) for m in self.estimates.index],
                              "estimate": self.estimates.to_numpy(float),
                              "std_error": self.std_errors.to_numpy(float),
                              "rank": self.ranks.to_numpy(np.int64),
                              "rank_low": self.rank_low.to_numpy(np.int64),
                              "rank_high": self.rank_high.to_numpy(np.int64),
                              "in_best_set": [str(m) in self.best_set for m in self.estimates.index]})
        order = np.lexsort((frame["rank_high"].to_numpy(), frame["rank"].to_numpy()))
        return frame.iloc[order].reset_index(drop=True)

    def _kind(self) -> str:
        return "simultaneous" if self.simultaneous else "marginal"

    @property
    def what(self) -> str:
        """The estimate in words ("mean rank over 14 datasets")."""
        over = f" over {self.n_datasets} datasets" if self.n_datasets is not None else ""
        if self.n_items is not None:
            over = f" over {self.n_items} items" + (f" in {self.n_clusters} clusters" if self.n_clusters else "")
        return ESTIMATE_WORDS[self.estimate] + over

    def summary(self) -> str:
        level = f"{100 * self.confidence_level:g}%"
        lines = [f"{level} {self._kind()} confidence sets for the ranks of {self.n_methods} methods, from each "
                 f"method's {self.what} (Mogstad, Romano, Shaikh & Wilhelm 2024; "
                 f"{'stepwise' if self.stepdown else 'single-step'}, {self.n_resamples} parametric-bootstrap "
                 "draws)"]
        frame = self.to_frame()
        width = max(len("method"), *(len(m) for m in frame["method"]))
        lines.append(f"  {'method':<{width}}  {'estimate':>10}  {'std_error':>10}  {'rank':>4}  {'rank set':>11}")
        for row in frame.itertuples(index=False):
            rank_set = f"{row.rank_low}–{row.rank_high}" if row.rank_low < row.rank_high else f"{row.rank_low}"
            lines.append(f"  {row.method:<{width}}  {row.estimate:10.4g}  {row.std_error:10.4g}  {row.rank:>4}  "
                         f"{rank_set:>11}")
        lines.append(f"  may be the best ({level}): {shown(self.best_set, 12, fmt=str)}")
        lines.append(f"  places that are certain: {self.n_certain} of {self.n_methods}")
        if self.excluded:
            lines.append(f"  excluded (missing results): {shown(list(self.excluded), fmt=str)}")
        return "\n".join(lines)

    @property
    def n_certain(self) -> int:
        """Methods whose rank set is a single rank."""
        return int(np.count_nonzero(self.rank_low.to_numpy() == self.rank_high.to_numpy()))


# --------------------------------------------------------------------------- the construction

def _pair_statistics(theta: np.ndarray, covariance: np.ndarray):
    """Differences d_jk = θ_j − θ_k, their standard deviations s_jk, and which pairs are exact (s_jk = 0)."""
    variances = np.diag(covariance)
    var_diff = variances[:, None] + variances[None, :] - 2.0 * covariance
    scale = variances[:, None] + variances[None, :]
    exact = tied(var_diff, 0.0, scale=np.where(scale > 0, scale, 1.0)) | (var_diff <= 0)
    sd = np.sqrt(np.where(exact, 1.0, var_diff))
    diff = theta[:, None] - theta[None, :]
    diff = np.where(tied(theta[:, None], theta[None, :]), 0.0, diff)
    return diff, sd, exact


def _draws(theta, covariance, n_resamples, rng) -> np.ndarray:
    """n_resamples × k draws of N(0, Σ): standard normals assigned to the methods in the order of their
    estimates (then variances), times the symmetric square root of Σ, so that the draws follow the
    methods whatever their order or names."""
    values, vectors = np.linalg.eigh(covariance)
    root = (vectors * np.sqrt(np.clip(values, 0.0, None))) @ vectors.T
    variances = np.diag(covariance)
    # by the rounded keys, so that a reordering of the datasets (which moves the means by rounding) changes nothing
    order = np.lexsort((tie_key(variances / max(float(variances.max()), np.finfo(float).tiny)), tie_key(-theta)))
    normals = rng.standard_normal((n_resamples, theta.size))
    placed = np.empty_like(normals)
    placed[:, order] = normals
    return placed @ root


def _max_statistic(z: np.ndarray, inv_sd: np.ndarray, active: np.ndarray) -> np.ndarray:
    """Per draw: max over the active ordered pairs (j, k) of (Z_j − Z_k) / s_jk."""
    out = np.full(z.shape[0], -np.inf)
    for j in np.nonzero(active.any(axis=1))[0]:
        ks = np.nonzero(active[j])[0]
        np.maximum(out, ((z[:, j:j + 1] - z[:, ks]) * inv_sd[j, ks]).max(axis=1), out=out)
    return out


def _stepwise(t_obs, exact_above, active, z, inv_sd, level, stepdown):
    """Reject the ordered pairs (j above k) whose t exceeds the critical value, step by step.

    Returns the rejected pairs (a boolean k × k matrix, True at (j, k) when j is confidently above k)
    and the critical value of each step."""
    rejected = exact_above.copy()
    active = active.copy()
    critical = []
    while active.any():
        c = float(np.quantile(_max_statistic(z, inv_sd, active), level))
        critical.append(c)
        new = active & (t_obs > c)
        if not new.any():
            break
        rejected |= new
        active &= ~new
        if not stepdown:
            break
    return rejected, tuple(critical)


def _rank_sets(theta, covariance, *, simultaneous, stepdown, level, n_resamples, rng):
    """(ranks, rank_low, rank_high, rank_low_simultaneous, critical values) of oriented estimates θ."""
    k = theta.size
    diff, sd, exact = _pair_statistics(theta, covariance)
    off = ~np.eye(k, dtype=bool)
    t_obs = np.where(exact, np.where(diff > 0, np.inf, np.where(diff < 0, -np.inf, 0.0)), diff / sd)
    exact_above = off & exact & (diff > 0)
    active = off & ~exact
    z = _draws(theta, covariance, n_resamples, rng)
    inv_sd = 1.0 / sd
    rejected, critical = _stepwise(t_obs, exact_above, active, z, inv_sd, level, stepdown)
    low_simultaneous = 1 + rejected.sum(axis=0)            # methods confidently above j
    high_simultaneous = k - rejected.sum(axis=1)           # k minus methods confidently below j
    if simultaneous:
        low, high = low_simultaneous, high_simultaneous
    else:  # each method's own family: the pairs it is in
        low, high = np.empty(k, dtype=np.int64), np.empty(k, dtype=np.int64)
        for i in range(k):
            mine = np.zeros((k, k), dtype=bool)
            mine[i, :] = mine[:, i] = True
            rej_i, _ = _stepwise(t_obs, exact_above & mine, active & mine, z, inv_sd, level, stepdown)
            low[i], high[i] = 1 + rej_i[:, i].sum(), k - rej_i[i, :].sum()
    ranks = 1 + (diff < 0).sum(axis=1)                     # 1 + methods with a strictly larger estimate
    return ranks, low, high, low_simultaneous, critical


def _check_options(confidence_level, n_resamples, simultaneous, stepdown, rng):
    level = check_probability("confidence_level", confidence_level)
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    for name, value in (("simultaneous", simultaneous), ("stepdown", stepdown)):
        if not isinstance(value, (bool, np.bool_)):
            raise McdaArgumentTypeError(f"`{name}` must be True or False; got {value!r}.", argument=name, value=value)
    return level, n_resamples, bool(simultaneous), bool(stepdown), as_rng(rng)


def _result(methods, values, covariance, *, direction, estimate, level, n_resamples, simultaneous, stepdown,
            gen, n_datasets, excluded, metric, n_items=None, n_clusters=None) -> RankConfidenceSets:
    from mcda._core.options import check_count_allocation

    k = len(methods)
    check_count_allocation("n_resamples", n_resamples, 3 * 8 * k,
                           f"keeps n_resamples × {k} normal draws and their differences")
    theta = direction_sign(direction) * values     # oriented: higher ranks first
    ranks, low, high, low_simultaneous, critical = _rank_sets(theta, covariance, simultaneous=simultaneous,
                                                             stepdown=stepdown, level=level,
                                                             n_resamples=n_resamples, rng=gen)
    index = pd.Index(methods, name="method")
    series = lambda v, name: pd.Series(np.asarray(v, dtype=np.int64), index=index, name=name)  # noqa: E731
    return RankConfidenceSets(
        estimates=pd.Series(values, index=index, name="estimate"),
        std_errors=pd.Series(np.sqrt(np.clip(np.diag(covariance), 0.0, None)), index=index, name="std_error"),
        covariance=pd.DataFrame(covariance, index=index, columns=pd.Index(methods, name="method")),
        ranks=series(ranks, "rank"), rank_low=series(low, "rank_low"), rank_high=series(high, "rank_high"),
        rank_low_simultaneous=series(low_simultaneous, "rank_low_simultaneous"),
        best_set=tuple(methods[j] for j in np.lexsort((theta * -1.0, ranks)) if low_simultaneous[j] == 1),
        estimate=estimate, direction=direction, simultaneous=simultaneous, stepdown=stepdown,
        confidence_level=level, n_resamples=n_resamples, critical_values=critical, n_datasets=n_datasets,
        n_methods=k, excluded=excluded, metric=metric, n_items=n_items, n_clusters=n_clusters)


def rank_confidence_sets_from_estimates(estimates, covariance, direction: str = "higher_is_better", *,
                                        simultaneous: bool = True, confidence_level: float = 0.95,
                                        n_resamples: int = 1000, stepdown: bool = True,
                                        rng=None) -> RankConfidenceSets:
    """Confidence sets for ranks from estimates and their covariance (per-item means, published scores, …).

    Parameters
    ----------
    estimates : pandas.Series
        One finite estimate per method, indexed by unique method names.
    covariance : pandas.DataFrame
        The estimates' covariance (symmetric, positive semi-definite), indexed and labelled by the
        same methods (in any order).
    direction : {"higher_is_better", "lower_is_better"}
        Which estimates rank first.
    simultaneous, confidence_level, n_resamples, stepdown, rng
        As in :func:`rank_confidence_sets`.

    Returns
    -------
    RankConfidenceSets
        With ``estimate="given"`` and ``n_datasets=None``.

    Raises
    ------
    ValueError
        Estimates that are not finite or not uniquely labelled, a covariance that is not a
        finite symmetric positive semi-definite matrix over the same methods, fewer than 2
        methods, and bad options.

    Examples
    --------
    csranks' simulated example: ten populations 0.1 apart, each estimated with standard error 0.1.

    >>> import numpy as np, pandas as pd
    >>> names = [f"m{j}" for j in range(1, 11)]
    >>> est = pd.Series(np.arange(1, 11) / 10, index=names)
    >>> cov = pd.DataFrame(np.eye(10) / 100, index=names, columns=names)
    >>> res = rank_confidence_sets_from_estimates(est, cov, rng=0)
    >>> res.rank_low.tolist(), res.rank_high.tolist()
    ([6, 5, 4, 3, 2, 1, 1, 1, 1, 1], [10, 10, 10, 10, 10, 9, 8, 7, 6, 5])
    >>> res.best_set
    ('m10', 'm9', 'm8', 'm7', 'm6')
    """
    level, n_resamples, simultaneous, stepdown, gen = _check_options(confidence_level, n_resamples, simultaneous,
                                                                     stepdown, rng)
    direction = check_choice("direction", direction, _DIRECTIONS)
    methods, values, cov = _check_estimates(estimates, covariance)
    return _result(methods, values, cov, direction=direction, estimate="given", level=level,
                   n_resamples=n_resamples, simultaneous=simultaneous, stepdown=stepdown, gen=gen, n_datasets=None,
                   excluded={}, metric=None)


def _check_estimates(estimates, covariance):
    if not isinstance(estimates, pd.Series):
        raise McdaArgumentTypeError(f"`estimates` must be a pandas Series indexed by method; got "
                                    f"{type(estimates).__name__}.", argument="estimates")
    if not isinstance(covariance, pd.DataFrame):
        raise McdaArgumentTypeError(f"`covariance` must be a pandas DataFrame indexed and labelled by method; got "
                                    f"{type(covariance).__name__}.", argument="covariance")
    methods = [str(m) for m in estimates.index]
    if len(set(methods)) != len(methods) or len(methods) < 2:
        raise McdaArgumentError(f"`estimates` must name at least 2 methods, each once; got {shown(methods)}.",
                                argument="estimates", value=methods)
    values = pd.to_numeric(estimates, errors="coerce").to_numpy(dtype=float)
    if not np.isfinite(values).all():
        bad = [m for m, v in zip(methods, values) if not np.isfinite(v)]
        raise McdaArgumentError(f"`estimates` must be finite numbers; got {shown(bad)} without one.",
                                argument="estimates", value=bad)
    rows, cols = [str(m) for m in covariance.index], [str(m) for m in covariance.columns]
    if sorted(rows) != sorted(methods) or sorted(cols) != sorted(methods):
        raise McdaArgumentError(f"`covariance` must be indexed and labelled by the methods of `estimates` "
                                f"({shown(methods)}); got rows {shown(rows)} and columns {shown(cols)}.",
                                argument="covariance", allowed=methods)
    frame = covariance.copy()
    frame.index, frame.columns = rows, cols
    cov = frame.loc[methods, methods].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    if not np.isfinite(cov).all():
        raise McdaArgumentError("`covariance` must be finite numbers; got NaN or infinite entries.",
                                argument="covariance")
    scale = max(float(np.abs(cov).max()), np.finfo(float).tiny)
    if not np.allclose(cov, cov.T, rtol=0.0, atol=1e-10 * scale):
        raise McdaArgumentError("`covariance` must be symmetric; got entries (j, k) and (k, j) that differ.",
                                argument="covariance")
    cov = (cov + cov.T) / 2
    smallest = float(np.linalg.eigvalsh(cov).min())
    if smallest < -1e-9 * scale:
        raise McdaArgumentError(f"`covariance` must be positive semi-definite; got an eigenvalue of {smallest:.3g}.",
                                argument="covariance", value=smallest)
    return methods, values, cov


# --------------------------------------------------------------------------- from a score cube
# block: the complete rows of a slab -> (n, mean, co-moment matrix); combine: Chan et al.'s update.

def _moments_block(values: np.ndarray, offset: int):
    rows = values[~np.isnan(values).any(axis=1)]
    n = rows.shape[0]
    mean = rows.mean(axis=0) if n else np.zeros(values.shape[1])
    centred = rows - mean
    return n, mean, centred.T @ centred


def _combine_moments(a, b):
    na, ma, ca = a
    nb, mb, cb = b
    n = na + nb
    if n == 0:
        return a
    delta = mb - ma
    return n, ma + delta * (nb / n), ca + cb + np.outer(delta, delta) * (na * nb / n)


@states_scale
def rank_confidence_sets(scores, direction=None, *, estimate: str = "mean_rank", simultaneous: bool = True,
                         confidence_level: float = 0.95, n_resamples: int = 1000, stepdown: bool = True,
                         rng=None, method_names=None, missing: str = "methods") -> RankConfidenceSets:
    """Confidence sets for each method's rank across datasets, and the set of methods that may be the best.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` (one score per dataset and method)
        A lazy cube (:func:`mcda.store.open_cube`) is reduced chunk by chunk.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    estimate : {"mean_rank", "mean"}
        What ranks the methods: the mean of the ranks within datasets (default: the quantity of
        the Friedman test and the critical-difference diagram, free of the datasets' scales) or
        the mean score, each with its covariance estimated from the datasets.
    simultaneous : bool
        True (default): the sets cover every method's true rank at once with probability
        ``confidence_level``; False: each method's set covers its own rank with that probability.
    confidence_level : float
    n_resamples : int
        Parametric-bootstrap draws for each critical value (default 1000, as ``csranks``).
    stepdown : bool
        Remove the pairs decided at one step from the maximum of the next (default, as ``csranks``;
        never wider than the single step).
    rng : numpy.random.Generator or seed, optional
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.
    missing : {"methods", "datasets"}
        Which incomplete part is dropped and named: the incomplete methods (default) or the
        incomplete datasets.

    Returns
    -------
    RankConfidenceSets
        ``estimates``, ``std_errors``, ``covariance``, ``ranks``, ``rank_low``, ``rank_high``,
        ``rank_low_simultaneous``, ``best_set``, ``critical_values`` and the settings;
        ``to_frame()`` gives ``method, estimate, std_error, rank, rank_low, rank_high,
        in_best_set``; ``top(tau)`` the methods that may be among the τ best.

    Raises
    ------
    ValueError
        Bad options, a ``seed`` dim (reduce it first), fewer than 2 complete datasets.

    Notes
    -----
    With θ̂ the estimates (oriented: higher first) and Σ̂ = S / n their covariance (S the
    covariance of the n datasets' rows), every ordered pair (j, k) has
    t_jk = (θ̂_j − θ̂_k) / s_jk, s_jk² = Σ̂_jj + Σ̂_kk − 2 Σ̂_jk. For a family I of pairs the
    critical value c_I is the ``confidence_level`` quantile of max_{(j,k)∈I} (Z_j − Z_k) / s_jk
    over ``n_resamples`` draws Z ~ N(0, Σ̂), and the pairs with t_jk > c_I are rejected ("j is
    above k"); with ``stepdown`` the rejected pairs leave I and c is recomputed until nothing
    more is rejected (Romano & Wolf's step-down; csranks' ``stepdown=TRUE``). A method's set is
    {1 + #methods above it, …, k − #methods below it}. Simultaneous sets use every pair at once;
    the marginal set of method j uses only the pairs with j. The set that may hold the τ best is
    {j : simultaneous lower end ≤ τ} (the paper's projection set for the τ-best; ``best_set`` is
    τ = 1). Pairs whose difference has zero estimated variance are ordered without error (or tied).

    The guarantee is asymptotic: θ̂ − θ ≈ N(0, Σ), which needs enough datasets for the means
    and their covariance (the datasets are taken as independent draws from a population of
    datasets; the true rank is that of the population mean). Mean ranks depend on the pool of
    methods compared, as every rank statistic does. The same draws serve every step and every
    method's marginal set (csranks re-seeds each method's set alike), so a result is a function
    of ``rng``; the critical value varies with the draws by about its Monte Carlo error.

    References
    ----------
    Mogstad, M., Romano, J. P., Shaikh, A. M. & Wilhelm, D. (2024). Inference for ranks with
    applications to mobility across neighbourhoods and academic achievement across countries.
    Review of Economic Studies 91(1):476–518. https://doi.org/10.1093/restud/rdad006

    Examples
    --------
    >>> import mcda
    >>> res = mcda.rank_confidence_sets(mcda.datasets.load("demsar2006"), rng=0)
    >>> res.to_frame()[["method", "rank", "rank_low", "rank_high"]].values.tolist()[0]
    ['C4.5+m+cf', 1, 1, 3]
    """
    estimate = check_choice("estimate", estimate, ESTIMATES)
    level, n_resamples, simultaneous, stepdown, gen = _check_options(confidence_level, n_resamples, simultaneous,
                                                                     stepdown, rng)
    missing = missing_policy(missing, allowed=("methods", "datasets"))
    prep = prepare_across(scores, direction, method_names=method_names, missing=missing,
                          ways_out="missing_no_available")
    warn_excluded(prep.excluded, "the rank confidence sets")
    warn_dropped_datasets(prep.excluded_datasets, "the rank confidence sets")
    mapper = _ranks_of if estimate == "mean_rank" else None
    n, mean, comoment = _chunks.reduce(prep.cube, _moments_block, _combine_moments, columns=prep.columns,
                                       mapper=mapper)
    if n < 2 or len(prep.methods) < 2:
        raise McdaArgumentError(f"rank_confidence_sets estimates a covariance over datasets and needs at least 2 "
                                f"complete datasets and 2 methods; got {n} and {len(prep.methods)}.",
                                argument="scores")
    covariance = comoment / (n - 1) / n
    cube_dir = cube_direction(prep.cube)
    if estimate == "mean_rank":
        values, direction_out = mean, "lower_is_better"
    else:  # the oriented cube's means, back in the metric's own direction
        values, direction_out = direction_sign(cube_dir) * mean, cube_dir
    return _result(list(prep.methods), np.asarray(values, dtype=float), covariance, direction=direction_out,
                   estimate=estimate, level=level, n_resamples=n_resamples, simultaneous=simultaneous,
                   stepdown=stepdown, gen=gen, n_datasets=int(n), excluded=prep.excluded,
                   metric=cube_metric(prep.cube))


# --------------------------------------------------------------------------- from the items of one test set

def item_covariance(values: np.ndarray, clusters: np.ndarray | None) -> np.ndarray:
    """The cluster-robust (CR1) covariance of the per-method means of ``values`` (items × methods).

    ``G/(G − 1) · Σ_g S_g S_gᵀ / n²`` with S_g the sum over cluster g's items of the deviations
    from the means (G clusters, n items); without clusters every item is its own cluster, which
    gives the sample covariance over n (numpy's ``cov / n``). The variance of one mean is the
    items family's :func:`mcda.stats.items.means.cluster_variance`.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0, 0.0], [0.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> bool(np.allclose(item_covariance(x, None), np.cov(x, rowvar=False) / 4))
    True
    """
    n = values.shape[0]
    centred = values - values.mean(axis=0)
    if clusters is None:
        sums, g = centred, n
    else:
        codes, g = np.unique(clusters, return_inverse=True)[1], int(np.unique(clusters).size)
        sums = np.zeros((g, values.shape[1]))
        np.add.at(sums, codes, centred)
    return g / (g - 1.0) * (sums.T @ sums) / (n * n)


@states_scale
def rank_confidence_sets_over_items(scores, direction=None, *, simultaneous: bool = True,
                                    confidence_level: float = 0.95, n_resamples: int = 1000, stepdown: bool = True,
                                    rng=None, metric=None, method_names=None) -> RankConfidenceSets:
    """Confidence sets for each method's rank on one test set, from its per-item mean scores.

    Parameters
    ----------
    scores : an item cube (:func:`mcda.score_cube` of a table with an item column)
        One dataset (test set), one score per (method, item); a ``cluster`` coordinate on
        ``item`` (passages, prompts of one template, …) makes the covariance cluster-robust.
    direction : {"higher_is_better", "lower_is_better"}, optional
    simultaneous, confidence_level, n_resamples, stepdown, rng
        As in :func:`rank_confidence_sets`.
    metric, method_names : optional
        As in :func:`mcda.score_cube`.

    Returns
    -------
    RankConfidenceSets
        With ``estimate="item_mean"``, ``n_items`` and ``n_clusters``; ``estimates`` are the
        mean scores in the metric's own units.

    Raises
    ------
    ValueError
        Scores without an ``item`` dim, with several datasets or a ``sample`` dim, fewer than 2
        items (or clusters) every method has a score on, and bad options.

    Warns
    -----
    MissingDataWarning
        When items some method lacks are left out (the covariance needs every method on the
        same items).

    Notes
    -----
    The estimates are the methods' mean scores over the items every method has, and their
    covariance :func:`item_covariance` (CR1: G/(G − 1) times the outer products of the
    clusters' summed deviations, over n²). The sets are then those of
    :func:`rank_confidence_sets_from_estimates`; the guarantee is asymptotic in the number of
    clusters (items, without clusters).

    Examples
    --------
    >>> import numpy as np, xarray as xr, mcda
    >>> gen = np.random.default_rng(0)
    >>> correct = (gen.uniform(size=(1, 3, 400)) < np.array([0.6, 0.7, 0.9])[None, :, None]).astype(float)
    >>> cube = mcda.score_cube(xr.DataArray(correct, dims=("dataset", "method", "item"),
    ...                                      coords={"dataset": ["test"], "method": ["a", "b", "c"],
    ...                                              "item": np.arange(400)}), metric="accuracy")
    >>> res = mcda.rank_confidence_sets_over_items(cube, rng=0)
    >>> res.best_set, res.what
    (('c',), 'mean score over 400 items')
    """
    from mcda._core.validation import MissingDataWarning, warn
    from mcda.stats.items.design import prepare_items

    level, n_resamples, simultaneous, stepdown, gen = _check_options(confidence_level, n_resamples, simultaneous,
                                                                     stepdown, rng)
    design = prepare_items(scores, direction, metric=metric, method_names=method_names,
                           what="rank_confidence_sets_over_items")
    if len(design.datasets) != 1 or design.has_samples:
        raise McdaArgumentError(f"rank_confidence_sets_over_items ranks the methods on one test set from one score per "
                                f"(method, item); got {len(design.datasets)} datasets"
                                + (" and a 'sample' dim" if design.has_samples else "")
                                + ": select one dataset (mcda.select) and reduce the samples first.",
                                argument="scores")
    values = np.asarray(design.cube.values, dtype=float)[0].T          # items × methods
    complete = ~np.isnan(values).any(axis=1)
    clusters = None if design.clusters is None else design.clusters[complete]
    if not complete.all():
        warn(f"{int((~complete).sum())} of {complete.size} items lack a score for some method and are left out of "
             "the rank confidence sets (the covariance needs every method on the same items)", MissingDataWarning)
    values = values[complete]
    n_groups = values.shape[0] if clusters is None else int(np.unique(clusters).size)
    if n_groups < 2 or len(design.methods) < 2:
        raise McdaArgumentError(f"rank_confidence_sets_over_items needs 2 methods on at least 2 items (clusters) they "
                                f"all have; got {len(design.methods)} methods and {n_groups}.", argument="scores")
    return _result(list(design.methods), values.mean(axis=0), item_covariance(values, clusters),
                   direction=design.direction, estimate="item_mean", level=level, n_resamples=n_resamples,
                   simultaneous=simultaneous, stepdown=stepdown, gen=gen, n_datasets=None, excluded={},
                   metric=design.metric, n_items=int(values.shape[0]),
                   n_clusters=None if clusters is None else n_groups)
