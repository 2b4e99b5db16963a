"""The Bayesian Plackett-Luce model: the mode against choix's maximum likelihood, the sampler
against the exact posterior (importance sampling from the prior) with ties and missing cells,
recovery of known worths, Bradley-Terry's order on transitive data, ties and errors."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pandas as pd
import pytest

import mcda
from mcda import TiesWarning, plackett_luce, score_cube


def _pl_rankings(rng, worths, n_rankings):
    """Rankings drawn from the Plackett-Luce model (Gumbel trick: sort log w + Gumbel noise)."""
    keys = np.log(worths)[None, :] + rng.gumbel(size=(n_rankings, worths.size))
    return np.argsort(-keys, axis=1)


def _cube_from_rankings(rankings, k, missing=None):
    """Scores whose order in every dataset is the ranking (best first); NaN where ``missing``."""
    scores = np.empty((len(rankings), k))
    for d, order in enumerate(rankings):
        scores[d, order] = np.arange(k, 0, -1, dtype=float)
    if missing is not None:
        scores[missing] = np.nan
    return score_cube(scores, direction="higher_is_better", method_names=[f"m{j}" for j in range(k)])


def _choix_data(cube):
    values = cube.values
    data = []
    for row in values:
        present = np.nonzero(~np.isnan(row))[0]
        data.append(tuple(int(j) for j in present[np.argsort(-row[present])]))
    return data


def test_mode_under_a_flat_prior_is_choix_maximum_likelihood():
    choix = pytest.importorskip("choix")
    rng = np.random.default_rng(0)
    worths = np.array([0.35, 0.25, 0.2, 0.12, 0.08])
    rankings = _pl_rankings(rng, worths, 40)
    missing = rng.random((40, 5)) < 0.15  # partial rankings: choix takes them as orderings of a subset
    cube = _cube_from_rankings(rankings, 5, missing)
    result = plackett_luce(cube, prior_strength=1.0, rng=0, n_samples=500)
    data = [r for r in _choix_data(cube) if len(r) >= 2]
    for fit in (choix.opt_rankings(5, data, alpha=0.0, tol=1e-12), choix.ilsr_rankings(5, data, tol=1e-12)):
        reference = np.exp(fit) / np.exp(fit).sum()
        np.testing.assert_allclose(result.to_frame()["worth_mode"], reference, atol=1e-6)


def _log_lik_with_ties(theta, rankings_with_groups):
    """log P(tied rankings | theta): the sum over the orders each tie allows (brute force)."""
    total = np.zeros(theta.shape[0])
    for groups in rankings_with_groups:
        options = [list(itertools.permutations(g)) for g in groups]
        lik = np.zeros(theta.shape[0])
        for combo in itertools.product(*options):
            order = [j for block in combo for j in block]
            p = np.ones(theta.shape[0])
            for pos in range(len(order) - 1):
                p *= theta[:, order[pos]] / theta[:, order[pos:]].sum(axis=1)
            lik += p
        total += np.log(lik)
    return total


def test_sampler_matches_the_exact_posterior_with_ties_and_missing_cells():
    # three methods; a tie in two datasets, a missing cell in one; the exact posterior mean of the
    # worths by self-normalised importance sampling from the Dirichlet(1) prior
    scores = np.array([[3.0, 2.0, 1.0], [3.0, 1.0, 2.0], [2.0, 2.0, 1.0], [1.0, 3.0, 2.0], [3.0, np.nan, 1.0],
                       [2.0, 1.0, 1.0], [3.0, 2.0, 1.0]])
    groups = [[(0,), (1,), (2,)], [(0,), (2,), (1,)], [(0, 1), (2,)], [(1,), (2,), (0,)], [(0,), (2,)],
              [(0,), (1, 2)], [(0,), (1,), (2,)]]
    cube = score_cube(scores, direction="higher_is_better", method_names=["a", "b", "c"])
    rng = np.random.default_rng(1)
    theta = rng.dirichlet(np.ones(3), 400_000)
    log_w = _log_lik_with_ties(theta, groups)
    weights = np.exp(log_w - log_w.max())
    weights /= weights.sum()
    exact_mean = weights @ theta
    exact_sd = np.sqrt(weights @ (theta - exact_mean) ** 2)
    exact_best = weights @ (theta.argmax(axis=1)[:, None] == np.arange(3)).astype(float)
    with pytest.warns(TiesWarning, match="2 of 7 rankings"):
        result = plackett_luce(cube, rng=3, n_samples=5000)
    frame = result.to_frame()
    ess = result.diagnostics[["ess_bulk"]].to_numpy().min()
    np.testing.assert_allclose(frame["worth"], exact_mean, atol=4 * exact_sd.max() / np.sqrt(ess) + 2e-3)
    np.testing.assert_allclose(frame["prob_best"], exact_best, atol=0.03)


def test_sampler_matches_the_exact_posterior_with_ties_of_three_above_below_and_between():
    # five methods; ties of three at the top, in the middle and at the bottom of a ranking (the
    # moves on a tie's order see worth ranked below it, or none), a missing cell; the exact
    # posterior by self-normalised importance sampling from the Dirichlet(1) prior, as above
    scores = np.array([[5.0, 3.0, 3.0, 3.0, 1.0], [3.0, 3.0, 3.0, 2.0, 1.0], [5.0, 4.0, 1.0, 1.0, 1.0],
                       [4.0, 5.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 4.0, 3.0, np.nan, 1.0],
                       [2.0, 2.0, 5.0, 2.0, 1.0], [5.0, 1.0, 4.0, 3.0, 2.0]])
    groups = [[(0,), (1, 2, 3), (4,)], [(0, 1, 2), (3,), (4,)], [(0,), (1,), (2, 3, 4)],
              [(1,), (0,), (2,), (3,), (4,)], [(4,), (3,), (2,), (1,), (0,)], [(0,), (1,), (2,), (4,)],
              [(2,), (0, 1, 3), (4,)], [(0,), (2,), (3,), (4,), (1,)]]
    cube = score_cube(scores, direction="higher_is_better", method_names=list("abcde"))
    rng = np.random.default_rng(2)
    theta = rng.dirichlet(np.ones(5), 400_000)
    log_w = _log_lik_with_ties(theta, groups)
    weights = np.exp(log_w - log_w.max())
    weights /= weights.sum()
    assert 1.0 / (weights ** 2).sum() > 5_000  # the importance sampler's own effective size
    exact_mean = weights @ theta
    exact_sd = np.sqrt(weights @ (theta - exact_mean) ** 2)
    exact_best = weights @ (theta.argmax(axis=1)[:, None] == np.arange(5)).astype(float)
    with pytest.warns(TiesWarning, match="4 of 8 rankings"):
        result = plackett_luce(cube, rng=4, n_samples=5000)
    assert not result.reason
    frame = result.to_frame()
    ess = result.diagnostics[["ess_bulk"]].to_numpy().min()
    np.testing.assert_allclose(frame["worth"], exact_mean, atol=4 * exact_sd.max() / np.sqrt(ess) + 2e-3)
    np.testing.assert_allclose(frame["prob_best"], exact_best, atol=0.03)


@pytest.mark.parametrize("move", ["plackett_luce_draw", "neighbour_swaps"])
@pytest.mark.parametrize("below", [0.05, 0.0, 3.0])
def test_each_tie_order_move_leaves_the_conditional_order_distribution_invariant(move, below):
    """Each Metropolis step on a tie's order, run alone at fixed worths, visits each order of a tie of
    three as often as p(order | w) ∝ Π_p w_(p) / (S_below + Σ_(l ≥ p) w_(l)) says (computed here by
    enumeration), with little (0.05), no (0: the tie ends the ranking) and much (3.0) worth below."""
    w = np.array([0.3, 0.45, 0.15, 0.05, below if below else 1.0])
    # the tie holds the items 1, 2, 3; item 4 is ranked below it (or, with no worth below, above it)
    order = np.array([0, 1, 2, 3, 4] if below else [4, 0, 1, 2, 3], dtype=np.int64)
    a, b = (1, 4) if below else (2, 5)
    exact = {}
    for perm in itertools.permutations((1, 2, 3)):
        p, rest = 1.0, below + sum(w[j] for j in perm)
        for j in perm:
            p *= w[j] / rest
            rest -= w[j]
        exact[perm] = p
    total = sum(exact.values())
    n = 400_000
    visited = _run_tie_move(order, a, b, below, w, n, move == "neighbour_swaps")
    seen = dict.fromkeys(exact, 0)
    for perm, count in zip(*np.unique(visited, axis=0, return_counts=True)):
        seen[tuple(int(j) for j in perm)] = int(count)
    for perm in exact:  # 400,000 correlated draws: a probability's Monte Carlo error is about 0.001
        assert seen[perm] / n == pytest.approx(exact[perm] / total, abs=0.006), perm


@functools.lru_cache(maxsize=None)
def _tie_move_driver():
    import numba

    from mcda._core._kernels.plackett_luce import _update_tied_orders

    @numba.njit
    def run(order, a, b, below, w, n, swaps):
        np.random.seed(7)
        offsets = np.array([0, order.size], dtype=np.int64)
        start, stop, owner = np.array([a], dtype=np.int64), np.array([b], dtype=np.int64), np.zeros(1, dtype=np.int64)
        suffix, scratch, keys = np.empty(order.size), np.empty(order.size, dtype=np.int64), np.empty(order.size)
        out = np.empty((n, b - a), dtype=np.int64)
        for i in range(n):  # one move alone: the Plackett-Luce draw (no swap), or g swaps (no draw)
            _update_tied_orders(order, offsets, start, stop, owner, w, suffix, scratch, keys, not swaps,
                                1 if swaps else 0)
            out[i] = order[a:b]
        return out

    return run


def _run_tie_move(order, a, b, below, w, n, swaps):
    """The orders of the tie at places a … b − 1 after each of n steps of one move, run in one compiled loop."""
    return _tie_move_driver()(order, a, b, float(below), w, n, bool(swaps))


@pytest.mark.parametrize("shape", [0.3, 1.0, 2.5, 21.0, 400.0])
def test_the_samplers_gamma_draws_follow_scipys_gamma(shape):
    """The sampler's own Gamma draws (Marsaglia & Tsang; shape < 1 boosted) against scipy's Gamma
    distribution: a Kolmogorov-Smirnov test of 50,000 draws at a fixed seed, and the mean."""
    from scipy import stats

    draws = _gamma_driver()(shape, 2.0, 50_000, 1)
    assert stats.kstest(draws, stats.gamma(shape, scale=2.0).cdf).pvalue > 1e-3
    assert draws.mean() == pytest.approx(2.0 * shape, rel=4 * np.sqrt(1 / shape / 50_000))


@functools.lru_cache(maxsize=None)
def _gamma_driver():
    import numba

    from mcda._core._kernels.plackett_luce import _gamma

    @numba.njit
    def run(shape, scale, n, seed):
        np.random.seed(seed)
        out = np.empty(n)
        for i in range(n):
            out[i] = _gamma(shape, scale)
        return out

    return run


def test_recovers_known_worths():
    rng = np.random.default_rng(5)
    worths = np.array([0.3, 0.25, 0.18, 0.12, 0.1, 0.05])
    cube = _cube_from_rankings(_pl_rankings(rng, worths, 300), 6)
    frame = plackett_luce(cube, rng=0).to_frame()
    assert ((frame["worth_ci_low"] < worths) & (worths < frame["worth_ci_high"])).all()
    sd = (frame["worth_ci_high"] - frame["worth_ci_low"]) / (2 * 1.96)
    assert (np.abs(frame["worth"] - worths) < 3 * sd).all()
    # the posterior concentrates at the mode with this much data
    np.testing.assert_allclose(frame["worth"], frame["worth_mode"], atol=0.01)


def test_order_agrees_with_bradley_terry_on_transitive_data():
    rng = np.random.default_rng(7)
    k, n = 5, 30
    values = np.arange(k)[None, :] * 0.01 + rng.normal(0, 0.012, (n, k)) + 0.7
    cube = score_cube(values, metric="accuracy", method_names=[f"m{j}" for j in range(k)])
    counts = mcda.pairwise_counts(cube, rope=0.0)
    assert mcda.pairwise_transitivity(counts).is_transitive
    bt = mcda.bradley_terry(counts)
    pl = plackett_luce(cube, rng=0)
    assert pl.order == list(bt.order)


def test_probabilities_are_coherent_and_follow_the_labels():
    rng = np.random.default_rng(9)
    cube = _cube_from_rankings(_pl_rankings(rng, np.array([0.4, 0.3, 0.2, 0.1]), 25), 4)
    result = plackett_luce(cube, rng=1)
    ranks = result.rank_probabilities
    np.testing.assert_allclose(ranks.sum(axis=1), 1.0)
    np.testing.assert_allclose(ranks.sum(axis=0), 1.0)
    np.testing.assert_allclose(result.to_frame()["prob_best"], ranks[1])
    pairs = result.pairs
    assert ((pairs["ci_low"] <= pairs["prob_a_above_b"]) & (pairs["prob_a_above_b"] <= pairs["ci_high"])).all()
    # relabelling the methods permutes the output (the same draws: one chain's seed per chain)
    renamed = cube.assign_coords(method=[f"x{j}" for j in range(4)])
    again = plackett_luce(renamed, rng=1).to_frame()
    np.testing.assert_allclose(again["worth"], result.to_frame()["worth"])
    # flipping the direction together with the scores changes nothing
    flipped = score_cube(-cube.values, direction="lower_is_better", method_names=list(cube["method"].values))
    np.testing.assert_allclose(plackett_luce(flipped, rng=1).to_frame()["worth"], result.to_frame()["worth"])


def test_ties_refused_or_broken_and_errors():
    scores = np.array([[1.0, 1.0, 0.5], [0.9, 0.8, 0.7], [0.5, 0.7, 0.6]])
    cube = score_cube(scores, direction="higher_is_better", method_names=["a", "b", "c"])
    with pytest.raises(ValueError, match="tied scores \\('dataset_0'\\)"):
        plackett_luce(cube, ties="refuse")
    with pytest.warns(TiesWarning, match="broken once"):
        result = plackett_luce(cube, ties="random", rng=0, n_samples=500)
    assert np.isfinite(result.to_frame()["worth_mode"]).all()
    with pytest.raises(ValueError, match="`ties`"):
        plackett_luce(cube, ties="split")
    with pytest.raises(ValueError, match="at least 2 datasets"):
        plackett_luce(cube.isel(dataset=[0]))
    with pytest.raises(ValueError, match="'seed' dim"):
        plackett_luce(mcda.datasets.load("benavoli2017_uci54_folds"))


def test_refuses_unconverged_probabilities():
    rng = np.random.default_rng(2)
    cube = _cube_from_rankings(_pl_rankings(rng, np.array([0.5, 0.3, 0.2]), 10), 3)
    result = plackett_luce(cube, rng=0, n_samples=20, n_warmup=0)
    assert "not converged" in result.reason
    assert result.to_frame()["prob_best"].isna().all()


def test_deterministic_given_rng():
    cube = mcda.datasets.load("garcia_herrera2008")
    with pytest.warns(TiesWarning):
        first = plackett_luce(cube, rng=4, n_samples=500)
    with pytest.warns(TiesWarning):
        second = plackett_luce(cube, rng=4, n_samples=500)
    pd.testing.assert_frame_equal(first.to_frame(), second.to_frame())


def test_no_rank_probabilities_no_nan_text(monkeypatch):
    """Chains not converged: the probabilities are NaN with a reason. The report quotes worths only,
    the reason first (not a line of 'P(best) nan' per method)."""
    import dataclasses

    cube = mcda.datasets.load("garcia_herrera2008")
    with pytest.warns(TiesWarning, match="tied scores"):
        result = mcda.plackett_luce(cube, n_samples=300, rng=0)
    reason = "the chains have not converged enough to report probabilities: (a test)"
    nan = result.rank_probabilities * np.nan
    failed = dataclasses.replace(result, reason=reason, rank_probabilities=nan,
                                 table=result.table.assign(prob_best=np.nan, expected_rank=np.nan))
    report = mcda.Report(cube, rng=0)
    monkeypatch.setattr(mcda.Report, "plackett_luce", lambda self, *a, **k: failed)
    text = report._plackett_luce_text()
    assert "nan" not in text and "P(best) and expected ranks not reported: " + reason in text
    assert text.count(": worth ") == len(result.methods)
