"""design_power: the simulation decides as mcda's procedures do, and its powers meet closed forms.

Oracles:
- the decisions of the numba kernel on single simulated benchmarks against mcda's own procedures
  (compare_over_datasets, pairwise_over_datasets, pairwise_superiority, bayesian_sign_comparison)
  run on the same scores (exact-null, sign-flip and normal-approximation branches of Wilcoxon,
  ties, zeros and rope boundaries included);
- a plain-Python simulation running those procedures on the same draws (identical powers);
- the sign test's exact power from the binomial distribution (scipy.stats.binom / binomtest);
- the Bayesian sign test's exact decision rate, summing the multinomial distribution of the
  region counts (scipy.stats.multinomial) over the decisions of mcda.bayesian_sign_comparison;
- the Friedman test's noncentral chi-squared approximation (Lehmann 1975, §6.5) under a
  location shift, scipy.stats.ncx2.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

import mcda
from mcda.stats.across import power as dp

PROCEDURES = dp.TESTS  # kernel rows in this order


def _cube(values):
    return mcda.score_cube(np.asarray(values, dtype=float), direction="higher_is_better")


def _real_decisions(values, alpha, rope):
    """(5, m) booleans: the pairs mcda's procedures separate on one benchmark (pairs in triu order)."""
    cube = _cube(values)
    k = values.shape[1]
    a, b = np.triu_indices(k, 1)
    out = np.zeros((5, a.size), dtype=bool)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for row, test in enumerate(("nemenyi", "holm")):
            comparison = mcda.compare_over_datasets(cube, test=test, alpha=alpha)
            if comparison.posthoc is not None:
                out[row] = comparison.posthoc.significant.to_numpy()[a, b]
        out[2] = mcda.pairwise_over_datasets(cube, test="wilcoxon", alpha=alpha).table["significant"].to_numpy()
        sup = mcda.pairwise_superiority(cube, rope=rope, alpha=alpha, adjust="holm").to_frame()
        out[3] = (sup["p_adjusted"].to_numpy(dtype=float) <= alpha)
        labels = mcda.bayesian_sign_comparison(cube, rope=rope).to_frame()["label"].to_numpy()
        out[4] = np.isin(labels, ["a_better", "b_better"])
    return out


def _kernel_decisions(values, alpha, rope):
    enabled = np.ones(5, dtype=np.int64)
    n, k = values.shape
    pair_counts, _, _ = dp._simulate([np.ascontiguousarray(values[None], dtype=float)], n, k, alpha, rope, enabled)
    return pair_counts.astype(bool)


@pytest.mark.parametrize("n,decimals,rope", [(8, 1, 0.0), (8, 1, 0.1), (12, None, 0.0), (30, 1, 0.1),
                                             (60, None, 0.2)])
def test_the_kernel_decides_as_mcdas_procedures(n, decimals, rope):
    # oracle: mcda's procedures on the same benchmark. N = 8 with one decimal: ties and zeros
    # (Wilcoxon's sign-flip p) and differences on the rope's boundary; N = 12: the exact null;
    # N = 30 with ties and N = 60: the normal approximation
    rng = np.random.default_rng(n)
    separated = 0
    for _ in range(4):
        values = rng.normal(0.0, 0.3, (n, 5)) + np.array([0.0, 0.1, 0.2, 0.4, 0.7])
        if decimals is not None:
            values = np.round(values, decimals)
        want = _real_decisions(values, 0.05, rope)
        got = _kernel_decisions(values, 0.05, rope)
        np.testing.assert_array_equal(got, want)
        separated += want.sum()
    assert separated > 0  # the comparison saw decisions, not only "nothing separated"


def _model_means(effects):
    """The effects model of design_power's Notes: oriented, in decreasing order, centred."""
    e = np.sort(np.asarray(effects, dtype=float))[::-1]
    return e - e.mean()


def test_the_power_equals_a_plain_simulation_on_the_same_draws():
    # oracle: a plain-Python loop running mcda's procedures on each benchmark drawn from the same
    # rng stream (design_power's first draws are its power simulation: standard normals
    # (n_resamples, N, k), scaled by sd and added to the means)
    effects, sd, n, reps, rope = [0.0, 0.3, 0.9], 0.5, 10, 25, 0.2
    result = dp.design_power(effects, sd=sd, n_datasets=n, n_resamples=reps, rope=rope, rng=11, max_datasets=None)
    z = np.random.default_rng(11).standard_normal((reps, n, 3))
    values = _model_means(effects) + sd * z
    counts = sum(_real_decisions(v, 0.05, rope).astype(int) for v in values)
    any_counts = sum(_real_decisions(v, 0.05, rope).any(axis=1).astype(int) for v in values)
    for row, test in enumerate(PROCEDURES):
        pairs = result.pairs[result.pairs["test"] == test]
        np.testing.assert_array_equal(pairs["power"].to_numpy(), counts[row] / reps)
        assert result.row(test)["power"] == any_counts[row] / reps


def _sign_power(n, p_win, alpha):
    """Exact power of the two-sided sign test (scipy.stats.binomtest's p) when a dataset is a win with p_win."""
    wins = np.arange(n + 1)
    reject = np.array([stats.binomtest(w, n, 0.5).pvalue <= alpha for w in wins])
    return float(stats.binom.pmf(wins, n, p_win)[reject].sum())


def test_the_sign_tests_power_is_the_binomial_one():
    # two methods: one pair, so Holm is the plain test; d ~ N(delta, 2 sd^2) wins with Φ(delta / (sd √2))
    delta, n, reps = 0.8, 15, 4000
    result = dp.design_power([delta, 0.0], sd=1.0, n_datasets=n, tests=("sign",), n_resamples=reps, rng=3,
                             max_datasets=None)
    exact = _sign_power(n, stats.norm.cdf(delta / math.sqrt(2.0)), 0.05)
    se = math.sqrt(exact * (1 - exact) / reps)
    assert abs(result.row("sign")["power"] - exact) < 4 * se, (result.row("sign")["power"], exact)


def test_the_sign_tests_detectable_shift_is_the_binomial_one():
    # the shift at which the exact power reaches 0.8, by bisection on the binomial formula
    n, reps = 15, 3000
    result = dp.design_power([0.0, 0.0], sd=1.0, n_datasets=n, tests=("sign",), n_resamples=reps, rng=4,
                             max_datasets=None)
    lo, hi = 0.0, 8.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _sign_power(n, stats.norm.cdf(mid / math.sqrt(2.0)), 0.05) < 0.8 else (lo, mid)
    # the simulated power has se 0.007 at 0.8 and its slope there is about 0.45 per sd: ±0.05 sd is 3 se
    assert abs(result.row("sign")["mdd_std"] - hi) < 0.05, (result.row("sign")["mdd_std"], hi)


def test_the_bayesian_sign_tests_decision_rate_is_the_multinomial_sum():
    # each dataset falls in a region with probabilities from d ~ N(delta, 2 sd^2) and the rope; the
    # decision of every count triple is mcda.bayesian_sign_comparison's on a benchmark with those counts
    delta, n, rope, reps = 0.5, 10, 0.3, 3000
    scale = math.sqrt(2.0)
    p_win = stats.norm.sf((rope - delta) / scale)
    p_loss = stats.norm.cdf((-rope - delta) / scale)
    probs = [p_win, 1.0 - p_win - p_loss, p_loss]
    rate = 0.0
    for wins in range(n + 1):
        for losses in range(n + 1 - wins):
            equal = n - wins - losses
            x = np.array([1.0] * wins + [0.0] * equal + [-1.0] * losses)
            cube = _cube(np.column_stack([x, np.zeros(n)]))
            label = mcda.bayesian_sign_comparison(cube, rope=rope).to_frame()["label"].iloc[0]
            if label in ("a_better", "b_better"):
                rate += stats.multinomial.pmf([wins, equal, losses], n, probs)
    result = dp.design_power([delta, 0.0], sd=1.0, n_datasets=n, tests=("bayesian-sign",), rope=rope,
                             n_resamples=reps, rng=5, max_datasets=None)
    se = math.sqrt(rate * (1 - rate) / reps)
    assert abs(result.row("bayesian-sign")["power"] - rate) < 4 * se, (result.row("bayesian-sign")["power"], rate)


def test_the_friedman_omnibus_power_meets_the_noncentral_chi2_approximation():
    # Friedman's statistic under a location shift is approximately noncentral chi2(k - 1, λ) with
    # λ = 12N/(k(k+1)) Σ (E R_j − (k+1)/2)² (Lehmann 1975, §6.5). One method ahead by delta (sd 1):
    # E R = 1 + (k−1)(1 − Φ) for it and 1 + Φ + (k−2)/2 for the others, Φ = Φ(delta/√2).
    # Tolerance 0.06: the approximation ignores how the alternative changes the ranks' variance, and
    # mcda decides with the Iman–Davenport F, a little more powerful than the chi2 (about 0.03 here);
    # the Monte Carlo se at 2000 benchmarks is 0.011.
    k, n, delta, reps = 4, 20, 0.7, 2000
    phi = stats.norm.cdf(delta / math.sqrt(2.0))
    expected = np.array([1 + (k - 1) * (1 - phi)] + [1 + phi + (k - 2) / 2] * (k - 1))
    lam = 12 * n / (k * (k + 1)) * ((expected - (k + 1) / 2) ** 2).sum()
    approx = stats.ncx2.sf(stats.chi2.isf(0.05, k - 1), k - 1, lam)
    result = dp.design_power([delta] + [0.0] * (k - 1), sd=1.0, n_datasets=n, tests=("nemenyi",), n_resamples=reps,
                             rng=6, max_datasets=None)
    assert abs(result.row("nemenyi")["omnibus_power"] - approx) < 0.06, (result.row("nemenyi")["omnibus_power"],
                                                                          approx)


def test_the_mean_rank_gap_is_the_closed_form_of_the_shift():
    # E(mean rank of another) − E(mean rank of the leader) = k (Φ(δ/√2) − 1/2), checked by simulation (numpy)
    k, delta = 5, 0.9
    z = np.random.default_rng(0).standard_normal((200_000, k))
    z[:, 0] += delta
    ranks = stats.rankdata(-z, axis=1)
    simulated = ranks[:, 1:].mean() - ranks[:, 0].mean()
    assert abs(k * (stats.norm.cdf(delta / math.sqrt(2)) - 0.5) - simulated) < 0.01
    result = dp.design_power([0.0] * k, sd=1.0, n_datasets=12, tests=("holm",), n_resamples=50, rng=0,
                             max_datasets=None)
    row = result.row("holm")
    assert row["mdd_rank"] == pytest.approx(k * (stats.norm.cdf(row["mdd_std"] / math.sqrt(2)) - 0.5), rel=1e-12)


def test_a_design_that_cannot_separate_says_so():
    # 15 methods on 8 datasets: 2/2^8 > 0.05/105 (attainable_significance), so no lead is detected by
    # Wilcoxon-Holm or the sign tests, however large
    result = dp.design_power([0.0] * 15, sd=1.0, n_datasets=8, tests=("wilcoxon", "sign"), n_resamples=20, rng=0,
                             max_datasets=None)
    assert mcda.attainable_significance(8, 15).attainable is False
    for test in ("wilcoxon", "sign"):
        row = result.row(test)
        assert math.isnan(row["mdd"]) and "2/2^8" in row["reason"]
        assert "could not have detected a lead of any size" in result.sentence(test)


def test_a_pilot_is_read_in_its_units_and_reproducible():
    cube = mcda.datasets.synthetic(n_datasets=12, n_methods=4, n_seeds=0, effects=[0, 0.01, 0.02, 0.05],
                                   dataset_sd=0.05, noise_sd=0.01, rng=2)
    a = mcda.design_power(cube, n_resamples=60, rng=7, max_datasets=40, tests=("sign", "bayesian-sign"))
    b = mcda.design_power(cube, n_resamples=60, rng=7, max_datasets=40, tests=("sign", "bayesian-sign"))
    assert a.table.equals(b.table) and a.pairs.equals(b.pairs)
    assert a.pilot_datasets == 12 and a.n_datasets == 12 and a.rope == 0.01  # the accuracy card's noise floor
    # the pooled noise: root mean over pairs of var(a − b)/2 (numpy, ddof = 1)
    values = cube.transpose("dataset", "method").values
    i, j = np.triu_indices(4, 1)
    pooled = math.sqrt(np.mean(np.var(values[:, i] - values[:, j], axis=0, ddof=1) / 2))
    assert a.sd == pytest.approx(pooled, rel=1e-10)
    assert (a.table["mdd"] == a.table["mdd_std"] * a.sd).all()
    flipped = mcda.design_power(mcda.score_cube(-values, direction="lower_is_better", metric=None), rope=0.01,
                                n_resamples=60, rng=7, max_datasets=40, tests=("sign", "bayesian-sign"))
    np.testing.assert_allclose(flipped.table["power"], a.table["power"])
    np.testing.assert_allclose(flipped.pairs["mean_diff"], -a.pairs["mean_diff"])


@pytest.mark.parametrize("kwargs,argument", [
    ({"tests": ("friedman",)}, "tests"), ({"target_power": 0.01}, "target_power"), ({"sd": 1.0}, "sd"),
    ({"n_resamples": 1}, "n_resamples"), ({"max_datasets": 1}, "max_datasets"), ({"n_datasets": 1}, "n_datasets"),
])
def test_bad_arguments_are_named(kwargs, argument):
    cube = mcda.datasets.synthetic(n_datasets=6, n_methods=3, n_seeds=0, rng=0)
    with pytest.raises(mcda.McdaArgumentError) as raised:
        mcda.design_power(cube, **kwargs)
    assert raised.value.argument == argument


def test_effects_need_their_noise_and_size():
    with pytest.raises(mcda.McdaArgumentError, match="`sd`"):
        mcda.design_power([0.0, 1.0], n_datasets=10)
    with pytest.raises(mcda.McdaArgumentError, match="`n_datasets`"):
        mcda.design_power([0.0, 1.0], sd=1.0)


def test_the_kernels_rows_follow_the_registry():
    from mcda._core._kernels import design_power as kernel
    from mcda.stats.procedures import PROCEDURES

    rows = [kernel.NEMENYI, kernel.HOLM, kernel.WILCOXON, kernel.SIGN, kernel.BAYESIAN_SIGN]
    assert [PROCEDURES["design-power"].simulates[r] for r in rows] == ["nemenyi", "holm", "wilcoxon", "sign",
                                                                       "bayesian-sign"]
