"""Dask-backed cubes: every chunk-wise statistic against the in-memory path on the same data.

References: the in-memory path (itself checked against published tables in the other test
files) on the very same scores; scipy (``rankdata``, ``friedmanchisquare``) and pandas
(``describe``) run here; for the rank-stability bootstrap, the plug-in variance of a bootstrap
mean, σ̂²/N (Efron & Tibshirani 1993, §5.2), within Monte Carlo error.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

dask = pytest.importorskip("dask")
import dask.array as dsa  # noqa: E402

import mcda  # noqa: E402
from mcda import store  # noqa: E402
from mcda.stats._shared import ranks
from mcda.store import is_lazy  # noqa: E402

N_DATASETS, N_METHODS, CHUNK = 3000, 6, 400  # 8 chunks, the last one short


def _cube(metric="accuracy", missing=False, n=N_DATASETS, k=N_METHODS, rng=11):
    raw = mcda.datasets.synthetic(n_datasets=n, n_methods=k, n_seeds=0, effects=np.linspace(0, 0.015, k),
                                  dataset_sd=0.05, noise_sd=0.02, rng=rng)
    values = np.round(raw.values, 2)  # two decimals: many ties within datasets
    if metric != "accuracy":
        values = 1.0 - values  # an error rate: lower is better
    if missing:
        values[7, 2] = np.nan  # method_2 lacks dataset_7
        values[n // 2, :] = np.nan  # no method has the middle dataset
        values[n - 1, 5] = np.nan  # method_5 lacks the last dataset (last chunk)
    return mcda.score_cube(values, metric=metric, method_names=list(raw.coords["method"].values),
                           dataset_names=list(raw.coords["dataset"].values))


@pytest.fixture(scope="module")
def cube():
    return _cube()


@pytest.fixture(scope="module")
def lazy(cube):
    return cube.chunk({"dataset": CHUNK})


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)
        return function(*args, **kwargs)


def _same_frames(a: pd.DataFrame, b: pd.DataFrame, rtol=1e-12):
    assert list(a.columns) == list(b.columns)
    assert len(a) == len(b)
    for col in a.columns:
        x, y = a[col].to_numpy(), b[col].to_numpy()
        if x.dtype.kind in "fiu" and y.dtype.kind in "fiu":
            np.testing.assert_allclose(x.astype(float), y.astype(float), rtol=rtol, atol=1e-14, equal_nan=True,
                                       err_msg=col)
        else:
            assert [str(v) for v in x] == [str(v) for v in y], col


# --------------------------------------------------------------------------- the cube stays lazy


def _recording(cube: xr.DataArray, seen: list) -> xr.DataArray:
    """The cube as a dask array whose every block read is recorded (shape)."""
    def record(block):
        seen.append(block.shape)
        return block

    data = dsa.from_array(cube.values, chunks=(CHUNK, -1)).map_blocks(record, dtype=np.float64,
                                                                      meta=np.empty((0, 0)))
    return cube.copy(data=data)


def test_a_complete_cube_is_read_once_block_by_block(cube):
    seen: list = []
    result = mcda.friedman_test(_recording(cube, seen))
    assert result.n_datasets == N_DATASETS
    n_blocks = math.ceil(N_DATASETS / CHUNK)
    assert len(seen) == n_blocks  # one pass: the missing flags come with the rank sums
    assert max(shape[0] for shape in seen) == CHUNK  # never the whole cube at once


def test_missing_cells_cost_one_more_pass_and_name_the_excluded(cube):
    incomplete = _cube(missing=True)
    seen: list = []
    with pytest.warns(mcda.MissingDataWarning) as caught:
        result = mcda.friedman_test(_recording(incomplete, seen))
    messages = [str(w.message) for w in caught]
    assert any("method_2 lacks" in m for m in messages)
    assert any("no result for any method" in m and "dataset_1500" in m for m in messages)
    assert len(seen) == 2 * math.ceil(N_DATASETS / CHUNK)  # the flags pass, then the complete methods
    expected = _quiet(mcda.friedman_test, incomplete)
    assert result.excluded == expected.excluded == {"method_2": ("dataset_7",), "method_5": ("dataset_2999",)}
    assert result.n_datasets == expected.n_datasets == N_DATASETS - 1  # the middle dataset has no result at all
    _same_frames(result.to_frame(), expected.to_frame())


def test_score_cube_keeps_a_lazy_cube_lazy_and_its_labels(lazy):
    again = mcda.score_cube(lazy.copy())  # through _from_dataarray, not the already-built shortcut
    assert is_lazy(again)
    ints = lazy.assign_coords(dataset=np.arange(N_DATASETS) * 7)
    assert mcda.score_cube(ints).coords["dataset"].dtype.kind == "i"  # integer labels are not stringified


def test_infinite_scores_raise_naming_the_dataset(cube):
    values = cube.values.copy()
    values[1500, 3] = np.inf
    bad = cube.copy(data=values).chunk({"dataset": CHUNK})
    with pytest.raises(ValueError, match=r"infinite value at dataset 'dataset_1500', method 'method_3'"):
        mcda.friedman_test(bad)


# --------------------------------------------------------------------------- ranks


def test_rank_table_is_lazy_and_equals_scipy(cube, lazy):
    table = mcda.rank_table(lazy)
    assert is_lazy(table)
    # scipy's rankdata, rank 1 = best, ties averaged
    expected = stats.rankdata(-cube.values, axis=1, method="average")
    np.testing.assert_array_equal(table.values, expected)
    np.testing.assert_array_equal(table.values, mcda.rank_table(cube).to_numpy())


@pytest.mark.parametrize("missing", ["complete", "available"])
def test_average_and_mean_ranks_equal_the_in_memory_ones(missing):
    incomplete = _cube(missing=True)
    lazy_incomplete = incomplete.chunk({"dataset": CHUNK})
    for function in (mcda.average_ranks, mcda.mean_ranks):
        here = _quiet(function, incomplete, missing=missing)
        there = _quiet(function, lazy_incomplete, missing=missing)
        pd.testing.assert_series_equal(here.mean_ranks, there.mean_ranks, rtol=0, atol=0)
        assert (here.n_datasets, here.n_methods, here.excluded) == (there.n_datasets, there.n_methods, there.excluded)
        assert is_lazy(there.rank_table)
        np.testing.assert_array_equal(there.rank_table.values, here.rank_table.to_numpy())
        assert list(there.rank_table.coords["dataset"].values) == list(here.rank_table.index)


def test_available_ranks_warn_descriptive_only(lazy):
    with pytest.warns(mcda.DescriptiveOnlyWarning):
        mcda.average_ranks(lazy, missing="available")


def test_a_lazy_mean_ranks_feeds_the_friedman_test(cube, lazy):
    # the MeanRanks path of the frequentist module sums a lazy rank table chunk-wise
    from_lazy = mcda.friedman_test(mcda.average_ranks(lazy))
    _same_frames(from_lazy.to_frame(), mcda.friedman_test(cube).to_frame(), rtol=0)


def test_friedman_equals_in_memory_and_scipy(cube, lazy):
    here, there = mcda.friedman_test(cube), mcda.friedman_test(lazy)
    _same_frames(here.to_frame(), there.to_frame(), rtol=0)  # rank sums of half-integers are exact
    assert (there.statistic, there.f_statistic, there.f_pvalue) == (here.statistic, here.f_statistic, here.f_pvalue)
    # scipy's friedmanchisquare is the tie-corrected statistic (the tie terms summed chunk-wise)
    scipy_stat = stats.friedmanchisquare(*(-cube.values).T).statistic
    assert there.statistic_tied == pytest.approx(scipy_stat, rel=1e-12)


def test_lower_is_better_is_oriented_chunk_wise():
    errors = _cube(metric="brier")
    here, there = mcda.friedman_test(errors), mcda.friedman_test(errors.chunk({"dataset": CHUNK}))
    _same_frames(here.to_frame(), there.to_frame(), rtol=0)
    assert here.mean_ranks.idxmin() == "method_5"  # the largest effect wins once oriented


@pytest.mark.parametrize("test,control", [("nemenyi", None), ("holm", None), ("shaffer", None),
                                          ("bergmann-hommel", None), ("bonferroni-dunn", "method_0"),
                                          ("holm", "method_0"), ("hochberg", "method_0"), ("hommel", "method_0")])
def test_compare_over_datasets_equals_in_memory(cube, lazy, test, control):
    here = mcda.compare_over_datasets(cube, test=test, control=control)
    there = mcda.compare_over_datasets(lazy, test=test, control=control)
    assert here.posthoc is not None  # the effects are real: every post-hoc runs
    _same_frames(here.to_frame(), there.to_frame(), rtol=0)
    assert here.groups == there.groups and here.summary() == there.summary()


def test_nemenyi_and_bonferroni_dunn_functions(cube, lazy):
    _same_frames(mcda.nemenyi(cube).to_frame(), mcda.nemenyi(lazy).to_frame(), rtol=0)
    _same_frames(mcda.bonferroni_dunn(cube, control="method_1").to_frame(),
                 mcda.bonferroni_dunn(lazy, control="method_1").to_frame(), rtol=0)


@settings(max_examples=20, deadline=None)
@given(chunk=st.integers(min_value=1, max_value=400))
def test_the_rank_statistics_do_not_depend_on_the_chunking(chunk):
    small = _cube(n=400, k=4, rng=3)
    expected = mcda.friedman_test(small)
    got = mcda.friedman_test(small.chunk({"dataset": chunk}))
    assert (got.statistic, got.statistic_tied) == (expected.statistic, expected.statistic_tied)


# --------------------------------------------------------------------------- pairwise counts and what reads them


def test_pairwise_counts_and_views_equal_in_memory():
    incomplete = _cube(missing=True)
    lazy_incomplete = incomplete.chunk({"dataset": CHUNK})
    here, there = _quiet(mcda.pairwise_counts, incomplete), mcda.pairwise_counts(lazy_incomplete)
    _same_frames(here.to_frame(), there.to_frame(), rtol=0)
    assert there.n_datasets == N_DATASETS
    sup_here = _quiet(mcda.pairwise_superiority, incomplete, adjust="holm")
    sup_there = _quiet(mcda.pairwise_superiority, lazy_incomplete, adjust="holm")
    _same_frames(sup_here.to_frame(), sup_there.to_frame(), rtol=0)
    _same_frames(mcda.pairwise_transitivity(sup_here).to_frame(), mcda.pairwise_transitivity(sup_there).to_frame(),
                 rtol=0)


def test_bayesian_sign_comparison_exact_sampled_and_baycomp_counting(cube, lazy):
    _same_frames(mcda.bayesian_sign_comparison(cube, rope=0.01).to_frame(),
                 mcda.bayesian_sign_comparison(lazy, rope=0.01).to_frame(), rtol=0)
    sampled = dict(rope=0.01, method="sampling", n_samples=2000, keep_draws=False, progress=False)
    _same_frames(mcda.bayesian_sign_comparison(cube, rng=5, **sampled).to_frame(),
                 mcda.bayesian_sign_comparison(lazy, rng=5, **sampled).to_frame(), rtol=0)
    _same_frames(mcda.bayesian_sign_comparison(cube, rng=5, reproduce="baycomp", **sampled).to_frame(),
                 mcda.bayesian_sign_comparison(lazy, rng=5, reproduce="baycomp", **sampled).to_frame(), rtol=0)


def test_marginal_means_equal_in_memory_to_rounding():
    incomplete = _cube(missing=True)
    _same_frames(_quiet(mcda.marginal_means, incomplete).to_frame(),
                 mcda.marginal_means(incomplete.chunk({"dataset": CHUNK})).to_frame(), rtol=1e-12)


# --------------------------------------------------------------------------- summary per method


def test_method_summary_equals_pandas_describe_both_ways():
    incomplete = _cube(missing=True)
    frame = incomplete.to_pandas()
    described = frame.describe().T  # pandas: count, mean, std (ddof 1), min, max over non-missing cells
    for scores in (incomplete, incomplete.chunk({"dataset": CHUNK})):
        result = _quiet(mcda.method_summary, scores)
        assert result.lazy == is_lazy(scores)
        out = result.to_frame().set_index("method")
        np.testing.assert_array_equal(out["n_results"].to_numpy(), described["count"].to_numpy())
        np.testing.assert_array_equal(out["n_missing"].to_numpy(), frame.isna().sum().to_numpy())
        for col in ("mean", "std", "min", "max"):
            np.testing.assert_allclose(out[col].to_numpy(), described[col].to_numpy(), rtol=1e-12, err_msg=col)


def test_method_summary_of_a_method_without_results():
    values = np.array([[0.5, np.nan], [0.7, np.nan], [0.6, 0.1]])
    cube = mcda.score_cube(values, method_names=["a", "b"], metric="accuracy")
    for scores in (cube, cube.chunk({"dataset": 1})):
        out = mcda.method_summary(scores).to_frame().set_index("method")
        assert out.loc["b", "n_results"] == 1 and out.loc["b", "n_missing"] == 2
        assert math.isnan(out.loc["b", "std"]) and out.loc["b", "mean"] == 0.1
        assert out.loc["a", "std"] == pytest.approx(np.std([0.5, 0.7, 0.6], ddof=1), rel=1e-14)


def test_method_summary_rejects_seeds():
    seeded = mcda.datasets.synthetic(n_datasets=4, n_methods=2, n_seeds=3, rng=0)
    with pytest.raises(ValueError, match="extra dims"):
        mcda.method_summary(seeded.chunk({"dataset": 2}))


# --------------------------------------------------------------------------- rank stability


def _sorted_cube(n=300, k=4, rng=2):
    small = _cube(n=n, k=k, rng=rng)
    return small.assign_coords(dataset=np.array([f"d{i:05d}" for i in range(n)], dtype=object))


def test_rank_stability_is_exact_for_fixed_resamples():
    small = _sorted_cube()
    agg = ranks._prepare_aggregation(small, aggregation="uniform", groups=None, weights=None, direction=None,
                                     method_names=None).sorted_by_dataset()
    indices = np.random.default_rng(5).integers(small.sizes["dataset"], size=(250, small.sizes["dataset"]))
    here = ranks._stability_from_indices(agg, [indices], confidence_level=0.9)
    lazy_agg = ranks._prepare_aggregation(small.chunk({"dataset": 70}), aggregation="uniform", groups=None,
                                          weights=None, direction=None, method_names=None).sorted_by_dataset()
    there = ranks._stability_from_indices(lazy_agg, [indices], confidence_level=0.9)  # the same path, chunk-wise
    np.testing.assert_array_equal(here.mean_rank_draws, there.mean_rank_draws)
    pd.testing.assert_frame_equal(here.position_probabilities, there.position_probabilities, rtol=0, atol=0)
    pd.testing.assert_frame_equal(here.mean_rank_interval, there.mean_rank_interval, rtol=0, atol=0)
    pd.testing.assert_frame_equal(here.jackknife, there.jackknife)
    assert here.to_frame().equals(there.to_frame())


def test_rank_stability_draws_agree_in_distribution():
    small = _sorted_cube(n=600, k=4, rng=8)
    n_resamples = 4000
    here = mcda.rank_stability(small, n_resamples=n_resamples, rng=1)
    there = mcda.rank_stability(small.chunk({"dataset": 130}), n_resamples=n_resamples, rng=1)
    assert not np.array_equal(here.mean_rank_draws, there.mean_rank_draws)  # other draws, documented
    pd.testing.assert_series_equal(here.mean_ranks, there.mean_ranks, rtol=0, atol=0)
    pd.testing.assert_frame_equal(here.jackknife, there.jackknife)
    # the bootstrap variance of a mean is the plug-in variance / N (Efron & Tibshirani 1993, §5.2);
    # a variance estimated from B draws has relative standard error about sqrt(2 / B) = 2.2%
    table = mcda.rank_table(small).to_numpy()
    plug_in = table.var(axis=0) / table.shape[0]
    for result in (here, there):
        np.testing.assert_allclose(result.mean_rank_draws.var(axis=0), plug_in, rtol=5 * math.sqrt(2 / n_resamples))
        np.testing.assert_allclose(result.mean_rank_draws.mean(axis=0), result.mean_ranks.to_numpy(),
                                   atol=5 * np.sqrt(plug_in / n_resamples).max())
    # position probabilities of two independent runs: difference within 5 standard errors
    p, q = here.position_probabilities.to_numpy(), there.position_probabilities.to_numpy()
    se = np.sqrt((p * (1 - p) + q * (1 - q)) / n_resamples)
    assert np.all(np.abs(p - q) <= 5 * se + 1e-12)


def test_rank_stability_lazy_draws_follow_the_rng():
    small = _sorted_cube(n=200, k=3).chunk({"dataset": 45})
    a = mcda.rank_stability(small, n_resamples=300, rng=3)
    b = mcda.rank_stability(small, n_resamples=300, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(a.mean_rank_draws, b.mean_rank_draws)
    assert not np.array_equal(a.mean_rank_draws, mcda.rank_stability(small, n_resamples=300, rng=4).mean_rank_draws)


# --------------------------------------------------------------------------- what cannot be chunk-wise says so


@pytest.mark.parametrize("call,name", [
    (lambda c: mcda.bayesian_signed_rank_comparison(c, rope=0.01), "mcda.bayesian_signed_rank_comparison"),
    (lambda c: mcda.mean_ranks(c, aggregation="custom", weights={}), "mcda.mean_ranks"),
    (lambda c: mcda.rank_stability(c, aggregation="hierarchical", groups={}), "mcda.rank_stability"),
])
def test_what_cannot_be_chunk_wise_raises_naming_the_function(lazy, call, name):
    with pytest.raises(ValueError, match=rf"lazy \(dask-backed\) cube.*{name}.*does not load"):
        call(lazy)


def test_the_in_memory_matrix_refuses_a_lazy_cube(lazy):
    prep = ranks.prepare_across(lazy)  # the design is chunk-wise; the datasets x methods matrix is not
    with pytest.raises(ValueError, match="does not load a lazy cube"):
        prep.values


def test_correlated_t_test_refuses_a_lazy_cube():
    folds = mcda.datasets.synthetic(n_datasets=6, n_methods=2, n_seeds=10, rng=0).chunk({"dataset": 2})
    with pytest.raises(ValueError, match="mcda.correlated_t_test cannot run chunk-wise"):
        mcda.correlated_t_test(folds, rope=0.01)


def test_a_seed_dim_must_be_reduced_first():
    seeded = mcda.datasets.synthetic(n_datasets=6, n_methods=3, n_seeds=2, rng=0).chunk({"dataset": 2})
    with pytest.raises(ValueError, match="reduce_seeds"):
        mcda.friedman_test(seeded)
    reduced = mcda.reduce_seeds(seeded, how="mean")
    assert is_lazy(reduced)
    _same_frames(mcda.friedman_test(reduced).to_frame(),
                 mcda.friedman_test(reduced.compute()).to_frame(), rtol=0)


# --------------------------------------------------------------------------- stores and schedulers


def test_zarr_round_trip_and_statistics_from_the_store(tmp_path, cube):
    pytest.importorskip("zarr")
    path = tmp_path / "cube.zarr"
    store.to_zarr(cube, path, chunk_datasets=CHUNK)
    opened = store.open_cube(path)
    assert is_lazy(opened) and opened.chunks[0][0] == CHUNK
    assert opened.attrs["metric"] == "accuracy" and list(opened.coords["dataset"].values[:2]) == ["dataset_0",
                                                                                                  "dataset_1"]
    _same_frames(mcda.compare_over_datasets(opened).to_frame(), mcda.compare_over_datasets(cube).to_frame(), rtol=0)


def test_parquet_to_zarr_gives_the_same_statistics(tmp_path):
    pytest.importorskip("pyarrow")
    pytest.importorskip("zarr")
    incomplete = _cube(missing=True, n=500)
    tidy = incomplete.to_dataframe().reset_index()[["dataset", "method", "score"]].dropna()
    tidy.to_parquet(tmp_path / "scores.parquet", row_group_size=700)
    opened = store.parquet_to_zarr(tmp_path / "scores.parquet", tmp_path / "scores.zarr", metric="accuracy",
                                   chunk_datasets=64)
    assert is_lazy(opened) and opened.sizes["dataset"] == 499  # the dataset without any result has no row
    here, there = _quiet(mcda.friedman_test, incomplete), _quiet(mcda.friedman_test, opened)
    _same_frames(here.to_frame(), there.to_frame(), rtol=0)
    _same_frames(mcda.pairwise_counts(incomplete.dropna("dataset", how="all")).to_frame(),
                 mcda.pairwise_counts(opened).to_frame(), rtol=0)


@pytest.mark.parametrize("first", [np.nan, 0.4])
def test_parquet_to_zarr_refuses_a_duplicate_cell_even_after_a_missing_score(tmp_path, first):
    # a duplicate (dataset, method) row is an error whatever its first score (NaN: "no result")
    pytest.importorskip("pyarrow")
    pytest.importorskip("zarr")
    tidy = pd.DataFrame({"dataset": ["a", "a", "a", "b", "b"], "method": ["x", "x", "y", "x", "y"],
                         "score": [first, 0.5, 0.6, 0.7, 0.8]})
    tidy.to_parquet(tmp_path / "dup.parquet")
    with pytest.raises(ValueError, match="duplicate rows: dataset 'a', method 'x'"):
        store.parquet_to_zarr(tmp_path / "dup.parquet", tmp_path / "dup.zarr", metric="accuracy", chunk_datasets=2)


def test_netcdf_opens_lazily(tmp_path, cube):
    path = tmp_path / "cube.nc"
    small = cube.isel(dataset=slice(0, 300))
    mcda.data.io.to_netcdf(small, path)
    opened = store.open_cube(path, chunks=50)
    assert is_lazy(opened) and opened.chunks[0][0] == 50
    _same_frames(mcda.friedman_test(opened).to_frame(), mcda.friedman_test(small).to_frame(), rtol=0)


def test_a_distributed_cluster_gives_the_same_results(cube, lazy):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0"):
        friedman = mcda.friedman_test(lazy)
        counts = mcda.pairwise_counts(lazy)
        summary = mcda.method_summary(lazy)
    _same_frames(friedman.to_frame(), mcda.friedman_test(cube).to_frame(), rtol=0)
    _same_frames(counts.to_frame(), mcda.pairwise_counts(cube).to_frame(), rtol=0)
    _same_frames(summary.to_frame(), mcda.method_summary(cube).to_frame())


# --------------------------------------------------------------------------- the guide page


def test_the_large_cubes_guide_runs_and_prints_what_it_says(tmp_path, monkeypatch, capsys):
    """docs/guide/large-cubes.md fences its code as ``py`` (CI's docs test runs ``python`` blocks without
    dask); here every block runs in order and prints exactly the ``# `` lines written under it."""
    pytest.importorskip("zarr")
    pytest.importorskip("pyarrow")
    pytest.importorskip("distributed")
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "docs" / "guide" / "large-cubes.md"
    blocks = re.findall(r"^```py\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)
    assert len(blocks) >= 6
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    for i, block in enumerate(blocks):
        with warnings.catch_warnings(record=True) as caught:  # the guide may show mcda's warnings, nothing else
            warnings.simplefilter("error")
            warnings.simplefilter("always", mcda.McdaWarning)
            # distributed: another run on the machine may hold the default dashboard port
            warnings.filterwarnings("ignore", r"Port \d+ is already in use", UserWarning)
            exec(compile(block, f"large-cubes.md[block {i}]", "exec"), namespace)
        assert all(w.filename == f"large-cubes.md[block {i}]" for w in caught), [(w.filename, w.lineno) for w in caught]
        printed = capsys.readouterr().out.splitlines()
        expected = [line[2:] for line in block.splitlines() if line.startswith("# ")]
        assert printed == expected, f"block {i}"


def _lazy_seeded():
    cube = mcda.datasets.synthetic(n_datasets=40, n_methods=3, n_seeds=3, rng=2)
    return cube, cube.chunk({"dataset": 10})


@pytest.mark.parametrize("call", [
    lambda c: mcda.summary(c),
    lambda c: mcda.paired_tests(c),
    lambda c: mcda.equivalence(c),
    lambda c: mcda.power(c),
    lambda c: mcda.Report(c),
], ids=["summary", "paired_tests", "equivalence", "power", "Report"])
def test_views_that_cannot_run_chunk_wise_refuse_a_lazy_cube_instead_of_loading_it(call):
    in_memory, lazy_cube = _lazy_seeded()
    call(in_memory)  # fine in memory
    with pytest.raises(ValueError, match="cannot run chunk-wise") as info:
        call(lazy_cube)
    assert "does not load a lazy cube" in str(info.value)


def test_criteria_and_epoch_selection_refuse_a_lazy_cube():
    both = mcda.datasets.load("duo2018_all").chunk({"dataset": 4})
    with pytest.raises(ValueError, match="multi-criteria views .* cannot run chunk-wise"):
        mcda.practical_dominance(both)
    epochs = xr.DataArray(np.random.default_rng(0).random((6, 2, 3, 2)), dims=("dataset", "method", "epoch", "split"),
                          coords={"split": ["val", "test"]})
    cube = mcda.score_cube(epochs, metric="accuracy").chunk({"dataset": 3})
    with pytest.raises(ValueError, match="epoch selection cannot run chunk-wise"):
        mcda.select_epoch(cube, selection="best_val")
