"""The score cube: every input becomes one ``xarray.DataArray`` here, in one place.

Dims are ``dataset`` and ``method`` and, when present, ``seed``, ``metric``, ``epoch`` and
``split`` (in that order). Coordinates carry the labels. The metric's card travels in the
attrs (single metric: ``metric``, ``direction``, ``noise_floor``, ``card`` as JSON) or, with
a ``metric`` dim, as the coordinates ``direction(metric)`` and ``noise_floor(metric)`` plus
the attr ``cards`` (JSON). NaN means "no result": it is kept, counted and reported, never
filled. Every statistic works on :func:`orient` (higher is better).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from ._results import Result
from ._validation import check_choice, check_rope, shown
from .cards import DIRECTIONS, MetricCard, direction_sign, UnknownMetricError, card_from_dict, get_card

__all__ = [
    "DIMS",
    "score_cube",
    "as_cube",
    "single_score_cube",
    "orient",
    "complete_cases",
    "CompleteCases",
    "reduce_seeds",
    "missing_cells",
    "cube_card",
    "cube_cards",
    "cube_direction",
    "cube_metric",
    "resolve_rope",
    "to_json",
    "from_json",
    "to_netcdf",
    "from_netcdf",
    "open_cube",
]

DIMS = ("dataset", "method", "seed", "metric", "epoch", "split")
_OPTIONAL_DIMS = DIMS[2:]
_STRING_DIMS = ("dataset", "method", "metric", "split")
JSON_FORMAT = "mcda-cube"
JSON_VERSION = 1
_DEFAULT_COLUMNS = {d: d for d in DIMS} | {"score": "score"}
_MAX_SHOWN = 8
#: Column names people give the method column of a tidy table (matched case-insensitively).
METHOD_COLUMN_NAMES = ("method", "model", "algorithm", "classifier", "system", "approach")


# --------------------------------------------------------------------------- metric / direction

def _resolve_one(metric, direction, *, what: str = "") -> tuple[str, str, MetricCard | None]:
    """(metric name or '', direction, card or None) for one metric; contradictions raise."""
    where = f" for metric {what!r}" if what else ""
    if direction is not None:
        check_choice("direction", direction, DIRECTIONS)
    if metric is None:
        if direction is None:
            raise ValueError("pass `metric=` (a card name such as 'accuracy') or `direction=` "
                             "('higher_is_better' or 'lower_is_better'): mcda needs to know which way is better.")
        return "", direction, None
    try:
        card = get_card(metric)
    except UnknownMetricError:
        if direction is None:
            raise
        name = metric.name if isinstance(metric, MetricCard) else str(metric)
        return name, direction, None
    if direction is not None and direction != card.direction:
        raise ValueError(f"`direction` {direction!r}{where} contradicts the card for {card.name!r}, which says "
                         f"{card.direction!r}. Drop `direction=`, or register a corrected card.")
    name = metric.name if isinstance(metric, MetricCard) else str(metric)
    return name, card.direction, card


def attach_metric(da: xr.DataArray, metric, direction) -> xr.DataArray:
    """Write the metric / direction / card attrs (and coords along ``metric``)."""
    attrs = {k: v for k, v in da.attrs.items() if k not in ("metric", "direction", "noise_floor", "card", "cards")}
    if "metric" in da.dims:
        labels = [str(m) for m in da.coords["metric"].values]
        metric_map = metric if isinstance(metric, Mapping) else None
        direction_map = direction if isinstance(direction, Mapping) else None
        if metric is not None and metric_map is None:
            raise TypeError("with a `metric` dim, `metric` must be None (cards looked up from the labels) or a "
                            f"mapping label -> card name; got {metric!r}")
        for mp, nm in ((metric_map, "metric"), (direction_map, "direction")):
            if mp is not None:
                unknown = [k for k in mp if str(k) not in labels]
                if unknown:
                    raise ValueError(f"`{nm}` names metrics that are not in the cube: {shown(unknown)}; "
                                     f"the cube has {shown(labels)}")
        dirs, floors, cards = [], [], {}
        for label in labels:
            m = metric_map.get(label, label) if metric_map else label
            d = direction_map.get(label) if direction_map else direction
            _, dd, card = _resolve_one(m, d, what=label)
            dirs.append(dd)
            floors.append(card.noise_floor if card else math.nan)
            cards[label] = card.to_dict() if card else None
        da = da.assign_coords(direction=("metric", np.array(dirs, dtype=object)),
                              noise_floor=("metric", np.array(floors, dtype=float)))
        attrs["cards"] = json.dumps(cards, sort_keys=True)
    else:
        if isinstance(metric, Mapping) or isinstance(direction, Mapping):
            raise TypeError("`metric` and `direction` are mappings only for cubes with a `metric` dim")
        name, d, card = _resolve_one(metric, direction)
        attrs["metric"] = name
        attrs["direction"] = d
        attrs["noise_floor"] = card.noise_floor if card else math.nan
        attrs["card"] = card.to_json() if card else ""
    da.attrs = attrs
    return da


def cube_metric(cube: xr.DataArray) -> str:
    """The metric name of a single-metric cube ('' when it has none)."""
    return str(cube.attrs.get("metric", ""))


def cube_card(cube: xr.DataArray) -> MetricCard | None:
    """The card of a single-metric cube, or None when it has none."""
    if "metric" in cube.dims:
        raise ValueError("this cube has a `metric` dim; use cube_cards(cube) or select one metric first "
                         "(cube.sel(metric=...))")
    text = cube.attrs.get("card", "")
    return card_from_dict(json.loads(text), source=json.loads(text).get("source", "cube")) if text else None


def cube_cards(cube: xr.DataArray) -> dict[str, MetricCard | None]:
    """The card per metric label of a cube with a ``metric`` dim."""
    if "metric" not in cube.dims:
        return {cube_metric(cube): cube_card(cube)}
    raw = json.loads(cube.attrs.get("cards", "{}"))
    return {k: (card_from_dict(v, source=v.get("source", "cube")) if v else None) for k, v in raw.items()}


def cube_direction(cube: xr.DataArray):
    """The direction of a single-metric cube (a dict label -> direction with a ``metric`` dim)."""
    if "metric" in cube.dims:
        return dict(zip([str(m) for m in cube.coords["metric"].values],
                        [str(d) for d in cube.coords["direction"].values]))
    if "direction" not in cube.attrs:
        raise ValueError("this DataArray carries no `direction`; build it with mcda.score_cube(...)")
    return cube.attrs["direction"]


def resolve_rope(cube: xr.DataArray, rope=None) -> float:
    """``rope`` checked, or the card's noise floor when ``rope`` is None.

    Raises
    ------
    ValueError
        When ``rope`` is None and the cube has no card (pass ``rope=`` explicitly; 0 is allowed).
    """
    if rope is not None:
        return check_rope(rope)
    if "metric" in cube.dims:
        raise ValueError("this cube has a `metric` dim; select one metric (cube.sel(metric=...)) before "
                         "resolving its rope")
    floor = cube.attrs.get("noise_floor", math.nan)
    if floor is None or (isinstance(floor, float) and math.isnan(floor)):
        raise ValueError("`rope` is None and the scores carry no metric card, so there is no noise floor to use; "
                         "pass `rope=` explicitly (0.0 for none) or `metric=` naming a card.")
    return float(floor)


# --------------------------------------------------------------------------- parsing

def _numeric(values: pd.Series | np.ndarray, where) -> np.ndarray:
    """float64 values; non-numeric entries and ±inf raise naming ``where(i)`` for each bad i."""
    arr = np.asarray(values)
    if arr.dtype.kind in "fiu":
        out = arr.astype(np.float64)
        bad_text = np.zeros(out.shape, dtype=bool)
    else:
        series = pd.Series(arr.ravel(), dtype=object)
        numeric = pd.to_numeric(series, errors="coerce")
        isbool = series.map(lambda v: isinstance(v, (bool, np.bool_)))
        bad_text = ((numeric.isna() & series.notna() & ~series.map(_is_missing_marker)) | isbool).to_numpy()
        out = numeric.to_numpy(dtype=np.float64).reshape(arr.shape)
        bad_text = bad_text.reshape(arr.shape)
        if bad_text.any():
            idx = list(zip(*np.nonzero(bad_text)))
            shown = [f"{where(i)}: {arr[i]!r}" for i in idx[:_MAX_SHOWN]]
            more = f" (and {len(idx) - _MAX_SHOWN} more)" if len(idx) > _MAX_SHOWN else ""
            raise ValueError("scores must be numeric; non-numeric values at " + "; ".join(shown) + more)
    infinite = np.isinf(out)
    if infinite.any():
        idx = list(zip(*np.nonzero(infinite)))
        shown = [f"{where(i)}: {out[i]!r}" for i in idx[:_MAX_SHOWN]]
        more = f" (and {len(idx) - _MAX_SHOWN} more)" if len(idx) > _MAX_SHOWN else ""
        raise ValueError("scores must be finite (NaN marks a missing result); infinite values at "
                         + "; ".join(shown) + more)
    return out


def _is_missing_marker(v) -> bool:
    if v is None:
        return True
    if isinstance(v, float) and math.isnan(v):
        return True
    if isinstance(v, str) and v.strip() == "":
        return True
    return v is pd.NA or v is pd.NaT


def _labels(values, dim: str) -> np.ndarray:
    labels = pd.unique(pd.Series(values))
    if dim in _STRING_DIMS:
        labels = np.array([str(v) for v in labels], dtype=object)
    else:
        labels = np.asarray(labels)
        if labels.dtype == object:
            try:
                labels = labels.astype(np.int64)
            except (TypeError, ValueError):
                labels = np.array([str(v) for v in labels], dtype=object)
    return labels


def _from_tidy(frame: pd.DataFrame, columns: Mapping[str, str]) -> xr.DataArray:
    cols = dict(_DEFAULT_COLUMNS)
    if columns:
        unknown_roles = [k for k in columns if k not in cols]
        if unknown_roles:
            raise ValueError(f"`columns` keys must be among {shown(cols)}; got {shown(unknown_roles)}")
        cols.update(columns)
    for role in ("dataset", "method", "score"):
        if cols[role] not in frame.columns:
            raise ValueError(f"the tidy table has no {role} column {cols[role]!r}; its columns are "
                             f"{shown(frame.columns)}. Name it with `columns={{{role!r}: ...}}`.")
    if columns:
        for role, name in columns.items():
            if name not in frame.columns:
                raise ValueError(f"`columns` maps {role!r} to {name!r}, which is not a column; the columns are "
                                 f"{shown(frame.columns)}")
    dims = ["dataset", "method"] + [d for d in _OPTIONAL_DIMS if cols[d] in frame.columns]
    keys = [cols[d] for d in dims]
    key_frame = frame[keys]
    for d, k in zip(dims, keys):
        if key_frame[k].isna().any():
            rows = list(frame.index[key_frame[k].isna()])
            raise ValueError(f"the {d} column {k!r} is empty in rows {shown(rows)}")
    dup = key_frame.duplicated(keep=False)
    if dup.any():
        dups = key_frame[dup].drop_duplicates().head(_MAX_SHOWN)
        examples = "; ".join(", ".join(f"{d}={v!r}" for d, v in zip(dims, row)) for row in dups.itertuples(index=False))
        n = int(key_frame[dup].drop_duplicates().shape[0])
        raise ValueError(f"duplicate rows: {n} ({', '.join(dims)}) keys appear more than once, e.g. {examples}. "
                         "Aggregate them yourself or add the distinguishing column (e.g. a seed).")
    index_names = list(frame.index)
    values = _numeric(frame[cols["score"]].to_numpy(),
                      lambda i: f"row {index_names[i[0]]!r} (column {cols['score']!r})")
    labels = {d: _labels(frame[k].to_numpy(), d) for d, k in zip(dims, keys)}
    shape = tuple(len(labels[d]) for d in dims)
    data = np.full(shape, np.nan)
    codes = []
    for d, k in zip(dims, keys):
        raw = frame[k].to_numpy()
        if d in _STRING_DIMS:
            raw = np.array([str(v) for v in raw], dtype=object)
        lookup = {v: i for i, v in enumerate(labels[d].tolist())}
        codes.append(np.array([lookup[v] for v in (raw.tolist())], dtype=np.int64))
    data[tuple(codes)] = values
    return xr.DataArray(data, dims=dims, coords={d: labels[d] for d in dims}, name="score")


def _from_wide(frame: pd.DataFrame, columns: Mapping[str, str] | None) -> xr.DataArray:
    dataset_col = (columns or {}).get("dataset", "dataset")
    if dataset_col in frame.columns:
        frame = frame.set_index(dataset_col)
    datasets = [str(v) for v in frame.index]
    methods = [str(c) for c in frame.columns]
    for what, labels in (("dataset (row)", datasets), ("method (column)", methods)):
        seen = pd.Series(labels)
        if seen.duplicated().any():
            raise ValueError(f"duplicate {what} labels: {shown(seen[seen.duplicated()].unique())}")
    values = _numeric(frame.to_numpy(dtype=object),
                      lambda i: f"dataset {datasets[i[0]]!r}, method {methods[i[1]]!r}")
    return xr.DataArray(values, dims=("dataset", "method"),
                        coords={"dataset": np.array(datasets, dtype=object),
                                "method": np.array(methods, dtype=object)}, name="score")


def _from_dict(data: Mapping) -> xr.DataArray:
    datasets = [str(k) for k in data]
    if len(set(datasets)) != len(datasets):
        raise ValueError(f"duplicate dataset labels after conversion to text: {shown(datasets)}")
    methods: list[str] = []
    n_seeds = 0
    has_seeds = False
    for ds, inner in data.items():
        if not isinstance(inner, Mapping):
            raise TypeError(f"a nested dict must map dataset -> {{method: score or [scores per seed]}}; "
                            f"dataset {ds!r} maps to {type(inner).__name__}")
        for m, v in inner.items():
            if str(m) not in methods:
                methods.append(str(m))
            if isinstance(v, (list, tuple, np.ndarray, pd.Series)):
                has_seeds = True
                n_seeds = max(n_seeds, len(v))
    shape = (len(datasets), len(methods)) + ((n_seeds,) if has_seeds else ())
    raw = np.full(shape, np.nan, dtype=object)
    for i, (ds, inner) in enumerate(data.items()):
        for m, v in inner.items():
            j = methods.index(str(m))
            if has_seeds:
                vals = list(v) if isinstance(v, (list, tuple, np.ndarray, pd.Series)) else [v]
                raw[i, j, : len(vals)] = np.array(vals, dtype=object)
            else:
                raw[i, j] = v
    seeds_note = ", seed {}".format
    values = _numeric(raw, lambda idx: f"dataset {datasets[idx[0]]!r}, method {methods[idx[1]]!r}"
                      + (seeds_note(idx[2]) if has_seeds else ""))
    dims = ("dataset", "method") + (("seed",) if has_seeds else ())
    coords = {"dataset": np.array(datasets, dtype=object), "method": np.array(methods, dtype=object)}
    if has_seeds:
        coords["seed"] = np.arange(n_seeds)
    return xr.DataArray(values, dims=dims, coords=coords, name="score")


def _from_array(data, method_names, dataset_names, seed_names) -> xr.DataArray:
    arr = np.asarray(data)
    if arr.ndim not in (2, 3):
        raise ValueError(f"an array of scores must be 2-D (datasets × methods) or 3-D (datasets × methods × "
                         f"seeds); got shape {arr.shape}")
    dims = ("dataset", "method", "seed")[: arr.ndim]
    names = {"dataset": dataset_names, "method": method_names, "seed": seed_names}
    coords = {}
    for axis, d in enumerate(dims):
        given = names[d]
        if given is None:
            labels = np.arange(arr.shape[axis]) if d == "seed" else np.array(
                [f"{d}_{i}" for i in range(arr.shape[axis])], dtype=object)
        else:
            given = list(given)
            if len(given) != arr.shape[axis]:
                raise ValueError(f"`{d}_names` has {len(given)} labels but the array has {arr.shape[axis]} "
                                 f"{d}s (axis {axis}); got {shown(given)}")
            labels = np.array([str(v) for v in given], dtype=object) if d != "seed" else np.asarray(given)
            if len(set(labels.tolist())) != len(labels):
                raise ValueError(f"`{d}_names` has duplicates: {shown(pd.Series(labels)[pd.Series(labels).duplicated()])}")
        coords[d] = labels
    values = _numeric(arr, lambda idx: ", ".join(f"{d} {coords[d][i]!r}" for d, i in zip(dims, idx)))
    return xr.DataArray(values, dims=dims, coords=coords, name="score")


def _kept_lazy_labels(labels: np.ndarray) -> bool:
    """Dataset labels of a lazy cube that need no conversion: integers, or text (checked in C, not per label)."""
    if labels.dtype.kind in "iuU":
        return True
    return labels.dtype == object and pd.api.types.infer_dtype(labels, skipna=False) == "string"


def _from_dataarray(da: xr.DataArray) -> xr.DataArray:
    unknown = [d for d in da.dims if d not in DIMS]
    if unknown:
        raise ValueError(f"a score cube's dims must be among {shown(DIMS)}; got unknown dims {shown(unknown)}")
    for d in ("dataset", "method"):
        if d not in da.dims:
            raise ValueError(f"a score cube needs a {d!r} dim; got dims {shown(da.dims)}")
    order = [d for d in DIMS if d in da.dims]
    da = da.transpose(*order)
    coords = {}
    lazy = hasattr(da.data, "dask")
    for d in order:
        if d in da.coords:
            labels = da.coords[d].values
            if lazy and d == "dataset" and _kept_lazy_labels(labels):
                # millions of items: integer labels stay integers, text becomes objects without a Python loop
                labels = labels.astype(object) if labels.dtype.kind == "U" else labels
            elif d in _STRING_DIMS:
                labels = np.array([str(v) for v in labels], dtype=object)
        else:
            labels = np.arange(da.sizes[d]) if d not in _STRING_DIMS else np.array(
                [f"{d}_{i}" for i in range(da.sizes[d])], dtype=object)
        if len(pd.unique(pd.Series(labels))) != len(labels):
            raise ValueError(f"duplicate {d} labels: {shown(pd.Series(labels)[pd.Series(labels).duplicated()])}")
        coords[d] = labels
    if hasattr(da.data, "dask"):  # keep lazy arrays lazy; values are checked chunk-wise where used
        out = da.assign_coords(coords)
    else:
        values = _numeric(da.values, lambda idx: ", ".join(f"{d} {coords[d][i]!r}" for d, i in zip(order, idx)))
        out = da.copy(data=values).assign_coords(coords)
    out.name = "score"
    return out


def score_cube(data, *, metric=None, direction=None, method_names: Sequence | None = None,
               dataset_names: Sequence | None = None, seed_names: Sequence | None = None,
               columns: Mapping[str, str] | None = None, chunks: int | None = None,
               scale=None) -> xr.DataArray:
    """Turn any accepted input into the score cube.

    Parameters
    ----------
    data : DataFrame, dict, array or DataArray
        - a **tidy** DataFrame with columns ``dataset``, ``method``, ``score`` and optionally
          ``seed``, ``metric``, ``epoch``, ``split`` (rename with ``columns``);
        - a **wide** DataFrame, datasets × methods (the index, or a ``dataset`` column, gives the
          datasets);
        - a nested dict ``{dataset: {method: score or [scores per seed]}}``;
        - a 2-D (datasets × methods) or 3-D (datasets × methods × seeds) array with
          ``method_names`` (and optionally ``dataset_names``, ``seed_names``);
        - an existing cube (re-validated; its card kept);
        - a path: a ``.csv`` or ``.parquet`` file (tidy or wide), a cube written by
          :func:`to_json` (``.json``) or :func:`to_netcdf` (``.nc``), or a Zarr store (a
          ``.zarr`` directory, opened lazily, chunked along ``dataset``; needs the ``dask``
          extra).
    metric : str or MetricCard, optional
        The metric; its card gives the direction and noise floor. With a ``metric`` dim, a
        mapping label -> card name (default: each label is looked up).
    direction : {"higher_is_better", "lower_is_better"}, optional
        Needed when the metric has no card; must agree with the card otherwise. With a
        ``metric`` dim, a mapping label -> direction.
    method_names, dataset_names, seed_names : sequence, optional
        Labels for array input.
    columns : mapping, optional
        Role -> column name for tidy frames, e.g. ``{"dataset": "data", "score": "ari"}``.
    chunks : int, optional
        Datasets per chunk when opening a Zarr store or a netCDF file: the cube stays lazy
        (dask-backed) and every chunk-wise function reads it a chunk at a time. A netCDF file
        without ``chunks`` is loaded into memory.
    scale : {"percent", "fraction"}, optional
        The unit the scores are written in, when it is not the card's. ``"percent"`` divides
        every score by 100 (accuracy 97.8 becomes 0.978), so the card's range and noise floor
        (the default rope) apply; ``"fraction"`` states that the scores are already in the
        card's units. With a ``metric`` dim, a mapping label -> scale. The conversion is
        recorded in ``attrs["scale"]`` (e.g. ``"percent -> fraction (divided by 100)"``) and
        shown in the report, its summaries and its exports.

    Returns
    -------
    xarray.DataArray
        Dims ``dataset``, ``method`` and, when present, ``seed``, ``metric``, ``epoch``,
        ``split``; float64 values with NaN for missing results.

    Notes
    -----
    A card with a range (accuracy: [0, 1]) is checked against every score of its metric (every
    metric of a multi-metric cube): a score outside it is refused with one error naming the
    metric, the range, how many cells and the first few, and the way on (``scale="percent"``,
    or another card). Nothing is clipped. A lazy (dask-backed) cube is not scanned here.

    Raises
    ------
    ValueError
        Empty input, fewer than 2 methods, duplicate rows (named), non-numeric or infinite
        scores (named by cell), a direction that contradicts the card, unknown columns,
        scores outside the card's range (see Notes), an unknown ``scale``.
    UnknownMetricError
        A metric with no card and no ``direction`` (the nearest names are suggested).

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.score_cube({"iris": {"a": 0.9, "b": 0.8}, "wine": {"a": 0.7, "b": 0.75}},
    ...                        metric="accuracy")
    >>> cube.dims, cube.attrs["direction"]
    (('dataset', 'method'), 'higher_is_better')
    """
    if isinstance(data, (str, Path)):
        data = _read_path(Path(data), chunks=chunks, columns=columns)
    keep_attrs = {}
    if isinstance(data, xr.DataArray):
        if data.attrs.get("oriented"):  # back to the metric's own direction before re-validating
            attrs = dict(data.attrs)
            data = data * _sign(data)
            data.attrs = {k: v for k, v in attrs.items() if k != "oriented"}
        da = _from_dataarray(data)
        keep_attrs = {k: v for k, v in data.attrs.items() if k not in _META_ATTRS}
        if metric is None:
            metric = _stored_metric(data)
        if direction is None:
            direction = _stored_direction(data)
    elif isinstance(data, pd.DataFrame):
        if data.shape[0] == 0 or data.shape[1] == 0:
            raise ValueError(f"`data` is empty (a DataFrame of shape {data.shape})")
        cols = dict(_DEFAULT_COLUMNS) | dict(columns or {})
        is_tidy = cols["method"] in data.columns
        named = [str(c) for c in data.columns if str(c).lower() in METHOD_COLUMN_NAMES and str(c) != "method"]
        if not is_tidy and "method" not in (columns or {}) and named:
            raise ValueError(f"the table has no 'method' column but a {named[0]!r} column: if it is tidy (one row per "
                             f"result), pass `columns={{'method': {named[0]!r}}}` (and the score column, e.g. "
                             f"`columns={{'method': {named[0]!r}, 'score': 'accuracy'}}`); a wide table has one "
                             "numeric column per method")
        da = _from_tidy(data, columns) if is_tidy else _from_wide(data, columns)
    elif isinstance(data, Mapping):
        if len(data) == 0:
            raise ValueError("`data` is empty (a dict with no datasets)")
        da = _from_dict(data)
    elif isinstance(data, (np.ndarray, list, tuple)):
        if np.size(data) == 0:
            raise ValueError(f"`data` is empty (an array of shape {np.shape(data)})")
        da = _from_array(data, method_names, dataset_names, seed_names)
    else:
        raise TypeError("`data` must be a tidy or wide pandas DataFrame, a nested dict, a numpy array (with "
                        f"`method_names`) or an xarray DataArray; got {type(data).__name__}")
    if method_names is not None and not isinstance(data, (np.ndarray, list, tuple)):
        names = [str(m) for m in method_names]
        if names != [str(m) for m in da.coords["method"].values]:
            if len(names) != da.sizes["method"]:
                raise ValueError(f"`method_names` has {len(names)} labels but the scores have "
                                 f"{da.sizes['method']} methods")
            da = da.assign_coords(method=np.array(names, dtype=object))
    if "metric" in da.dims and isinstance(metric, (str, MetricCard)):
        da, metric, direction = _select_metric(da, metric, direction)
    da = _apply_scale(da, scale, keep_attrs)
    da = attach_metric(da, metric, direction)
    for k, v in keep_attrs.items():
        da.attrs.setdefault(k, v)
    check_card_ranges(da)
    return _check_shape(da)


SCALES = {"percent": 100.0, "fraction": 1.0}


def _scale_note(name: str) -> str:
    return "percent -> fraction (divided by 100)" if name == "percent" else "fraction (as given)"


def _apply_scale(da: xr.DataArray, scale, keep_attrs: dict) -> xr.DataArray:
    """Divide the scores by the factor of ``scale`` (one per metric label with a ``metric`` dim)."""
    if scale is None:
        return da
    if "scale" in keep_attrs and isinstance(scale, str) and scale != "fraction":
        raise ValueError(f"`scale`={scale!r}: these scores were already converted ({keep_attrs['scale']}); "
                         "converting twice would divide them again")
    if isinstance(scale, Mapping):
        if "metric" not in da.dims:
            raise TypeError("`scale` is a mapping (label -> scale) only for scores with a `metric` dim; "
                            f"got {dict(scale)!r}")
        labels = [str(m) for m in da.coords["metric"].values]
        unknown = [k for k in scale if str(k) not in labels]
        if unknown:
            raise ValueError(f"`scale` names metrics that are not in the cube: {shown(unknown)}; the cube has "
                             f"{shown(labels)}")
        factors = []
        for label in labels:
            name = scale.get(label)
            if name is not None:
                check_choice("scale", name, tuple(SCALES))
            factors.append(SCALES[name] if name is not None else 1.0)
        out = da / xr.DataArray(np.array(factors), dims="metric", coords={"metric": da.coords["metric"].values})
        out.attrs = dict(da.attrs)
        out.attrs["scale"] = "; ".join(f"{lab}: {_scale_note(scale[lab])}" for lab in labels if lab in scale)
        out.name = da.name
        return out.transpose(*da.dims)
    check_choice("scale", scale, tuple(SCALES))
    out = da if scale == "fraction" else da / SCALES[scale]
    out.attrs = dict(da.attrs)
    out.attrs["scale"] = _scale_note(scale)
    out.name = da.name
    return out


def check_card_ranges(cube: xr.DataArray) -> None:
    """Refuse scores outside their card's range (every metric of a cube), naming the cells and the way on."""
    if hasattr(cube.data, "dask"):
        return
    if "metric" in cube.dims:
        cards = cube_cards(cube)
        for label in [str(m) for m in cube.coords["metric"].values]:
            card = cards.get(label)
            if card is not None:
                _check_range(cube.sel(metric=label), card, label)
        return
    card = cube_card(cube)
    if card is not None:
        _check_range(cube, card, cube_metric(cube) or card.name)


def _plain(label):
    return label.item() if isinstance(label, np.generic) else label


def _range_text(card: MetricCard) -> str:
    low = "-inf" if card.lower is None else f"{card.lower:g}"
    high = "inf" if card.upper is None else f"{card.upper:g}"
    return f"[{low}, {high}]"


def _check_range(cube: xr.DataArray, card: MetricCard, label: str) -> None:
    if card.lower is None and card.upper is None:
        return
    values = np.asarray(cube.values, dtype=np.float64)
    tol = 1e-9 * max(1.0, abs(card.upper or 0.0), abs(card.lower or 0.0))
    with np.errstate(invalid="ignore"):
        bad = np.zeros(values.shape, dtype=bool)
        if card.lower is not None:
            bad |= values < card.lower - tol
        if card.upper is not None:
            bad |= values > card.upper + tol
    if not bad.any():
        return
    idx = list(zip(*np.nonzero(bad)))
    dims = cube.dims
    coords = [cube.coords[d].values for d in dims]
    where = [", ".join(f"{d} {_plain(c[i])!r}" for d, c, i in zip(dims, coords, cell)) + f": {values[cell]:g}"
             for cell in idx[:5]]
    more = f" (and {len(idx) - 5} more)" if len(idx) > 5 else ""
    hint = ""
    finite = values[np.isfinite(values)]
    if card.upper == 1.0 and finite.size and 1.5 < finite.max() <= 100.0 and finite.min() >= 0.0:
        hint = ("they look like percentages: pass `scale='percent'` (CLI: --scale percent) to divide them by 100, "
                "which is recorded with the scores; ")
    raise ValueError(
        f"metric {label!r}: {len(idx)} of {values.size} scores lie outside the card's range {_range_text(card)} "
        f"({'; '.join(where)}{more}). The card's noise floor ({card.noise_floor:g}, the default rope) is in the "
        f"card's units, so these scores cannot be read with it. {(hint[0].upper() + hint[1:]) if hint else ''}"
        f"{'or name' if hint else 'Name'} the metric the scores really are with `metric=` (see mcda.list_cards()), "
        "or register a card with the right range. Nothing is clipped.")


_META_ATTRS = ("metric", "direction", "noise_floor", "card", "cards", "oriented")


def _stored_metric(da: xr.DataArray):
    """The card(s) a DataArray carries: a MetricCard, a name, a mapping (metric dim) or None."""
    if "metric" in da.dims:
        stored = json.loads(da.attrs.get("cards", "") or "{}")
        if not stored:
            return None
        return {k: (card_from_dict(v, source=v.get("source", "cube")) if v else k) for k, v in stored.items()}
    if da.attrs.get("card"):
        raw = json.loads(da.attrs["card"])
        return card_from_dict(raw, source=raw.get("source", "cube"))
    return da.attrs.get("metric") or None


def _stored_direction(da: xr.DataArray):
    if "metric" in da.dims:
        if "direction" not in da.coords:
            return None
        return dict(zip([str(m) for m in da.coords["metric"].values], [str(v) for v in da.coords["direction"].values]))
    return da.attrs.get("direction") or None


def _select_metric(da: xr.DataArray, metric, direction):
    """One metric of a cube with a ``metric`` dim, named by its label, any case, or its card.

    Returns the cube without the ``metric`` dim and what to attach as its metric (the stored
    card, the card given, or the bare label) and direction.
    """
    labels = [str(m) for m in da.coords["metric"].values]
    wanted = metric.name if isinstance(metric, MetricCard) else str(metric)
    match = [lab for lab in labels if lab == wanted] or [lab for lab in labels if lab.lower() == wanted.lower()]
    if not match:
        try:
            target = get_card(metric).name
        except UnknownMetricError:
            target = None
        match = [lab for lab in labels if target is not None and _card_name(lab) == target]
    if not match:
        raise ValueError(f"`metric` {wanted!r} is not among the cube's metrics {shown(labels)}")
    label = match[0]
    stored = _stored_metric(da)
    if isinstance(metric, MetricCard):
        chosen = metric
    else:
        chosen = stored.get(label, label) if isinstance(stored, Mapping) else label
    if isinstance(direction, Mapping):
        direction = direction.get(label)
    elif direction is None and "direction" in da.coords and not isinstance(chosen, MetricCard):
        direction = str(da.coords["direction"].sel({"metric": label}).item())
    out = da.sel({"metric": label}, drop=True)
    out = out.drop_vars([c for c in ("direction", "noise_floor") if c in out.coords])
    out.attrs = {k: v for k, v in out.attrs.items() if k != "cards"}
    return out, chosen, direction


def _card_name(label: str):
    try:
        return get_card(label).name
    except UnknownMetricError:
        return None


def check_csv_fields(frame: pd.DataFrame, where: str) -> pd.DataFrame:
    """Refuse a CSV whose rows have more fields than its header.

    pandas then takes the first column as an index without a word, every column shifts by one
    and the error comes much later ("invalid literal for int() with base 10: 'a'").
    """
    if not isinstance(frame.index, pd.RangeIndex):
        n = len(frame.columns)
        raise ValueError(f"{where}: the rows have more fields than the header ({n} names: "
                         f"{shown(list(frame.columns))}), from line 2 on; every line needs one field per "
                         "header name")
    return frame


def _read_path(path: Path, *, chunks, columns):
    """What a path holds: a DataFrame (CSV, Parquet) or a cube (JSON, netCDF, Zarr)."""
    if not path.exists():
        raise FileNotFoundError(f"`data` path {str(path)!r} does not exist")
    suffix = path.suffix.lower()
    if path.is_dir() or suffix == ".zarr":
        return open_cube(path, chunks=chunks)
    if suffix in (".nc", ".nc4", ".netcdf", ".cdf"):
        return from_netcdf(path, chunks=None if chunks is None else {"dataset": chunks})
    if suffix == ".json":
        return from_json(path)
    if suffix == ".csv":
        return check_csv_fields(pd.read_csv(path), f"`data` path {str(path)!r}")
    if suffix in (".parquet", ".pq"):
        return pd.read_parquet(path)
    raise ValueError(f"`data` path {str(path)!r} has suffix {suffix!r}; mcda reads .csv, .parquet, .json (a cube "
                     "from mcda.cube.to_json), .nc (from mcda.cube.to_netcdf) and .zarr stores")


def _check_shape(da: xr.DataArray) -> xr.DataArray:
    if da.sizes["dataset"] == 0:
        raise ValueError("`data` is empty: no datasets")
    if da.sizes["method"] < 2:
        raise ValueError(f"a comparison needs at least 2 methods; got {da.sizes['method']} "
                         f"({shown(da.coords['method'].values)})")
    return da


def as_cube(scores, direction=None, *, metric=None, method_names=None) -> xr.DataArray:
    """The cube for a statistic's ``scores`` argument (any input :func:`score_cube` takes).

    A cube that already carries a direction is returned as is unless ``direction`` or
    ``metric`` is given (then it must agree with its card).
    """
    if (isinstance(scores, xr.DataArray) and direction is None and metric is None and method_names is None
            and ("direction" in scores.attrs or "direction" in scores.coords)):
        return _check_shape(_from_dataarray(scores) if not _looks_built(scores) else scores)
    return score_cube(scores, metric=metric, direction=direction, method_names=method_names)


def single_score_cube(scores, direction=None, *, method_names=None,
                      what: str = "this comparison") -> xr.DataArray:
    """:func:`as_cube`, refusing any dim beyond ``dataset`` and ``method`` (one score per cell).

    A ``seed`` dim is never collapsed here: how seeds are reduced is the analyst's decision
    (:func:`reduce_seeds`). ``what`` names the computation in the message.
    """
    cube = as_cube(scores, direction, method_names=method_names)
    extra = [d for d in cube.dims if d not in ("dataset", "method")]
    if "seed" in extra:
        raise ValueError(f"the scores have a 'seed' dim (extra dims {extra}); {what} needs one score per "
                         "(dataset, method). Reduce the seeds explicitly first, e.g. "
                         "mcda.reduce_seeds(cube, how='mean').")
    if extra:
        raise ValueError(f"the scores have extra dims {extra}; {what} needs one score per (dataset, method): "
                         "select one value along each first (e.g. cube.sel(metric='ari')).")
    return cube


def _looks_built(da: xr.DataArray) -> bool:
    order = [d for d in DIMS if d in da.dims]
    return (list(da.dims) == order and all(d in da.coords for d in order) and da.dtype == np.float64)


# --------------------------------------------------------------------------- views

def _sign(cube: xr.DataArray):
    if "metric" in cube.dims:
        dirs = cube.coords["direction"].values
        return xr.DataArray(direction_sign(dirs), dims="metric",
                            coords={"metric": cube.coords["metric"].values})
    return direction_sign(cube_direction(cube))


def orient(cube: xr.DataArray) -> xr.DataArray:
    """The higher-is-better view every statistic works on (lower-is-better metrics negated).

    The attrs are kept and ``attrs["oriented"] = 1`` marks the view; the card still says the
    metric's own direction.
    """
    if cube.attrs.get("oriented"):
        return cube
    sign = _sign(cube)
    if isinstance(sign, float) and not hasattr(cube.data, "dask"):
        out = cube.copy(data=cube.values if sign > 0 else -cube.values)  # one numpy pass, no alignment
    elif isinstance(sign, float) and sign > 0:
        out = cube.copy(deep=False)  # lazy and higher is better: no extra array per chunk
    else:
        out = cube * sign
    out.attrs = dict(cube.attrs)
    out.attrs["oriented"] = 1
    out.name = cube.name
    return out


def _cell_missing(cube: xr.DataArray) -> xr.DataArray:
    """True where a (dataset, method) cell has no result (all NaN; with metrics, any metric all NaN)."""
    other = [d for d in cube.dims if d not in ("dataset", "method", "metric")]
    missing = cube.isnull().all(dim=other) if other else cube.isnull()
    if "metric" in missing.dims:
        missing = missing.any("metric")
    return missing.transpose("dataset", "method")


def missing_cells(cube: xr.DataArray) -> pd.DataFrame:
    """One row per (dataset, method) cell with no result: columns ``dataset, method``."""
    miss = _cell_missing(cube).values
    ds = cube.coords["dataset"].values
    me = cube.coords["method"].values
    i, j = np.nonzero(miss)
    return pd.DataFrame({"dataset": ds[i], "method": me[j]})


@dataclass(frozen=True, repr=False)
class CompleteCases(Result):
    """The complete part of a cube and what was excluded to get it.

    Attributes
    ----------
    cube : xarray.DataArray
        The complete design (no missing (dataset, method) cell).
    excluded : dict
        ``policy="methods"``: method -> tuple of the datasets it lacks.
        ``policy="datasets"``: dataset -> tuple of the methods it lacks.
    empty_datasets : tuple
        Datasets on which no method has a result (dropped under either policy).
    policy : str
    """

    cube: xr.DataArray
    excluded: dict = field(default_factory=dict)
    empty_datasets: tuple = ()
    policy: str = "methods"

    def to_frame(self) -> pd.DataFrame:
        """The complete cube as a tidy table: ``dataset, method, score`` (and any further dims)."""
        return self.cube.rename("score").to_dataframe().reset_index()[
            [*self.cube.dims, "score"]]

    def summary(self) -> str:
        if not self.excluded and not self.empty_datasets:
            return "complete: no cell is missing"
        what = "lacks" if self.policy == "methods" else "lacks results for"
        lines = [f"excluded (incomplete): {k} {what} {list(v)}" for k, v in self.excluded.items()]
        if self.empty_datasets:
            lines.append(f"dropped datasets with no result at all: {list(self.empty_datasets)}")
        return "\n".join(lines)


def complete_cases(cube: xr.DataArray, *, policy: str = "methods") -> CompleteCases:
    """The complete design of a cube: drop incomplete methods (default) or incomplete datasets.

    Nothing is imputed. Datasets where no method has a result are dropped first and named.

    Parameters
    ----------
    cube : xarray.DataArray
        A score cube.
    policy : {"methods", "datasets"}
        ``"methods"`` drops every method that lacks a result on some dataset and names the
        datasets it lacks; ``"datasets"`` drops every dataset on which some method lacks a result.

    Raises
    ------
    ValueError
        When fewer than 2 methods or no dataset would remain (naming the other policy).
    """
    check_choice("policy", policy, ("methods", "datasets"))
    cube = as_cube(cube)
    miss = _cell_missing(cube)
    empty = miss.all("method").values
    ds = cube.coords["dataset"].values
    me = cube.coords["method"].values
    empty_datasets = tuple(ds[empty].tolist())
    keep_ds = ~empty
    m = miss.values[keep_ds]
    excluded: dict = {}
    if policy == "methods":
        rows = np.flatnonzero(miss.values.any(axis=1))
        columns, excluded, _ = complete_design(ds, me, (rows, miss.values[rows]), fmt=lambda v: v)
        bad = np.ones(me.size, dtype=bool)
        bad[columns] = False
        out = cube if (keep_ds.all() and not bad.any()) else cube.isel(
            dataset=np.nonzero(keep_ds)[0], method=columns)
    else:
        bad = m.any(axis=1)
        kept_ds = ds[keep_ds]
        for i in np.nonzero(bad)[0]:
            excluded[str(kept_ds[i])] = tuple(me[m[i]].tolist())
        idx = np.nonzero(keep_ds)[0][~bad]
        out = cube.isel(dataset=idx)
        if out.sizes["dataset"] == 0:
            raise ValueError(f"dropping incomplete datasets leaves none; excluded {shown(excluded)}. "
                             "Try `policy='methods'`.")
    return CompleteCases(cube=out, excluded=excluded, empty_datasets=empty_datasets, policy=policy)


# --------------------------------------------------------------------------- complete-case flags, chunk-wise
# The across-dataset statistics name and drop incomplete methods from one pass over the cube
# (mcda._chunks runs the block over every block of datasets and combines the partials).

def missing_rows(values: np.ndarray, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """Block: (positions of the datasets with a missing cell, their missing masks)."""
    missing = np.isnan(values)
    rows = np.flatnonzero(missing.any(axis=1))
    return offset + rows, missing[rows]


def concat_missing(a: tuple, b: tuple) -> tuple:
    """Combine: the flagged rows of two blocks, in dataset order."""
    return np.concatenate([a[0], b[0]]), np.concatenate([a[1], b[1]])


def complete_design(datasets, methods, flags: tuple, *, fmt=str) -> tuple[np.ndarray, dict, np.ndarray]:
    """Finalize: (kept method columns, excluded method -> datasets it lacks, empty dataset positions).

    Datasets without any result are dropped (they make no method incomplete); every method that
    lacks a result on another dataset is excluded. Fewer than 2 methods or no dataset left raises.
    """
    rows, missing = flags
    n_methods = len(methods)
    missing = np.asarray(missing, dtype=bool).reshape(-1, n_methods)
    empty = missing.all(axis=1)
    partial_rows, partial = rows[~empty], missing[~empty]
    bad = partial.any(axis=0)
    labels = np.asarray(datasets)
    excluded = {str(methods[j]): tuple(fmt(v) for v in labels[partial_rows[partial[:, j]]].tolist())
                for j in np.flatnonzero(bad)}
    columns = np.flatnonzero(~bad)
    n_kept = len(labels) - int(empty.sum())
    if columns.size < 2 or n_kept == 0:
        raise ValueError(f"dropping incomplete methods leaves {columns.size} method(s) on {n_kept} dataset(s); "
                         f"excluded {shown(excluded)}. Try `policy='datasets'`, or restrict the comparison to the "
                         "methods you need.")
    return columns, excluded, np.asarray(rows[empty], dtype=np.int64)


_REDUCTIONS = ("mean", "median", "min", "max", "best", "worst")


_OLD_MISSING = {"propagate": "complete", "skip": "available"}


def reduce_seeds(cube: xr.DataArray, *, how: str, missing: str = "available") -> xr.DataArray:
    """Collapse the ``seed`` dim explicitly.

    Parameters
    ----------
    cube : xarray.DataArray
        A cube with a ``seed`` dim.
    how : {"mean", "median", "min", "max", "best", "worst"}
        The reduction; "best"/"worst" follow the metric's direction. There is no default:
        how seeds are collapsed is the analyst's decision.
    missing : {"available", "complete"}
        "available" (default, the rule of :class:`mcda.Report` and ``mcda compare`` too): a lost
        seed is left out and the cell is reduced over the seeds it has (a cell with no seed
        stays missing); a :class:`~mcda.MissingDataWarning` names the cells reduced over fewer
        seeds. "complete": a cell with any missing seed becomes missing (the whole cell is
        lost). Either way the seeds used per cell are in the coordinate ``n_seeds``. (The former
        words "skip" and "propagate" are still read, with a FutureWarning.)

    Returns
    -------
    xarray.DataArray
        The cube without ``seed``; ``attrs["seeds_reduced"]`` records ``how`` and
        ``attrs["seeds_missing"]`` the rule; coordinate ``n_seeds`` (dataset, method) counts
        the seeds each cell was reduced over (0 for a missing cell).
    """
    check_choice("how", how, _REDUCTIONS)
    if missing in _OLD_MISSING:
        import warnings

        warnings.warn(f"reduce_seeds(missing={missing!r}) is now missing={_OLD_MISSING[missing]!r}; the old word "
                      "will stop working in a later release", FutureWarning, stacklevel=2)
        missing = _OLD_MISSING[missing]
    check_choice("missing", missing, ("complete", "available"))
    cube = as_cube(cube)
    if "seed" not in cube.dims:
        raise ValueError(f"`cube` has no 'seed' dim to reduce; its dims are {shown(cube.dims)}")
    skipna = missing == "available"
    op = how
    if how in ("best", "worst"):
        if "metric" in cube.dims:
            oriented = orient(cube)
            red = oriented.max("seed", skipna=skipna) if how == "best" else oriented.min("seed", skipna=skipna)
            out = red * _sign(cube)
        else:
            higher = cube_direction(cube) == "higher_is_better"
            op = "max" if (how == "best") == higher else "min"
    if how not in ("best", "worst") or "metric" not in cube.dims:
        out = getattr(cube, op)("seed", skipna=skipna)
    present = cube.notnull()
    if "metric" in cube.dims:
        present = present.all("metric")
    n = present.sum("seed")
    if missing == "complete":  # a cell that lost a seed is missing: it was reduced over no seed
        n = n.where(n == cube.sizes["seed"], 0)
    out = out.assign_coords(n_seeds=n)
    out.attrs = dict(cube.attrs)
    out.attrs["seeds_reduced"] = how
    out.attrs["seeds_missing"] = missing
    out.name = "score"
    if not hasattr(cube.data, "dask"):
        counts = n.transpose("dataset", "method", ...).values
        full = int(present.sum("seed").max()) if counts.size else 0  # the most seeds any cell has
        short = (counts > 0) & (counts < full)
        if short.any() and counts.ndim == 2:
            ds = cube.coords["dataset"].values
            me = cube.coords["method"].values
            cells = [f"{ds[i]}/{me[j]} ({counts[i, j]} of {full})" for i, j in zip(*np.nonzero(short))]
            from ._validation import MissingDataWarning, warn

            warn(f"{len(cells)} cell(s) lost seeds and are reduced over the seeds they have (missing='available'; "
                 f"the coordinate n_seeds counts them): {shown(cells, 6, fmt=str)}. Pass missing='complete' to "
                 "treat such a cell as missing instead.", MissingDataWarning)
    return out


# --------------------------------------------------------------------------- persistence

def _jsonable(values: np.ndarray):
    arr = np.asarray(values)
    if arr.dtype.kind == "f":
        obj = arr.astype(object)
        obj[np.isnan(arr)] = None
        return obj.tolist()
    return arr.tolist()


def to_json(cube: xr.DataArray, path: str | Path | None = None) -> str:
    """A readable, versioned JSON of the raw cube: values (null for missing), labels, attrs.

    Floats are written with Python's shortest round-trip repr, so :func:`from_json` gives
    back the identical cube. Returns the text (and writes it to ``path`` when given).
    """
    cube = as_cube(cube)
    extra = {}
    for name, coord in cube.coords.items():
        if name in cube.dims:
            continue
        extra[name] = {"dims": list(coord.dims), "values": _jsonable(coord.values)}
    doc = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "dims": list(cube.dims),
        "coords": {d: _jsonable(cube.coords[d].values) for d in cube.dims},
        "extra_coords": extra,
        "attrs": _clean_attrs({k: (v.item() if isinstance(v, np.generic) else v) for k, v in cube.attrs.items()}),
        "values": _jsonable(cube.values),
    }
    text = json.dumps(doc, indent=1, allow_nan=False, default=_json_default)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def _json_default(obj):
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, float) and math.isnan(obj):
        return None
    raise TypeError(f"cannot write {type(obj).__name__} to JSON")


def _clean_attrs(attrs: dict) -> dict:
    out = {}
    for k, v in attrs.items():
        if isinstance(v, float) and math.isnan(v):
            out[k] = None
        else:
            out[k] = v
    return out


def from_json(source) -> xr.DataArray:
    """Read a cube written by :func:`to_json` (a path, or the JSON text itself)."""
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        text = Path(source).read_text(encoding="utf-8")
    else:
        text = source
    doc = json.loads(text)
    if doc.get("format") != JSON_FORMAT:
        raise ValueError(f"not an mcda cube JSON (format {doc.get('format')!r}, expected {JSON_FORMAT!r})")
    if doc.get("version", 0) > JSON_VERSION:
        raise ValueError(f"this cube JSON is version {doc['version']}; this mcda reads up to {JSON_VERSION}")
    dims = doc["dims"]
    coords = {}
    for d in dims:
        labels = doc["coords"][d]
        coords[d] = np.array(labels, dtype=object) if d in _STRING_DIMS else np.array(labels)
    values = np.array([[np.nan if v is None else v for v in row] for row in [doc["values"]]][0], dtype=object)
    values = np.array(_nan_from_none(doc["values"]), dtype=np.float64)
    da = xr.DataArray(values, dims=dims, coords=coords, name="score")
    for name, spec in doc.get("extra_coords", {}).items():
        raw = spec["values"]
        arr = np.array(_nan_from_none(raw)) if _has_numbers(raw) else np.array(raw, dtype=object)
        da = da.assign_coords({name: (tuple(spec["dims"]), arr)})
    attrs = dict(doc.get("attrs", {}))
    if attrs.get("noise_floor", 0) is None:
        attrs["noise_floor"] = math.nan
    da.attrs = attrs
    return da


def _has_numbers(raw) -> bool:
    flat = np.array(raw, dtype=object).ravel()
    return any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in flat) and not any(
        isinstance(v, str) for v in flat)


def _nan_from_none(raw):
    if isinstance(raw, list):
        return [_nan_from_none(v) for v in raw]
    return np.nan if raw is None else raw


_NETCDF_ENCODING = "mcda_netcdf_encoding"


def _netcdf_coord(values: np.ndarray) -> tuple[np.ndarray, dict | None]:
    """A coordinate as netCDF can store it on every engine, and how to get the original back.

    netCDF3 (scipy's engine, the one a plain install has) has no 64-bit integers, no booleans and
    no Python objects: integer labels came back int32 and labels >= 2**31 could not be written.
    Integers and booleans are written as their decimal text, strings and other objects as JSON text.
    """
    kind = values.dtype.kind
    if kind in "iu":
        return np.array([str(int(v)) for v in values.ravel()], dtype=object).reshape(values.shape), \
            {"as": "int", "dtype": values.dtype.str}
    if kind == "b":
        return np.array(["1" if v else "0" for v in values.ravel()], dtype=object).reshape(values.shape), \
            {"as": "bool"}
    if kind in "OUS":  # as JSON text: keeps str vs int labels apart, and NUL or other controls intact
        flat = values.ravel()
        return np.array([json.dumps(v.item() if isinstance(v, np.generic) else v, allow_nan=True)
                         for v in flat], dtype=object).reshape(values.shape), {"as": "json"}
    return values, None


def _netcdf_decode(values: np.ndarray, how: dict) -> np.ndarray:
    flat = [str(v) for v in np.asarray(values).ravel()]
    shape = np.shape(values)
    if how["as"] == "int":
        return np.array([int(v) for v in flat], dtype=np.dtype(how["dtype"])).reshape(shape)
    if how["as"] == "bool":
        return np.array([v == "1" for v in flat], dtype=bool).reshape(shape)
    if how["as"] == "json":
        decoded = np.empty(len(flat), dtype=object)
        decoded[:] = [json.loads(v) for v in flat]
        return decoded.reshape(shape)
    return np.array(flat, dtype=object).reshape(shape)


def to_netcdf(cube: xr.DataArray, path: str | Path, *, engine: str | None = None) -> None:
    """Write the cube to netCDF; :func:`from_netcdf` gives back the identical cube.

    Labels of every type (integers of any size, booleans, strings) and every attribute (lists,
    dicts, booleans, None, large integers) survive on any netCDF engine: what the file format
    cannot hold is written as text and described in the ``mcda_netcdf_encoding`` attribute.
    ``engine`` is xarray's (``"scipy"``, ``"h5netcdf"``, ``"netcdf4"``; None: xarray's choice).
    """
    cube = as_cube(cube)
    out = cube.copy()
    encoding: dict = {"coords": {}, "json_attrs": []}
    for name in list(out.coords):
        coord = out.coords[name]
        values, how = _netcdf_coord(coord.values)
        if how is not None:
            encoding["coords"][name] = how
            out = out.assign_coords({name: (coord.dims, values)})
    attrs = {}
    for key, value in out.attrs.items():
        if isinstance(value, str) and value.isprintable():
            attrs[key] = value
        else:  # ints may exceed netCDF3's int32; lists, dicts, bools and None have no netCDF form;
            # floats would come back as numpy scalars, NULs in text are dropped
            attrs[key] = json.dumps(value.item() if isinstance(value, np.generic) else value,
                                    allow_nan=True, default=_json_default)
            encoding["json_attrs"].append(key)
    attrs[_NETCDF_ENCODING] = json.dumps(encoding)
    out.attrs = attrs
    out.to_netcdf(path, engine=engine)


def from_netcdf(path: str | Path, *, chunks=None) -> xr.DataArray:
    """Read a cube written by :func:`to_netcdf` (lazily, chunked along ``dataset``, when ``chunks`` is given)."""
    if chunks is None:
        da = xr.open_dataarray(path).load()
        da.close()
    else:
        da = xr.open_dataarray(path, chunks=chunks)
    attrs = dict(da.attrs)
    encoding = json.loads(attrs.pop(_NETCDF_ENCODING)) if _NETCDF_ENCODING in attrs else None
    for name in list(da.coords):
        coord = da.coords[name]
        if encoding is not None and name in encoding["coords"]:
            da = da.assign_coords({name: (coord.dims, _netcdf_decode(coord.values, encoding["coords"][name]))})
        elif coord.dtype.kind in "US":
            da = da.assign_coords({name: (coord.dims, coord.values.astype(object))})
    if encoding is not None:
        for key in encoding["json_attrs"]:
            attrs[key] = json.loads(attrs[key])
    da.attrs = attrs
    da.name = "score"
    return da


def require_dask() -> None:
    """ImportError with the install line when the ``dask`` extra is missing."""
    try:
        import dask  # noqa: F401
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("lazy cubes need dask: pip install 'mcda[dask]'") from exc


def _open_zarr_makes_indexes_optional() -> bool:
    import inspect

    return "create_default_indexes" in inspect.signature(xr.open_zarr).parameters


_LABEL_STEP = 1 << 20


def _local(variable) -> np.ndarray:
    """A (small) variable's values read here, in this process, even when a dask cluster is active."""
    data = variable.data
    if hasattr(data, "dask"):
        return np.asarray(data.compute(scheduler="synchronous"))
    return np.asarray(variable.values)


def _labels_as_objects(coord: xr.DataArray) -> np.ndarray:
    """A label coordinate as an object array (text as ``str``), read a million labels at a time
    by this process (the labels are metadata: they never go through a cluster's workers)."""
    variable = coord.variable
    n = variable.shape[0] if variable.ndim == 1 else None
    if n is None or n <= _LABEL_STEP:
        values = _local(variable)
        return values.astype(object) if values.dtype.kind in "UST" or values.dtype == object else values
    first = _local(variable[:1])
    if first.dtype.kind not in "UST" and first.dtype != object:
        return _local(variable)  # numeric labels stay numeric
    out = np.empty(n, dtype=object)
    for start in range(0, n, _LABEL_STEP):
        out[start:start + _LABEL_STEP] = _local(variable[start:start + _LABEL_STEP]).astype(object)
    return out


def open_cube(path, *, chunks: int | None = None) -> xr.DataArray:
    """Open a cube from a Zarr store or a netCDF file lazily, chunked along ``dataset``.

    Parameters
    ----------
    path : str or Path
        A ``.zarr`` directory written by :func:`mcda.store.to_zarr` / :func:`mcda.store.parquet_to_zarr`, or a
        netCDF file written by :func:`mcda.cube.to_netcdf`.
    chunks : int, optional
        Datasets per chunk (default: the store's own chunks; for netCDF 100,000).

    Returns
    -------
    xarray.DataArray
        A dask-backed cube with its card; nothing is loaded but the labels.
    """
    require_dask()
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"`path` {str(path)!r} does not exist")
    spec = {"dataset": chunks} if chunks is not None else None
    if path.is_dir():
        # the labels are loaded once, below, as text objects chunk by chunk: xarray's default index
        # would first hold them as fixed-width text too (twice the memory at millions of datasets)
        lazy_labels = {"create_default_indexes": False} if _open_zarr_makes_indexes_optional() else {}
        ds = xr.open_zarr(str(path), chunks=spec if spec else {}, consolidated=False, **lazy_labels)
        if "score" not in ds:
            raise ValueError(f"`path` {str(path)!r} is a Zarr store without a 'score' array; it has {list(ds)}")
        da = ds["score"]
    else:
        da = xr.open_dataarray(str(path), chunks=spec or {"dataset": 100_000})
    axes = [i for i, d in enumerate(da.dims) if d != "dataset" and da.data.numblocks[i] > 1]
    if axes:  # one chunk along every dim but dataset (on the dask array: no hashing of the labels)
        da = da.copy(data=da.data.rechunk({i: -1 for i in axes}))
    for name in list(da.coords):
        coord = da.coords[name]
        if coord.dtype.kind in "UST" or str(coord.dtype).startswith("StringDType") or name in da.dims:
            labels = _labels_as_objects(coord)
            if name in da.dims and labels.dtype == object:
                # as a pandas Index, which xarray keeps as it is (an array would be copied, string by string)
                labels = pd.Index(labels, dtype=object, copy=False, name=name)
            else:
                labels = (coord.dims, labels)
            da = da.assign_coords({name: labels})
    unknown = [d for d in da.dims if d not in DIMS]
    if unknown:
        raise ValueError(f"the store's dims must be among {DIMS}; got unknown dims {unknown}")
    da = da.transpose(*[d for d in DIMS if d in da.dims])
    attrs = dict(da.attrs)
    if attrs.get("noise_floor") is None or attrs.get("noise_floor") == "":
        attrs["noise_floor"] = math.nan
    da.attrs = attrs
    da = attach_metric(da, _stored_metric(da), _stored_direction(da))
    da.name = "score"
    return _check_shape(da)
