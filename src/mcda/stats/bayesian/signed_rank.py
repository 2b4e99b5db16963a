"""The Bayesian signed-rank test over datasets (a Dirichlet process, with a kernel that is linear in
the number of datasets per posterior draw), and :func:`two_on_multiple`: either Bayesian test
for two methods given as two vectors. ``reproduce="baycomp"`` draws exactly baycomp's samples.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mcda._core.numeric import score_tolerance
from mcda._core.results import states_scale
from mcda._core.validation import McdaArgumentError, MissingDataWarning, shown as _shown, warn
from mcda.data.blocks import require_in_memory
from mcda.data.cube import orient, single_score_cube
from mcda.data.checks import resolve_rope
from mcda.data.design import without_empty_datasets
from mcda.stats.bayesian._shared import (_check_positive_float, _check_sampling, _check_threshold, _kept_pairs,
                                         _pair_rows, _probabilities_from_counts, _Progress, _two_regions)
from mcda.stats.bayesian.sign import _assemble, bayesian_sign_comparison, BayesianComparison
from mcda.stats._shared.counts import counts_from_cube
from mcda.stats.procedures import canonical, load, names

__all__ = ["bayesian_signed_rank_comparison", "two_on_multiple"]

#: The tests :func:`two_on_multiple` runs (its ``test=``, which also takes "signed_rank" and "sign"):
#: the registry's Bayesian pairwise tests on one score per dataset.
TESTS = names("bayesian", "all-pairs")
# signed-rank: at most this many weights (draws × observations) in memory at once
_BLOCK_WEIGHTS = 1 << 22
_KERNEL_BLOCK = 128


_ALL_ZERO_NO_ROPE = ("every difference is 0 (up to rounding): with rope = 0 each posterior draw gives both "
                     "directions exactly half the population, so neither region is the larger; use a rope > 0")


# --------------------------------------------------------------------------- signed-rank test

@dataclass
class _RankPair:
    """What one pair needs for the signed-rank kernel (independent of the posterior draw)."""

    index: int
    order: np.ndarray
    right_ge: np.ndarray
    right_gt: np.ndarray
    left_ge: np.ndarray
    left_gt: np.ndarray
    mean: np.ndarray


def _prepare_rank_pair(index, z, prior_strength, rope, tolerance):
    """Sort z = (0, d_1, ..., d_n) once; find the sum boundaries; the exact posterior mean shares.

    A pairwise sum within ``tolerance`` of ±2·rope counts half (0 is baycomp's exact equality).
    """
    from mcda._core._kernels.signed_rank import sum_boundaries

    order = np.argsort(z, kind="mergesort").astype(np.int64)
    z_sorted = np.ascontiguousarray(z[order])
    threshold = 2.0 * rope
    right_ge, right_gt = sum_boundaries(z_sorted, threshold - tolerance, threshold + tolerance)
    left_ge, left_gt = sum_boundaries(z_sorted, -threshold - tolerance, -threshold + tolerance)
    # E[w_k w_j] = (beta_k beta_j + [k = j] beta_k) / (B (B + 1)) for Dirichlet(beta)
    beta = np.where(order == 0, prior_strength, 1.0)
    total = beta.sum()
    cum = np.concatenate(([0.0], np.cumsum(beta)))
    diag_sum = z_sorted + z_sorted

    def expected(ge, gt, above: bool):
        if above:
            inner = (total - cum[gt]) + 0.5 * (cum[gt] - cum[ge])
            at = (diag_sum >= threshold - tolerance) & (diag_sum <= threshold + tolerance)
            diag = (diag_sum > threshold + tolerance) + 0.5 * at
        else:
            inner = cum[ge] + 0.5 * (cum[gt] - cum[ge])
            at = (diag_sum >= -threshold - tolerance) & (diag_sum <= -threshold + tolerance)
            diag = (diag_sum < -threshold - tolerance) + 0.5 * at
        return (beta @ inner + beta @ diag) / (total * (total + 1.0))

    right = expected(right_ge, right_gt, True)
    if rope > 0:
        left = expected(left_ge, left_gt, False)
        mean = np.array([left, 1.0 - left - right, right])
    else:
        mean = np.array([1.0 - right, 0.0, right])
    return _RankPair(index, order, right_ge, right_gt, left_ge, left_gt, mean)


@states_scale
def bayesian_signed_rank_comparison(scores, direction=None, *, rope=None, prior_strength: float = 0.5,
                                    threshold: float = 0.95, n_samples: int = 50_000, rng=None,
                                    reproduce: str | None = None, keep_draws: bool = True, progress=None,
                                    method_names=None) -> BayesianComparison:
    r"""Bayesian signed-rank test for every pair of methods: P(A better), P(equivalent), P(B better).

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method); NaN cells are dropped pairwise.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    rope : float, optional
        Half-width of the region of practical equivalence; None uses the card's noise
        floor; 0 leaves two regions.
    prior_strength : float
        Weight of the prior pseudo-observation at difference 0 (> 0; baycomp's 0.5).
    threshold : float
        In (0.5, 1): a pair is labelled with the region whose probability reaches it.
    n_samples : int
        Posterior draws (>= 1).
    rng : numpy.random.Generator or seed, optional
        Source of the draws; with ``reproduce="baycomp"`` an int seed (see
        :func:`bayesian_sign_comparison`).
    reproduce : {None, "baycomp"}
        Draw baycomp's own Dirichlet weights (``RandomState(rng).dirichlet``, given to the
        datasets in the input's order) and compare the pairwise sums with 2·rope exactly, as
        baycomp does, so the results are baycomp's (draws equal to ~1e-16).
    keep_draws : bool or list of (method_a, method_b)
        Keep the per-pair draws in the result: all (True), none (False) or the pairs listed;
        refused before sampling over ``mcda.get_options()["memory_limit"]``.
    progress : bool, optional
        Progress on stderr: None (default) when the run will take more than about 2 s.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    BayesianComparison
        ``test="signed_rank"``, ``prior="pseudo_observation"``, ``method="sampling"``; the
        same table, standing and draws as :func:`bayesian_sign_comparison`. ``mean_*`` are
        the exact posterior means of the shares.

    Raises
    ------
    ValueError
        ``n_samples < 1``, a negative rope, ``threshold`` outside (0.5, 1),
        ``prior_strength <= 0``, an unknown ``reproduce``, or scores with a seed dim.
    TypeError
        A non-integer ``n_samples``, or ``reproduce="baycomp"`` without an int seed.

    Notes
    -----
    Per pair (a, b) with n shared datasets, z_i = b_i − a_i (oriented, so z > 0 means b is
    better) and a pseudo-observation z_0 = 0. The Dirichlet-process posterior puts weights
    w ~ Dirichlet(s, 1, ..., 1) on (z_0, ..., z_n) (s = ``prior_strength``), and the share of
    the population in which b is better by more than the rope is

    .. math:: \theta_b = \sum_{i=0}^{n} \sum_{j=0}^{n} w_i w_j\, H(z_i + z_j - 2r),

    H(s) = 1 for s > 0, ½ for s = 0 (a sum exactly at 2·rope counts half, as baycomp),
    θ_a likewise with H(−z_i − z_j − 2r), and θ_equivalent = 1 − θ_a − θ_b. A sum that is
    2·rope up to the rounding of the differences (within 8 ulp of the largest score, the
    tolerance of :func:`mcda.stats.pairwise.pairwise_counts`) counts as exactly at it; baycomp, and
    ``reproduce="baycomp"``, compare the computed sums exactly. The reported
    probabilities are the shares of draws in which each region is the largest. With
    rope = 0, θ_a = 1 − θ_b and prob_equivalent = 0 (baycomp's two probabilities); when every
    difference is 0, θ_a = θ_b = ½ in every draw, neither is the larger, and the row is NaN
    with a reason (baycomp, and ``reproduce="baycomp"``, report which of the two halves the
    rounding of the sums made larger).

    The indicator matrix does not depend on the draw: with z sorted, the j with
    z_i + z_j > 2r form a suffix, so each draw costs O(n) with prefix sums of the weights
    (one sort per pair), against baycomp's O(n²). Because the weights of the n datasets are
    exchangeable, all pairs with the same number of shared datasets use the same draws
    (common random numbers; each pair's probabilities are still Monte Carlo estimates of
    its own posterior), and the datasets take the weights in the order of their labels,
    so reordering the input changes nothing. In the reproduce mode the weights follow
    the input's dataset order, as baycomp assigns them.

    The test assumes the datasets are exchangeable and the differences comparable across
    datasets (it uses their magnitudes through the pairwise sums).

    References
    ----------
    .. [1] Benavoli, A., Corani, G., Mangili, F., Zaffalon, M. and Ruggeri, F. (2014). A
       Bayesian Wilcoxon signed-rank test based on the Dirichlet process. ICML, PMLR
       32(2):1026-1034. https://proceedings.mlr.press/v32/benavoli14.html
    .. [2] Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a change:
       a tutorial for comparing multiple classifiers through Bayesian analysis. JMLR
       18(77):1-36. https://jmlr.org/papers/v18/16-305.html (arXiv:1606.04316)

    Examples
    --------
    >>> from mcda import bayesian_signed_rank_comparison, datasets
    >>> cube = datasets.load("benavoli2017_uci54").sel({"method": ["nbc", "aode", "hnb"]})
    >>> result = bayesian_signed_rank_comparison(cube, rope=0.01, rng=0)
    >>> frame = result.to_frame()
    >>> frame[["method_a", "method_b", "label"]].to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'method_a': 'nbc', 'method_b': 'aode', 'label': 'inconclusive'},
     {'method_a': 'nbc', 'method_b': 'hnb', 'label': 'b_better'},
     {'method_a': 'aode', 'method_b': 'hnb', 'label': 'equivalent'}]
    >>> result.order
    ['hnb', 'aode', 'nbc']
    """
    prior_strength = _check_positive_float("prior_strength", prior_strength)
    threshold = _check_threshold(threshold)
    n_samples, reproduce, source, progress, keep_draws = _check_sampling(n_samples, reproduce, rng, progress,
                                                                         keep_draws)
    cube = single_score_cube(scores, direction, method_names=method_names, what="a comparison over datasets")
    require_in_memory(cube, "mcda.bayesian_signed_rank_comparison",
                      reason="its posterior weighs every difference by its rank among all the datasets' differences",
                      instead="use mcda.bayesian_sign_comparison (chunk-wise, exact), or run this test on a subset "
                              "loaded into memory (cube.isel(dataset=...).load())")
    rope = resolve_rope(cube, rope)
    counts_all = counts_from_cube(without_empty_datasets(cube), rope)
    methods = counts_all.methods
    pairs, _, _, n_shared, reasons = _pair_rows(counts_all.n_shared.to_numpy())
    values = orient(cube).values
    if reproduce is None:
        labels = np.array([str(d) for d in cube.coords["dataset"].values], dtype=object)
        values = values[np.argsort(labels, kind="stable")]

    prepared: dict[int, list[_RankPair]] = {}
    for p, (i, j) in enumerate(pairs):
        if n_shared[p] == 0:
            continue
        both = ~np.isnan(values[:, i]) & ~np.isnan(values[:, j])
        a, b = values[both, i], values[both, j]
        z = np.concatenate(([0.0], b - a))
        # mcda forgives the rounding of the differences at ±2·rope, as pairwise_counts does at the
        # rope; baycomp's own mode compares the computed sums exactly
        tolerance = 0.0 if reproduce else score_tolerance(max(float(np.abs(a).max()), float(np.abs(b).max()),
                                                              2.0 * rope))
        rank_pair = _prepare_rank_pair(p, z, prior_strength, rope, tolerance)
        if rope == 0 and not reproduce and not rank_pair.right_ge.any() and (rank_pair.right_gt == z.size).all():
            # every pairwise sum is at 0: θ_b = θ_a = ½ in every draw, and the "winner" is rounding noise
            # (baycomp reports that noise; its own mode below does too)
            reasons[p] = _ALL_ZERO_NO_ROPE
            continue
        prepared.setdefault(z.size, []).append(rank_pair)

    from mcda._core._kernels.signed_rank import signed_rank_shares

    prob = np.full((len(pairs), 3), np.nan)
    means = np.full((len(pairs), 3), np.nan)
    ready = np.zeros(len(pairs), dtype=bool)
    ready[[rp.index for group in prepared.values() for rp in group]] = True
    kept = _kept_pairs(keep_draws, methods, pairs, ready, n_samples)
    draws = {} if keep_draws is not False else None
    chunks = {size: _chunk_draws(size, n_samples) for size in prepared}
    bar = _Progress(sum(len(group) * n_samples * size for size, group in prepared.items()),
                    f"Bayesian signed-rank test ({sum(len(g) for g in prepared.values())} pairs)", progress)
    done = 0
    for size in sorted(prepared):
        # the pairs whose draws are kept run as their own stack, on the same weights as the others,
        # so that keeping draws changes no probability and costs memory only for those pairs
        group = prepared[size]
        parts = [[rp for rp in group if kept[rp.index]], [rp for rp in group if not kept[rp.index]]]
        parts = [(part, keep) for part, keep in zip(parts, (True, False)) if part]
        stacked = []
        for part, keep in parts:
            stack = lambda name: np.ascontiguousarray(np.stack([getattr(rp, name) for rp in part]))  # noqa: E731,B023
            stacked.append((part, keep, stack("order"), stack("right_ge"), stack("right_gt"), stack("left_ge"),
                            stack("left_gt"), np.zeros((len(part), 3), dtype=np.int64),
                            np.empty((len(part), n_samples, 3)) if keep else np.empty((0, 0, 3))))
        concentration = np.ones(size)
        concentration[0] = prior_strength
        state = np.random.RandomState(source) if reproduce else None
        chunk = chunks[size]
        for start in range(0, n_samples, chunk):
            stop = min(n_samples, start + chunk)
            if reproduce:
                weights_t = np.ascontiguousarray(state.dirichlet(concentration, stop - start).T)
            else:
                weights_t = _dirichlet_process_weights(source, stop - start, size, prior_strength)
            for part, keep, orders, right_ge, right_gt, left_ge, left_gt, counts, shares in stacked:
                out = shares[:, start:stop] if keep else shares
                signed_rank_shares(weights_t, orders, right_ge, right_gt, left_ge, left_gt, rope > 0, out, counts,
                                   _KERNEL_BLOCK)
            done += len(group) * (stop - start) * size
            bar.update(done)
        for part, keep, *_, counts, shares in stacked:
            for g, rp in enumerate(part):
                prob[rp.index] = _probabilities_from_counts(counts[g], n_samples)
                means[rp.index] = rp.mean
                if keep:
                    i, j = pairs[rp.index]
                    draws[(methods[i], methods[j])] = shares[g]
    bar.close()
    if rope == 0:
        prob, reasons = _two_regions(prob, reasons, n_shared > 0)
    return _assemble("signed_rank", methods, pairs, n_shared, prob, means, reasons, rope=rope,
                     prior="pseudo_observation", prior_strength=prior_strength, threshold=threshold,
                     method="sampling", n_samples=n_samples, direction=counts_all.direction, draws=draws,
                     reproduce=reproduce)


def _chunk_draws(size: int, n_samples: int) -> int:
    """Draws generated at once: a multiple of the kernel block, with at most ~4M weights in memory."""
    chunk = max(_KERNEL_BLOCK, (_BLOCK_WEIGHTS // size) // _KERNEL_BLOCK * _KERNEL_BLOCK)
    return min(chunk, n_samples)


def _dirichlet_process_weights(rng: np.random.Generator, n_draws: int, size: int, prior_strength: float):
    """Dirichlet(s, 1, ..., 1) draws as columns (size, n_draws): Gamma(s) for the pseudo-observation
    (row 0), Exp(1) = Gamma(1) for the datasets, each column divided by its sum."""
    gammas = np.empty((size, n_draws))
    gammas[0] = rng.standard_gamma(prior_strength, n_draws)
    gammas[1:] = rng.standard_exponential((size - 1, n_draws))
    gammas /= gammas.sum(axis=0, keepdims=True)
    return gammas


# --------------------------------------------------------------------------- two methods alone

def _as_vector(name: str, values):
    if isinstance(values, pd.Series):
        return values
    arr = np.asarray(values)
    if arr.ndim == 2:
        raise McdaArgumentError(f"`{name}` is 2-dimensional (shape {arr.shape}); baycomp's two_on_multiple would run its "
                         "hierarchical model on per-fold scores, which mcda does not implement. Pass one score "
                         "per dataset (e.g. the mean over folds), or use correlated_t_test per dataset.", argument=name)
    if arr.ndim != 1:
        raise McdaArgumentError(f"`{name}` must be one-dimensional (one score per dataset); got shape {arr.shape}.",
                                argument=name)
    return arr


@states_scale
def two_on_multiple(x, y, *, direction=None, metric=None, rope=None, test: str = "signed_rank",
                    method_names=("x", "y"), **options) -> BayesianComparison:
    """Two methods on several datasets, given as two score vectors (baycomp's ``two_on_multiple``).

    Parameters
    ----------
    x, y : array-like or pandas.Series
        One score per dataset for each method (same length; two Series are aligned on their
        index, which then names the datasets). NaN marks a missing result.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    metric : str, optional
        A metric card name (gives the direction and, with ``rope=None``, the rope).
    rope : float, optional
        Half-width of the region of practical equivalence (None: the card's noise floor).
    test : {"signed_rank", "sign"}
        (also spelt "bayesian-signed-rank", "bayesian-sign", the registry's names)
        :func:`bayesian_signed_rank_comparison` (baycomp's choice for one-dimensional
        scores) or :func:`bayesian_sign_comparison`.
    method_names : pair of str
        Labels of ``x`` and ``y``.
    **options
        Passed to the test (``n_samples``, ``rng``, ``reproduce``, ``prior``, ``method`` ...).

    Returns
    -------
    BayesianComparison
        With one pair: ``method_a`` is ``x``, ``method_b`` is ``y``. baycomp's
        (p_left, p_rope, p_right) are ``(prob_a_better, prob_equivalent, prob_b_better)``.

    Raises
    ------
    ValueError
        ``x`` or ``y`` not one-dimensional (baycomp's hierarchical model is not
        implemented), different lengths, an unknown ``test``, or any error of the test.

    Notes
    -----
    See :func:`bayesian_signed_rank_comparison` and :func:`bayesian_sign_comparison`.

    References
    ----------
    .. [1] Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a change:
       a tutorial for comparing multiple classifiers through Bayesian analysis. JMLR
       18(77):1-36. https://jmlr.org/papers/v18/16-305.html

    Examples
    --------
    >>> from mcda import two_on_multiple
    >>> x = [0.81, 0.75, 0.90, 0.66, 0.72, 0.88]
    >>> y = [0.84, 0.79, 0.91, 0.70, 0.75, 0.90]
    >>> result = two_on_multiple(x, y, direction="higher_is_better", rope=0.01, rng=1)
    >>> row = result.to_frame().iloc[0]
    >>> row["method_a"], row["method_b"], row["label"]
    ('x', 'y', 'b_better')
    """
    run = load(canonical("test", test, allowed=TESTS))
    names = [str(m) for m in method_names]
    if len(names) != 2 or names[0] == names[1]:
        raise McdaArgumentError(f"`method_names` must be two different labels; got {list(method_names)!r}.",
                                argument="method_names")
    xv, yv = _as_vector("x", x), _as_vector("y", y)
    if isinstance(xv, pd.Series) and isinstance(yv, pd.Series):
        frame = pd.concat([xv.rename(names[0]), yv.rename(names[1])], axis=1)
        frame.index = [str(i) for i in frame.index]
    else:
        xa, ya = np.asarray(xv), np.asarray(yv)
        if xa.shape != ya.shape:
            raise McdaArgumentError(f"`x` and `y` must have the same length; got {xa.shape[0]} and {ya.shape[0]}.",
                                    argument="x")
        frame = pd.DataFrame({names[0]: xa, names[1]: ya}, index=[str(i) for i in range(xa.shape[0])])
    if frame.shape[0] == 0:
        raise McdaArgumentError("`x` and `y` are empty: no datasets.", argument="x")
    from mcda.data.cube import score_cube

    cube = score_cube(frame, metric=metric, direction=direction)
    one_sided = cube.isnull().any("method").values & ~cube.isnull().all("method").values
    if one_sided.any():  # a pair is compared on the datasets where both have a result: say which are left out
        lacking = [f"{d} ({names[0] if np.isnan(v[0]) else names[1]} missing)"
                   for d, v in zip(cube.coords["dataset"].values[one_sided], cube.values[one_sided])]
        warn(f"{int(one_sided.sum())} of {cube.sizes['dataset']} datasets have a result for only one of the two "
             f"methods and are left out of the comparison (nothing is imputed): {_shown(lacking, fmt=str)}.",
             MissingDataWarning)
    return run(cube, rope=rope, **options)
