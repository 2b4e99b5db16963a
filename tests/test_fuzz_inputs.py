"""Arbitrary DataArrays, dicts and frames through every public entry point (issue 21, "Must show").

Each input gives a result or an :class:`mcda.McdaArgumentError` (a clear error naming an
argument, or the data); never a traceback from numpy, pandas, xarray or numba, and never a
lost row: every score the input holds is in the cube, at its own labels.
"""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mcda
from mcda import McdaArgumentError

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.data_too_large])

label = st.one_of(st.text(alphabet="abc1", min_size=0, max_size=2), st.integers(-2, 3), st.none(),
                  st.floats(allow_nan=True, allow_infinity=False, width=16), st.booleans())
score = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**20, 10**20), st.none(),
                  st.booleans(), st.text(max_size=3), st.complex_numbers(max_magnitude=2, allow_nan=False))
nice_score = st.one_of(st.floats(-1e3, 1e3, allow_nan=False), st.just(float("nan")))
directions = st.sampled_from([None, "higher_is_better", "lower_is_better", "sideways", 1])
metrics = st.sampled_from([None, "accuracy", "ari", "runtime", "no_such_metric"])


@st.composite
def dataarrays(draw):
    dims = draw(st.lists(st.sampled_from(["dataset", "method", "seed", "metric", "epoch", "split", "fold"]),
                         min_size=1, max_size=4, unique=True))
    shape = [draw(st.integers(0, 3)) for _ in dims]
    kind = draw(st.sampled_from(["float", "float32", "int", "object", "bool", "complex"]))
    n = int(np.prod(shape))
    if kind == "object":
        values = np.array(draw(st.lists(score, min_size=n, max_size=n)), dtype=object).reshape(shape)
    else:
        raw = draw(st.lists(nice_score, min_size=n, max_size=n))
        values = np.array(raw, dtype=float).reshape(shape)
        if kind == "float32":
            values = values.astype(np.float32)
        elif kind == "int":
            values = np.nan_to_num(values).astype(np.int64)
        elif kind == "bool":
            values = values > 0
        elif kind == "complex":
            values = values + 1j
    coords = {}
    for d, size in zip(dims, shape):
        if draw(st.booleans()):
            coords[d] = np.array(draw(st.lists(label, min_size=size, max_size=size)), dtype=object)
    da = xr.DataArray(values, dims=dims, coords=coords)
    attrs = draw(st.fixed_dictionaries({}, optional={
        "direction": directions, "metric": metrics,
        "noise_floor": st.one_of(st.floats(allow_nan=True), st.text(max_size=2), st.none())}))
    da.attrs = {k: v for k, v in attrs.items() if v is not None}
    return da


@st.composite
def nested_dicts(draw):
    keys = st.one_of(st.text(alphabet="ab1", min_size=0, max_size=2), st.integers(0, 2))
    inner = st.dictionaries(keys, st.one_of(score, st.lists(score, max_size=3)), max_size=3)
    return draw(st.dictionaries(keys, st.one_of(inner, score), max_size=3))


@st.composite
def frames(draw):
    tidy = draw(st.booleans())
    n = draw(st.integers(0, 6))
    if tidy:
        columns = {"dataset": st.lists(label, min_size=n, max_size=n),
                   "method": st.lists(label, min_size=n, max_size=n),
                   "score": st.lists(score, min_size=n, max_size=n)}
        extra = draw(st.lists(st.sampled_from(["seed", "metric", "epoch", "split", "other"]), unique=True,
                              max_size=2))
        data = {c: draw(s) for c, s in columns.items()}
        for c in extra:
            data[c] = draw(st.lists(label, min_size=n, max_size=n))
        if draw(st.booleans()):
            data.pop(draw(st.sampled_from(sorted(data))))
        return pd.DataFrame(data)
    k = draw(st.integers(0, 3))
    columns = draw(st.lists(label, min_size=k, max_size=k))
    values = [draw(st.lists(score, min_size=k, max_size=k)) for _ in range(n)]
    frame = pd.DataFrame(values, columns=pd.Index(columns, dtype=object)) if k else pd.DataFrame(index=range(n))
    if draw(st.booleans()) and n:
        frame.index = pd.Index(draw(st.lists(label, min_size=n, max_size=n)), dtype=object)
    if draw(st.booleans()):
        frame.insert(0, draw(st.sampled_from(["dataset", "seed"])), draw(st.lists(label, min_size=n, max_size=n)))
    return frame


inputs = st.one_of(dataarrays(), nested_dicts(), frames(),
                   st.lists(st.lists(score, min_size=2, max_size=3), min_size=0, max_size=3))


def _is_missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v)) or (isinstance(v, str) and not v.strip())


def _expected_scores(data) -> int | None:
    """How many scores (non-missing values) a dict or a tidy frame holds, when that is unambiguous."""
    if isinstance(data, dict):
        n = 0
        for inner in data.values():
            for v in inner.values():
                n += sum(not _is_missing(x) for x in (v if isinstance(v, list) else [v]))
        return n
    if isinstance(data, pd.DataFrame) and "method" in data.columns:
        return int(sum(not _is_missing(v) for v in data["score"]))
    return None


def _call(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)  # warnings are fine; other exceptions are not
        return function(*args, **kwargs)


@FUZZ
@given(data=inputs, metric=metrics, direction=directions)
def test_score_cube_gives_a_cube_or_an_argument_error_and_loses_no_row(data, metric, direction):
    try:
        cube = _call(mcda.score_cube, data, metric=metric, direction=direction, method_names=None)
    except McdaArgumentError as err:
        assert str(err)
        return
    assert isinstance(cube, xr.DataArray) and cube.dtype == np.float64
    assert np.isfinite(cube.values[~np.isnan(cube.values)]).all()
    assert cube.attrs.get("direction") in ("higher_is_better", "lower_is_better") or "metric" in cube.dims
    for d in cube.dims:
        assert len(pd.unique(pd.Series(cube.coords[d].values, dtype=object))) == cube.sizes[d]
    expected = _expected_scores(data)
    if expected is not None:
        assert int(cube.notnull().sum()) == expected  # never a lost (or invented) row


def _entry_points():
    out = []
    for name in mcda.__all__:
        obj = getattr(mcda, name)
        if callable(obj) and not isinstance(obj, type):
            params = inspect.signature(obj).parameters
            first = next(iter(params), None)
            required = [p for p in params.values() if p.default is inspect.Parameter.empty
                        and p.kind in (p.KEYWORD_ONLY,)]
            if first == "scores" and not required:
                out.append(name)
    return sorted(out) + ["Report"]


ENTRY_POINTS = _entry_points()


def test_the_fuzzed_entry_points_are_the_public_functions_on_scores():
    assert {"compare_over_datasets", "friedman_test", "pairwise_superiority", "bayesian_sign_comparison",
            "practical_dominance", "promethee", "paired_tests", "method_summary", "Report"} <= set(ENTRY_POINTS)


@FUZZ
@given(name=st.sampled_from(ENTRY_POINTS), data=inputs, direction=st.sampled_from([None, "higher_is_better"]))
def test_every_entry_point_gives_a_result_or_an_argument_error(name, data, direction):
    function = getattr(mcda, name)
    kwargs = {}
    if direction is not None:
        params = inspect.signature(function).parameters
        if "direction" in params:
            kwargs["direction"] = direction
        if "rope" in params:
            kwargs["rope"] = 0.01
    if name == "rank_stability":
        kwargs["n_resamples"] = 20
    try:
        result = _call(function, data, **kwargs)
    except McdaArgumentError as err:
        assert str(err)
        return
    assert result is not None


@FUZZ
@given(data=dataarrays())
def test_as_cube_is_the_same_check_for_a_built_cube(data):
    # a DataArray that already carries a direction went through no check at all
    data = data.copy()
    data.attrs["direction"] = "higher_is_better"
    try:
        cube = _call(mcda.data.cube.as_cube, data)
    except McdaArgumentError:
        return
    assert np.isfinite(cube.values[~np.isnan(cube.values)]).all()
    if "metric" in cube.dims:  # the direction of each metric is the coordinate direction(metric)
        return
    with pytest.raises(McdaArgumentError):
        bad = cube.copy()
        bad.attrs["direction"] = "sideways"
        mcda.data.cube.as_cube(bad)
