"""Tests of mcda.stats._shared.ranks: weighted mean ranks, the rank-stability bootstrap and jackknife, and the kernels.

Reference numbers come from Demšar (2006) Table 6 (tests/data/demsar2006, see its PROVENANCE.md)
and from slow references written here with scipy.stats.rankdata / kendalltau / t.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import mcda
from mcda._core.numeric import EPS, RANK_KERNEL_MIN_CELLS, SCORE_ULPS
from mcda.stats._shared import ranks as ranks_module
from mcda.stats._shared.ranks import (_index_blocks, _prepare_aggregation, _stability_from_indices, _tie_positions)

DEMSAR = "demsar2006"
# Demšar (2006) §3.2.2, printed average ranks of Table 6 (from the printed ranks; see PROVENANCE.md pitfall 1)
DEMSAR_PUBLISHED_MEAN_RANKS = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}


# --------------------------------------------------------------------------- slow references (scipy only)

def _oriented(cube) -> np.ndarray:
    values = cube.values.astype(float)
    return values if cube.attrs["direction"] == "higher_is_better" else -values


def _scipy_ranks(oriented: np.ndarray) -> np.ndarray:
    return stats.rankdata(-oriented, axis=1, method="average")


def _aggregate(rank_rows_: np.ndarray, weights: np.ndarray | None, groups: np.ndarray | None) -> np.ndarray:
    """The mean rank by definition: plain mean, weighted average, or mean of group means."""
    if groups is not None:
        frame = pd.DataFrame(rank_rows_)
        return frame.groupby(groups).mean().mean(axis=0).to_numpy()
    if weights is None:
        return rank_rows_.mean(axis=0)
    return np.average(rank_rows_, axis=0, weights=weights)


def _reference_positions(means: np.ndarray) -> np.ndarray:
    """P(position = r) of one resample: a tie spanning positions [min, max] shares them equally."""
    k = means.size
    lo = stats.rankdata(means, method="min").astype(int)
    hi = stats.rankdata(means, method="max").astype(int)
    out = np.zeros((k, k))
    for j in range(k):
        out[j, lo[j] - 1:hi[j]] = 1.0 / (hi[j] - lo[j] + 1)
    return out


def _slow_bootstrap(oriented, indices, weights=None, groups=None, decimals=None):
    """Re-rank every resample from the scores with scipy and aggregate it from scratch."""
    k = oriented.shape[1]
    draws = np.empty((len(indices), k))
    probabilities = np.zeros((k, k))
    for b, idx in enumerate(indices):
        ranks = _scipy_ranks(oriented[idx])
        draws[b] = _aggregate(ranks, None if weights is None else weights[idx], None if groups is None else groups[idx])
        tie_view = draws[b] if decimals is None else np.round(draws[b], decimals)
        probabilities += _reference_positions(tie_view)
    return draws, probabilities / len(indices)


def _sorted_cube(cube):
    """The cube with datasets in label order (rank_stability resamples in that order)."""
    order = np.argsort(np.array([str(d) for d in cube.coords["dataset"].values], dtype=object), kind="stable")
    return cube.isel(dataset=order)


@pytest.fixture(scope="module")
def demsar():
    return mcda.datasets.load(DEMSAR)


@pytest.fixture(scope="module")
def demsar_published():
    return mcda.datasets.load("demsar2006_published_ranks")


@pytest.fixture(scope="module")
def garcia():
    return mcda.datasets.load("garcia_herrera2008")


def _groups_for(cube, n_groups=3):
    return {d: f"g{i % n_groups}" for i, d in enumerate(cube.coords["dataset"].values)}


# --------------------------------------------------------------------------- mean_ranks

@pytest.mark.parametrize("name", ["demsar2006", "demsar2006_published_ranks", "garcia_herrera2008",
                                  "benavoli2017_uci54"])
def test_uniform_mean_ranks_equal_average_ranks(name):
    cube = mcda.datasets.load(name)
    a = mcda.average_ranks(cube)
    m = mcda.mean_ranks(cube)
    pd.testing.assert_series_equal(m.mean_ranks, a.mean_ranks, check_exact=True)
    pd.testing.assert_frame_equal(m.rank_table, a.rank_table, check_exact=True)
    assert m.aggregation == "uniform" and m.weights is None and not m.is_weighted
    assert m.supports_critical_difference


def test_uniform_mean_ranks_equal_average_ranks_with_available_cells():
    cube = mcda.datasets.load("duo2018")  # 5 missing cells
    with pytest.warns(mcda.DescriptiveOnlyWarning):
        a = mcda.average_ranks(cube, missing="available")
    with pytest.warns(mcda.DescriptiveOnlyWarning):
        m = mcda.mean_ranks(cube, missing="available")
    pd.testing.assert_series_equal(m.mean_ranks, a.mean_ranks, check_exact=True)
    assert not m.supports_critical_difference


def test_published_mean_ranks_of_demsar_table6(demsar_published):
    # Demšar (2006) §3.2.2: 3.143, 2.000, 2.893, 1.964
    got = mcda.mean_ranks(demsar_published).mean_ranks
    for method, value in DEMSAR_PUBLISHED_MEAN_RANKS.items():
        assert got[method] == pytest.approx(value, abs=5e-4)


@pytest.mark.parametrize("value", [1.0, 2.0])
def test_custom_equal_weights_equal_uniform_exactly(demsar, value):
    weights = {d: value for d in demsar.coords["dataset"].values}
    custom = mcda.mean_ranks(demsar, aggregation="custom", weights=weights)
    uniform = mcda.mean_ranks(demsar)
    pd.testing.assert_series_equal(custom.mean_ranks, uniform.mean_ranks, check_exact=True)
    assert custom.is_weighted and not custom.supports_critical_difference
    np.testing.assert_allclose(custom.weights.to_numpy(), 1 / demsar.sizes["dataset"], rtol=1e-15)


def test_custom_equal_fractional_weights_equal_uniform(garcia):
    weights = pd.Series(0.1, index=garcia.coords["dataset"].values)
    custom = mcda.mean_ranks(garcia, aggregation="custom", weights=weights)
    np.testing.assert_allclose(custom.mean_ranks, mcda.mean_ranks(garcia).mean_ranks, rtol=1e-14)


def test_hierarchical_with_one_dataset_per_group_equals_uniform(demsar):
    groups = {d: f"group of {d}" for d in demsar.coords["dataset"].values}
    hier = mcda.mean_ranks(demsar, aggregation="hierarchical", groups=groups)
    pd.testing.assert_series_equal(hier.mean_ranks, mcda.mean_ranks(demsar).mean_ranks, check_exact=True)
    assert hier.is_weighted


def test_hierarchical_is_the_mean_of_group_means(garcia):
    groups = _groups_for(garcia, 4)
    labels = np.array([groups[d] for d in garcia.coords["dataset"].values])
    expected = _aggregate(_scipy_ranks(_oriented(garcia)), None, labels)
    got = mcda.mean_ranks(garcia, aggregation="hierarchical", groups=groups)
    np.testing.assert_allclose(got.mean_ranks.to_numpy(), expected, rtol=1e-13)
    sizes = pd.Series(labels).value_counts()
    np.testing.assert_allclose(got.weights.to_numpy(), [1 / (4 * sizes[g]) for g in labels], rtol=1e-14)


def test_custom_weights_are_a_weighted_average(garcia):
    rng = np.random.default_rng(1)
    w = rng.uniform(0, 3, garcia.sizes["dataset"])
    w[:3] = 0.0
    weights = dict(zip(garcia.coords["dataset"].values, w))
    expected = np.average(_scipy_ranks(_oriented(garcia)), axis=0, weights=w)
    got = mcda.mean_ranks(garcia, aggregation="custom", weights=weights)
    np.testing.assert_allclose(got.mean_ranks.to_numpy(), expected, rtol=1e-13)
    np.testing.assert_allclose(got.weights.to_numpy(), w / w.sum(), rtol=1e-14)


def _seed_cube(n_datasets=9, n_methods=4, n_seeds=5, rng=3):
    cube = mcda.datasets.synthetic(n_datasets=n_datasets, n_methods=n_methods, n_seeds=n_seeds, rng=rng,
                                   metric="log_loss")
    # datasets differ in noise so that the reliability weights differ
    scale = np.linspace(0.5, 4.0, n_datasets)[:, None, None]
    mean = cube.mean("seed").values[..., None]
    return mcda.score_cube(cube.copy(data=mean + (cube.values - mean) * scale), metric="log_loss")


def test_reliability_weights_from_scipy_t_intervals():
    cube = _seed_cube()
    x = cube.transpose("dataset", "method", "seed").values
    seed_mean = x.mean(axis=2)
    n = x.shape[2]
    # scipy's t interval of each cell's mean over seeds
    low, high = stats.t.interval(0.95, n - 1, loc=seed_mean, scale=stats.sem(x, axis=2))
    w = 1.0 / (high - low).mean(axis=1)
    ranks = stats.rankdata(seed_mean, axis=1)  # log loss: lower is better, rank 1 = smallest
    got = mcda.mean_ranks(cube, aggregation="reliability")
    np.testing.assert_allclose(got.weights.to_numpy(), w / w.sum(), rtol=1e-12)
    np.testing.assert_allclose(got.mean_ranks.to_numpy(), np.average(ranks, axis=0, weights=w), rtol=1e-13)
    np.testing.assert_array_equal(got.rank_table.to_numpy(), ranks)
    assert got.rank_table.attrs["seeds_reduced"] == "mean"
    assert got.is_weighted and not got.supports_critical_difference


def test_reliability_ranks_the_seed_mean_of_reduce_seeds():
    cube = _seed_cube()
    uniform = mcda.average_ranks(mcda.reduce_seeds(cube, how="mean"))
    got = mcda.mean_ranks(cube, aggregation="reliability")
    pd.testing.assert_frame_equal(got.rank_table, uniform.rank_table, check_exact=True)


def test_reliability_needs_seeds(demsar):
    with pytest.raises(ValueError, match="need a 'seed' dim"):
        mcda.mean_ranks(demsar, aggregation="reliability")
    one_seed = mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=1, rng=0)
    with pytest.raises(ValueError, match="at least 2 seeds"):
        mcda.mean_ranks(one_seed, aggregation="reliability")


def test_reliability_refuses_a_dataset_without_seed_noise():
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=3, rng=0)
    values = cube.values.copy()
    values[2] = values[2].mean(axis=-1, keepdims=True)  # every method identical over seeds on dataset_2
    with pytest.raises(ValueError, match="dataset_2"):
        mcda.mean_ranks(mcda.score_cube(cube.copy(data=values), metric="accuracy"), aggregation="reliability")


@pytest.mark.parametrize("kwargs,exc,text", [
    ({"aggregation": "weighted"}, ValueError, "`aggregation` must be one of"),
    ({"aggregation": "hierarchical"}, ValueError, "needs `groups`"),
    ({"aggregation": "custom"}, ValueError, "needs `weights`"),
    ({"groups": {"iris": "a"}}, ValueError, "`groups` is used only with"),
    ({"weights": {"iris": 1.0}}, ValueError, "`weights` is used only with"),
    ({"aggregation": "custom", "weights": {"iris": 1.0}}, ValueError, "`weights` must name every dataset"),
    ({"aggregation": "custom", "weights": {"nope": 1.0}}, ValueError, "not in the scores: 'nope'"),
    ({"aggregation": "custom", "weights": [1.0]}, TypeError, "`weights` must be a mapping"),
    ({"aggregation": "hierarchical", "groups": {"iris": "a"}}, ValueError, "`groups` must name every dataset"),
    ({"aggregation": "hierarchical", "groups": "by domain"}, TypeError, "`groups` must be a mapping"),
    ({"aggregation": "custom", "missing": "available", "weights": {}}, ValueError, "`missing='available'`"),
    ({"missing": "impute"}, ValueError, "`missing` must be one of"),
])
def test_mean_ranks_bad_input(demsar, kwargs, exc, text):
    with pytest.raises(exc, match=text):
        mcda.mean_ranks(demsar, **kwargs)


@pytest.mark.parametrize("bad", [-1.0, np.nan, np.inf, "1", True])
def test_custom_weights_must_be_nonnegative_numbers(demsar, bad):
    weights = {d: 1.0 for d in demsar.coords["dataset"].values}
    weights["iris"] = bad
    with pytest.raises(ValueError, match="`weights` must be finite numbers >= 0.*'iris'"):
        mcda.mean_ranks(demsar, aggregation="custom", weights=weights)


def test_custom_weights_all_zero(demsar):
    with pytest.raises(ValueError, match="all zero"):
        mcda.mean_ranks(demsar, aggregation="custom", weights={d: 0 for d in demsar.coords["dataset"].values})


def test_weighted_mean_ranks_refuse_a_critical_difference(demsar):
    weighted = mcda.mean_ranks(demsar, aggregation="custom",
                               weights={d: i + 1.0 for i, d in enumerate(demsar.coords["dataset"].values)})
    assert weighted.is_weighted and not weighted.supports_critical_difference
    assert "descriptive only" in repr(weighted)


def test_mean_ranks_lower_is_better_speaks_in_ranks(demsar_published):
    # published ranks as lower-is-better scores: ranking them again gives the same ranks
    table = mcda.mean_ranks(demsar_published).rank_table
    published = demsar_published.to_pandas().loc[table.index, table.columns]
    np.testing.assert_array_equal(table.to_numpy(), published.to_numpy())


# --------------------------------------------------------------------------- bootstrap against the slow reference

def _fixed_indices(n, n_resamples=300, rng=11):
    return np.random.default_rng(rng).integers(n, size=(n_resamples, n))


def test_bootstrap_equals_slow_rerank_exactly_uniform(demsar):
    cube = _sorted_cube(demsar)
    agg = _prepare_aggregation(cube, aggregation="uniform", groups=None, weights=None, direction=None,
                               method_names=None).sorted_by_dataset()
    indices = _fixed_indices(cube.sizes["dataset"])
    result = _stability_from_indices(agg, [indices[:120], indices[120:]], confidence_level=0.95)
    draws, probabilities = _slow_bootstrap(_oriented(cube), indices)
    np.testing.assert_array_equal(result.mean_rank_draws, draws)
    np.testing.assert_array_equal(result.position_probabilities.to_numpy(), probabilities)
    np.testing.assert_array_equal(result.prob_best.to_numpy(), probabilities[:, 0])
    low, high = np.percentile(draws, [2.5, 97.5], axis=0)
    np.testing.assert_allclose(result.mean_rank_interval["low"].to_numpy(), low, rtol=1e-14)
    np.testing.assert_allclose(result.mean_rank_interval["high"].to_numpy(), high, rtol=1e-14)
    assert result.n_resamples == 300


def test_bootstrap_equals_slow_rerank_custom_weights(garcia):
    cube = _sorted_cube(garcia)
    n = cube.sizes["dataset"]
    w = np.random.default_rng(5).uniform(0.2, 2.0, n)
    weights = dict(zip(cube.coords["dataset"].values, w))
    agg = _prepare_aggregation(cube, aggregation="custom", groups=None, weights=weights, direction=None,
                               method_names=None).sorted_by_dataset()
    indices = _fixed_indices(n, 200)
    result = _stability_from_indices(agg, [indices], confidence_level=0.9)
    draws, probabilities = _slow_bootstrap(_oriented(cube), indices, weights=w, decimals=10)
    np.testing.assert_allclose(result.mean_rank_draws, draws, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.position_probabilities.to_numpy(), probabilities, rtol=0, atol=1e-12)


def test_bootstrap_equals_slow_rerank_hierarchical(garcia):
    cube = _sorted_cube(garcia)
    groups = _groups_for(cube, 4)
    labels = np.array([groups[d] for d in cube.coords["dataset"].values])
    agg = _prepare_aggregation(cube, aggregation="hierarchical", groups=groups, weights=None, direction=None,
                               method_names=None).sorted_by_dataset()
    # stratified resamples written independently: n_g draws within each group
    rng = np.random.default_rng(8)
    members = [np.nonzero(labels == g)[0] for g in sorted(set(labels))]
    indices = np.concatenate([m[rng.integers(m.size, size=(200, m.size))] for m in members], axis=1)
    result = _stability_from_indices(agg, [indices], confidence_level=0.95)
    draws, probabilities = _slow_bootstrap(_oriented(cube), indices, groups=labels, decimals=10)
    np.testing.assert_allclose(result.mean_rank_draws, draws, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.position_probabilities.to_numpy(), probabilities, rtol=0, atol=1e-12)


def test_bootstrap_equals_slow_rerank_reliability():
    cube = _sorted_cube(_seed_cube())
    x = cube.transpose("dataset", "method", "seed").values
    low, high = stats.t.interval(0.95, x.shape[2] - 1, loc=x.mean(axis=2), scale=stats.sem(x, axis=2))
    w = 1.0 / (high - low).mean(axis=1)
    agg = _prepare_aggregation(cube, aggregation="reliability", groups=None, weights=None, direction=None,
                               method_names=None).sorted_by_dataset()
    indices = _fixed_indices(cube.sizes["dataset"], 200)
    result = _stability_from_indices(agg, [indices], confidence_level=0.95)
    draws, probabilities = _slow_bootstrap(-x.mean(axis=2), indices, weights=w, decimals=10)  # log loss: negate
    np.testing.assert_allclose(result.mean_rank_draws, draws, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.position_probabilities.to_numpy(), probabilities, rtol=0, atol=1e-12)


def test_public_rank_stability_draws_its_resamples_from_rng(demsar):
    result = mcda.rank_stability(demsar, n_resamples=500, rng=42)
    agg = _prepare_aggregation(demsar, aggregation="uniform", groups=None, weights=None, direction=None,
                               method_names=None).sorted_by_dataset()
    indices = np.random.default_rng(42).integers(14, size=(500, 14))
    draws, probabilities = _slow_bootstrap(_oriented(_sorted_cube(demsar)), indices)
    np.testing.assert_array_equal(result.mean_rank_draws, draws)
    np.testing.assert_array_equal(result.position_probabilities.to_numpy(), probabilities)
    again = mcda.rank_stability(demsar, n_resamples=500, rng=np.random.default_rng(42))
    np.testing.assert_array_equal(again.mean_rank_draws, result.mean_rank_draws)
    blocks = list(_index_blocks(agg, 500, np.random.default_rng(42)))
    np.testing.assert_array_equal(np.concatenate(blocks), indices)


def test_resample_blocks_cover_every_resample(monkeypatch, garcia):
    monkeypatch.setattr(ranks_module, "_BLOCK_CELLS", 64)  # forces many small blocks
    result = mcda.rank_stability(garcia, n_resamples=37, rng=0)
    assert result.mean_rank_draws.shape == (37, 5)
    np.testing.assert_allclose(result.position_probabilities.sum(axis=0), 1.0, rtol=1e-12)


def test_stratified_and_positive_weight_resamples(garcia):
    groups = _groups_for(garcia, 4)
    agg = _prepare_aggregation(garcia, aggregation="hierarchical", groups=groups, weights=None, direction=None,
                               method_names=None).sorted_by_dataset()
    (block,) = list(_index_blocks(agg, 50, np.random.default_rng(0)))
    for idx in block:
        np.testing.assert_array_equal(np.bincount(agg.groups[idx], minlength=4), np.bincount(agg.groups))
    weights = {d: float(i % 3) for i, d in enumerate(garcia.coords["dataset"].values)}
    agg = _prepare_aggregation(garcia, aggregation="custom", groups=None, weights=weights, direction=None,
                               method_names=None).sorted_by_dataset()
    (block,) = list(_index_blocks(agg, 50, np.random.default_rng(0)))
    assert block.shape == (50, int((agg.raw_weights > 0).sum()))
    assert (agg.raw_weights[block] > 0).all()


@pytest.mark.parametrize("aggregation", ["uniform", "hierarchical", "custom", "reliability"])
def test_rank_stability_invariants(aggregation):
    cube = _seed_cube(n_datasets=10) if aggregation == "reliability" else mcda.datasets.load("garcia_herrera2008")
    kwargs = {}
    if aggregation == "hierarchical":
        kwargs["groups"] = _groups_for(cube, 3)
    if aggregation == "custom":
        kwargs["weights"] = {d: 1.0 + i % 4 for i, d in enumerate(cube.coords["dataset"].values)}
    result = mcda.rank_stability(cube, n_resamples=400, aggregation=aggregation, rng=1, **kwargs)
    k = result.n_methods
    probabilities = result.position_probabilities.to_numpy()
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(probabilities.sum(axis=0), 1.0, rtol=1e-12)
    np.testing.assert_array_equal(result.prob_best.to_numpy(), probabilities[:, 0])
    np.testing.assert_allclose(result.mean_rank_draws.mean(axis=1), (k + 1) / 2, rtol=1e-12)
    assert (result.mean_rank_interval["low"] <= result.mean_rank_interval["high"]).all()
    observed = mcda.mean_ranks(cube, aggregation=aggregation, **kwargs)
    pd.testing.assert_series_equal(result.mean_ranks.sort_index(), observed.mean_ranks.sort_index(), rtol=1e-13)
    assert result.is_weighted == (aggregation != "uniform")
    frame = result.to_frame()
    assert list(frame.columns) == ["method", "mean_rank", "position", "mean_rank_low", "mean_rank_high",
                                   "prob_best", "expected_position"]
    assert frame["mean_rank"].is_monotonic_increasing
    assert "Jackknife" in result.summary() and aggregation in repr(result)


def test_rank_stability_does_not_depend_on_the_order_of_datasets(garcia):
    perm = np.random.default_rng(0).permutation(garcia.sizes["dataset"])
    a = mcda.rank_stability(garcia, n_resamples=300, rng=3)
    b = mcda.rank_stability(garcia.isel(dataset=perm), n_resamples=300, rng=3)
    np.testing.assert_array_equal(a.mean_rank_draws, b.mean_rank_draws)
    pd.testing.assert_frame_equal(a.jackknife, b.jackknife)


def test_single_dataset_groups_warn_and_stay_fixed(demsar):
    groups = {d: ("big" if i < 10 else f"alone {i}") for i, d in enumerate(sorted(demsar.coords["dataset"].values))}
    with pytest.warns(mcda.SmallSampleWarning, match="single dataset"):
        mcda.rank_stability(demsar, n_resamples=50, aggregation="hierarchical", groups=groups, rng=0)


@pytest.mark.parametrize("kwargs,exc,text", [
    ({"n_resamples": 0}, ValueError, "`n_resamples`"),
    ({"n_resamples": 10.5}, TypeError, "`n_resamples`"),
    ({"confidence_level": 1.0}, ValueError, "`confidence_level`"),
    ({"rng": "seed"}, TypeError, "`rng`"),
    ({"aggregation": "median"}, ValueError, "`aggregation` must be one of"),
])
def test_rank_stability_bad_input(demsar, kwargs, exc, text):
    with pytest.raises(exc, match=text):
        mcda.rank_stability(demsar, **kwargs)


def test_rank_stability_needs_two_datasets(demsar):
    with pytest.raises(ValueError, match="at least 2 datasets"):
        mcda.rank_stability(demsar.isel(dataset=[0]), n_resamples=10, rng=0)
    weights = {d: float(d == "iris") for d in demsar.coords["dataset"].values}
    with pytest.raises(ValueError, match="at least 2 datasets with a positive weight"):
        mcda.rank_stability(demsar, n_resamples=10, aggregation="custom", weights=weights, rng=0)
    with pytest.warns(mcda.SmallSampleWarning, match="only 3 datasets"):
        mcda.rank_stability(demsar.isel(dataset=[0, 1, 2]), n_resamples=10, rng=0)


def test_rank_stability_names_excluded_methods():
    cube = mcda.datasets.load("duo2018")
    with pytest.warns(mcda.MissingDataWarning):
        result = mcda.rank_stability(cube, n_resamples=50, rng=0)
    assert result.excluded and set(result.excluded).isdisjoint(result.mean_ranks.index)


def test_private_entry_refuses_out_of_range_indices(demsar):
    agg = _prepare_aggregation(demsar, aggregation="uniform", groups=None, weights=None, direction=None,
                               method_names=None)
    with pytest.raises(ValueError, match="resample indices"):
        _stability_from_indices(agg, [np.array([[0, 14]])], confidence_level=0.95)


# --------------------------------------------------------------------------- jackknife (brute force with scipy)

def _brute_force_jackknife(oriented, weights=None, groups=None):
    """Leave each dataset out, re-rank the rest with scipy and aggregate from scratch."""
    n = oriented.shape[0]
    full = _aggregate(_scipy_ranks(oriented), weights, groups)
    full_min = stats.rankdata(np.round(full, 10), method="min")
    rows = []
    for i in range(n):
        keep = np.arange(n) != i
        loo = _aggregate(_scipy_ranks(oriented[keep]), None if weights is None else weights[keep],
                         None if groups is None else groups[keep])
        loo_min = stats.rankdata(np.round(loo, 10), method="min")
        rows.append({"order_changed": bool((loo_min != full_min).any()),
                     "top_changed": set(np.nonzero(loo_min == 1)[0]) != set(np.nonzero(full_min == 1)[0]),
                     "max_abs_change": np.abs(loo - full).max(),
                     "kendall_tau": stats.kendalltau(np.round(full, 10), np.round(loo, 10)).statistic})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("name", ["demsar2006", "demsar2006_published_ranks"])
def test_jackknife_on_demsar_table6_matches_brute_force(name):
    cube = _sorted_cube(mcda.datasets.load(name))
    result = mcda.rank_stability(cube, n_resamples=100, rng=0)
    expected = _brute_force_jackknife(_oriented(cube))
    jk = result.jackknife
    assert jk["dataset"].tolist() == [str(d) for d in cube.coords["dataset"].values]
    # which single dataset's removal changes the order / the top method
    assert jk.loc[jk["order_changed"], "dataset"].tolist() == jk.loc[expected["order_changed"].to_numpy(),
                                                                    "dataset"].tolist()
    np.testing.assert_array_equal(jk["top_changed"].to_numpy(), expected["top_changed"].to_numpy())
    np.testing.assert_allclose(jk["max_abs_change"], expected["max_abs_change"], rtol=1e-12)
    np.testing.assert_allclose(jk["kendall_tau"], expected["kendall_tau"], rtol=1e-12)
    assert jk["order_changed"].any()  # Demšar's top two differ by 0.036: single datasets flip them


def test_jackknife_on_demsar_published_ranks_names_the_datasets(demsar_published):
    # From Table 6's printed ranks: the rank sums of C4.5+m+cf (27.5) and C4.5+m (28) lead the others by more
    # than 3 (the largest change one dataset can make), so removing dataset i changes the top exactly when
    # 28 - r_i(C4.5+m) <= 27.5 - r_i(C4.5+m+cf), i.e. when C4.5+m+cf ranked better there by at least 0.5.
    table = demsar_published.to_pandas()
    assert table.sum()["C4.5+m+cf"] == 27.5 and table.sum()["C4.5+m"] == 28.0
    swap = table.index[(table["C4.5+m"] - table["C4.5+m+cf"]) >= 0.5].tolist()
    jk = mcda.rank_stability(demsar_published, n_resamples=10, rng=0).jackknife
    assert sorted(jk.loc[jk["top_changed"], "dataset"]) == sorted(swap)
    assert set(jk.loc[jk["top_changed"], "top_method"]) == {"C4.5+m"}


@pytest.mark.parametrize("aggregation", ["custom", "hierarchical", "reliability"])
def test_weighted_jackknife_matches_brute_force(aggregation):
    if aggregation == "reliability":
        cube = _sorted_cube(_seed_cube(n_datasets=12))
        x = cube.transpose("dataset", "method", "seed").values
        low, high = stats.t.interval(0.95, x.shape[2] - 1, loc=x.mean(axis=2), scale=stats.sem(x, axis=2))
        w, labels, kwargs, oriented = 1.0 / (high - low).mean(axis=1), None, {}, -x.mean(axis=2)
    else:
        cube = _sorted_cube(mcda.datasets.load("garcia_herrera2008"))
        oriented = _oriented(cube)
        names = cube.coords["dataset"].values
        if aggregation == "custom":
            w = np.random.default_rng(2).uniform(0.1, 3.0, names.size)
            labels, kwargs = None, {"weights": dict(zip(names, w))}
        else:
            groups = {d: ("solo" if i == 0 else f"g{i % 4}") for i, d in enumerate(names)}  # one singleton group
            w, labels, kwargs = None, np.array([groups[d] for d in names]), {"groups": groups}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.SmallSampleWarning)
        result = mcda.rank_stability(cube, n_resamples=50, aggregation=aggregation, rng=0, **kwargs)
    expected = _brute_force_jackknife(oriented, weights=w, groups=labels)
    jk = result.jackknife
    np.testing.assert_array_equal(jk["order_changed"].to_numpy(), expected["order_changed"].to_numpy())
    np.testing.assert_array_equal(jk["top_changed"].to_numpy(), expected["top_changed"].to_numpy())
    np.testing.assert_allclose(jk["max_abs_change"], expected["max_abs_change"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(jk["kendall_tau"], expected["kendall_tau"], rtol=1e-12)


# --------------------------------------------------------------------------- helpers and kernels against numpy / scipy

small_matrices = st.integers(1, 6).flatmap(lambda k: st.lists(
    st.lists(st.integers(0, 4).map(float) | st.just(np.nan), min_size=k, max_size=k), min_size=1, max_size=8))


@settings(max_examples=50, deadline=None)
@given(small_matrices)
def test_rank_rows_kernel_equals_scipy(rows):
    from mcda._core._kernels.rank_positions import rank_rows_average

    values = np.array(rows, dtype=np.float64)
    out = np.empty_like(values)
    rank_rows_average(values, out, SCORE_ULPS * EPS)
    expected = stats.rankdata(-values, axis=1, method="average", nan_policy="omit")
    np.testing.assert_array_equal(out, expected)


def test_rank_rows_kernel_on_long_rows_and_large_input(monkeypatch):
    rng = np.random.default_rng(0)
    wide = np.round(rng.random((50, 90)), 1)  # rows longer than the insertion-sort cutoff
    wide[rng.random(wide.shape) < 0.1] = np.nan
    from mcda._core._kernels.rank_positions import rank_rows_average

    out = np.empty_like(wide)
    rank_rows_average(wide, out, SCORE_ULPS * EPS)
    np.testing.assert_array_equal(out, stats.rankdata(-wide, axis=1, nan_policy="omit"))
    tall = np.round(rng.random((RANK_KERNEL_MIN_CELLS // 20, 20)), 2)  # rank_rows takes the kernel path
    np.testing.assert_array_equal(mcda.stats._shared.ranks.rank_rows(tall), stats.rankdata(-tall, axis=1))


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 7), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_weighted_counts_kernel_equals_add_at(n, rows, seed):
    from mcda._core._kernels.rank_positions import weighted_counts

    rng = np.random.default_rng(seed)
    indices = rng.integers(n, size=(rows, n))
    w = rng.uniform(0, 2, n)
    out = np.full((rows, n), np.nan)  # the kernel overwrites, no zeroing needed
    totals = np.empty(rows)
    assert weighted_counts(indices, w, out, totals)
    expected = np.zeros((rows, n))
    for r in range(rows):
        np.add.at(expected[r], indices[r], w[indices[r]])
    np.testing.assert_allclose(out, expected, rtol=1e-15, atol=0)
    np.testing.assert_allclose(totals, w[indices].sum(axis=1), rtol=1e-14)
    indices[-1, -1] = n  # out of range: reported, never written
    assert not weighted_counts(indices, w, out, totals)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 6), st.lists(st.integers(0, 3), min_size=6, max_size=60))
def test_position_sums_equal_reference(k, flat):
    from mcda.stats._shared.ranks import _position_sums

    values = np.array(flat[: (len(flat) // k) * k], dtype=np.float64).reshape(-1, k) / 2.0
    if values.size == 0:
        return
    out = _position_sums(values, 1e-9, k)
    expected = sum(_reference_positions(row) for row in values)
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 6).flatmap(lambda k: st.lists(st.lists(st.integers(0, 3), min_size=k, max_size=k),
                                                     min_size=1, max_size=6)))
def test_tie_positions_equal_scipy_rankdata(rows):
    values = np.array(rows, dtype=np.float64)
    np.testing.assert_array_equal(_tie_positions(values, "min"), stats.rankdata(values, axis=1, method="min"))
    np.testing.assert_array_equal(_tie_positions(values), stats.rankdata(values, axis=1, method="average"))


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 6).flatmap(lambda k: st.tuples(
    st.lists(st.integers(0, 3), min_size=k, max_size=k),
    st.lists(st.lists(st.integers(0, 3), min_size=k, max_size=k), min_size=1, max_size=5))))
def test_kendall_tau_rows_equal_scipy(data):
    reference, rows = np.array(data[0], dtype=float), np.array(data[1], dtype=float)
    got = ranks_module._kendall_tau_rows(reference, rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = np.array([stats.kendalltau(reference, row).statistic for row in rows])
    np.testing.assert_allclose(got, expected, rtol=1e-12, equal_nan=True)


def test_jackknife_names_a_tie_for_first():
    # a beats b on d1 and d2, b beats a on d3 (rank sums a 4, b 5): without d1 or d2 they tie for first
    scores = {"d1": {"a": 0.9, "b": 0.8}, "d2": {"a": 0.9, "b": 0.8}, "d3": {"a": 0.7, "b": 0.8}}
    with pytest.warns(mcda.SmallSampleWarning):
        jk = mcda.rank_stability(scores, direction="higher_is_better", n_resamples=20, rng=0).jackknife
    assert jk["top_method"].tolist() == ["a, b", "a, b", "a"]
    assert jk["top_changed"].tolist() == [True, True, False]
    assert jk["order_changed"].tolist() == [True, True, False]
    assert np.isnan(jk["kendall_tau"].iloc[0])  # one order all tied: tau-b undefined (scipy gives NaN too)


def test_incomplete_methods_are_dropped_with_a_warning_never_silently():
    # duo2018 has 5 missing cells (its PROVENANCE): SAFE and ascend are incomplete. Every ranks entry point
    # drops them, as friedman_test does, and says so with a MissingDataWarning naming the datasets they lack.
    cube = mcda.datasets.load("duo2018")
    calls = {"average_ranks": lambda: mcda.average_ranks(cube), "mean_ranks": lambda: mcda.mean_ranks(cube),
             "rank_table": lambda: mcda.rank_table(cube),
             "rank_stability": lambda: mcda.rank_stability(cube, n_resamples=20, rng=0)}
    for name, call in calls.items():
        with pytest.warns(mcda.MissingDataWarning, match=r"2 method\(s\).*SAFE lacks \[SimKumar4hard, SimKumar8hard\]"):
            call()
    with pytest.warns(mcda.MissingDataWarning):
        result = mcda.average_ranks(cube)
    assert "excluded (incomplete): 'SAFE', 'ascend'" in repr(result)
    with warnings.catch_warnings():
        warnings.simplefilter("error", mcda.MissingDataWarning)  # a complete cube warns nothing
        mcda.average_ranks(mcda.datasets.load("garcia_herrera2008"))
