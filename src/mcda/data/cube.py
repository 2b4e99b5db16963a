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
import numbers
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.results import Result, states_scale
from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.validation import check_choice, check_rope, nearest, shown
from mcda.data.cards import (DIRECTIONS, MetricCard, direction_sign, UnknownMetricError, card_from_dict, get_card)

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
    "select",
    "CubeAccessor",
    "cube_card",
    "cube_cards",
    "cube_direction",
    "cube_metric",
    "select_metric",
    "metric_keys",
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
            raise McdaArgumentError("pass `metric=` (a card name such as 'accuracy') or `direction=` "
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
        raise McdaArgumentError(f"`direction` {direction!r}{where} contradicts the card for {card.name!r}, which says "
                         f"{card.direction!r}. Drop `direction=`, or register a corrected card.")
    name = metric.name if isinstance(metric, MetricCard) else str(metric)
    return name, card.direction, card


def attach_metric(da: xr.DataArray, metric, direction, noise_floor=None) -> xr.DataArray:
    """Write the metric / direction / card attrs (and coords along ``metric``).

    ``noise_floor`` (a float, or with a ``metric`` dim a mapping label -> float) is the floor
    of a metric without a card; a card's own floor always wins (contradictions were refused).
    """
    attrs = {k: v for k, v in da.attrs.items() if k not in ("metric", "direction", "noise_floor", "card", "cards")}
    if "metric" in da.dims:
        labels = [str(m) for m in da.coords["metric"].values]
        metric_map = metric if isinstance(metric, Mapping) else None
        direction_map = direction if isinstance(direction, Mapping) else None
        if metric is not None and metric_map is None:
            raise McdaArgumentTypeError("with a `metric` dim, `metric` must be None (cards looked up from the labels) or a "
                            f"mapping label -> card name; got {metric!r}")
        for mp, nm in ((metric_map, "metric"), (direction_map, "direction")):
            if mp is not None:
                metric_keys(mp, labels, argument=nm)
        dirs, floors, cards = [], [], {}
        for label in labels:
            m = metric_map.get(label, label) if metric_map else label
            d = direction_map.get(label) if direction_map else direction
            _, dd, card = _resolve_one(m, d, what=label)
            dirs.append(dd)
            own = noise_floor.get(label) if isinstance(noise_floor, Mapping) else None
            floors.append(card.noise_floor if card else (math.nan if own is None else own))
            cards[label] = card.to_dict() if card else None
        da = da.assign_coords(direction=("metric", np.array(dirs, dtype=object)),
                              noise_floor=("metric", np.array(floors, dtype=float)))
        attrs["cards"] = json.dumps(cards, sort_keys=True)
    else:
        if isinstance(metric, Mapping) or isinstance(direction, Mapping):
            raise McdaArgumentTypeError("`metric` and `direction` are mappings only for cubes with a `metric` dim")
        name, d, card = _resolve_one(metric, direction)
        attrs["metric"] = name
        attrs["direction"] = d
        own = noise_floor if isinstance(noise_floor, float) else None
        attrs["noise_floor"] = card.noise_floor if card else (math.nan if own is None else own)
        attrs["card"] = card.to_json() if card else ""
    da.attrs = attrs
    return da


def cube_metric(cube: xr.DataArray) -> str:
    """The metric name of a single-metric cube ('' when it has none)."""
    return str(cube.attrs.get("metric", ""))


def select_metric(requested, labels, *, argument: str = "metric") -> str | None:
    """The one label among ``labels`` that ``requested`` names: the metric selector of every module.

    ``requested`` is a label, the same label in another case, a card name or alias the label
    resolves to, or a :class:`~mcda.MetricCard`; None picks the only label there is.
    ``labels`` are the metrics of a cube or result (its ``metric`` dim or column); None means
    a single unnamed metric, for which ``requested`` must be None (and None is returned).
    Anything else raises one error naming ``argument`` and the available metrics.
    """
    if labels is None:
        if requested is not None:
            raise McdaArgumentError(f"`{argument}` was given ({requested!r}) but the scores hold a single metric",
                                    argument=argument)
        return None
    labels = [str(lab) for lab in labels]
    if requested is None and len(labels) == 1:
        return labels[0]
    name = requested.name if isinstance(requested, MetricCard) else requested
    if isinstance(name, str):
        lowered = [lab for lab in labels if lab.lower() == name.lower()]
        if name in labels:
            return name
        if lowered:
            return lowered[0]
        target = _card_name(requested)
        same_card = [lab for lab in labels if target is not None and _card_name(lab) == target]
        if same_card:
            return same_card[0]
    close = nearest(name, labels) if isinstance(name, str) else []
    hint = f" Did you mean {close[0]!r}?" if close else (" The scores hold several metrics: name one."
                                                           if requested is None else "")
    raise McdaArgumentError(f"`{argument}` must be one of the metrics [{shown(labels, _MAX_SHOWN)}]; got {name!r}.{hint}",
                            argument=argument)


def metric_keys(given, labels, *, argument: str) -> list[str]:
    """The metric labels a list or mapping (``metrics=``, ``rope=``, ``scale=`` ...) names, as strings.

    Unlike :func:`select_metric`, each must be one of ``labels`` exactly (a mapping's keys are
    the labels themselves); unknown ones raise one error naming ``argument`` and ``labels``.
    """
    labels = [str(lab) for lab in labels]
    keys = [str(k) for k in given]
    unknown = [k for k in keys if k not in labels]
    if unknown:
        raise McdaArgumentError(f"`{argument}` names metrics not among [{shown(labels, _MAX_SHOWN)}]: "
                                f"{shown(unknown, _MAX_SHOWN)}", argument=argument)
    return keys


def cube_card(cube: xr.DataArray) -> MetricCard | None:
    """The card of a single-metric cube, or None when it has none."""
    if "metric" in cube.dims:
        raise McdaArgumentError("this cube has a `metric` dim; use cube_cards(cube) or select one metric first "
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
        raise McdaArgumentError("this DataArray carries no `direction`; build it with mcda.score_cube(...)")
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
        raise McdaArgumentError("this cube has a `metric` dim; select one metric (cube.sel(metric=...)) before "
                         "resolving its rope")
    floor = cube.attrs.get("noise_floor", math.nan)
    if floor is None or (isinstance(floor, float) and math.isnan(floor)):
        raise McdaArgumentError("`rope` is None and the scores carry no metric card, so there is no noise floor to use; "
                         "pass `rope=` explicitly (0.0 for none) or `metric=` naming a card.")
    return float(floor)


# --------------------------------------------------------------------------- parsing

# Scores beyond 1e150 in magnitude are refused: differences and sums of such scores (and the
# squares a variance takes) overflow float64 (1e154**2 is inf). Tiny scores are kept: every
# variance is computed on values scaled by their largest magnitude (within._spread), so 1e-154
# does not underflow to a false "every difference equals".
_HUGE = 1e150


def _numeric(values: pd.Series | np.ndarray, where) -> np.ndarray:
    """float64 values; non-numeric entries, ±inf, complex values and magnitudes beyond 1e150
    raise naming ``where(i)`` for each bad i; masked entries become NaN (missing)."""
    if np.ma.isMaskedArray(values):  # a masked entry is a missing result, as xarray reads it
        values = np.ma.filled(np.ma.asarray(values).astype(np.float64) if values.dtype.kind in "fiub"
                              else values.astype(object), np.nan)
    arr = np.asarray(values)
    if arr.dtype.kind == "c" or (arr.dtype == object and any(isinstance(v, complex | np.complexfloating)
                                                           for v in arr.ravel().tolist())):
        raise McdaArgumentError("scores must be real numbers; got complex values (mcda does not drop the "
                                "imaginary part: pass the real part, or the modulus, explicitly)", argument="scores")
    if arr.dtype.kind == "b":
        raise McdaArgumentTypeError("scores must be numbers; got booleans (True/False are not scores: pass "
                                    "the numbers, e.g. as float)", argument="scores")
    if arr.dtype.kind in "fiu":
        out = arr.astype(np.float64)
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
            raise McdaArgumentError("scores must be numeric; non-numeric values at " + "; ".join(shown) + more)
    if out.size:
        with np.errstate(invalid="ignore"):  # fmax/fmin skip NaN: no temporary the size of the scores
            within = not (np.fmax.reduce(out, axis=None) > _HUGE or np.fmin.reduce(out, axis=None) < -_HUGE)
        if within:  # ±inf lie beyond _HUGE too: nothing below can fire
            return out
    infinite = np.isinf(out)
    if infinite.any():
        idx = list(zip(*np.nonzero(infinite)))
        shown = [f"{where(i)}: {out[i]!r}" for i in idx[:_MAX_SHOWN]]
        more = f" (and {len(idx) - _MAX_SHOWN} more)" if len(idx) > _MAX_SHOWN else ""
        raise McdaArgumentError("scores must be finite (NaN marks a missing result); infinite values at "
                         + "; ".join(shown) + more)
    with np.errstate(invalid="ignore"):
        extreme = np.abs(out) > _HUGE
    if extreme.any():
        idx = list(zip(*np.nonzero(extreme)))
        shown = [f"{where(i)}: {out[i]!r}" for i in idx[:_MAX_SHOWN]]
        more = f" (and {len(idx) - _MAX_SHOWN} more)" if len(idx) > _MAX_SHOWN else ""
        raise McdaArgumentError(
            f"scores must not exceed {_HUGE:g} in magnitude: their differences, sums and variances would "
            "overflow float64. Rescale the scores (other units, or their logarithm); too large at "
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


def _text_labels(raw, dim: str, where: str) -> np.ndarray:
    """``raw`` labels as text, refusing two labels that differ only in type (``1`` and ``"1"``).

    Such labels would become one label and one would overwrite the other's results.
    """
    if isinstance(raw, np.ndarray) and (raw.dtype.kind in "iuU" or (
            raw.dtype == object and pd.api.types.infer_dtype(raw, skipna=False) == "string")):
        # one type throughout (checked in C, not a Python loop over millions of labels): no two can clash
        return raw.astype(str).astype(object) if raw.dtype != object else raw.copy()
    raw = list(raw)
    text = np.array([str(v) for v in raw], dtype=object)
    if len(raw) > 1:
        first: dict = {}
        for v, t in zip(raw, text.tolist()):
            prior = first.setdefault(t, v)
            if prior is not v and type(prior) is not type(v) and not (_same_label(prior, v)):
                raise McdaArgumentError(
                    f"{where} has {dim} labels that differ only in type: {prior!r} ({type(prior).__name__}) and "
                    f"{v!r} ({type(v).__name__}) both read as {t!r}, so one would overwrite the other's results. "
                    f"Make the {dim} labels distinct as text.")
    return text


def _same_label(a, b) -> bool:
    """numpy and Python scalars of one kind (np.str_ and str, np.int64 and int) are one label."""
    kinds = (str, numbers.Integral, numbers.Real, bool)
    for k in kinds:
        if isinstance(a, k) and isinstance(b, k):
            return a == b
    return False


def _labels(values, dim: str) -> np.ndarray:
    labels = pd.unique(pd.Series(values, dtype=object))
    if dim in _STRING_DIMS:
        labels = _text_labels(labels, dim, "the table")
    else:
        raw = labels
        labels = np.asarray(labels)
        if labels.dtype == object:
            try:
                labels = labels.astype(np.int64)
            except (TypeError, ValueError, OverflowError):
                labels = _text_labels(raw, dim, "the table")
            if len(pd.unique(labels)) != len(labels):
                raise McdaArgumentError(
                    f"the table has {dim} labels that differ only in type: {shown(raw)} read as the same "
                    f"integers, so one would overwrite the other's results. Make the {dim} labels distinct.")
    return labels


def _from_tidy(frame: pd.DataFrame, columns: Mapping[str, str]) -> xr.DataArray:
    cols = dict(_DEFAULT_COLUMNS)
    if columns:
        unknown_roles = [k for k in columns if k not in cols]
        if unknown_roles:
            raise McdaArgumentError(f"`columns` keys must be among {shown(cols)}; got {shown(unknown_roles)}")
        cols.update(columns)
    for role in ("dataset", "method", "score"):
        if cols[role] not in frame.columns:
            raise McdaArgumentError(f"the tidy table has no {role} column {cols[role]!r}; its columns are "
                             f"{shown(frame.columns)}. Name it with `columns={{{role!r}: ...}}`.")
    if columns:
        for role, name in columns.items():
            if name not in frame.columns:
                raise McdaArgumentError(f"`columns` maps {role!r} to {name!r}, which is not a column; the columns are "
                                 f"{shown(frame.columns)}")
    dims = ["dataset", "method"] + [d for d in _OPTIONAL_DIMS if cols[d] in frame.columns]
    keys = [cols[d] for d in dims]
    key_frame = frame[keys]
    for d, k in zip(dims, keys):
        if key_frame[k].isna().any():
            rows = list(frame.index[key_frame[k].isna()])
            raise McdaArgumentError(f"the {d} column {k!r} is empty in rows {shown(rows)}")
    dup = key_frame.duplicated(keep=False)
    if dup.any():
        dups = key_frame[dup].drop_duplicates().head(_MAX_SHOWN)
        examples = "; ".join(", ".join(f"{d}={v!r}" for d, v in zip(dims, row)) for row in dups.itertuples(index=False))
        n = int(key_frame[dup].drop_duplicates().shape[0])
        raise McdaArgumentError(f"duplicate rows: {n} ({', '.join(dims)}) keys appear more than once, e.g. {examples}. "
                         "Aggregate them yourself or add the distinguishing column (e.g. a seed).")
    index_names = list(frame.index)
    values = _numeric(frame[cols["score"]].to_numpy(),
                      lambda i: f"row {index_names[i[0]]!r} (column {cols['score']!r})")
    labels, codes = {}, []
    for d, k in zip(dims, keys):
        code, uniques = pd.factorize(pd.Series(frame[k].to_numpy(), dtype=object), sort=False)
        labels[d] = _labels(uniques, d)
        codes.append(code.astype(np.int64))
    shape = tuple(len(labels[d]) for d in dims)
    data = np.full(shape, np.nan)
    data[tuple(codes)] = values
    return xr.DataArray(data, dims=dims, coords={d: labels[d] for d in dims}, name="score")


def _from_wide(frame: pd.DataFrame, columns: Mapping[str, str] | None) -> xr.DataArray:
    if isinstance(frame.columns, pd.MultiIndex) or isinstance(frame.index, pd.MultiIndex):
        which = "columns" if isinstance(frame.columns, pd.MultiIndex) else "index"
        raise McdaArgumentError(
            f"`data` is a wide DataFrame with a MultiIndex {which} ({shown(getattr(frame, which).names)}); mcda "
            "would have to guess which level holds the methods. Pass a tidy frame instead "
            "(frame.stack(...).reset_index() with columns dataset, method, score and e.g. seed or metric).",
            argument="data")
    cols = dict(_DEFAULT_COLUMNS) | dict(columns or {})
    dataset_col = cols["dataset"]
    stray = [cols[d] for d in _OPTIONAL_DIMS if cols[d] in frame.columns]
    if stray:
        raise McdaArgumentError(
            f"`data` is a wide DataFrame (no {cols['method']!r} column, so every column is a method) but it has "
            f"column(s) {shown(stray)}, which name a dimension, not a method. Pass a tidy frame with columns "
            f"dataset, method, score and {', '.join(map(repr, stray))}.", argument="data")
    if dataset_col in frame.columns:
        frame = frame.set_index(dataset_col)
    datasets = list(_text_labels(frame.index, "dataset", "the wide table"))
    methods = list(_text_labels(frame.columns, "method", "the wide table"))
    for what, labels in (("dataset (row)", datasets), ("method (column)", methods)):
        seen = pd.Series(labels)
        if seen.duplicated().any():
            raise McdaArgumentError(f"duplicate {what} labels: {shown(seen[seen.duplicated()].unique())}")
    values = _numeric(frame.to_numpy(dtype=object),
                      lambda i: f"dataset {datasets[i[0]]!r}, method {methods[i[1]]!r}")
    return xr.DataArray(values, dims=("dataset", "method"),
                        coords={"dataset": np.array(datasets, dtype=object),
                                "method": np.array(methods, dtype=object)}, name="score")


def _from_dict(data: Mapping) -> xr.DataArray:
    datasets = list(_text_labels(list(data), "dataset", "the dict"))
    if len(set(datasets)) != len(datasets):
        raise McdaArgumentError(f"duplicate dataset labels after conversion to text: {shown(datasets)}")
    methods: list[str] = []
    raw_methods: list = []
    n_seeds = 0
    has_seeds = False
    for ds, inner in data.items():
        if not isinstance(inner, Mapping):
            raise McdaArgumentTypeError(f"a nested dict must map dataset -> {{method: score or [scores per seed]}}; "
                            f"dataset {ds!r} maps to {type(inner).__name__}")
        _text_labels(list(inner), "method", f"the dict (dataset {ds!r})")
        for m, v in inner.items():
            if str(m) not in methods:
                methods.append(str(m))
                raw_methods.append(m)
            else:
                _text_labels([raw_methods[methods.index(str(m))], m], "method", "the dict")
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
    # a masked entry is a missing result (as xarray reads a masked array); np.asarray would drop the mask
    arr = np.ma.filled(np.ma.asarray(data, dtype=np.float64), np.nan) if np.ma.isMaskedArray(data) else np.asarray(data)
    if arr.ndim not in (2, 3):
        raise McdaArgumentError(f"an array of scores must be 2-D (datasets × methods) or 3-D (datasets × methods × "
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
                raise McdaArgumentError(f"`{d}_names` has {len(given)} labels but the array has {arr.shape[axis]} "
                                 f"{d}s (axis {axis}); got {shown(given)}")
            labels = np.array([str(v) for v in given], dtype=object) if d != "seed" else np.asarray(given)
            if len(set(labels.tolist())) != len(labels):
                raise McdaArgumentError(f"`{d}_names` has duplicates: {shown(pd.Series(labels)[pd.Series(labels).duplicated()])}")
        coords[d] = labels
    values = _numeric(arr, lambda idx: ", ".join(f"{d} {coords[d][i]!r}" for d, i in zip(dims, idx)))
    return xr.DataArray(values, dims=dims, coords=coords, name="score")


def _kept_lazy_labels(labels: np.ndarray) -> bool:
    """Dataset labels of a lazy cube that need no conversion: integers, or text (checked in C, not per label)."""
    if labels.dtype.kind in "iuU":
        return True
    return labels.dtype == object and pd.api.types.infer_dtype(labels, skipna=False) == "string"


def _repeated_labels(labels: np.ndarray) -> list:
    """Labels that occur more than once among millions of text (object) or integer labels,
    without a hash table of them all: the 64-bit hashes of the labels (Python's own for text,
    cached in each string) are sorted, and only labels whose hashes tie are compared.
    Transient memory: 8 bytes a label (``pd.unique`` on a pandas 3 ``str`` Series took about
    120 bytes a label, ``Index.is_unique`` about 50)."""
    if labels.dtype != object:
        ordered = np.sort(labels)
        return ordered[1:][ordered[1:] == ordered[:-1]].tolist()
    hashes = np.fromiter(map(hash, labels), dtype=np.int64, count=labels.size)
    order = np.argsort(hashes, kind="stable") if labels.size < 1 << 16 else None
    if order is None:  # millions: sort the hashes in place; the few tied positions are found again after
        hashes.sort()
        tied = np.unique(hashes[1:][hashes[1:] == hashes[:-1]])
        if not tied.size:
            return []
        candidates = labels[np.isin(np.fromiter(map(hash, labels), dtype=np.int64, count=labels.size), tied)]
    else:
        ordered = hashes[order]
        same = np.flatnonzero(ordered[1:] == ordered[:-1])
        if not same.size:
            return []
        candidates = labels[np.unique(np.concatenate([order[same], order[same + 1]]))]
    series = pd.Series(candidates, dtype=object)
    return series[series.duplicated()].tolist()


#: from this many text labels on, repeats are looked for by sorted hashes (:func:`_repeated_labels`)
_MANY_LABELS = 1 << 16


def _has_repeats(labels: np.ndarray) -> bool:
    """Whether a label occurs twice: integers by sorting, millions of text labels by sorted
    hashes (:func:`_repeated_labels`), others through a pandas Index."""
    if labels.dtype.kind in "iu" or (labels.dtype == object and labels.size >= _MANY_LABELS):
        return bool(_repeated_labels(labels))
    return pd.Index(labels, dtype=object, copy=False).has_duplicates


def _label_index(labels: np.ndarray, d: str):
    """Text labels as an object Index, which xarray keeps as it is (an object array it converts
    through a pandas ``str`` Series and back: two more copies of every label)."""
    return pd.Index(labels, dtype=object, copy=False, name=d) if labels.dtype == object else labels


def _text_coordinate(labels: np.ndarray, d: str):
    """The labels of a text dim as text, refused if two differ only in type or repeat."""
    given = labels
    labels = _text_labels(labels, d, "the DataArray")
    integers = isinstance(given, np.ndarray) and given.dtype.kind in "iu"
    if _has_repeats(given if integers else labels):  # distinct integers read as distinct text: checked as integers
        _refuse_repeated(labels, d)
    return _label_index(labels, d)


# checked text labels of large label indexes, by the (immutable) pandas Index a cube's coordinate
# holds: a cube validated again (every statistic validates its argument) converts and checks its
# million labels once, not once per call. An entry lives as long as the Index it was read from.
_CHECKED_LABELS: dict = {}


def _checked_text_labels(index, labels: np.ndarray, d: str):
    """:func:`_text_coordinate` of ``labels``, remembered for ``index`` (the coordinate's pandas Index)."""
    if index is None or labels.size < _MANY_LABELS:
        return _text_coordinate(labels, d)
    hit = _CHECKED_LABELS.get(id(index))
    if hit is not None and hit[0]() is index and hit[1] == d:
        return hit[2]
    out = _text_coordinate(labels, d)
    _remember_labels(index, d, out)
    return out


def _remember_labels(index, d: str, checked) -> None:
    key = id(index)
    try:
        ref = weakref.ref(index, lambda _, key=key, table=_CHECKED_LABELS: table.pop(key, None))  # (at exit too)
    except TypeError:  # not weakly referenceable: checked again next time
        return
    _CHECKED_LABELS[key] = (ref, d, checked)


def _refuse_repeated(labels: np.ndarray, d: str):
    index = pd.Index(labels, dtype=object, copy=False)  # object: no second (arrow) copy of text labels
    raise McdaArgumentError(f"duplicate {d} labels: {shown(index[index.duplicated()])}")


def _from_dataarray(da: xr.DataArray) -> xr.DataArray:
    unknown = [d for d in da.dims if d not in DIMS]
    if unknown:
        raise McdaArgumentError(f"a score cube's dims must be among {shown(DIMS)}; got unknown dims {shown(unknown)}")
    for d in ("dataset", "method"):
        if d not in da.dims:
            raise McdaArgumentError(f"a score cube needs a {d!r} dim; got dims {shown(da.dims)}")
    order = [d for d in DIMS if d in da.dims]
    da = da.transpose(*order)
    coords = {}
    lazy = hasattr(da.data, "dask")
    for d in order:
        if d in da.coords:
            if lazy and d == "dataset":  # checked before (the same Index): not again
                hit = _CHECKED_LABELS.get(id(da.indexes.get(d)))
                if hit is not None and hit[0]() is da.indexes.get(d) and hit[1] == d:
                    coords[d] = hit[2]
                    continue
            labels = da.coords[d].values
            if lazy and d == "dataset" and _kept_lazy_labels(labels):
                # millions of items: integer labels stay integers, text becomes objects without a Python
                # loop, checked for repeats without a hash table of them all, and kept as an object
                # Index (an array would become a pandas 3 ``str`` Index: a second copy of every label)
                labels = labels.astype(object) if labels.dtype.kind == "U" else labels
                if _has_repeats(labels):
                    _refuse_repeated(labels, d)
                coords[d] = pd.Index(labels, dtype=labels.dtype, copy=False, name=d)
                continue
            elif d in _STRING_DIMS:
                coords[d] = _checked_text_labels(da.indexes.get(d), labels, d)
                continue
        else:
            labels = np.arange(da.sizes[d]) if d not in _STRING_DIMS else np.array(
                [f"{d}_{i}" for i in range(da.sizes[d])], dtype=object)
        if _has_repeats(labels):
            _refuse_repeated(labels, d)
        coords[d] = _label_index(labels, d) if d in _STRING_DIMS else labels
    if hasattr(da.data, "dask"):  # keep lazy arrays lazy; values are checked chunk-wise where used
        out = da.assign_coords(coords)
    else:
        values = _numeric(da.values, lambda idx: ", ".join(f"{d} {coords[d][i]!r}" for d, i in zip(order, idx)))
        out = da.copy(data=values).assign_coords(coords)
    for d, checked in coords.items():  # the validated cube's own label Index: its text labels are checked
        if (isinstance(checked, pd.Index) and checked.dtype == object and len(checked) >= _MANY_LABELS
                and d in _STRING_DIMS):  # (a lazy cube's integer labels stay integers: not text yet)
            _remember_labels(out.indexes[d], d, checked)
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
    noise_floor = None
    is_array = isinstance(data, (np.ndarray, list, tuple))
    if isinstance(data, xr.DataArray):
        data = _one_metric_from_coords(data)
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
        noise_floor = _stored_noise_floor(data, metric)
    elif isinstance(data, pd.DataFrame):
        if data.shape[0] == 0 or data.shape[1] == 0:
            raise McdaArgumentError(f"`data` is empty (a DataFrame of shape {data.shape})")
        cols = dict(_DEFAULT_COLUMNS) | dict(columns or {})
        is_tidy = cols["method"] in data.columns
        named = [str(c) for c in data.columns if str(c).lower() in METHOD_COLUMN_NAMES and str(c) != "method"]
        if not is_tidy and "method" not in (columns or {}) and named:
            raise McdaArgumentError(f"the table has no 'method' column but a {named[0]!r} column: if it is tidy (one row per "
                             f"result), pass `columns={{'method': {named[0]!r}}}` (and the score column, e.g. "
                             f"`columns={{'method': {named[0]!r}, 'score': 'accuracy'}}`); a wide table has one "
                             "numeric column per method")
        da = _from_tidy(data, columns) if is_tidy else _from_wide(data, columns)
    elif isinstance(data, Mapping):
        if len(data) == 0:
            raise McdaArgumentError("`data` is empty (a dict with no datasets)")
        da = _from_dict(data)
    elif is_array:
        try:
            data = data if np.ma.isMaskedArray(data) else np.asarray(data)
        except ValueError as exc:  # a ragged nested list
            raise McdaArgumentError(f"`data` as a list must be rectangular (datasets × methods [× seeds]); numpy "
                                    f"cannot make an array of it ({' '.join(str(exc).split())[:120]})",
                                    argument="data") from None
        if np.size(data) == 0:
            raise McdaArgumentError(f"`data` is empty (an array of shape {np.shape(data)})")
        da = _from_array(data, method_names, dataset_names, seed_names)
    else:
        raise McdaArgumentTypeError("`data` must be a tidy or wide pandas DataFrame, a nested dict, a numpy array (with "
                        f"`method_names`) or an xarray DataArray; got {type(data).__name__}")
    if not is_array:
        for dim, names in (("method", method_names), ("dataset", dataset_names), ("seed", seed_names)):
            if names is not None:
                da = _order_by_names(da, dim, names)
    if "metric" in da.dims and isinstance(metric, (str, MetricCard)):
        da, metric, direction = _narrow_to_metric(da, metric, direction)
    da = _apply_scale(da, scale, keep_attrs)
    da = attach_metric(da, metric, direction, noise_floor=noise_floor)
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
        raise McdaArgumentError(f"`scale`={scale!r}: these scores were already converted ({keep_attrs['scale']}); "
                         "converting twice would divide them again")
    if isinstance(scale, Mapping):
        if "metric" not in da.dims:
            raise McdaArgumentTypeError("`scale` is a mapping (label -> scale) only for scores with a `metric` dim; "
                            f"got {dict(scale)!r}")
        labels = [str(m) for m in da.coords["metric"].values]
        metric_keys(scale, labels, argument="scale")
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
    if values.size:  # the smallest and largest scores first (NaN skipped): no mask unless one lies outside
        if not ((card.lower is not None and np.fmin.reduce(values, axis=None) < card.lower - tol)
                or (card.upper is not None and np.fmax.reduce(values, axis=None) > card.upper + tol)):
            return
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
    raise McdaArgumentError(
        f"metric {label!r}: {len(idx)} of {values.size} scores lie outside the card's range {_range_text(card)} "
        f"({'; '.join(where)}{more}). The card's noise floor ({card.noise_floor:g}, the default rope) is in the "
        f"card's units, so these scores cannot be read with it. {(hint[0].upper() + hint[1:]) if hint else ''}"
        f"{'or name' if hint else 'Name'} the metric the scores really are with `metric=` (see mcda.list_cards()), "
        "or register a card with the right range. Nothing is clipped.")


_META_ATTRS = ("metric", "direction", "noise_floor", "card", "cards", "oriented")


def _order_by_names(da: xr.DataArray, dim: str, names) -> xr.DataArray:
    """Labelled scores given ``<dim>_names``: the names must be the scores' own labels; they set the order.

    They never relabel by position (that silently renamed a DataFrame's columns): to rename,
    rename the labels themselves (``frame.rename(columns=...)``, ``cube.assign_coords(...)``).
    """
    arg = f"{dim}_names"
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise McdaArgumentTypeError(f"`{arg}` must be a sequence of labels; got {names!r}", argument=arg)
    if dim not in da.dims:
        raise McdaArgumentError(f"`{arg}` is given but the scores have no {dim!r} dim (dims {shown(da.dims)})",
                                argument=arg)
    names = list(names)
    have = da.coords[dim].values.tolist()
    key = (lambda v: str(v)) if dim in _STRING_DIMS else (lambda v: v)
    wanted = [key(v) for v in names]
    if len(set(wanted)) != len(wanted):
        raise McdaArgumentError(f"`{arg}` has duplicates: {shown(pd.Series(wanted)[pd.Series(wanted).duplicated()])}",
                                argument=arg)
    unknown = [v for v in wanted if v not in set(have)]
    absent = [v for v in have if v not in set(wanted)]
    if unknown or absent:
        raise McdaArgumentError(
            f"`{arg}` relabels only array input (by position); these scores carry their own {dim} labels, so "
            f"`{arg}` may only list them (to set their order). Not in the scores: {shown(unknown) or 'none'}; "
            f"not listed: {shown(absent) or 'none'}. To rename, rename the labels in the data itself.",
            argument=arg)
    if wanted == have:
        return da
    return da.sel({dim: wanted})

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
    stored = da.attrs.get("direction")
    if stored is not None and stored not in DIRECTIONS:
        raise McdaArgumentError(f"the scores' attrs['direction'] must be one of {set(DIRECTIONS)}; got {stored!r}",
                                argument="direction")
    return stored or None


def _stored_noise_floor(da: xr.DataArray, metric):
    """A noise floor the DataArray carries beside (or instead of) a card; contradictions raise.

    With a card, a stored floor must equal the card's (a changed attr would otherwise be
    ignored, or used, without a word); without one, a stored floor must be finite and >= 0
    and is kept. With a ``metric`` dim: a mapping label -> floor for the labels without a card.
    """
    def check(value, card, what):
        if value is None or value == "":
            return None
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise McdaArgumentError(f"the scores' noise floor{what} must be a number >= 0; got {value!r}",
                                    argument="noise_floor")
        v = float(value)
        if math.isnan(v):
            return None
        if not math.isfinite(v) or v < 0:
            raise McdaArgumentError(f"the scores' noise floor{what} must be a finite number >= 0; got {value!r}",
                                    argument="noise_floor")
        if card is not None and v != card.noise_floor:
            raise McdaArgumentError(f"the scores' noise floor{what} {v!r} contradicts their card {card.name!r}, which "
                                    f"says {card.noise_floor!r}; register a corrected card or drop the attribute",
                                    argument="noise_floor")
        return v

    if "metric" in da.dims:
        if "noise_floor" not in da.coords:
            return None
        cards = metric if isinstance(metric, Mapping) else {}
        out = {}
        for label, value in zip([str(m) for m in da.coords["metric"].values], da.coords["noise_floor"].values):
            card = cards.get(label)
            out[label] = check(value.item() if hasattr(value, "item") else value,
                               card if isinstance(card, MetricCard) else None, f" for metric {label!r}")
        return out
    return check(da.attrs.get("noise_floor"), metric if isinstance(metric, MetricCard) else None, "")


def _one_metric_from_coords(da: xr.DataArray) -> xr.DataArray:
    """A cube narrowed to one metric by xarray (``cube.sel(metric="ARI")``, ``.isel(metric=0)``).

    xarray keeps the metric's label, direction and noise floor as scalar coordinates and the
    cards of every metric in ``attrs["cards"]``; this moves them back into the single-metric
    attrs, so such a DataArray is accepted wherever a cube is. A ``metric`` dim narrowed to
    some labels (``.sel(metric=["ARI"])``) keeps only their cards.
    """
    if "metric" in da.dims:
        raw = da.attrs.get("cards")
        if raw:
            cards = json.loads(raw)
            labels = [str(m) for m in da.coords["metric"].values]
            if set(cards) - set(labels):
                da = da.copy(deep=False)
                da.attrs = dict(da.attrs) | {"cards": json.dumps({k: v for k, v in cards.items() if k in labels},
                                                                 sort_keys=True)}
        return da
    if "metric" not in da.coords and "direction" not in da.coords:
        return da
    attrs = dict(da.attrs)
    label = str(da.coords["metric"].item()) if "metric" in da.coords else attrs.get("metric", "")
    cards = json.loads(attrs.pop("cards", "") or "{}")
    card = cards.get(label)
    direction = str(da.coords["direction"].item()) if "direction" in da.coords else attrs.get("direction")
    floor = float(da.coords["noise_floor"].item()) if "noise_floor" in da.coords else attrs.get("noise_floor")
    for name, value in (("direction", direction), ("noise_floor", floor)):
        if name in attrs and value is not None and attrs[name] != value and not (
                isinstance(value, float) and math.isnan(value)):
            raise McdaArgumentError(f"the scores carry two {name}s: {attrs[name]!r} in attrs and {value!r} as a "
                                    "coordinate; drop one", argument=name)
    out = da.drop_vars([c for c in ("metric", "direction", "noise_floor") if c in da.coords and not da.coords[c].dims])
    attrs.update({"metric": label, "direction": direction, "noise_floor": floor,
                  "card": json.dumps(card, sort_keys=True) if card else attrs.get("card", "")})
    out.attrs = {k: v for k, v in attrs.items() if v is not None}
    return out


def _narrow_to_metric(da: xr.DataArray, metric, direction):
    """One metric of a cube with a ``metric`` dim, named by its label, any case, or its card.

    Returns the cube without the ``metric`` dim and what to attach as its metric (the stored
    card, the card given, or the bare label) and direction.
    """
    label = select_metric(metric, da.coords["metric"].values)
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
        raise McdaArgumentError(f"{where}: the rows have more fields than the header ({n} names: "
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
    raise McdaArgumentError(f"`data` path {str(path)!r} has suffix {suffix!r}; mcda reads .csv, .parquet, .json (a cube "
                     "from mcda.data.cube.to_json), .nc (from mcda.data.cube.to_netcdf) and .zarr stores")


def _check_shape(da: xr.DataArray) -> xr.DataArray:
    if da.sizes["dataset"] == 0:
        raise McdaArgumentError("`data` is empty: no datasets")
    if da.sizes["method"] < 2:
        raise McdaArgumentError(f"a comparison needs at least 2 methods; got {da.sizes['method']} "
                         f"({shown(da.coords['method'].values)})")
    return da


def as_cube(scores, direction=None, *, metric=None, method_names=None) -> xr.DataArray:
    """The cube for a statistic's ``scores`` argument (any input :func:`score_cube` takes).

    The one validation every route into a statistic goes through: a DataArray that already
    carries a direction (a cube, or one narrowed by ``.sel``/``.isel``/``.where``) is checked
    exactly as :func:`score_cube` checks new input (finite real scores, distinct labels, a
    known direction that agrees with its card, a noise floor >= 0). ``direction`` and
    ``metric``, when given, must agree with the card it carries.

    The parameters below are read the same way by every statistic that takes ``scores``; their
    docstrings point here.

    Parameters
    ----------
    scores : any input of :func:`score_cube`
        A tidy or wide DataFrame, a nested dict, an array (with ``method_names``) or a cube.
    direction : {"higher_is_better", "lower_is_better"}, optional
        Needed only when ``scores`` carries no metric card (a card name in ``metric``, or a
        cube built with one); when given, it must agree with the card.
    metric : str or MetricCard, optional
        The metric's card. With a ``metric`` dim, the one metric to use, chosen by
        :func:`select_metric` (its label, the label in another case, or its card's name).
    method_names : sequence of str, optional
        Labels for array input, by position. Input that carries its own method labels may
        only list them (to set their order).
    """
    return score_cube(scores, metric=metric, direction=direction, method_names=method_names)


def single_score_cube(scores, direction=None, *, method_names=None,
                      what: str = "this comparison") -> xr.DataArray:
    """:func:`as_cube`, refusing any dim beyond ``dataset`` and ``method`` (one score per cell).

    A ``seed`` dim is never collapsed here: how seeds are reduced is the analyst's decision
    (:func:`reduce_seeds`). ``what`` names the computation in the message.
    """
    cube = as_cube(scores, direction, method_names=method_names)
    if "metric" in cube.dims and cube.sizes["metric"] == 1:  # cube.sel(metric=["ari"]): that one metric
        cube = as_cube(cube, metric=str(cube.coords["metric"].values[0]))
    extra = [d for d in cube.dims if d not in ("dataset", "method")]
    if "seed" in extra:
        raise McdaArgumentError(f"the scores have a 'seed' dim (extra dims {extra}); {what} needs one score per "
                         "(dataset, method). Reduce the seeds explicitly first, e.g. "
                         "mcda.reduce_seeds(cube, how='mean').")
    if extra:
        raise McdaArgumentError(f"the scores have extra dims {extra}; {what} needs one score per (dataset, method): "
                         "select one value along each first (e.g. cube.sel(metric='ari')).")
    return cube


# --------------------------------------------------------------------------- selection

def select(cube: xr.DataArray, indexers: Mapping | None = None, /, *, drop: bool = False,
           **labels) -> xr.DataArray:
    """Select labels along the cube's dims, ``method`` included: ``mcda.select(cube, method="SC3")``.

    The same as ``cube.mcda.sel(method="SC3")``. xarray's own ``DataArray.sel`` is a trap
    here: it reads a ``method=`` keyword as its own argument (the fill method of inexact
    lookups) and, given no other label, returns the whole cube without a word. Here every keyword is a dim, every label must exist
    (a typo gets the nearest labels), and nothing else is done: the result is what
    ``cube.sel({"method": "SC3"})``, xarray's dict form, gives.

    Parameters
    ----------
    cube : xarray.DataArray
        A score cube (or any DataArray with the cube's dims).
    indexers : mapping, optional
        dim -> label or list of labels (xarray's dict form), combined with ``labels``.
    drop : bool, default False
        As in ``xarray.DataArray.sel``: drop the coordinates of the dims selected by a scalar.
    **labels
        dim -> label or list of labels, e.g. ``method=["SC3", "Seurat"]``, ``metric="ari"``.

    Returns
    -------
    xarray.DataArray
        The selection. Every mcda function accepts it where it accepts a cube (a single metric
        selected from a ``metric`` dim keeps its card).

    Raises
    ------
    McdaArgumentError
        A keyword that is not a dim of the cube, or a label that is not in it.

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.load("duo2018")
    >>> mcda.select(cube, method=["SC3", "Seurat"]).sizes["method"]
    2
    >>> cube.mcda.sel(method="SC3").dims
    ('dataset',)
    """
    if not isinstance(cube, xr.DataArray):
        raise McdaArgumentTypeError(f"`cube` must be an xarray.DataArray; got {type(cube).__name__}", argument="cube")
    if indexers is not None and not isinstance(indexers, Mapping):
        raise McdaArgumentTypeError(f"`indexers` must be a mapping dim -> labels; got {indexers!r}",
                                    argument="indexers")
    wanted = dict(indexers or {})
    for dim, value in labels.items():
        if dim in wanted:
            raise McdaArgumentError(f"`{dim}` is given twice (in `indexers` and as a keyword)", argument=dim)
        wanted[dim] = value
    if not isinstance(drop, bool):
        raise McdaArgumentTypeError(f"`drop` must be True or False; got {drop!r}", argument="drop")
    chosen = {}
    for dim, value in wanted.items():
        if dim not in cube.dims:
            close = nearest(str(dim), [str(d) for d in cube.dims])
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise McdaArgumentError(f"`{dim}` is not a dim of the cube; its dims are {shown(cube.dims)}.{hint}",
                                    argument=str(dim))
        have = cube.coords[dim].values.tolist() if dim in cube.coords else list(range(cube.sizes[dim]))
        many = isinstance(value, (list, tuple, np.ndarray, pd.Index, pd.Series))
        asked = list(value) if many else [value]
        text = dim in _STRING_DIMS
        lookup = {(str(v) if text else v): v for v in have}
        resolved = []
        for v in asked:
            key = str(v) if text and isinstance(v, (str, numbers.Number)) else v
            try:
                resolved.append(lookup[key])
            except (KeyError, TypeError):
                close = nearest(str(v), [str(h) for h in have]) if text else []
                hint = f" Did you mean {close[0]!r}?" if close else ""
                raise McdaArgumentError(f"`{dim}` label {v!r} is not in the cube; its {dim} labels are "
                                        f"{shown(have)}.{hint}", argument=str(dim)) from None
        if many and len(set(map(str, resolved))) != len(resolved):
            raise McdaArgumentError(f"`{dim}` lists a label twice: {shown(asked)}", argument=str(dim))
        chosen[dim] = resolved if many else resolved[0]
    return cube.sel(chosen, drop=drop)


@xr.register_dataarray_accessor("mcda")
class CubeAccessor:
    """``cube.mcda``: mcda's helpers on any DataArray (registered when ``mcda.data.cube`` is imported).

    ``cube.mcda.sel(method="SC3")`` selects methods (xarray's own ``sel`` does not: it reads
    a ``method=`` keyword as its fill-method argument).
    """

    def __init__(self, obj: xr.DataArray):
        self._obj = obj

    def sel(self, indexers: Mapping | None = None, /, *, drop: bool = False, **labels) -> xr.DataArray:
        """:func:`mcda.select` on this DataArray."""
        return select(self._obj, indexers, drop=drop, **labels)

    def validate(self, direction=None, *, metric=None) -> xr.DataArray:
        """This DataArray as a checked cube (:func:`mcda.data.cube.as_cube`): what every statistic sees."""
        return as_cube(self._obj, direction, metric=metric)


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


def incomplete_design_error(n_methods: int, n_datasets: int, excluded: dict, *,
                            ways_out: str) -> McdaArgumentError:
    """The error when dropping incomplete methods leaves too little to compare.

    ``ways_out`` says what the *called* function lets the user do about it (its own arguments,
    never another function's): one of :data:`WAYS_OUT`.
    """
    return McdaArgumentError(f"dropping incomplete methods leaves {n_methods} method(s) on {n_datasets} dataset(s); "
                             f"excluded {shown(excluded)}. {WAYS_OUT[ways_out]}", argument=None)


EMPTY_DATASET_RULE = ("a dataset on which no method has a result carries no comparison: every analysis leaves "
                      "it out and names it (nothing is imputed)")


def name_empty_datasets(empty, what: str) -> None:
    """The one rule for datasets without any result: left out of ``what``, and named in a warning.

    The library, the :class:`~mcda.Report` and the command line all follow it
    (:data:`EMPTY_DATASET_RULE`); a result's ``empty_datasets`` (where it has one) lists them too.
    """
    empty = list(empty)
    if empty:
        from mcda._core.validation import MissingDataWarning, warn

        warn(f"{len(empty)} dataset(s) have no result for any method and are left out of {what}: "
             f"{shown(empty, fmt=str)} ({EMPTY_DATASET_RULE}).", MissingDataWarning)


def without_empty_datasets(cube: xr.DataArray) -> xr.DataArray:
    """``cube`` without the datasets on which no method has a result (already named to the user)."""
    if hasattr(cube.data, "dask"):
        return cube
    empty = _cell_missing(cube).all("method").values
    return cube.isel(dataset=np.flatnonzero(~empty)) if empty.any() else cube


#: What a function that met an incomplete design can offer, by the arguments it takes.
WAYS_OUT = {
    "policy": "Try `policy='datasets'`, or restrict the comparison to the methods you need.",
    "missing": "Pass `missing='available'` (each method ranked over the datasets it has results on), drop the "
               "incomplete datasets first (mcda.complete_cases(scores, policy='datasets').cube), or restrict "
               "the comparison to the methods you need.",
    "none": "Drop the incomplete datasets first (mcda.complete_cases(scores, policy='datasets').cube), or "
            "restrict the comparison to the methods you need.",
}


@states_scale
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
    return complete_cases_with(as_cube(cube), policy=policy)


def complete_cases_with(cube: xr.DataArray, *, policy: str = "methods", ways_out: str = "policy") -> CompleteCases:
    """:func:`complete_cases` of a cube that :func:`as_cube` returned (validated once, by the caller);
    ``ways_out`` names the calling function's way out in the message (a key of :data:`WAYS_OUT`)."""
    check_choice("policy", policy, ("methods", "datasets"))
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
        columns, excluded, _ = complete_design(ds, me, (rows, miss.values[rows]), fmt=lambda v: v, ways_out=ways_out)
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
            raise McdaArgumentError(f"dropping incomplete datasets leaves none; excluded {shown(excluded)}. "
                             "Try `policy='methods'`.")
    return CompleteCases(cube=out, excluded=excluded, empty_datasets=empty_datasets, policy=policy)


# --------------------------------------------------------------------------- complete-case flags, chunk-wise
# The across-dataset statistics name and drop incomplete methods from one pass over the cube
# (mcda.data.blocks runs the block over every block of datasets and combines the partials).

def missing_rows(values: np.ndarray, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """Block: (positions of the datasets with a missing cell, their missing masks)."""
    missing = np.isnan(values)
    rows = np.flatnonzero(missing.any(axis=1))
    return offset + rows, missing[rows]


def concat_missing(a: tuple, b: tuple) -> tuple:
    """Combine: the flagged rows of two blocks, in dataset order."""
    return np.concatenate([a[0], b[0]]), np.concatenate([a[1], b[1]])


def complete_design(datasets, methods, flags: tuple, *, fmt=str,
                    ways_out: str = "none") -> tuple[np.ndarray, dict, np.ndarray]:
    """Finalize: (kept method columns, excluded method -> datasets it lacks, empty dataset positions).

    Datasets without any result are dropped (they make no method incomplete); every method that
    lacks a result on another dataset is excluded. Fewer than 2 methods or no dataset left raises,
    saying what the calling function offers instead (``ways_out``, a key of :data:`WAYS_OUT`).
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
        raise incomplete_design_error(int(columns.size), n_kept, excluded, ways_out=ways_out)
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
        raise McdaArgumentError(f"`cube` has no 'seed' dim to reduce; its dims are {shown(cube.dims)}")
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
            from mcda._core.validation import MissingDataWarning, warn

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
    raise McdaArgumentTypeError(f"cannot write {type(obj).__name__} to JSON")


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
        raise McdaArgumentError(f"not an mcda cube JSON (format {doc.get('format')!r}, expected {JSON_FORMAT!r})")
    if doc.get("version", 0) > JSON_VERSION:
        raise McdaArgumentError(f"this cube JSON is version {doc['version']}; this mcda reads up to {JSON_VERSION}")
    dims = doc["dims"]
    coords = {}
    for d in dims:
        labels = doc["coords"][d]
        coords[d] = np.array(labels, dtype=object) if d in _STRING_DIMS else np.array(labels)
    raw = np.array(_nan_from_none(doc["values"]), dtype=object)
    if raw.shape != tuple(len(coords[d]) for d in dims):
        raise McdaArgumentError(f"the cube JSON's values have shape {raw.shape} but its coords give "
                                f"{tuple(len(coords[d]) for d in dims)}", argument="source")
    values = _numeric(raw, lambda idx: "JSON value at " + ", ".join(f"{d} {coords[d][i]!r}" for d, i in zip(dims, idx)))
    da = xr.DataArray(values, dims=dims, coords=coords, name="score")
    for name, spec in doc.get("extra_coords", {}).items():
        raw = spec["values"]
        arr = np.array(_nan_from_none(raw)) if _has_numbers(raw) else np.array(raw, dtype=object)
        da = da.assign_coords({name: (tuple(spec["dims"]), arr)})
    attrs = dict(doc.get("attrs", {}))
    if attrs.get("noise_floor", 0) is None:
        attrs["noise_floor"] = math.nan
    da.attrs = attrs
    return as_cube(da)


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
    return as_cube(da)


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
        from dask.local import get_sync  # a scheduler function: dask does not import distributed to look for a client

        return np.asarray(data.compute(scheduler=get_sync))
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
        netCDF file written by :func:`mcda.data.cube.to_netcdf`.
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
    if not path.is_dir():  # netCDF: read (and decoded) as from_netcdf reads it, lazily
        da = from_netcdf(path, chunks=spec or {"dataset": 100_000})
        return da.chunk({d: -1 for d in da.dims if d != "dataset"})
    return _open_zarr_cube(path, spec=spec)


def _open_zarr_cube(path, *, spec=None, dataset_labels=None) -> xr.DataArray:
    """:func:`open_cube` for a Zarr store; ``dataset_labels``: the store's dataset labels (an
    object array of ``str``) when the caller has them (:mod:`mcda.ingest.convert` just wrote them), so
    that they are not read back."""
    path = str(path)
    # the labels are loaded once, below, as text objects chunk by chunk: xarray's default index
    # would first hold them as fixed-width text too (twice the memory at millions of datasets)
    lazy_labels = {"create_default_indexes": False} if _open_zarr_makes_indexes_optional() else {}
    ds = xr.open_zarr(path, chunks=spec if spec else {}, consolidated=False, **lazy_labels)
    if "score" not in ds:
        raise McdaArgumentError(f"`path` {path!r} is a Zarr store without a 'score' array; it has {list(ds)}")
    da = ds["score"]
    axes = [i for i, d in enumerate(da.dims) if d != "dataset" and da.data.numblocks[i] > 1]
    if axes:  # one chunk along every dim but dataset (on the dask array: no hashing of the labels)
        da = da.copy(data=da.data.rechunk({i: -1 for i in axes}))
    for name in list(da.coords):
        coord = da.coords[name]
        if coord.dtype.kind in "UST" or str(coord.dtype).startswith("StringDType") or name in da.dims:
            if name == "dataset" and dataset_labels is not None:
                # distinct text (the ingestion grouped the rows by label): the Index is known checked
                index = pd.Index(dataset_labels, dtype=object, copy=False, name=name)
                da = da.assign_coords({name: index})
                if len(index) >= _MANY_LABELS:
                    _remember_labels(da.indexes[name], name, da.indexes[name])
                continue
            labels = _labels_as_objects(coord)
            if name in da.dims and labels.dtype == object:
                # as a pandas Index, which xarray keeps as it is (an array would be copied, string by string)
                labels = pd.Index(labels, dtype=object, copy=False, name=name)
            else:
                labels = (coord.dims, labels)
            da = da.assign_coords({name: labels})
    unknown = [d for d in da.dims if d not in DIMS]
    if unknown:
        raise McdaArgumentError(f"the store's dims must be among {DIMS}; got unknown dims {unknown}")
    da = da.transpose(*[d for d in DIMS if d in da.dims])
    attrs = dict(da.attrs)
    if attrs.get("noise_floor") is None or attrs.get("noise_floor") == "":
        attrs["noise_floor"] = math.nan
    da.attrs = attrs
    da.name = "score"
    return as_cube(da)
