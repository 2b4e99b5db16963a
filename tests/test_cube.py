"""The score cube: every input form, validation, orientation, missing cells, persistence."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

import mcda
from mcda.data import checks, cube as C, io, readers
from mcda.data.cards import UnknownMetricError


def tidy_example():
    return pd.DataFrame({
        "dataset": ["d1", "d1", "d2", "d2", "d3", "d3"],
        "method": ["a", "b", "a", "b", "a", "b"],
        "score": [0.9, 0.8, 0.7, np.nan, 0.6, 0.65],
    })


def test_tidy_wide_dict_array_give_identical_cubes():
    tidy = tidy_example()
    wide = tidy.pivot(index="dataset", columns="method", values="score")
    nested = {d: {m: v for m, v in g[["method", "score"]].itertuples(index=False)}
              for d, g in tidy.groupby("dataset", sort=False)}
    array = wide.to_numpy()
    cubes = [mcda.score_cube(tidy, metric="accuracy"),
             mcda.score_cube(wide, metric="accuracy"),
             mcda.score_cube(nested, metric="accuracy"),
             mcda.score_cube(array, metric="accuracy", method_names=["a", "b"], dataset_names=["d1", "d2", "d3"])]
    for other in cubes[1:]:
        xr.testing.assert_identical(cubes[0], other)
    assert cubes[0].dims == ("dataset", "method")
    assert math.isnan(cubes[0].sel({"dataset": "d2", "method": "b"}))


def test_tidy_with_seed_metric_epoch_split_dims():
    rows = []
    for d in ("d1", "d2"):
        for m in ("a", "b"):
            for s in (0, 1):
                for metric in ("ari", "runtime"):
                    for e in (1, 2):
                        for split in ("val", "test"):
                            rows.append((d, m, s, metric, e, split, 0.5 + 0.1 * s + 0.01 * e))
    frame = pd.DataFrame(rows, columns=["dataset", "method", "seed", "metric", "epoch", "split", "score"])
    cube = mcda.score_cube(frame)
    assert cube.dims == ("dataset", "method", "seed", "metric", "epoch", "split")
    assert list(cube.coords["direction"].values) == ["higher_is_better", "lower_is_better"]
    assert list(cube.coords["noise_floor"].values)[0] == 0.01
    assert mcda.data.checks.cube_cards(cube)["runtime"].name == "runtime"


def test_configurable_column_names():
    frame = tidy_example().rename(columns={"dataset": "data", "score": "acc"})
    cube = mcda.score_cube(frame, metric="accuracy", columns={"dataset": "data", "score": "acc"})
    assert cube.sizes == {"dataset": 3, "method": 2}
    with pytest.raises(ValueError, match="no score column 'score'"):
        mcda.score_cube(frame.rename(columns={"acc": "accuracy"}).assign(score_x=1), metric="accuracy",
                        columns={"dataset": "data"})


def test_nested_dict_with_unequal_seeds_pads_with_nan():
    cube = mcda.score_cube({"d1": {"a": [0.1, 0.2, 0.3], "b": [0.2, 0.1]}, "d2": {"a": [0.5], "b": [0.4, 0.4]}},
                           direction="higher_is_better")
    assert cube.dims == ("dataset", "method", "seed")
    assert cube.sizes["seed"] == 3
    assert int(cube.isnull().sum()) == 4


@pytest.mark.parametrize("bad,message", [
    (pd.DataFrame({"dataset": ["d", "d"], "method": ["a", "a"], "score": [1, 2]}), "duplicate rows"),
    (pd.DataFrame({"dataset": ["d", "d"], "method": ["a", "b"], "score": [1, "x"]}), "non-numeric values at row 1"),
    (pd.DataFrame({"dataset": ["d", "d"], "method": ["a", "b"], "score": [1, np.inf]}), "infinite values"),
    (pd.DataFrame({"dataset": ["d"], "method": ["a"], "score": [1.0]}), "at least 2 methods"),
    (pd.DataFrame(), "empty"),
    ({}, "empty"),
    (np.zeros((0, 2)), "empty"),
])
def test_bad_input_is_refused_with_a_named_cause(bad, message):
    with pytest.raises(ValueError, match=message):
        mcda.score_cube(bad, direction="higher_is_better")


def test_duplicate_rows_name_the_keys():
    frame = pd.DataFrame({"dataset": ["iris", "iris", "wine"], "method": ["svm", "svm", "svm"],
                          "score": [1, 2, 3]})
    with pytest.raises(ValueError, match="dataset='iris', method='svm'"):
        mcda.score_cube(frame, direction="higher_is_better")


def test_non_numeric_wide_cell_named_by_coordinates():
    wide = pd.DataFrame({"a": [0.1, "oops"], "b": [0.2, 0.3]}, index=["d1", "d2"])
    with pytest.raises(ValueError, match="dataset 'd2', method 'a': 'oops'"):
        mcda.score_cube(wide, direction="higher_is_better")


def test_direction_contradicting_the_card_is_refused():
    with pytest.raises(ValueError, match="contradicts the card for 'runtime'"):
        mcda.score_cube(tidy_example(), metric="elapsed", direction="higher_is_better")
    with pytest.raises(ValueError, match="`direction` must be one of"):
        mcda.score_cube(tidy_example(), direction="up")


def test_direction_alone_for_a_metric_without_card_and_unknown_metric_suggests():
    cube = mcda.score_cube(tidy_example(), metric="my_private_metric", direction="lower_is_better")
    assert cube.attrs["direction"] == "lower_is_better" and math.isnan(cube.attrs["noise_floor"])
    with pytest.raises(UnknownMetricError, match="Did you mean 'accuracy'"):
        mcda.score_cube(tidy_example(), metric="acuracy")
    with pytest.raises(ValueError, match="pass `metric=`"):
        mcda.score_cube(tidy_example())


def test_orient_negates_lower_is_better_and_keeps_card():
    cube = mcda.score_cube(tidy_example(), metric="runtime")
    oriented = mcda.orient(cube)
    np.testing.assert_array_equal(oriented.values, -cube.values)
    assert oriented.attrs["direction"] == "lower_is_better" and oriented.attrs["oriented"] == 1
    assert mcda.orient(oriented) is oriented
    # re-validating an oriented view gives back the metric's own values
    xr.testing.assert_identical(mcda.score_cube(oriented), cube)


def test_orient_with_metric_dim_flips_only_lower_is_better_metrics():
    cube = mcda.datasets.load("duo2018_all")
    oriented = mcda.orient(cube)
    np.testing.assert_array_equal(oriented.sel(metric="ARI").values, cube.sel(metric="ARI").values)
    np.testing.assert_array_equal(oriented.sel(metric="elapsed").values, -cube.sel(metric="elapsed").values)


def test_complete_cases_names_what_it_drops():
    cube = mcda.datasets.load("duo2018")
    cc = mcda.complete_cases(cube)
    # the 5 empty cells listed in tests/data/duo2018/PROVENANCE.md
    assert cc.excluded == {"SAFE": ("SimKumar4hard", "SimKumar8hard"),
                           "ascend": ("Koh", "KohTCC", "SimKumar8hard")}
    assert cc.cube.sizes == {"dataset": 12, "method": 12}
    by_dataset = mcda.complete_cases(cube, policy="datasets")
    assert by_dataset.cube.sizes == {"dataset": 8, "method": 14}  # PROVENANCE: 8 complete datasets
    assert by_dataset.excluded["SimKumar8hard"] == ("SAFE", "ascend")
    assert "SAFE lacks" in cc.summary()
    missing = mcda.missing_cells(cube)
    assert len(missing) == 5


def test_complete_cases_drops_datasets_with_no_result_and_says_so():
    cube = mcda.score_cube({"d1": {"a": 1.0, "b": 2.0}, "d2": {"a": np.nan, "b": np.nan}},
                           direction="higher_is_better")
    cc = mcda.complete_cases(cube)
    assert cc.empty_datasets == ("d2",) and cc.excluded == {}


def test_reduce_seeds_is_explicit_and_direction_aware():
    cube = mcda.score_cube({"d": {"a": [1.0, 3.0], "b": [2.0, np.nan]}}, metric="runtime")
    with pytest.raises(TypeError):
        mcda.reduce_seeds(cube)  # no default: the analyst decides
    with pytest.warns(mcda.MissingDataWarning, match="d/b \\(1 of 2\\)"):  # b lost a seed: said
        best = mcda.reduce_seeds(cube, how="best")
    assert best.sel({"method": "a"}).item() == 1.0  # runtime: lower is better
    propagated = mcda.reduce_seeds(cube, how="mean", missing="complete")
    assert math.isnan(propagated.sel({"method": "b"}).item())
    assert propagated.coords["n_seeds"].sel({"method": "b"}).item() == 0
    # the one rule (library, Report, CLI): a lost seed is skipped, said, and counted
    with pytest.warns(mcda.MissingDataWarning, match="d/b \\(1 of 2\\)"):
        skipped = mcda.reduce_seeds(cube, how="mean")
    assert skipped.sel({"method": "b"}).item() == 2.0 and skipped.coords["n_seeds"].sel({"method": "b"}).item() == 1
    with pytest.raises(ValueError, match="no 'seed' dim"):
        mcda.reduce_seeds(mcda.datasets.load("demsar2006"), how="mean")


def test_resolve_rope_uses_card_and_refuses_without_one():
    cube = mcda.datasets.load("duo2018")
    assert checks.resolve_rope(cube) == 0.01
    assert checks.resolve_rope(cube, 0.05) == 0.05
    with pytest.raises(ValueError, match="`rope` must be a finite number >= 0"):
        checks.resolve_rope(cube, -0.1)
    bare = mcda.score_cube(tidy_example(), direction="higher_is_better")
    with pytest.raises(ValueError, match="pass `rope=` explicitly"):
        checks.resolve_rope(bare)


@pytest.mark.parametrize("name", mcda.datasets.available())
def test_json_and_netcdf_round_trip_every_bundled_cube(name, tmp_path):
    cube = mcda.datasets.load(name)
    xr.testing.assert_identical(io.from_json(io.to_json(cube)), cube)
    path = tmp_path / "cube.json"
    io.to_json(cube, path)
    xr.testing.assert_identical(io.from_json(path), cube)
    io.to_netcdf(cube, tmp_path / "cube.nc")
    xr.testing.assert_identical(io.from_netcdf(tmp_path / "cube.nc"), cube)


def test_json_is_readable_and_versioned():
    text = io.to_json(mcda.datasets.load("duo2018"))
    assert '"format": "mcda-cube"' in text and '"version": 1' in text and "null" in text
    with pytest.raises(ValueError, match="not an mcda cube JSON"):
        io.from_json('{"format": "other"}')


def test_import_mcda_is_light():
    code = "import sys, mcda; mcda.score_cube; print('numba' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


# --- property-based: any accepted input round-trips; the forms agree ---------------------------

labels = st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=4), min_size=2, max_size=5, unique=True)
score = st.one_of(st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False), st.just(float("nan")))


@st.composite
def tables(draw):
    datasets = draw(st.lists(st.text(alphabet="xyz123", min_size=1, max_size=4), min_size=1, max_size=5,
                             unique=True))
    methods = draw(labels)
    values = draw(st.lists(st.lists(score, min_size=len(methods), max_size=len(methods)),
                           min_size=len(datasets), max_size=len(datasets)))
    return pd.DataFrame(values, index=datasets, columns=methods)


@settings(max_examples=40, deadline=None)
@given(tables())
def test_forms_agree_and_round_trip(wide):
    tidy = wide.rename_axis("dataset").reset_index().melt(id_vars="dataset", var_name="method",
                                                          value_name="score")
    nested = {d: {m: wide.loc[d, m] for m in wide.columns} for d in wide.index}
    a = mcda.score_cube(wide, direction="lower_is_better")
    b = mcda.score_cube(tidy, direction="lower_is_better")
    c = mcda.score_cube(nested, direction="lower_is_better")
    xr.testing.assert_identical(a, b)
    xr.testing.assert_identical(a, c)
    xr.testing.assert_identical(io.from_json(io.to_json(a)), a)
    xr.testing.assert_identical(mcda.score_cube(a), a)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(2, 4), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_seeded_arrays_round_trip(n_datasets, n_methods, n_seeds, rng):
    values = np.random.default_rng(rng).uniform(size=(n_datasets, n_methods, n_seeds))  # accuracy lies in [0, 1]
    values[values > 0.8] = np.nan
    cube = mcda.score_cube(values, metric="accuracy", method_names=[f"m{i}" for i in range(n_methods)])
    xr.testing.assert_identical(io.from_json(io.to_json(cube)), cube)
    tidy = cube.to_dataframe(name="score").reset_index()[["dataset", "method", "seed", "score"]]
    xr.testing.assert_identical(mcda.score_cube(tidy, metric="accuracy").drop_vars([]), cube)


def test_paths_are_read_by_their_suffix(tmp_path):
    cube = mcda.datasets.load("duo2018")
    io.to_json(cube, tmp_path / "c.json")
    io.to_netcdf(cube, tmp_path / "c.nc")
    tidy = cube.to_dataframe(name="score").reset_index()[["dataset", "method", "score"]]
    tidy.to_csv(tmp_path / "c.csv", index=False)
    xr.testing.assert_identical(mcda.score_cube(tmp_path / "c.json"), cube)
    xr.testing.assert_identical(mcda.score_cube(str(tmp_path / "c.nc")), cube)
    from_csv = mcda.score_cube(tmp_path / "c.csv", metric="ari")
    np.testing.assert_array_equal(from_csv.values, cube.values)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        mcda.score_cube(tmp_path / "nothing.csv", metric="ari")
    (tmp_path / "scores.txt").write_text("x")
    with pytest.raises(ValueError, match="has suffix '.txt'"):
        mcda.score_cube(tmp_path / "scores.txt", metric="ari")


def test_a_zarr_store_or_chunked_netcdf_opens_lazily(tmp_path):
    pytest.importorskip("dask")  # the optional `dask` extra
    from mcda import store

    cube = mcda.datasets.load("duo2018")
    store.to_zarr(cube, tmp_path / "c.zarr", chunk_datasets=5)
    lazy = mcda.score_cube(tmp_path / "c.zarr")
    assert store.is_lazy(lazy) and lazy.chunks[0] == (5, 5, 2)
    xr.testing.assert_identical(lazy.compute(), cube)
    io.to_netcdf(cube, tmp_path / "c.nc")
    lazy_nc = mcda.score_cube(tmp_path / "c.nc", chunks=4)
    assert store.is_lazy(lazy_nc) and lazy_nc.chunks[0] == (4, 4, 4)


def test_metric_selects_one_metric_by_label_case_or_card():
    both = mcda.datasets.load("duo2018_all")
    tidy = both.to_dataframe(name="score").reset_index()[["dataset", "method", "metric", "score"]]
    for source in (both, tidy):
        for name in ("elapsed", "ELAPSED", "runtime"):  # the label, another case, the card the label resolves to
            one = mcda.score_cube(source, metric=name)
            assert one.dims == ("dataset", "method")
            assert one.attrs["direction"] == "lower_is_better" and one.attrs["noise_floor"] == 0.1
            np.testing.assert_array_equal(one.values, both.sel(metric="elapsed").values)
    with pytest.raises(ValueError, match=r"`metric` must be one of the metrics \['ARI', 'elapsed'.*; got 'nmi'"):
        mcda.score_cube(both, metric="nmi")


def test_many_labels_are_checked_on_every_new_index_and_remembered_only_for_the_same_one():
    # from 2**16 labels on, a label Index already checked is not converted and checked again
    # (every statistic re-validates its cube); any other Index, even with the same labels, is
    import gc

    n = readers._MANY_LABELS + 10
    values = np.full((n, 2), 0.5)

    def raw(labels):
        return xr.DataArray(values, dims=("dataset", "method"), coords={"dataset": labels, "method": ["a", "b"]})

    cube = mcda.score_cube(raw(np.arange(n)), metric="accuracy")
    assert cube.coords["dataset"].values[:3].tolist() == ["0", "1", "2"] and cube.coords["dataset"].dtype == object
    again = C.as_cube(cube)
    xr.testing.assert_identical(again, cube)
    repeated = np.arange(n)
    repeated[-1] = 7
    with pytest.raises(mcda.McdaArgumentError, match="duplicate dataset labels: '7'"):
        mcda.score_cube(raw(repeated), metric="accuracy")
    text = np.array([f"d{i}" for i in range(n)], dtype=object)
    text[-1] = "d3"
    with pytest.raises(mcda.McdaArgumentError, match="duplicate dataset labels: 'd3'"):
        mcda.score_cube(raw(text), metric="accuracy")
    mixed = np.array([f"{i}" for i in range(n)], dtype=object)
    mixed[-1] = 9  # the int 9 and the text "9"
    with pytest.raises(mcda.McdaArgumentError, match="differ only in type"):
        mcda.score_cube(raw(mixed), metric="accuracy")
    with pytest.raises(mcda.McdaArgumentError, match="duplicate dataset labels"):  # a narrowed copy repeats a label
        C.as_cube(cube.isel(dataset=np.r_[np.arange(n), 0]))
    pytest.importorskip("dask")
    lazy = mcda.score_cube(raw(np.arange(n)).chunk({"dataset": n // 2}), metric="accuracy")
    assert lazy.coords["dataset"].dtype.kind == "i"  # a lazy cube keeps integer labels ...
    loaded = C.as_cube(lazy.compute())  # ... which become text once in memory, as any other cube's
    assert loaded.coords["dataset"].values[:2].tolist() == ["0", "1"]
    held = len(readers._CHECKED_LABELS)
    del cube, again
    gc.collect()
    assert len(readers._CHECKED_LABELS) < held  # the remembered labels go with their cube
