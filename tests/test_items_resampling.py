"""Paired permutation tests and paired bootstrap intervals over items (mcda.stats.items.resampling).

Oracles: scipy.stats.permutation_test (permutation_type="samples") and scipy.stats.bootstrap on the
unclustered case (exactly where every sign pattern is enumerated, within Monte Carlo error
otherwise); a by-hand cluster permutation (itertools over every sign pattern) and a by-hand cluster
bootstrap (pandas groupby sums, the draws rebuilt from the kernels' documented stream in plain
Python integers, numpy quantiles) on the clustered case; statsmodels' multipletests for the
adjustment.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats as ss
import xarray as xr
from statsmodels.stats.multitest import multipletests

import mcda
from mcda._core._kernels import item_resampling as kernels

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _output(key: int, w: int) -> int:
    """Output w of the SplitMix64 stream the kernels document: mix(key + (w + 1) · GOLDEN)."""
    return _mix((key + (w + 1) * GOLDEN) & MASK)


def _reference_signs(key: int, first: int, last: int, n_units: int) -> np.ndarray:
    words = (n_units + 63) // 64
    out = np.empty((last - first, n_units))
    for b in range(first, last):
        for c in range(n_units):
            bit = (_output(key, b * words + c // 64) >> (c % 64)) & 1
            out[b - first, c] = 1.0 if bit else -1.0
    return out


def _reference_counts(key: int, first: int, last: int, n_units: int) -> np.ndarray:
    out = np.zeros((last - first, n_units))
    for b in range(first, last):
        for j in range(n_units):
            u = (_output(key, b * n_units + j) >> 11) / 2.0**53
            out[b - first, min(int(u * n_units), n_units - 1)] += 1
    return out


def _key(rng) -> int:
    """The key the functions draw first from their ``rng``."""
    return int(np.random.default_rng(rng).integers(0, 2**64, dtype=np.uint64))


def _cube(values, clusters=None, items=None, direction="higher_is_better", metric=None):
    """A one-dataset item cube from a methods × items array."""
    values = np.asarray(values, dtype=float)
    k, n = values.shape
    coords = {"dataset": ["test"], "method": [f"m{i}" for i in range(k)],
              "item": np.arange(n) if items is None else items}
    da = xr.DataArray(values[None], dims=("dataset", "method", "item"), coords=coords)
    if clusters is not None:
        da = da.assign_coords(cluster=("item", list(clusters)))
    return mcda.score_cube(da, metric=metric, direction=None if metric else direction)


# --------------------------------------------------------------------------- kernels against their reference


def test_kernel_draws_equal_the_documented_stream():
    key = 0x0123456789ABCDEF
    for n_units in (1, 7, 64, 70):
        signs = np.empty((5, n_units))
        kernels.sign_rows(np.uint64(key), 3, 8, n_units, signs)
        np.testing.assert_array_equal(signs, _reference_signs(key, 3, 8, n_units))
        counts = np.empty((4, n_units))
        kernels.count_rows(np.uint64(key), 2, 6, n_units, counts)
        np.testing.assert_array_equal(counts, _reference_counts(key, 2, 6, n_units))
        assert (counts.sum(axis=1) == n_units).all()
    every = np.empty((8, 3))
    kernels.exact_sign_rows(0, 8, 3, every)
    assert {tuple(r) for r in every} == set(itertools.product((1.0, -1.0), repeat=3))


def test_pair_kernels_equal_plain_numpy():
    rng = np.random.default_rng(1)
    sums = rng.normal(size=(30, 4))
    sizes = rng.integers(1, 5, 30).astype(float)
    a, b = np.array([0, 0, 2]), np.array([1, 3, 1])
    absolute, identical = np.empty(3), np.empty(3, dtype=bool)
    kernels.pair_spreads(sums, a, b, absolute, identical)
    np.testing.assert_allclose(absolute, np.abs(sums[:, a] - sums[:, b]).sum(axis=0), rtol=1e-13)
    assert not identical.any()
    accel = np.empty(3)
    kernels.jackknife_acceleration(sums, sizes, a, b, accel)
    d = sums[:, a] - sums[:, b]
    jack = (d.sum(axis=0) - d) / (sizes.sum() - sizes)[:, None]  # leave one unit out
    u = jack.mean(axis=0) - jack
    np.testing.assert_allclose(accel, (u**3).sum(axis=0) / (6 * ((u**2).sum(axis=0)) ** 1.5), rtol=1e-12)
    draws = rng.normal(size=(50, 4))
    den = rng.uniform(1, 2, 50)
    probs = np.array([[0.025, 0.975], [0.1, 0.5], [0.0, 1.0]])
    out = np.empty((3, 2))
    kernels.pair_quantiles(draws, den, a, b, probs, out)
    for p in range(3):
        np.testing.assert_allclose(out[p], np.quantile((draws[:, a[p]] - draws[:, b[p]]) / den, probs[p]), rtol=1e-13)


# --------------------------------------------------------------------------- permutation test


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_exact_permutation_equals_scipy_permutation_test(alternative):
    # 11 items: 2**11 = 2048 sign patterns, enumerated by both (scipy: n_resamples >= 2048)
    rng = np.random.default_rng(3)
    x = np.round(rng.normal(0.6, 0.1, 11), 2)
    y = np.round(x - rng.normal(0.03, 0.05, 11), 2)
    result = mcda.paired_permutation_test(_cube([x, y]), alternative=alternative, n_resamples=9999, rng=0)
    row = result.table.iloc[0]
    scipy_p = ss.permutation_test((x, y), lambda a, b, axis: np.mean(a - b, axis=axis), permutation_type="samples",
                                  alternative=alternative, n_resamples=9999).pvalue
    assert row.exact
    np.testing.assert_allclose(row.p_raw, scipy_p, rtol=1e-12)
    np.testing.assert_allclose(row.mean_diff, np.mean(x - y), rtol=1e-12)


def test_random_permutation_agrees_with_scipy_within_monte_carlo_error():
    rng = np.random.default_rng(4)
    x = (rng.random(300) < 0.62).astype(float)
    y = np.where(rng.random(300) < 0.8, x, 1 - x)  # correlated binary scores, as two models on one test set
    result = mcda.paired_permutation_test(_cube([x, y]), n_resamples=19999, rng=1)
    scipy_p = ss.permutation_test((x, y), lambda a, b, axis: np.mean(a - b, axis=axis), permutation_type="samples",
                                  n_resamples=19999, rng=2).pvalue
    p = result.table.p_raw.iloc[0]
    assert not result.table.exact.iloc[0]
    assert 0.01 < p < 0.99
    assert abs(p - scipy_p) < 4 * np.sqrt(2 * p * (1 - p) / 19999)


def test_clustered_permutation_equals_every_sign_pattern_by_hand():
    rng = np.random.default_rng(5)
    clusters = np.array(list("aabbbcddeeef"))
    x = rng.normal(0.7, 0.1, 12)
    y = x - rng.normal(0.02, 0.05, 12)
    z = x - rng.normal(0.0, 0.05, 12)
    result = mcda.paired_permutation_test(_cube([x, y, z], clusters=clusters), adjust="holm", rng=0)
    for row in result.table.itertuples():
        a, b = {"m0": x, "m1": y, "m2": z}[row.method_a], {"m0": x, "m1": y, "m2": z}[row.method_b]
        sums = pd.Series(a - b).groupby(clusters).sum().to_numpy()  # one sum per cluster
        null = [abs(np.dot(s, sums)) for s in itertools.product((1, -1), repeat=len(sums))]
        by_hand = np.mean(np.array(null) >= abs(sums.sum()) - 1e-12)
        assert row.exact and row.n_clusters == 6 and row.n_items == 12
        np.testing.assert_allclose(row.p_raw, by_hand, rtol=1e-12)
    holm = multipletests(result.table.p_raw, method="holm")[1]  # statsmodels
    np.testing.assert_allclose(result.table.p_adjusted, holm, rtol=1e-12)


def test_random_clustered_permutation_equals_the_documented_draws():
    rng = np.random.default_rng(6)
    clusters = rng.integers(0, 40, 200)
    x = (rng.random(200) < 0.7).astype(float)
    y = (rng.random(200) < 0.6).astype(float)
    result = mcda.paired_permutation_test(_cube([x, y], clusters=clusters), n_resamples=499, rng=7)
    sums = pd.Series(x - y).groupby(clusters).sum().to_numpy()  # clusters in label order
    signs = _reference_signs(_key(7), 0, 499, sums.size)
    hits = (np.abs(signs @ sums) >= abs(sums.sum()) - 1e-9).sum()
    np.testing.assert_allclose(result.table.p_raw.iloc[0], (hits + 1) / 500, rtol=1e-12)


def test_all_pairs_share_draws_with_one_pair_and_the_item_order_changes_nothing():
    rng = np.random.default_rng(8)
    values = (rng.random((4, 80)) < np.array([[0.8], [0.7], [0.65], [0.6]])).astype(float)
    clusters = rng.integers(0, 30, 80)
    everything = mcda.paired_permutation_test(_cube(values, clusters=clusters), n_resamples=999, rng=3).table
    one = mcda.paired_permutation_test(_cube(values, clusters=clusters), pair=("m1", "m3"), n_resamples=999, rng=3)
    row = everything[(everything.method_a == "m1") & (everything.method_b == "m3")].iloc[0]
    assert one.table.p_raw.iloc[0] == row.p_raw == one.table.p_adjusted.iloc[0]
    order = rng.permutation(80)
    shuffled = mcda.paired_permutation_test(_cube(values[:, order], clusters=clusters[order], items=np.arange(80)[order]),
                                            n_resamples=999, rng=3).table
    pd.testing.assert_frame_equal(shuffled, everything)


def test_greater_means_method_a_better_in_the_metrics_direction():
    rng = np.random.default_rng(9)
    loss_a = rng.normal(1.0, 0.2, 40)
    loss_b = loss_a + rng.normal(0.2, 0.1, 40)  # a has the lower loss: a is better
    cube = _cube([loss_a, loss_b], direction="lower_is_better")
    greater = mcda.paired_permutation_test(cube, alternative="greater", rng=0).table.iloc[0]
    less = mcda.paired_permutation_test(cube, alternative="less", rng=0).table.iloc[0]
    assert greater.p_raw < 0.001 < 0.99 < less.p_raw
    assert greater.mean_diff < 0  # in the metric's own units: a − b


def test_missing_items_are_named_and_pairs_use_the_items_both_have():
    rng = np.random.default_rng(10)
    values = (rng.random((3, 60)) < 0.7).astype(float)
    values[1, :6] = np.nan
    with pytest.warns(mcda.MissingDataWarning, match="m1 \\(6\\)"):
        result = mcda.paired_permutation_test(_cube(values), n_resamples=999, rng=2)
    assert any("m1 (6)" in note for note in result.notes)
    row = result.table[(result.table.method_a == "m0") & (result.table.method_b == "m1")].iloc[0]
    subset = mcda.paired_permutation_test(_cube(values[:2, 6:], items=np.arange(6, 60)), n_resamples=999, rng=2)
    assert row.n_items == 54
    np.testing.assert_allclose(row.mean_diff, np.mean(values[0, 6:] - values[1, 6:]), rtol=1e-12)
    assert row.p_raw == subset.table.p_raw.iloc[0]  # the same items, the same draws


def test_samples_are_averaged_within_each_item():
    rng = np.random.default_rng(11)
    draws = (rng.random((1, 2, 30, 4)) < 0.6).astype(float)
    cube = mcda.score_cube(xr.DataArray(draws, dims=("dataset", "method", "item", "sample"),
                                        coords={"dataset": ["t"], "method": ["a", "b"], "item": np.arange(30),
                                                "sample": np.arange(4)}), metric="accuracy")
    averaged = _cube(draws[0].mean(axis=2), metric="accuracy")
    np.testing.assert_array_equal(mcda.paired_permutation_test(cube, rng=1).table.p_raw,
                                  mcda.paired_permutation_test(averaged, rng=1).table.p_raw)


def test_identical_and_too_few_give_nan_with_a_reason():
    x = np.array([1.0, 0.0, 1.0, 1.0])
    result = mcda.paired_permutation_test(_cube([x, x, 1 - x], clusters=["c"] * 4), rng=0)
    assert result.table.p_raw.isna().all()
    assert result.table.reason.str.contains("at least 2").all()
    identical = mcda.paired_permutation_test(_cube([x, x]), rng=0).table.iloc[0]
    assert np.isnan(identical.p_raw) and "exactly 0" in identical.reason


def test_item_functions_refuse_a_cube_without_items():
    with pytest.raises(mcda.McdaArgumentError, match="needs an 'item' dim") as raised:
        mcda.paired_permutation_test(mcda.datasets.load("demsar2006"))
    assert raised.value.argument == "scores"


# --------------------------------------------------------------------------- bootstrap


@pytest.mark.parametrize("ci_method", ["percentile", "basic", "bca"])
def test_bootstrap_agrees_with_scipy_bootstrap_within_monte_carlo_error(ci_method):
    rng = np.random.default_rng(12)
    x = rng.normal(0.6, 0.1, 80)
    y = x - rng.gamma(1.0, 0.03, 80)  # skewed differences: BCa differs from the percentile interval
    ours = mcda.paired_bootstrap(_cube([x, y]), ci_method=ci_method, n_resamples=20000, rng=1).table.iloc[0]
    theirs = ss.bootstrap((x - y,), np.mean, method="BCa" if ci_method == "bca" else ci_method,
                          n_resamples=20000, rng=2).confidence_interval
    width = theirs.high - theirs.low
    assert abs(ours.ci_low - theirs.low) < 0.04 * width and abs(ours.ci_high - theirs.high) < 0.04 * width
    np.testing.assert_allclose(ours.mean_diff, np.mean(x - y), rtol=1e-12)


def test_bca_bias_correction_and_acceleration_equal_scipys_on_binary_scores():
    # binary differences: many resampled means equal the estimate (ties counted half, as scipy)
    rng = np.random.default_rng(0)
    x = (rng.random(40) < 0.8).astype(float)
    y = (rng.random(40) < 0.6).astype(float)
    ours = mcda.paired_bootstrap(_cube([x, y]), ci_method="bca", rng=1).table.iloc[0]
    theirs = ss.bootstrap((x - y,), np.mean, method="BCa", rng=3).confidence_interval
    # the interval lies on the grid of multiples of 1/40: Monte Carlo error moves it by at most one step
    assert abs(ours.ci_low - theirs.low) <= 1 / 40 + 1e-12 and abs(ours.ci_high - theirs.high) <= 1 / 40 + 1e-12


@pytest.mark.parametrize("ci_method", ["percentile", "basic", "bca"])
def test_cluster_bootstrap_equals_a_by_hand_cluster_resampling(ci_method):
    rng = np.random.default_rng(13)
    clusters = rng.integers(0, 25, 150)
    x = rng.normal(0.7, 0.1, 150) + 0.05 * (clusters % 3)
    y = x - rng.normal(0.02, 0.05, 150)
    result = mcda.paired_bootstrap(_cube([x, y], clusters=clusters), ci_method=ci_method, n_resamples=999, rng=4)
    row = result.table.iloc[0]
    frame = pd.DataFrame({"d": x - y, "cluster": clusters}).groupby("cluster")["d"].agg(["sum", "size"])
    sums, sizes = frame["sum"].to_numpy(), frame["size"].to_numpy(float)  # clusters in label order
    counts = _reference_counts(_key(4), 0, 999, sums.size)
    means = counts @ sums / (counts @ sizes)  # each resample: its clusters' items pooled
    theta = sums.sum() / sizes.sum()
    probs = np.array([0.025, 0.975])
    if ci_method == "bca":
        z0 = ss.norm.ppf(((means < theta).sum() + (means <= theta).sum()) / (2 * means.size))
        jack = (sums.sum() - sums) / (sizes.sum() - sizes)
        u = jack.mean() - jack
        accel = (u**3).sum() / (6 * (u**2).sum() ** 1.5)
        z = ss.norm.ppf(probs)
        probs = ss.norm.cdf(z0 + (z0 + z) / (1 - accel * (z0 + z)))
    low, high = np.quantile(means, probs)
    if ci_method == "basic":
        low, high = 2 * theta - high, 2 * theta - low
    assert result.clustered and row.n_clusters == sums.size
    np.testing.assert_allclose([row.ci_low, row.ci_high], [low, high], rtol=1e-10)
    np.testing.assert_allclose(row.mean_diff, theta, rtol=1e-12)


def test_clustered_interval_covers_and_the_item_interval_does_not():
    # 60 clusters of 10 items sharing a cluster effect on the difference: the true mean difference is 0
    rng = np.random.default_rng(14)
    clusters = np.repeat(np.arange(60), 10)
    covered = {True: 0, False: 0}
    reps = 40
    for _ in range(reps):
        shared = rng.normal(0, 0.3, 60)[clusters]
        a = rng.normal(0, 0.1, 600) + shared
        b = rng.normal(0, 0.1, 600)
        for clustered in (True, False):
            cube = _cube([a, b], clusters=clusters if clustered else None)
            row = mcda.paired_bootstrap(cube, n_resamples=499, rng=rng).table.iloc[0]
            covered[clustered] += row.ci_low <= 0 <= row.ci_high
    # nominal 95 %: the clustered interval covers about 0.93-0.95 here; the item one about 0.4
    assert covered[True] >= 0.85 * reps
    assert covered[False] <= 0.7 * reps


def test_bootstrap_control_and_pair_use_the_same_draws_as_all_pairs():
    rng = np.random.default_rng(15)
    values = rng.normal(0.5, 0.1, (3, 50))
    everything = mcda.paired_bootstrap(_cube(values), n_resamples=499, rng=9).table
    control = mcda.paired_bootstrap(_cube(values), control="m2", n_resamples=499, rng=9).table
    assert list(control.method_a) == ["m2", "m2"] and list(control.method_b) == ["m0", "m1"]
    row = everything[(everything.method_a == "m0") & (everything.method_b == "m2")].iloc[0]
    np.testing.assert_allclose(control.iloc[0][["mean_diff", "ci_low", "ci_high"]].to_numpy(float),
                               [-row.mean_diff, -row.ci_high, -row.ci_low], rtol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "m0 vs m1" in mcda.paired_bootstrap(_cube(values), pair=("m0", "m1"), n_resamples=99, rng=1).summary()
