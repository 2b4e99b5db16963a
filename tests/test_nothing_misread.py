"""Issue 38: what a file or an argument says is read as it is, or refused naming it.

Reference values are the inputs themselves (a round trip gives them back) or plain arithmetic
written here.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import mcda
from mcda.data import io


def _cube():
    return mcda.score_cube(np.random.default_rng(0).uniform(0.5, 0.9, (5, 3)), metric="accuracy")


# --------------------------------------------------------------------------- a stored `oriented` flag is not trusted


@pytest.mark.parametrize("metric", ["accuracy", "runtime"])
def test_an_oriented_flag_injected_in_a_cube_json_does_not_negate_it(tmp_path, metric):
    cube = mcda.score_cube(np.random.default_rng(1).uniform(0.5, 0.9, (5, 3)), metric=metric)
    doc = json.loads(io.to_json(cube))
    assert "oriented" not in doc["attrs"]  # a writer never stores the in-memory view's mark
    doc["attrs"]["oriented"] = 1
    back = io.from_json(json.dumps(doc))
    np.testing.assert_array_equal(back.values, cube.values)
    assert "oriented" not in back.attrs
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    report = mcda.Report.from_json(json.dumps({**json.loads(mcda.Report(cube, rng=0).to_json()),
                                               "cube": doc}))
    np.testing.assert_array_equal(report.raw.values, cube.values)


def test_an_oriented_flag_injected_in_netcdf_and_zarr_does_not_negate_them(tmp_path):
    pytest.importorskip("dask")
    pytest.importorskip("zarr")
    cube = _cube()
    nc = tmp_path / "c.nc"
    marked = cube.copy()
    marked.attrs = dict(cube.attrs, oriented=1)  # written around mcda's writer, which un-orients first
    marked.to_netcdf(nc)
    np.testing.assert_array_equal(io.from_netcdf(nc).values, cube.values)
    store = tmp_path / "c.zarr"
    from mcda.store import open_cube, to_zarr

    to_zarr(cube, store)
    attrs = json.loads((store / "score" / ".zattrs").read_text())
    attrs["oriented"] = 1
    (store / "score" / ".zattrs").write_text(json.dumps(attrs))
    np.testing.assert_array_equal(open_cube(store).values, cube.values)


# --------------------------------------------------------------------------- edited or broken files are named


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.__setitem__("version", "1"), r"its 'version' must be a whole number .* got '1'"),
    (lambda d: d.pop("values"), r"has no 'values': the file is incomplete or was edited"),
    (lambda d: d["coords"].pop("method"), r"has no labels of 'method' in 'coords'"),
    (lambda d: d.__setitem__("values", 3), r"its 'values' must be a JSON list; got int"),
    (lambda d: d.pop("dims"), r"has no 'dims'"),
])
def test_a_tampered_cube_json_is_refused_naming_the_file_and_the_part(tmp_path, edit, message):
    doc = json.loads(io.to_json(_cube()))
    edit(doc)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(mcda.McdaArgumentError, match=rf"`source` '{path}'.*" + message) as caught:
        io.from_json(path)
    assert caught.value.argument == "source"


def test_a_file_that_is_not_json_is_named(tmp_path):
    path = tmp_path / "c.json"
    path.write_text("{not json")
    with pytest.raises(mcda.McdaArgumentError, match=rf"`source` '{path}' is not JSON"):
        io.from_json(path)
    with pytest.raises(mcda.McdaArgumentError, match="is not an mcda cube JSON"):
        io.from_json('{"format": "something else"}')


def test_a_file_that_is_not_parquet_is_named(tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "scores.parquet"
    path.write_text("dataset,method,score\n")
    with pytest.raises(mcda.McdaArgumentError, match=rf"`data` path '{path}' cannot be read as a Parquet file"):
        mcda.score_cube(str(path), metric="accuracy")
    pytest.importorskip("zarr")
    from mcda.store import parquet_to_zarr

    with pytest.raises(mcda.McdaArgumentError, match=rf"`parquet` '{path}' cannot be read as a Parquet file") as caught:
        parquet_to_zarr(path, tmp_path / "s.zarr", metric="accuracy")
    assert caught.value.argument == "parquet"
    frame = pd.DataFrame({"dataset": ["d0"], "model": ["a"], "score": [0.5]})
    frame.to_parquet(path)
    with pytest.raises(mcda.McdaArgumentError, match=rf"the Parquet file '{path}' has no column\(s\) 'method'"):
        parquet_to_zarr(path, tmp_path / "s.zarr", metric="accuracy")


# --------------------------------------------------------------------------- the card's range and `scale=`, one check


def _tidy(scores: np.ndarray) -> pd.DataFrame:
    n = scores.size // 3
    return pd.DataFrame({"dataset": np.repeat([f"d{i}" for i in range(n)], 3), "method": np.tile(["a", "b", "c"], n),
                         "score": scores})


_PERCENT = np.random.default_rng(2).uniform(50, 90, 60)


@pytest.mark.parametrize("writer", ["parquet_to_zarr", "csv_to_zarr"])
def test_the_streaming_path_checks_the_cards_range_and_scale_as_score_cube_does(tmp_path, writer):
    pytest.importorskip("zarr")
    pytest.importorskip("pyarrow")
    from mcda import store

    def convert(scores, **kwargs):
        path = tmp_path / ("s.parquet" if writer == "parquet_to_zarr" else "s.csv")
        frame = _tidy(scores)
        frame.to_parquet(path) if writer == "parquet_to_zarr" else frame.to_csv(path, index=False)
        return getattr(store, writer)(path, tmp_path / "s.zarr", metric="accuracy", overwrite=True, **kwargs)

    # accuracy of 50-90 was written as it was; score_cube refuses it and the store refuses it the same way
    with pytest.raises(mcda.McdaArgumentError, match="look like percentages") as in_memory:
        mcda.score_cube(_tidy(_PERCENT), metric="accuracy")
    with pytest.raises(mcda.McdaArgumentError, match=r"60 of 60 scores of the first chunk of the store holding any "
                                                     r"lie outside the card's range \[0, 1\]") as streamed:
        convert(_PERCENT)
    assert streamed.value.argument == in_memory.value.argument == "metric"
    assert not (tmp_path / "s.zarr").exists()
    one = _PERCENT / 100
    one[7] = 1e300
    with pytest.raises(mcda.McdaArgumentError, match=r"1 of 60 .*dataset 'd2', method 'b': 1e\+300"):
        convert(one)
    # scale='percent' converts, as score_cube does, and says so in the store
    cube = convert(_PERCENT, scale="percent").compute()
    expected = mcda.score_cube(_tidy(_PERCENT), metric="accuracy", scale="percent")
    np.testing.assert_allclose(cube.sel({"dataset": expected.dataset.values, "method": expected.method.values}).values,
                               _PERCENT.reshape(-1, 3) / 100, rtol=1e-15)
    assert cube.attrs["scale"] == expected.attrs["scale"] == "percent -> fraction (divided by 100)"
    # fractions with scale='percent' are refused (they would be divided again), in both
    with pytest.raises(mcda.McdaArgumentError, match=r"`scale='percent'` divides the scores by 100, but as given "
                                                     r"they lie in \[0\.5.*already within the range \[0, 1\]"):
        convert(_PERCENT / 100, scale="percent")
    with pytest.raises(mcda.McdaArgumentError, match="`scale`"):
        convert(_PERCENT, scale="per mille")


def test_scale_percent_on_fractions_is_refused_not_divided_again():
    fractions = _tidy(_PERCENT / 100)
    with pytest.raises(mcda.McdaArgumentError, match=r"as given they lie in \[0\.5\d*, 0\.8\d*\], already within "
                                                     r"the range \[0, 1\] of metric 'accuracy'") as caught:
        mcda.score_cube(fractions, metric="accuracy", scale="percent")
    assert caught.value.argument == "scale" and caught.value.value == "percent"
    # percentages convert; fractions with scale='fraction' (or none) are read as given
    np.testing.assert_allclose(mcda.score_cube(_tidy(_PERCENT), metric="accuracy", scale="percent").values.ravel(),
                               _PERCENT / 100, rtol=1e-15)
    assert mcda.score_cube(fractions, metric="accuracy", scale="fraction").values.max() == (_PERCENT / 100).max()


def test_the_command_line_refuses_scale_percent_on_fractions(tmp_path):
    from mcda.app.cli import main
    import io as text_io

    path = tmp_path / "scores.csv"
    _tidy(_PERCENT / 100).to_csv(path, index=False)
    out, err = text_io.StringIO(), text_io.StringIO()
    status = main(["compare", str(path), "--metric", "accuracy", "--scale", "percent", "--no-figures",
                   "--out", str(tmp_path / "out")], stdout=out, stderr=err)
    assert status == 1 and "--scale" in err.getvalue() and "already within the range [0, 1]" in err.getvalue()
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("fmt", ["zarr", "netcdf", "json"])
def test_a_converted_cube_round_trips_through_every_file_format(tmp_path, fmt):
    # attrs["scale_factor"] (what scale= divided by) is CF's packing factor to xarray's decoder: a store of
    # percentages converted by scale='percent' came back multiplied by 100 again
    cube = mcda.score_cube(_tidy(_PERCENT), metric="accuracy", scale="percent")
    if fmt == "zarr":
        pytest.importorskip("zarr")
        from mcda.store import open_cube, to_zarr

        to_zarr(cube, tmp_path / "s.zarr")
        back = open_cube(tmp_path / "s.zarr").compute()
    elif fmt == "netcdf":
        io.to_netcdf(cube, tmp_path / "s.nc")
        back = io.from_netcdf(tmp_path / "s.nc")
    else:
        back = io.from_json(io.to_json(cube))
    np.testing.assert_array_equal(back.sel({"dataset": cube.dataset.values}).values, _PERCENT.reshape(-1, 3) / 100)
    assert back.attrs["scale"] == cube.attrs["scale"]


# --------------------------------------------------------------------------- labels keep their values


@pytest.mark.parametrize("seeds, kept", [([0.5, 1.5], [0.5, 1.5]), ([0.5, 0.7], [0.5, 0.7]), ([1.0, 2.0], [1, 2]),
                                         ([3, 7], [3, 7])])
def test_seed_labels_keep_their_values(seeds, kept):
    frame = pd.DataFrame({"dataset": ["d0"] * 4 + ["d1"] * 4, "method": ["a", "a", "b", "b"] * 2,
                          "seed": seeds * 4, "score": np.linspace(0.5, 0.9, 8)})
    cube = mcda.score_cube(frame, metric="accuracy")  # 0.5 and 1.5 were truncated to 0 and 1; 0.5 with 0.7 refused
    assert cube.coords["seed"].values.tolist() == kept
    for seed, (_, rows) in zip(kept, frame.groupby("seed", sort=True)):
        np.testing.assert_array_equal(cube.sel(seed=seed).values.ravel(), rows["score"].to_numpy())
    back = io.from_json(io.to_json(cube))
    assert back.coords["seed"].values.tolist() == kept


# --------------------------------------------------------------------------- the units of the scores change nothing


_SCORES = np.random.default_rng(3).normal(0, 1, (4, 3, 6)) + np.array([0.0, 0.6, 1.2])[None, :, None]


def _scale_invariant_results(factor: float) -> dict:
    cube = mcda.score_cube(_SCORES * factor, direction="higher_is_better")
    out = {}
    for paired in (True, False):
        for method in ("t", "wilcoxon"):
            frame = mcda.paired_tests(cube, paired=paired, method=method).to_frame()
            out[f"paired={paired} {method}"] = (frame["p_raw"].to_numpy(), frame["significant"].to_numpy(),
                                                frame["reason"].tolist())
    means = cube.mean("seed")
    for kind in ("cohen_d", "cohen_d_pooled", "cliff_delta"):
        frame = mcda.effect_sizes(means, kind=kind, rng=0, n_resamples=199).to_frame()
        out[kind] = (frame["effect_size"].to_numpy(), frame["magnitude"].to_numpy(), frame["reason"].tolist())
    friedman = mcda.friedman_test(means)
    out["friedman"] = (np.array([friedman.pvalue, friedman.f_pvalue]), np.array([friedman.rejected]), [])
    return out


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_verdicts_and_p_values_do_not_depend_on_the_units_of_the_scores():
    # Welch's t changed its p-value at x 1e100 (its df squares the variances) and said p = 0 at x 1e-200;
    # Cohen's d was inf at x 1e-300. Scores above 1e150 are refused on input (their variances overflow).
    from hypothesis import example, given, settings, strategies as st

    reference = _scale_invariant_results(1.0)

    @settings(max_examples=12, deadline=None)
    @given(st.integers(min_value=-200, max_value=149))  # |scores| < 4: 1e149 times them stays under 1e150
    @example(100)
    @example(-200)
    def check(exponent):
        results = _scale_invariant_results(10.0 ** exponent)
        for name, (values, verdicts, reasons) in reference.items():
            got_values, got_verdicts, got_reasons = results[name]
            np.testing.assert_allclose(got_values, values, rtol=1e-9, err_msg=f"{name} at 1e{exponent}")
            np.testing.assert_array_equal(got_verdicts, verdicts, err_msg=f"{name} at 1e{exponent}")
            assert got_reasons == reasons, (name, exponent)

    check()


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
@pytest.mark.parametrize("factor", [1e-300, 1e100])
def test_the_hierarchical_model_does_not_call_tiny_differences_constant(factor):
    folds = np.random.default_rng(0).normal(0.7, 0.05, (6, 2, 10))

    def run(scale):
        cube = mcda.score_cube(folds * scale, direction="higher_is_better")
        return mcda.hierarchical_comparison(cube, runs=1, rope=0.01 * scale, n_samples=400, n_warmup=200,
                                            n_chains=2, rng=0).to_frame().iloc[0]

    here, there = run(1.0), run(factor)
    assert there["reason"] == here["reason"]  # (was: "every dataset's fold differences are constant")
    for column in ("prob_a_better", "prob_equivalent", "prob_b_better"):
        assert there[column] == pytest.approx(here[column], rel=1e-9, nan_ok=True)
