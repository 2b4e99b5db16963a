"""The Bayesian hierarchical model of per-fold scores across datasets (Corani et al. 2017), sampled
by a Gibbs sampler written for it, per pair of methods."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from mcda._core.results import Result, states_scale
from mcda._core.validation import MAX_SEED, check_probability, McdaArgumentError
from mcda.data.cards import direction_sign
from mcda.data.cube import orient
from mcda.stats._shared.folds import fold_design
from mcda.stats.bayesian._shared import (_check_chains, _check_threshold, _fold_cube, _pairs,
                                         _Progress, _region_columns)

__all__ = ["HierarchicalComparison", "hierarchical_comparison"]

#: CPU seconds of one Gibbs sweep of one chain over one dataset, an upper bound of what the kernel
#: takes (0.47 µs measured at 30 datasets on one core); the estimate of :func:`check_compute`.
SECONDS_PER_STEP = 5e-7

# --------------------------------------------------------------------------- hierarchical model

_HIER_COLUMNS = ["method_a", "method_b", "n_datasets", "prob_a_better", "prob_equivalent", "prob_b_better", "label",
                 "mean_a_better", "mean_equivalent", "mean_b_better", "population_diff",
                 "population_ci_low", "population_ci_high", "population_sd", "df", "max_rhat", "min_ess", "reason"]
_SHRINK_COLUMNS = ["method_a", "method_b", "dataset", "n_scores", "mean_diff", "ci_low", "ci_high",
                   "shrunk_diff", "shrunk_ci_low", "shrunk_ci_high", "note"]
# the Gamma prior of ν − 1 and its hyperprior bounds, and the width of the uniform scale priors
# (baycomp's defaults: lower_alpha=1, upper_alpha=2, lower_beta=0.01, upper_beta=0.1, upper_sigma=1000)
_ALPHA_BOUNDS = (1.0, 2.0)
_BETA_BOUNDS = (0.01, 0.1)
_UPPER_SIGMA = 1000.0
_INNER_HYPER = 3
_MONITORED = ("delta0", "sd0", "share_a_better", "share_equivalent", "share_b_better")


@dataclass(frozen=True, repr=False)
class HierarchicalComparison(Result):
    """The hierarchical model of Corani et al. (2017) for every pair of methods.

    Attributes
    ----------
    methods : list of str
    table : pandas.DataFrame
        One row per pair (see :meth:`to_frame`).
    shrinkage : pandas.DataFrame
        One row per (pair, dataset): ``method_a, method_b, dataset, n_scores``,
        ``mean_diff, ci_low, ci_high`` (the mean fold difference a − b and its
        Nadeau–Bengio-corrected t interval: the dataset alone), ``shrunk_diff,
        shrunk_ci_low, shrunk_ci_high`` (posterior mean and equal-tailed credible interval
        of the dataset's δ_i under the model: pulled towards the population), ``note`` (why a
        dataset is left out of a pair, or that its constant differences were replaced as
        baycomp does; else empty). All in the metric's own units.
    diagnostics : pandas.DataFrame
        One row per (pair, quantity): ``method_a, method_b, quantity, rhat, ess_bulk,
        ess_tail, monitored`` (the quantities that decide a label are monitored).
    draws : dict or None
        ``(method_a, method_b) -> ndarray (n_draws, 3)``: the posterior-predictive shares of
        the three regions (a better, equivalent, b better) for the next dataset, per draw
        (chains concatenated), for :func:`mcda.plots.plot_posterior`.
    population_draws : dict or None
        ``(method_a, method_b) -> ndarray (n_draws,)``: the draws of δ_0 (a − b, metric units).
    rope, rho : float
        The rope (metric units) and the correlation between folds.
    runs : int or None
        Repetitions of the cross-validation (None when ``rho`` was given).
    n_chains, n_samples, n_warmup : int
        Chains, kept draws per chain, discarded draws per chain.
    confidence_level, threshold : float
    rhat_max : float
    ess_floor : int
    direction : str
    """

    methods: list
    table: pd.DataFrame
    shrinkage: pd.DataFrame
    diagnostics: pd.DataFrame
    rope: float
    rho: float
    runs: int | None
    n_chains: int
    n_samples: int
    n_warmup: int
    confidence_level: float
    threshold: float
    rhat_max: float
    ess_floor: int
    direction: str
    draws: dict | None = None
    population_draws: dict | None = None

    @property
    def test(self) -> str:
        return "hierarchical"

    @property
    def method(self) -> str:
        return "sampling"

    def to_frame(self) -> pd.DataFrame:
        """One row per pair.

        Columns: ``method_a, method_b, n_datasets``; ``prob_a_better, prob_equivalent,
        prob_b_better``: for the **next dataset** (the posterior predictive t(ν, δ_0, s_0)),
        the posterior probability that each region has the largest share (baycomp's
        convention; they sum to 1); ``label`` (``"a_better"``, ``"equivalent"``,
        ``"b_better"`` when that probability reaches ``threshold``, else
        ``"inconclusive"``; ``"not_applicable"`` for a NaN row); ``mean_a_better,
        mean_equivalent, mean_b_better`` (posterior mean shares); ``population_diff``
        (posterior mean of δ_0, a − b in the metric's units), ``population_ci_low,
        population_ci_high`` (its equal-tailed credible interval), ``population_sd``
        (posterior mean of s_0, the spread of the datasets' differences), ``df`` (posterior
        median of ν), ``max_rhat`` and ``min_ess`` (the worst split R-hat and bulk/tail ESS
        over the monitored quantities) and ``reason`` (why a row is NaN, else empty).
        """
        return self.table.copy()

    def summary(self) -> str:
        shown = self.table[["method_a", "method_b", "n_datasets", "prob_a_better", "prob_equivalent", "prob_b_better",
                            "label", "population_diff", "max_rhat", "min_ess"]].copy()
        for col in ("prob_a_better", "prob_equivalent", "prob_b_better", "population_diff"):
            shown[col] = shown[col].round(4)
        shown["max_rhat"] = shown["max_rhat"].round(4)
        shown["min_ess"] = shown["min_ess"].round(0)
        design = f"rho {self.rho:g}" + (f" ({self.runs} run(s) of cross-validation)" if self.runs else "")
        head = (f"Hierarchical Bayesian model, Corani et al. 2017 ({self.n_chains} chains x {self.n_samples} draws, "
                f"Gibbs); {design}; rope {self.rope:g}, threshold {self.threshold:g}; {self.direction}")
        lines = [head, shown.to_string(index=False)]
        notes = self.table.loc[self.table["reason"] != "", ["method_a", "method_b", "reason"]]
        lines += [f"note: {r.method_a} vs {r.method_b}: {r.reason}" for r in notes.itertuples()]
        return "\n".join(lines)


def _design_rho(cube, runs, rho):
    """(rho, runs): ρ given, or 1/k from the runs of k-fold CV (given, or what the cube says: the one reading of
    a fold design, :func:`mcda.stats._shared.folds.fold_design`, shared with the tests over folds)."""
    design = fold_design(cube, runs=runs, rho=rho,
                         needs="the model needs k-fold cross-validation with k >= 2 (or pass `rho=`).")
    if design is None:
        raise McdaArgumentError("the correlation between folds is unknown: pass `runs=` (repetitions of k-fold "
                                "cross-validation; rho = 1/k = n_test/n_total) or `rho=` directly (the scores carry "
                                "no `cv_runs` attribute and no `run` / `fold` coordinates).", argument="runs",
                                value=runs)
    return design.rho, design.runs


def _pair_sampler(z, rope, rho, n_chains, n_samples, n_warmup, rng):
    """Standardise one pair's fold differences as baycomp, run the chains, return the raw draws.

    ``z`` (q, n): oriented differences b − a. Returns a dict, or a reason string.
    """
    from mcda._core._kernels.hierarchical import sample_chain

    # first in units of a power of two near the largest difference (exact): the squares in the standard
    # deviations of differences of 1e-200 would underflow to 0 (a false "constant"), of large ones overflow
    top = float(np.abs(z).max()) if z.size else 0.0
    unit = float(np.ldexp(1.0, int(np.frexp(top)[1]))) if np.isfinite(top) and top > 0 else 1.0
    stds = (z / unit).std(axis=1)
    scale = float(stds.mean()) * unit
    if not scale > 0:
        return "every dataset's fold differences are constant: the model's within-dataset variance is undefined"
    zs = (z / unit) / (scale / unit)
    rope_s = rope / scale
    constant = np.nonzero(stds == 0)[0]
    if constant.size and rope == 0:
        return (f"{constant.size} dataset(s) have constant fold differences and rope = 0: their variance is 0, "
                "which the model cannot take (baycomp replaces them by noise within the rope; give a rope > 0)")
    half = zs.shape[1] // 2
    for i in constant:  # baycomp: symmetric uniform noise within the rope
        noise = rng.uniform(-rope_s, rope_s, half)
        zs[i, :half] = noise
        zs[i, zs.shape[1] - half:] = -noise
        if zs.shape[1] % 2:
            zs[i, half] = 0.0
    q, n = zs.shape
    std_within = float(zs.std(axis=1).mean())
    std_among = float(zs.mean(axis=1).std()) if q > 1 else std_within
    bound = float(np.abs(zs).max())
    means = np.ascontiguousarray(zs.mean(axis=1))
    ssq = np.ascontiguousarray(((zs - means[:, None]) ** 2).sum(axis=1))
    counts = np.full(q, float(n))
    glob = np.empty((n_chains, n_samples, 5))
    delta = np.empty((n_chains, n_samples, q))
    # the chains run one after another: numba's parallel threads lose badly on a shared, busy machine
    for c in range(n_chains):
        sample_chain(int(rng.integers(0, MAX_SEED)), n_warmup, n_samples, means, ssq, counts, float(rho), bound,
                     std_among * _UPPER_SIGMA, std_within * _UPPER_SIGMA, _ALPHA_BOUNDS[0], _ALPHA_BOUNDS[1],
                     _BETA_BOUNDS[0], _BETA_BOUNDS[1], _INNER_HYPER, glob[c], delta[c])
    mu, sd0, nu = glob[..., 0], glob[..., 1], glob[..., 2]
    left = stats.t.cdf(-rope_s, nu, mu, sd0)
    right = stats.t.sf(rope_s, nu, mu, sd0)
    shares = np.stack([left, np.clip(1.0 - left - right, 0.0, 1.0), right], axis=-1)
    return {"scale": scale, "constant": constant, "mu": mu, "sd0": sd0, "nu": nu, "delta": delta, "shares": shares}


@states_scale
def hierarchical_comparison(scores, direction=None, *, rope=None, runs=None, rho=None, threshold: float = 0.95,
                            confidence_level: float = 0.95, n_chains: int = 4, n_samples: int = 10_000,
                            n_warmup: int = 1000, rng=None, keep_draws: bool = True, progress=None,
                            method_names=None) -> HierarchicalComparison:
    r"""Hierarchical Bayesian comparison on cross-validation folds (Corani et al. 2017), every pair.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``seed`` dim
        The score of every method in every fold of (repeated) cross-validation, folds along
        ``seed`` (the same folds for every method), e.g.
        ``mcda.datasets.load("benavoli2017_uci54_folds")``. Fold order does not matter.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    rope : float, optional
        Half-width of the region of practical equivalence in the metric's units (None: the
        card's noise floor; 0: two regions).
    runs : int, optional
        Repetitions of k-fold cross-validation (k = n_scores / runs; ρ = 1/k). Default: what
        the cube says (``run`` / ``fold`` coordinates along ``seed``, else ``attrs["cv_runs"]``,
        else ``attrs["rho"]``, as :func:`mcda.paired_tests` reads them); one is needed.
    rho : float, optional
        The correlation between the folds' differences, n_test / n_total (Nadeau & Bengio),
        for designs other than k-fold; in (0, 1).
    threshold : float
        In (0.5, 1): a pair is labelled with the region whose probability reaches it.
    confidence_level : float
        Of the equal-tailed credible intervals (and of the raw per-dataset t intervals).
    n_chains, n_samples, n_warmup : int
        Markov chains, draws kept per chain, draws discarded per chain.
    rng : numpy.random.Generator or seed, optional
        Source of every chain's seed (and of baycomp's noise for constant datasets).
    keep_draws : bool
        Keep the predictive shares and the δ_0 draws of every pair.
    progress : bool, optional
        Progress on stderr: None (default) when the run will take more than about 2 s.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    HierarchicalComparison
        ``to_frame()`` per pair, ``shrinkage`` per (pair, dataset), ``diagnostics``,
        ``draws`` for :func:`mcda.plots.plot_posterior`.

    Raises
    ------
    ValueError
        Scores without a ``seed`` dim, no design (``runs`` / ``rho`` / ``attrs["cv_runs"]``),
        ``runs`` not dividing the fold count, both ``runs`` and ``rho``, ``rho`` outside
        (0, 1), a negative rope, ``threshold`` outside (0.5, 1), non-positive sizes; before
        sampling, an estimate (pairs × chains × draws × datasets × :data:`SECONDS_PER_STEP`)
        over ``mcda.get_options()["compute_limit"]`` (argument ``n_samples``).

    Notes
    -----
    Per pair, with x_ij the difference b − a (oriented: > 0 means b is better) in fold j of
    dataset i, the model of Corani, Benavoli, Demšar, Mangili & Zaffalon (2017), as in
    baycomp's ``HierarchicalTest`` (its Stan file ``hierarchical-t-test.stan``):

    .. math::

        x_i &\sim \mathrm{MVN}(\delta_i \mathbf 1,\ \sigma_i^2 M),\quad
              M = (1-\rho) I + \rho \mathbf 1 \mathbf 1^\top \\
        \delta_i &\sim t_\nu(\delta_0, s_0),\quad \delta_0 \sim U(-D, D),\quad
              s_0 \sim U(0, 1000\, \mathrm{sd}_{among}),\quad
              \sigma_i \sim U(0, 1000\, \mathrm{sd}_{within}) \\
        \nu - 1 &\sim \mathrm{Gamma}(\alpha, \beta),\quad \alpha \sim U(1, 2),\quad
              \beta \sim U(0.01, 0.1)

    on differences standardised as baycomp does (divided by the mean over datasets of
    their standard deviations; the rope likewise), D = max |x|, sd_within the mean
    within-dataset sd and sd_among the sd of the dataset means. A dataset whose
    differences are all equal has variance 0, which the model cannot take: as baycomp,
    its differences are replaced by symmetric uniform noise within the rope (noted in
    ``shrinkage``; with rope = 0 the pair is NaN with a reason). A dataset with a missing
    fold score for either method is left out of that pair (noted; never imputed).

    The probabilities are those of the next dataset's difference, t_ν(δ_0, s_0): per
    posterior draw, the shares of its mass below −rope, within, and above rope; a region's
    probability is the share of draws in which it is the largest (baycomp's convention;
    ``mean_*`` are the mean shares). The per-dataset δ_i are the shrunk differences: each
    dataset's own mean pulled towards δ_0 by as much as its noise warrants.

    Sampling: a Gibbs sampler written for this model (``mcda._core._kernels.hierarchical``: the
    likelihood reduced to each dataset's mean and sum of squares; the t as a scale mixture
    of normals; ν updated with the mixture integrated out; α, β by slice sampling). A
    pair is labelled only when every monitored quantity (δ_0, s_0 and the three predictive
    shares) has rank-normalised split R-hat ≤ ``rhat_max`` = 1.01 and bulk and tail
    ESS ≥ ``ess_floor`` = 400 (Vehtari et al. 2021); otherwise its probabilities are NaN
    with the reason (run longer chains). The Monte Carlo error of a probability p is about
    sqrt(p(1 − p)/ESS) — at most 0.025 at the floor, about 0.004 at the default sizes on the
    Benavoli et al. data. baycomp runs the same model in Stan (NUTS); the tests check the
    agreement with NumPyro's NUTS on the same model and with baycomp's published figure.

    References
    ----------
    .. [1] Corani, G., Benavoli, A., Demšar, J., Mangili, F. and Zaffalon, M. (2017).
       Statistical comparison of classifiers through Bayesian hierarchical modelling.
       Machine Learning 106(11):1817-1837. https://doi.org/10.1007/s10994-017-5641-9
    .. [2] Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error.
       Machine Learning 52(3):239-281. https://doi.org/10.1023/A:1024068626366
    .. [3] Vehtari, A., Gelman, A., Simpson, D., Carpenter, B. and Bürkner, P.-C. (2021).
       Rank-normalization, folding, and localization: an improved R-hat for assessing
       convergence of MCMC. Bayesian Analysis 16(2):667-718. https://doi.org/10.1214/20-BA1221

    Examples
    --------
    >>> from mcda import datasets, hierarchical_comparison
    >>> folds = datasets.load("benavoli2017_uci54_folds").mcda.sel(method=["nbc", "aode"])
    >>> result = hierarchical_comparison(folds, rope=0.01, n_samples=1000, rng=0)
    >>> row = result.to_frame().iloc[0]
    >>> row["method_a"], row["method_b"], int(row["n_datasets"]), row["label"]
    ('nbc', 'aode', 54, 'inconclusive')
    """
    from mcda._core.mcmc import ESS_FLOOR, RHAT_MAX, ess_bulk, ess_tail, split_rhat

    threshold = _check_threshold(threshold)
    confidence_level = check_probability("confidence_level", confidence_level, closed="neither")
    n_chains, n_samples, n_warmup, gen, progress = _check_chains(n_chains, n_samples, n_warmup, rng, progress,
                                                                 keep_draws)
    cube, rope = _fold_cube(scores, direction, method_names, rope, "hierarchical_comparison",
                            reason="its model needs every dataset's folds at once",
                            example="mcda.datasets.load('benavoli2017_uci54_folds')",
                            otherwise=" For one score per dataset use bayesian_signed_rank_comparison.")
    n_scores = cube.sizes["seed"]
    rho, runs = _design_rho(cube, runs, rho)
    values = orient(cube).transpose("dataset", "method", "seed").values
    sign = direction_sign(cube.attrs["direction"])
    methods = [str(m) for m in cube.coords["method"].values]
    datasets = [str(d) for d in cube.coords["dataset"].values]
    pairs = _pairs(len(methods))
    from mcda._core.options import check_count_allocation

    # per pair: δ_i draws (chains × n_samples × datasets) and their shrunk copy, ~20 floats of global draws,
    # shares and their t-tails per draw; kept: 4 floats per draw of every pair
    check_count_allocation("n_samples", n_samples,
                           8 * n_chains * (2 * len(datasets) + 20 + (4 * len(pairs) if keep_draws else 0)),
                           f"keeps {n_chains} chains × n_samples draws of {len(datasets)} datasets"
                           + (f" and of {len(pairs)} pairs (keep_draws=True)" if keep_draws else ""))
    from mcda._core.options import check_compute

    steps = n_chains * (n_samples + n_warmup) * len(datasets)
    check_compute(len(pairs) * steps * SECONDS_PER_STEP,
                  f"the hierarchical model runs {n_chains} chains × {n_samples + n_warmup:,} draws × {len(datasets)} "
                  f"datasets for each of {len(pairs):,} pairs of {len(methods)} methods",
                  "Compare fewer methods (scores.mcda.sel(method=[...]): the pairs grow with their square) or pass "
                  "fewer n_samples (the chains must still converge)", argument="n_samples", value=n_samples)
    dataset_labels = np.array(datasets, dtype=object)
    base_seed = int(gen.integers(0, MAX_SEED))
    low_q, high_q = 0.5 - confidence_level / 2.0, 0.5 + confidence_level / 2.0
    t_quantile = stats.t.ppf(high_q, n_scores - 1) if n_scores > 1 else np.nan
    rows, shrink_rows, diag_rows = [], [], []
    draws = {} if keep_draws else None
    population_draws = {} if keep_draws else None
    bar = _Progress(len(pairs) * n_chains * (n_samples + n_warmup) * len(datasets),
                    f"hierarchical model ({len(pairs)} pairs)", progress)
    done = 0
    for i, j in pairs:
        a, b = methods[i], methods[j]
        z_all = values[:, j, :] - values[:, i, :]
        complete = ~np.isnan(z_all).any(axis=1)
        for d in np.nonzero(~complete)[0]:
            missing = int(np.isnan(z_all[d]).sum())
            shrink_rows.append((a, b, datasets[d], n_scores, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan,
                                f"left out: {missing} of {n_scores} fold scores missing"))
        kept = np.nonzero(complete)[0]
        # the sampler sees the datasets in label order, every pair the same seed and its differences
        # in the orientation with a positive total: the draws depend on the pair's data only, so
        # relabelling or reordering methods or datasets changes nothing but the labels
        kept = kept[np.argsort(dataset_labels[kept], kind="stable")]
        z = np.array(z_all[kept], dtype=np.float64)
        flip = -1.0 if z.sum() < 0 else 1.0
        nan3 = (np.nan, np.nan, np.nan)
        if kept.size < 2:
            reason = (f"the model needs at least 2 datasets with every fold score of both methods; {kept.size} "
                      "have them")
            rows.append((a, b, int(kept.size), nan3, nan3, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan,
                         reason))
            continue
        # the raw per-dataset view: the mean difference and its Nadeau-Bengio t interval (a - b, metric units)
        raw = -sign * z.mean(axis=1)
        half_width = t_quantile * np.sqrt(z.var(axis=1, ddof=1) * (1.0 / n_scores + rho / (1.0 - rho)))
        fit = _pair_sampler(flip * z, rope, rho, n_chains, n_samples, n_warmup, np.random.default_rng(base_seed))
        if flip < 0 and not isinstance(fit, str):
            fit["mu"], fit["delta"], fit["shares"] = -fit["mu"], -fit["delta"], fit["shares"][..., ::-1]
        done += n_chains * (n_samples + n_warmup) * len(datasets)
        bar.update(done)
        if isinstance(fit, str):
            rows.append((a, b, int(kept.size), nan3, nan3, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan,
                         fit))
            continue
        scale = fit["scale"]
        shares = fit["shares"]
        monitored = {"delta0": fit["mu"], "sd0": fit["sd0"], "share_a_better": shares[..., 0],
                     "share_equivalent": shares[..., 1], "share_b_better": shares[..., 2], "nu": fit["nu"]}
        worst_rhat, worst_ess = 0.0, np.inf
        for name, chains in monitored.items():
            r, eb, et = split_rhat(chains), ess_bulk(chains), ess_tail(chains)
            is_monitored = name in _MONITORED
            if is_monitored and rope == 0 and name == "share_equivalent":
                is_monitored = False  # identically 0
            diag_rows.append((a, b, name, r, eb, et, is_monitored))
            if is_monitored:
                worst_rhat = max(worst_rhat, r) if not np.isnan(r) else worst_rhat
                worst_ess = min(worst_ess, np.nanmin([eb, et])) if not (np.isnan(eb) and np.isnan(et)) else worst_ess
        flat = shares.reshape(-1, 3)
        counts = np.bincount(flat.argmax(axis=1), minlength=3)
        prob = counts / flat.shape[0]
        mean_shares = flat.mean(axis=0)
        population = -sign * fit["mu"].reshape(-1) * scale
        reason = ""
        if worst_rhat > RHAT_MAX or worst_ess < ESS_FLOOR:
            reason = (f"the chains have not converged enough to label the pair: max split R-hat {worst_rhat:.4f} "
                      f"(needs <= {RHAT_MAX}), min ESS {worst_ess:.0f} (needs >= {ESS_FLOOR}); longer chains (more "
                      "draws per chain) may converge")
            prob = np.array(nan3)
        pop_low, pop_high = np.quantile(population, [low_q, high_q])
        rows.append((a, b, int(kept.size), tuple(prob), tuple(mean_shares), float(population.mean()),
                     float(pop_low), float(pop_high), float(fit["sd0"].mean() * scale), float(np.median(fit["nu"])),
                     float(worst_rhat), float(worst_ess), reason))
        shrunk = -sign * fit["delta"].reshape(-1, len(kept)) * scale
        s_low, s_high = np.quantile(shrunk, [low_q, high_q], axis=0)
        constant = set(int(c) for c in fit["constant"])
        for k, d in enumerate(kept):
            note = ("constant fold differences: replaced by symmetric uniform noise within the rope (baycomp)"
                    if k in constant else "")
            shrink_rows.append((a, b, datasets[d], n_scores, float(raw[k]), float(raw[k] - half_width[k]),
                                float(raw[k] + half_width[k]), float(shrunk[:, k].mean()), float(s_low[k]),
                                float(s_high[k]), note))
        if keep_draws:
            draws[(a, b)] = flat
            population_draws[(a, b)] = population
    bar.close()
    prob = np.array([r[3] for r in rows], dtype=np.float64).reshape(-1, 3)
    means = np.array([r[4] for r in rows], dtype=np.float64).reshape(-1, 3)
    reasons = np.array([r[12] for r in rows], dtype=object)
    nan_rows = np.array([bool(r) for r in reasons], dtype=bool)
    table = pd.DataFrame({
        "method_a": [r[0] for r in rows],
        "method_b": [r[1] for r in rows],
        "n_datasets": np.array([r[2] for r in rows], dtype=np.int64),
        **_region_columns(prob, threshold, nan_rows, means),
        "population_diff": np.array([r[5] for r in rows], dtype=np.float64),
        "population_ci_low": np.array([r[6] for r in rows], dtype=np.float64),
        "population_ci_high": np.array([r[7] for r in rows], dtype=np.float64),
        "population_sd": np.array([r[8] for r in rows], dtype=np.float64),
        "df": np.array([r[9] for r in rows], dtype=np.float64),
        "max_rhat": np.array([r[10] for r in rows], dtype=np.float64),
        "min_ess": np.array([r[11] for r in rows], dtype=np.float64),
        "reason": reasons,
    }, columns=_HIER_COLUMNS)
    shrinkage = pd.DataFrame(shrink_rows, columns=_SHRINK_COLUMNS)
    order = {name: k for k, name in enumerate(datasets)}
    shrinkage = shrinkage.assign(_order=shrinkage["dataset"].map(order)).sort_values(
        ["method_a", "method_b", "_order"], kind="stable").drop(columns="_order").reset_index(drop=True)
    pair_order = {(methods[i], methods[j]): k for k, (i, j) in enumerate(pairs)}
    shrinkage = shrinkage.iloc[np.argsort([pair_order[(r.method_a, r.method_b)] for r in shrinkage.itertuples()],
                                          kind="stable")].reset_index(drop=True)
    diagnostics = pd.DataFrame(diag_rows, columns=["method_a", "method_b", "quantity", "rhat", "ess_bulk",
                                                   "ess_tail", "monitored"])
    return HierarchicalComparison(methods=methods, table=table, shrinkage=shrinkage, diagnostics=diagnostics,
                                  rope=rope, rho=rho, runs=runs, n_chains=n_chains, n_samples=n_samples,
                                  n_warmup=n_warmup, confidence_level=confidence_level, threshold=threshold,
                                  rhat_max=RHAT_MAX, ess_floor=ESS_FLOOR, direction=str(cube.attrs["direction"]),
                                  draws=draws, population_draws=population_draws)
