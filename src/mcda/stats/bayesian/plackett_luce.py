"""The Bayesian Plackett–Luce model of the per-dataset rankings of every method (Calvo et al. 2018)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mcda._core.numeric import rank
from mcda._core.results import Result, states_scale
from mcda._core.validation import MAX_SEED, check_choice, check_probability, McdaArgumentError
from mcda.data.blocks import require_in_memory
from mcda.data.cube import orient, single_score_cube
from mcda.stats.bayesian._shared import _check_chains, _check_positive_float, _pairs, _Progress

__all__ = ["PlackettLuceResult", "plackett_luce"]

#: CPU seconds per chain, draw, ranking and squared method count: an upper bound of what the
#: sampler takes (6.4-7.8 ns measured at 20 and 60 methods on one core); the estimate of check_compute.
SECONDS_PER_STEP = 1e-8

# --------------------------------------------------------------------------- Plackett-Luce

TIES_PL = ("latent", "random", "refuse")


@dataclass(frozen=True, repr=False)
class PlackettLuceResult(Result):
    """The Bayesian Plackett–Luce model of the per-dataset rankings (Calvo et al. 2018).

    Attributes
    ----------
    methods : list of str
    table : pandas.DataFrame
        One row per method (see :meth:`to_frame`).
    rank_probabilities : pandas.DataFrame
        Methods × ranks 1..k: the posterior probability that the method's worth is the r-th
        largest (rank 1 = best; rows and columns sum to 1).
    pairs : pandas.DataFrame
        One row per pair: ``method_a, method_b``, ``prob_a_above_b`` (posterior mean of
        θ_a / (θ_a + θ_b), the probability that a ranks above b on a new dataset),
        ``ci_low, ci_high`` (its credible interval), ``prob_a_worth_higher`` (posterior
        probability that θ_a > θ_b).
    diagnostics : pandas.DataFrame
        Per method: ``rhat, ess_bulk, ess_tail`` of its worth.
    order : list of str
        The methods by decreasing posterior mean worth.
    n_rankings : int
        Datasets with at least two results (each gives one, possibly partial, ranking).
    n_tied_rankings : int
        Rankings with tied scores.
    ties : {"latent", "random", "refuse"}
    prior_strength : float
        α of the Dirichlet(α, …, α) prior on the normalised worths.
    n_chains, n_samples, n_warmup : int
    confidence_level : float
    direction : str
    reason : str
        Why the probabilities are NaN (chains not converged), else empty.
    draws : ndarray or None
        (n_chains · n_samples, k): the normalised worths per draw.
    """

    methods: list
    table: pd.DataFrame
    rank_probabilities: pd.DataFrame
    pairs: pd.DataFrame
    diagnostics: pd.DataFrame
    order: list
    n_rankings: int
    n_tied_rankings: int
    ties: str
    prior_strength: float
    n_chains: int
    n_samples: int
    n_warmup: int
    confidence_level: float
    direction: str
    reason: str = ""
    draws: np.ndarray | None = None

    def to_frame(self) -> pd.DataFrame:
        """One row per method, in the input's order.

        Columns: ``method``, ``n_datasets`` (rankings it appears in), ``worth`` (posterior
        mean of its normalised Plackett–Luce worth θ: the probability that it ranks first
        on a new dataset, Calvo et al.'s "expected probability of winning"),
        ``worth_ci_low, worth_ci_high`` (equal-tailed credible interval), ``worth_mode``
        (the posterior mode; with ``prior_strength=1`` the maximum-likelihood worths; NaN
        when tied rankings are treated as latent orders),
        ``prob_best`` (posterior probability that its worth is the largest), ``expected_rank``
        (posterior mean of the rank of its worth, 1 = best).
        """
        return self.table.copy()

    def summary(self) -> str:
        shown = self.table.set_index("method").loc[self.order,
                                                   ["worth", "worth_ci_low", "worth_ci_high", "prob_best",
                                                    "expected_rank"]].round(4)
        head = (f"Bayesian Plackett-Luce model (Calvo et al. 2018; {self.n_chains} chains x {self.n_samples} "
                f"Gibbs draws); {self.n_rankings} rankings ({self.n_tied_rankings} with ties, "
                f"ties={self.ties!r}); Dirichlet({self.prior_strength:g}) prior; {self.direction}")
        lines = [head, shown.to_string()]
        if self.reason:
            lines.append(f"note: {self.reason}")
        return "\n".join(lines)


def _rankings(values: np.ndarray, datasets):
    """Per dataset: the present methods best first, and the tie groups (ids equal within a tie)."""
    from mcda._core.numeric import score_tolerance

    out = []
    for d in range(values.shape[0]):
        present = np.nonzero(~np.isnan(values[d]))[0]
        if present.size < 2:
            continue
        order = present[np.argsort(-values[d, present], kind="stable")]
        sorted_values = values[d, order]
        gaps = np.abs(np.diff(sorted_values))
        tol = score_tolerance(np.maximum(np.abs(sorted_values[:-1]), np.abs(sorted_values[1:])))
        groups = np.concatenate(([0], np.cumsum(gaps > tol)))
        out.append((datasets[d], order.astype(np.int64), groups))
    return out


def _flatten(rankings, gen=None):
    """``order`` and ``offsets`` for the kernels, and the tie groups (start, stop, ranking) in ``order``.

    With ``gen``, tied items are shuffled within their group (a random breaking)."""
    parts, offsets, starts, stops, owners = [], [0], [], [], []
    for r, (_, order, groups) in enumerate(rankings):
        if gen is not None and groups[-1] < order.size - 1:
            keys = groups + gen.random(order.size) * 0.5  # random order inside a group, groups kept in place
            order = order[np.argsort(keys, kind="stable")]
        bounds = np.concatenate(([0], np.nonzero(np.diff(groups))[0] + 1, [order.size]))
        for a, b in zip(bounds[:-1], bounds[1:]):
            if b - a > 1:
                starts.append(offsets[-1] + a)
                stops.append(offsets[-1] + b)
                owners.append(r)
        parts.append(order)
        offsets.append(offsets[-1] + order.size)
    order = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    as_int = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
    return (np.ascontiguousarray(order, dtype=np.int64), as_int(offsets), as_int(starts), as_int(stops),
            as_int(owners))


@states_scale
def plackett_luce(scores, direction=None, *, prior_strength: float = 1.0, ties: str = "latent",
                  confidence_level: float = 0.95, n_chains: int = 4, n_samples: int = 2000, n_warmup: int = 500,
                  rng=None, keep_draws: bool = True, progress=None, method_names=None) -> PlackettLuceResult:
    r"""Bayesian Plackett–Luce model of the methods' rankings over datasets (Calvo et al. 2018).

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method). Each dataset gives the ranking of the methods with
        a result there; a missing cell leaves the method out of that dataset's ranking (a
        partial ranking; nothing is imputed). Datasets with fewer than two results give none.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    prior_strength : float
        α of the symmetric Dirichlet prior on the normalised worths (> 0; 1 = uniform on the
        simplex, Calvo et al.'s default, under which the posterior mode is the
        maximum-likelihood estimate).
    ties : {"latent", "random", "refuse"}
        The Plackett–Luce model has no ties. ``"latent"`` (default): a tie is an unobserved
        order of the tied methods; the sampler draws it (a Metropolis step per tie group),
        so the posterior is that of the tied rankings, whose likelihood sums over the orders
        the tie allows. ``"random"``: break every tie once in a uniformly random order
        (scmamp's advice for ``bPlackettLuce``; the result then depends on ``rng``).
        ``"refuse"``: raise when a dataset has tied scores. Scores tie when they differ by
        less than the rounding of one subtraction (:mod:`mcda._core.numeric`). With ties a
        ``TiesWarning`` says how many rankings had them.
    confidence_level : float
        Of the credible intervals.
    n_chains, n_samples, n_warmup : int
        Markov chains, draws kept per chain, draws discarded per chain.
    rng : numpy.random.Generator or seed, optional
        Source of the chains' seeds and of the tie breaking.
    keep_draws : bool
        Keep the worth draws in ``draws``.
    progress : bool, optional
        Progress on stderr: None (default) when the run will take more than about 2 s.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    PlackettLuceResult
        ``to_frame()`` per method (``worth``, its interval and mode, ``prob_best``,
        ``expected_rank``), ``rank_probabilities``, ``pairs`` (P(a ranks above b) with
        intervals), ``diagnostics``, ``order``.

    Raises
    ------
    ValueError
        Scores with a seed dim, fewer than two rankings, ties with ``ties="refuse"``, an
        unknown ``ties``, non-positive sizes or prior strength; before sampling, an estimate
        (chains × draws × rankings × methods² × :data:`SECONDS_PER_STEP`) over
        ``mcda.get_options()["compute_limit"]`` (argument ``n_samples``).

    Notes
    -----
    Under the Plackett–Luce model a dataset's ranking o_1 ≻ o_2 ≻ … ≻ o_m of the methods
    with a result has probability

    .. math:: P(o \mid \theta) = \prod_{j=1}^{m-1} \frac{\theta_{o_j}}{\sum_{l \ge j} \theta_{o_l}},

    θ the normalised worths (θ_k is the probability that k ranks first; θ_a / (θ_a + θ_b)
    that a ranks above b, whatever the other methods). The prior is Dirichlet(α, …, α).
    The posterior is sampled with Caron & Doucet's (2012) Gibbs sampler (gamma worths,
    one exponential latent variable per stage of every ranking, and a scale move;
    ``mcda._core._kernels.plackett_luce``); the mode by Hunter's (2004) MM algorithm. The
    probabilities are NaN with a ``reason`` when any worth's rank-normalised split R-hat
    exceeds 1.01 or its bulk or tail ESS is below 400 (Vehtari et al. 2021); larger
    ``n_samples`` (and ``n_warmup``) then may converge. Each sweep also moves the scale of the
    lower-ranked methods against the others and updates the order inside every tie by
    Metropolis steps (``mcda._core._kernels.plackett_luce``): with the Gibbs step alone, 20 datasets
    of 50 methods with ties gave R-hat 1.4. The chains run on up to
    ``numba.get_num_threads()`` threads, each from its own seed: the same draws on any number.

    The model uses only the order within each dataset, not the size of the differences,
    and it assumes the independence of irrelevant alternatives (removing a method does
    not change the odds between the others); conclusions are about this set of methods.

    References
    ----------
    .. [1] Calvo, B., Ceberio, J. and Lozano, J. A. (2018). Bayesian inference for algorithm
       ranking analysis. GECCO '18 Companion, 324-325. https://doi.org/10.1145/3205651.3205658
    .. [2] Caron, F. and Doucet, A. (2012). Efficient Bayesian inference for generalized
       Bradley-Terry models. Journal of Computational and Graphical Statistics 21(1):174-196.
       https://doi.org/10.1080/10618600.2012.638220
    .. [3] Hunter, D. R. (2004). MM algorithms for generalized Bradley-Terry models. The
       Annals of Statistics 32(1):384-406. https://doi.org/10.1214/aos/1079120141

    Examples
    --------
    >>> from mcda import datasets, plackett_luce
    >>> result = plackett_luce(datasets.load("demsar2006"), rng=0)
    >>> result.order[0]
    'C4.5+m+cf'
    """
    from mcda._core.mcmc import ESS_FLOOR, RHAT_MAX, ess_bulk, ess_tail, split_rhat
    from mcda._core.validation import TiesWarning, warn

    prior_strength = _check_positive_float("prior_strength", prior_strength)
    check_choice("ties", ties, TIES_PL)
    confidence_level = check_probability("confidence_level", confidence_level, closed="neither")
    n_chains, n_samples, n_warmup, gen, progress = _check_chains(n_chains, n_samples, n_warmup, rng, progress,
                                                                 keep_draws)
    cube = single_score_cube(scores, direction, method_names=method_names, what="the Plackett-Luce model")
    require_in_memory(cube, "mcda.plackett_luce", reason="its sampler visits every ranking in every sweep",
                      instead="load the cube (cube.load())")
    methods = [str(m) for m in cube.coords["method"].values]
    datasets = [str(d) for d in cube.coords["dataset"].values]
    k = len(methods)
    from mcda._core.options import check_count_allocation

    # the draws (chains × n_samples × k), their reordered copy and the two argsorts of the rank probabilities
    check_count_allocation("n_samples", n_samples, 4 * 8 * n_chains * k,
                           f"keeps {n_chains} chains × n_samples × {k} worths (and sorts them)")
    from mcda._core.options import check_compute

    check_compute(n_chains * (n_samples + n_warmup) * len(datasets) * k * k * SECONDS_PER_STEP,
                  f"the Plackett-Luce sampler runs {n_chains} chains × {n_samples + n_warmup:,} draws over "
                  f"{len(datasets):,} rankings of {k} methods (a draw's cost grows with the square of the methods)",
                  "Pass fewer n_samples (the chains must still converge) or rank fewer methods "
                  "(scores.mcda.sel(method=[...]))", argument="n_samples", value=n_samples)
    values = orient(cube).transpose("dataset", "method").values
    # the sampler sees the methods in an order fixed by the data (mean within-dataset rank, then mean
    # score) and the datasets in label order, so relabelling or reordering changes only the labels
    ranks_within = np.where(np.isnan(values), np.nan,
                            rank(np.where(np.isnan(values), np.inf, values), descending=True))
    with np.errstate(invalid="ignore"):
        canon = np.lexsort((np.nanmean(values, axis=0), np.nanmean(ranks_within, axis=0)))
    back = np.argsort(canon)
    by_label = np.argsort(np.array(datasets, dtype=object), kind="stable")
    rankings = [(name, canon_order, groups) for name, canon_order, groups in
                _rankings(values[by_label][:, canon], [datasets[d] for d in by_label])]
    if len(rankings) < 2:
        raise McdaArgumentError(f"the Plackett-Luce model needs at least 2 datasets with two or more results; got "
                         f"{len(rankings)}.", argument=None)
    tied = [name for name, order, groups in rankings if groups[-1] < order.size - 1]
    if tied and ties == "refuse":
        shown = ", ".join(repr(t) for t in tied[:5]) + (" ..." if len(tied) > 5 else "")
        raise McdaArgumentError(f"{len(tied)} dataset(s) have tied scores ({shown}); the Plackett-Luce model has no ties. "
                         "Pass ties='latent' (the order inside a tie is sampled as unknown) or ties='random' (broken "
                         "once at random, scmamp's advice), or resolve them yourself.", argument="ties", value=ties)
    if tied:
        how = ("the order inside each tie is sampled as an unknown (ties='latent')" if ties == "latent"
               else "each tie is broken once in a random order (ties='random')")
        warn(f"{len(tied)} of {len(rankings)} rankings have tied scores; {how}.", TiesWarning)
    n_datasets = np.zeros(k, dtype=np.int64)
    for _, order, _ in rankings:
        n_datasets[order] += 1
    n_datasets = n_datasets[back]
    import numba

    from mcda._core._kernels.plackett_luce import mode, sample_chain

    order, offsets, tie_start, tie_stop, tie_owner = _flatten(rankings, gen if (tied and ties == "random") else None)
    if ties == "random":
        tie_start = tie_stop = tie_owner = np.zeros(0, dtype=np.int64)
    worth_mode = np.full(k, np.nan)  # no mode of the tied rankings' likelihood (a sum over orders) is sought
    if not (tied and ties == "latent"):
        found, _, converged = mode(order, offsets, k, prior_strength, 100_000, 1e-12)
        if converged:
            worth_mode = found
    draws = np.empty((n_chains, n_samples, k))
    work = n_samples + n_warmup
    bar = _Progress(n_chains * work * max(int(offsets[-1]), 1), f"Plackett-Luce model ({k} methods)", progress)
    start = np.full(k, 1.0 / k) if not np.all(np.isfinite(worth_mode)) else np.maximum(worth_mode, 1e-6)
    seeds = [int(gen.integers(0, MAX_SEED)) for _ in range(n_chains)]
    start = np.ascontiguousarray(start, dtype=np.float64)

    def chain(c):  # the compiled chain releases the GIL: the chains run on up to numba's threads
        sample_chain(seeds[c], n_warmup, n_samples, order.copy(), offsets, k, prior_strength, start, tie_start,
                     tie_stop, tie_owner, draws[c])

    from concurrent.futures import ThreadPoolExecutor, as_completed

    with ThreadPoolExecutor(max(1, min(n_chains, numba.get_num_threads()))) as pool:
        for finished, done in enumerate(as_completed([pool.submit(chain, c) for c in range(n_chains)])):
            done.result()
            bar.update((finished + 1) * work * max(int(offsets[-1]), 1))
    bar.close()
    draws = draws[:, :, back]            # back to the input's method order
    worth_mode = worth_mode[back]
    diag = [(m, split_rhat(draws[:, :, j]), ess_bulk(draws[:, :, j]), ess_tail(draws[:, :, j]))
            for j, m in enumerate(methods)]
    diagnostics = pd.DataFrame(diag, columns=["method", "rhat", "ess_bulk", "ess_tail"])
    worst_rhat = float(np.nanmax(diagnostics["rhat"])) if diagnostics["rhat"].notna().any() else np.nan
    worst_ess = float(np.nanmin(diagnostics[["ess_bulk", "ess_tail"]].to_numpy()))
    reason = ""
    if not (worst_rhat <= RHAT_MAX) or not (worst_ess >= ESS_FLOOR):
        reason = (f"the chains have not converged enough to report probabilities: max split R-hat {worst_rhat:.4f} "
                  f"(needs <= {RHAT_MAX}), min ESS {worst_ess:.0f} (needs >= {ESS_FLOOR})"
                  + "; longer chains (more draws per chain) may converge")
    flat = draws.reshape(-1, k)
    low_q, high_q = 0.5 - confidence_level / 2.0, 0.5 + confidence_level / 2.0
    ranks = np.argsort(np.argsort(-flat, axis=1, kind="stable"), axis=1, kind="stable")  # 0 = largest worth
    rank_prob = np.stack([(ranks == r).mean(axis=0) for r in range(k)], axis=1)
    if reason:
        rank_prob[:] = np.nan
    low, high = np.quantile(flat, [low_q, high_q], axis=0)
    table = pd.DataFrame({
        "method": methods,
        "n_datasets": n_datasets,
        "worth": flat.mean(axis=0),
        "worth_ci_low": low,
        "worth_ci_high": high,
        "worth_mode": worth_mode,
        "prob_best": rank_prob[:, 0],
        "expected_rank": rank_prob @ np.arange(1, k + 1) if not reason else np.full(k, np.nan),
    })
    rank_frame = pd.DataFrame(rank_prob, index=pd.Index(methods, name="method"),
                              columns=pd.Index(np.arange(1, k + 1), name="rank"))
    pair_rows = []
    for i, j in _pairs(k):
        above = flat[:, i] / (flat[:, i] + flat[:, j])
        lo, hi = np.quantile(above, [low_q, high_q])
        higher = float((flat[:, i] > flat[:, j]).mean()) if not reason else np.nan
        pair_rows.append((methods[i], methods[j], float(above.mean()) if not reason else np.nan, float(lo),
                          float(hi), higher))
    pairs = pd.DataFrame(pair_rows, columns=["method_a", "method_b", "prob_a_above_b", "ci_low", "ci_high",
                                             "prob_a_worth_higher"])
    mean_worth = flat.mean(axis=0)
    order_idx = np.argsort(-mean_worth, kind="stable")
    return PlackettLuceResult(methods=methods, table=table, rank_probabilities=rank_frame, pairs=pairs,
                              diagnostics=diagnostics, order=[methods[i] for i in order_idx],
                              n_rankings=len(rankings), n_tied_rankings=len(tied), ties=ties,
                              prior_strength=prior_strength, n_chains=n_chains, n_samples=n_samples,
                              n_warmup=n_warmup, confidence_level=confidence_level,
                              direction=str(cube.attrs["direction"]), reason=reason,
                              draws=flat if keep_draws else None)
