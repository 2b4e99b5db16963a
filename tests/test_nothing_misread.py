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
