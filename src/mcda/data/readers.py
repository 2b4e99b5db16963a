"""Every input format read into one unchecked ``xarray.DataArray`` (or a DataFrame) for :func:`mcda.score_cube`.

Tidy and wide DataFrames, nested dicts, arrays with names, DataArrays, and paths: CSV and
Parquet tables, cube JSON, netCDF files and Zarr stores. The labels and the scores are checked
here (text labels, repeats, finite real numbers); the metric, its card and the cube's shape are
checked by :mod:`mcda.data.checks` and :mod:`mcda.data.cube`.
"""

from __future__ import annotations

import json
import math
import numbers
import weakref
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.validation import shown
from mcda.data.cards import get_card
from mcda.data.stores import missing_parts

__all__ = [
    "numeric_scores",
    "DIMS",
    "check_csv_fields",
    "read_scores",
    "CliError",
    "read_path",
    "read_cube_json",
    "read_netcdf",
    "read_store",
    "read_zarr",
    "require_dask",
]

DIMS = ("dataset", "method", "item", "sample", "seed", "metric", "epoch", "split")
_OPTIONAL_DIMS = DIMS[2:]
_STRING_DIMS = ("dataset", "method", "metric", "split")
JSON_FORMAT = "mcda-cube"
JSON_VERSION = 1
_DEFAULT_COLUMNS = {d: d for d in DIMS} | {"score": "score", "cluster": "cluster"}
_MAX_SHOWN = 8
#: Column names people give the method column of a tidy table (matched case-insensitively).
_METHOD_COLUMN_NAMES = ("method", "model", "algorithm", "classifier", "system", "approach")
#: Column names people give the item column of a tidy table of per-item scores (matched case-insensitively).
ITEM_COLUMN_NAMES = ("item", "question", "example", "prompt", "id")


# --------------------------------------------------------------------------- frames, dicts, arrays, DataArrays

# Scores beyond 1e150 in magnitude are refused: differences and sums of such scores (and the
# squares a variance takes) overflow float64 (1e154**2 is inf). Tiny scores are kept: every
# variance is computed on values scaled by their largest magnitude (stats._shared.intervals.spread), so 1e-154
# does not underflow to a false "every difference equals".
_HUGE = 1e150


def numeric_scores(values: pd.Series | np.ndarray, where) -> np.ndarray:
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
            raise McdaArgumentError("scores must be numeric; non-numeric values at " + "; ".join(shown) + more,
                                    argument=None)
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
                         + "; ".join(shown) + more, argument=None)
    with np.errstate(invalid="ignore"):
        extreme = np.abs(out) > _HUGE
    if extreme.any():
        idx = list(zip(*np.nonzero(extreme)))
        shown = [f"{where(i)}: {out[i]!r}" for i in idx[:_MAX_SHOWN]]
        more = f" (and {len(idx) - _MAX_SHOWN} more)" if len(idx) > _MAX_SHOWN else ""
        raise McdaArgumentError(
            f"scores must not exceed {_HUGE:g} in magnitude: their differences, sums and variances would "
            "overflow float64. Rescale the scores (other units, or their logarithm); too large at "
            + "; ".join(shown) + more, argument=None)
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
                    f"Make the {dim} labels distinct as text.", argument=None)
    return text


def _same_label(a, b) -> bool:
    """numpy and Python scalars of one kind (np.str_ and str, np.int64 and int) are one label."""
    kinds = (str, numbers.Integral, numbers.Real, bool)
    for k in kinds:
        if isinstance(a, k) and isinstance(b, k):
            return a == b
    return False


def _number_labels(raw) -> np.ndarray | None:
    """Numeric labels as numbers that keep their values: integers (and floats of integer value, as
    ``1.0`` from a column with a missing entry) as int64, other reals as float64 (``0.5`` stays 0.5,
    never truncated); None when a label is not a number."""
    def real(v) -> bool:
        return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))

    values = list(raw)
    if not all(real(v) for v in values):
        return None
    if all(isinstance(v, numbers.Integral) or float(v).is_integer() for v in values):
        try:
            return np.array([int(v) for v in values], dtype=np.int64)
        except OverflowError:
            return None
    return np.array([float(v) for v in values], dtype=np.float64)


def _labels(values, dim: str) -> np.ndarray:
    labels = pd.unique(pd.Series(values, dtype=object))
    if dim in _STRING_DIMS:
        labels = _text_labels(labels, dim, "the table")
    else:
        raw = labels
        labels = np.asarray(labels)
        if labels.dtype == object:
            labels = _number_labels(raw)
            if labels is None:
                labels = _text_labels(raw, dim, "the table")
            if len(pd.unique(labels)) != len(labels):
                raise McdaArgumentError(
                    f"the table has {dim} labels that differ only in type: {shown(raw)} read as the same "
                    f"integers, so one would overwrite the other's results. Make the {dim} labels distinct.",
                    argument=None)
    return labels


def _from_tidy(frame: pd.DataFrame, columns: Mapping[str, str]) -> xr.DataArray:
    cols = dict(_DEFAULT_COLUMNS)
    if columns:
        unknown_roles = [k for k in columns if k not in cols]
        if unknown_roles:
            raise McdaArgumentError(f"`columns` keys must be among {shown(cols)}; got {shown(unknown_roles)}",
                                    argument="columns", allowed=list(cols))
        cols.update(columns)
    for role in ("dataset", "method", "score"):
        if cols[role] not in frame.columns:
            raise McdaArgumentError(f"the tidy table has no {role} column {cols[role]!r}; its columns are "
                             f"{shown(frame.columns)}. Name it with `columns={{{role!r}: ...}}`.",
                                    argument="columns", value=cols[role])
    if columns:
        for role, name in columns.items():
            if name not in frame.columns:
                raise McdaArgumentError(f"`columns` maps {role!r} to {name!r}, which is not a column; the columns are "
                                 f"{shown(frame.columns)}", argument="columns")
    explicit = set((columns or {}).values())  # a column named for one role is not read for another by default
    for role in (*_OPTIONAL_DIMS, "cluster"):
        if role not in (columns or {}) and cols[role] in explicit:
            cols[role] = None
    if "item" not in (columns or {}) and cols["item"] not in frame.columns:
        cols["item"] = _item_column(frame, cols, explicit)
    dims = ["dataset", "method"] + [d for d in _OPTIONAL_DIMS if cols[d] is not None and cols[d] in frame.columns]
    keys = [cols[d] for d in dims]
    key_frame = frame[keys]
    for d, k in zip(dims, keys):
        if key_frame[k].isna().any():
            rows = list(frame.index[key_frame[k].isna()])
            raise McdaArgumentError(f"the {d} column {k!r} is empty in rows {shown(rows)}", argument=None)
    dup = key_frame.duplicated(keep=False)
    if dup.any():
        dups = key_frame[dup].drop_duplicates().head(_MAX_SHOWN)
        examples = "; ".join(", ".join(f"{d}={v!r}" for d, v in zip(dims, row)) for row in dups.itertuples(index=False))
        n = int(key_frame[dup].drop_duplicates().shape[0])
        raise McdaArgumentError(f"duplicate rows: {n} ({', '.join(dims)}) keys appear more than once, e.g. {examples}. "
                         "Aggregate them yourself or add the distinguishing column (e.g. a seed).", argument=None)
    index_names = list(frame.index)
    values = numeric_scores(frame[cols["score"]].to_numpy(),
                      lambda i: f"row {index_names[i[0]]!r} (column {cols['score']!r})")
    labels, codes = {}, []
    for d, k in zip(dims, keys):
        column = frame[k]
        if isinstance(column.dtype, pd.CategoricalDtype):  # its codes, in the order of appearance as below
            code, uniques = pd.factorize(column, sort=False)
            uniques = np.asarray(uniques, dtype=object)
        else:
            code, uniques = pd.factorize(pd.Series(column.to_numpy(), dtype=object), sort=False)
        labels[d] = _labels(uniques, d)
        codes.append(code.astype(np.int64))
    shape = tuple(len(labels[d]) for d in dims)
    data = np.full(shape, np.nan)
    data[tuple(codes)] = values
    out = xr.DataArray(data, dims=dims, coords={d: labels[d] for d in dims}, name="score")
    if cols["cluster"] is not None and cols["cluster"] in frame.columns and ("item" in dims or "cluster" in (columns or {})):
        if "item" not in dims:
            raise McdaArgumentError(f"the table has a cluster column {cols['cluster']!r} but no item column: clusters "
                                    "group the items of a test set (name the item column with "
                                    "`columns={'item': ...}`)", argument="columns", value=columns)
        out = out.assign_coords(cluster=("item", _item_clusters(frame[cols["cluster"]], codes[dims.index("item")],
                                                               labels["item"], cols["cluster"])))
    return out


def _item_column(frame: pd.DataFrame, cols: dict, explicit: set) -> str | None:
    """The column that names the items when none is called ``item``: one of :data:`ITEM_COLUMN_NAMES`
    (any case), used only when the other key columns repeat without it (several rows per cell)."""
    taken = {c for c in cols.values() if c is not None} | explicit
    named = [c for c in frame.columns if str(c).lower() in ITEM_COLUMN_NAMES and c not in taken]
    if not named:
        return None
    keys = [cols[d] for d in ("dataset", "method", *_OPTIONAL_DIMS)
            if d != "item" and cols[d] is not None and cols[d] in frame.columns]
    if not frame.duplicated(subset=keys).any():
        return None  # one row per cell already: the column is a row label, not an item
    if len(named) > 1:
        raise McdaArgumentError(f"columns {shown(named)} could each name the items; name it with "
                                f"`columns={{'item': {named[0]!r}}}`", argument="columns", value=None)
    return named[0]


def _item_clusters(raw: pd.Series, item_codes: np.ndarray, items: np.ndarray, column: str) -> np.ndarray:
    """One cluster label (its text) per item, refusing an item given two clusters or none.

    Written on integer codes (a categorical's own, else ``pd.factorize``'s): ten million rows of a
    leaderboard need their codes, not a string per row.
    """
    if isinstance(raw.dtype, pd.CategoricalDtype):
        codes, uniques = raw.cat.codes.to_numpy().astype(np.int64), np.asarray(raw.cat.categories, dtype=object)
    else:
        codes, uniques = pd.factorize(pd.Series(raw.to_numpy(), dtype=object), sort=False)
        codes, uniques = codes.astype(np.int64), np.asarray(uniques, dtype=object)
    if (codes < 0).any():
        rows = list(raw.index[codes < 0])
        raise McdaArgumentError(f"the cluster column {column!r} is empty in rows {shown(rows)}", argument=None)
    # values that read alike as text (1 and "1") are one cluster, as their labels are
    merged, names = pd.factorize(pd.Series([str(u) for u in uniques], dtype=object), sort=False)
    codes = merged[codes] if merged.size else codes
    n_names = max(len(names), 1)
    pairs = np.unique(item_codes.astype(np.int64) * n_names + codes)
    pair_items, pair_clusters = pairs // n_names, pairs % n_names
    twice = np.r_[pair_items[1:] == pair_items[:-1], False] | np.r_[False, pair_items[1:] == pair_items[:-1]]
    if twice.any():
        bad = [items[i] for i in pd.unique(pair_items[twice])]
        raise McdaArgumentError(f"items must each belong to one cluster; items {shown(bad)} have two or more "
                                f"values in the cluster column {column!r}", argument=None)
    out = np.empty(len(items), dtype=object)
    out[pair_items] = np.asarray(names, dtype=object)[pair_clusters]
    return out


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
    if str(frame.index.name).strip().lower() in _METHOD_COLUMN_NAMES:  # the rows are headed as methods
        raise McdaArgumentError(
            f"`data` is a wide DataFrame whose row labels are headed {frame.index.name!r}: its rows are methods and "
            "its columns datasets, the transpose of what a wide table means here (rows are datasets, columns "
            "methods). Pass `frame.T`, or a tidy frame with columns dataset, method, score.",
            argument="data", value=frame.index.name)
    for what, labels, kind in (("row", frame.index, "dataset"), ("column", frame.columns, "method")):
        summary = [label for label in labels if _summary_label(label)]
        if summary:
            raise McdaArgumentError(
                f"`data` has the {what} {str(summary[0]).strip()!r}, a summary of the other {what}s, not a {kind}; "
                f"drop it (frame.drop({summary[0]!r}{', axis=1' if what == 'column' else ''})): mcda computes its "
                f"own summaries, and a {kind} really named so needs another name",
                argument="data", value=summary[0])
    datasets = list(_text_labels(frame.index, "dataset", "the wide table"))
    methods = list(_text_labels(frame.columns, "method", "the wide table"))
    for what, labels in (("dataset (row)", datasets), ("method (column)", methods)):
        seen = pd.Series(labels)
        if seen.duplicated().any():
            raise McdaArgumentError(f"duplicate {what} labels: {shown(seen[seen.duplicated()].unique())}",
                                    argument=None)
    values = numeric_scores(frame.to_numpy(dtype=object),
                      lambda i: f"dataset {datasets[i[0]]!r}, method {methods[i[1]]!r}")
    return xr.DataArray(values, dims=("dataset", "method"),
                        coords={"dataset": np.array(datasets, dtype=object),
                                "method": np.array(methods, dtype=object)}, name="score")


def _from_dict(data: Mapping) -> xr.DataArray:
    datasets = list(_text_labels(list(data), "dataset", "the dict"))
    if len(set(datasets)) != len(datasets):
        raise McdaArgumentError(f"duplicate dataset labels after conversion to text: {shown(datasets)}", argument=None)
    methods: list[str] = []
    raw_methods: list = []
    n_seeds = 0
    has_seeds = False
    for ds, inner in data.items():
        if not isinstance(inner, Mapping):
            raise McdaArgumentTypeError(f"a nested dict must map dataset -> {{method: score or [scores per seed]}}; "
                            f"dataset {ds!r} maps to {type(inner).__name__}", argument=None)
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
    values = numeric_scores(raw, lambda idx: f"dataset {datasets[idx[0]]!r}, method {methods[idx[1]]!r}"
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
                         f"seeds); got shape {arr.shape}", argument=None)
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
                                 f"{d}s (axis {axis}); got {shown(given)}", argument=f"{d}_names", value=given)
            labels = np.array([str(v) for v in given], dtype=object) if d != "seed" else np.asarray(given)
            if len(set(labels.tolist())) != len(labels):
                raise McdaArgumentError(f"`{d}_names` has duplicates: {shown(pd.Series(labels)[pd.Series(labels).duplicated()])}",
                                        argument=f"{d}_names", value=given)
        coords[d] = labels
    values = numeric_scores(arr, lambda idx: ", ".join(f"{d} {coords[d][i]!r}" for d, i in zip(dims, idx)))
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
    raise McdaArgumentError(f"duplicate {d} labels: {shown(index[index.duplicated()])}", argument=None)


def _check_clusters(da: xr.DataArray) -> None:
    """A ``cluster`` coordinate labels the items: one label per item, none missing."""
    if "cluster" not in da.coords:
        return
    cluster = da.coords["cluster"]
    if cluster.dims != ("item",):
        raise McdaArgumentError(f"a cube's 'cluster' coordinate must lie along the 'item' dim (one cluster per item); "
                                f"got dims {shown(cluster.dims)}", argument=None)
    missing = pd.isna(pd.Series(cluster.values, dtype=object)).to_numpy()
    if missing.any():
        items = da.coords["item"].values[missing] if "item" in da.coords else np.flatnonzero(missing)
        raise McdaArgumentError(f"items {shown(items)} have no cluster (the 'cluster' coordinate is empty there)",
                                argument=None)


def _from_dataarray(da: xr.DataArray) -> xr.DataArray:
    unknown = [d for d in da.dims if d not in DIMS]
    if unknown:
        raise McdaArgumentError(f"a score cube's dims must be among {shown(DIMS)}; got unknown dims {shown(unknown)}",
                                argument=None)
    for d in ("dataset", "method"):
        if d not in da.dims:
            raise McdaArgumentError(f"a score cube needs a {d!r} dim; got dims {shown(da.dims)}", argument=None)
    order = [d for d in DIMS if d in da.dims]
    da = da.transpose(*order)
    _check_clusters(da)
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
        values = numeric_scores(da.values, lambda idx: ", ".join(f"{d} {coords[d][i]!r}" for d, i in zip(order, idx)))
        out = da.copy(data=values).assign_coords(coords)
    for d, checked in coords.items():  # the validated cube's own label Index: its text labels are checked
        if (isinstance(checked, pd.Index) and checked.dtype == object and len(checked) >= _MANY_LABELS
                and d in _STRING_DIMS):  # (a lazy cube's integer labels stay integers: not text yet)
            _remember_labels(out.indexes[d], d, checked)
    out.name = "score"
    return out


# --------------------------------------------------------------------------- paths

def check_csv_fields(frame: pd.DataFrame, where: str) -> pd.DataFrame:
    """Refuse a CSV whose rows have more fields than its header.

    pandas then takes the first column as an index without a word, every column shifts by one
    and the error comes much later ("invalid literal for int() with base 10: 'a'").
    """
    if not isinstance(frame.index, pd.RangeIndex):
        n = len(frame.columns)
        raise McdaArgumentError(f"{where}: the rows have more fields than the header ({n} names: "
                         f"{shown(list(frame.columns))}), from line 2 on; every line needs one field per "
                         "header name", argument=None)
    return frame


def read_path(path: Path, *, chunks, columns):
    """What a path holds: a DataFrame (CSV, Parquet) or a DataArray (JSON, netCDF, Zarr), not yet checked."""
    if not path.exists():
        raise FileNotFoundError(f"`data` path {str(path)!r} does not exist")
    suffix = path.suffix.lower()
    if path.is_dir() or suffix == ".zarr":
        return read_store(path, chunks=chunks)
    if suffix in (".nc", ".nc4", ".netcdf", ".cdf"):
        return read_netcdf(path, chunks=None if chunks is None else {"dataset": chunks})
    if suffix == ".json":
        return read_cube_json(path)
    if suffix == ".csv":
        return check_csv_fields(pd.read_csv(path), f"`data` path {str(path)!r}")
    if suffix in (".parquet", ".pq"):
        try:
            return pd.read_parquet(path)
        except (ImportError, FileNotFoundError):
            raise
        except (OSError, ValueError) as exc:  # (pyarrow's ArrowInvalid is a ValueError, ArrowIOError an OSError)
            raise McdaArgumentError(f"`data` path {str(path)!r} cannot be read as a Parquet file: {exc}",
                                    argument="data", value=str(path)) from None
    raise McdaArgumentError(f"`data` path {str(path)!r} has suffix {suffix!r}; mcda reads .csv, .parquet, .json (a cube "
                     "from mcda.data.io.to_json), .nc (from mcda.data.io.to_netcdf) and .zarr stores", argument="data")


def read_cube_json(source) -> xr.DataArray:
    """The DataArray in a cube JSON (a path, or the text itself), not yet checked (:func:`mcda.data.io.from_json` checks it).

    A file that is not such a JSON, or whose parts are missing or of the wrong kind (an edited or
    truncated file), is refused naming the file and the part.
    """
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        where = f"`source` {str(source)!r}"
        try:
            text = Path(source).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise FileNotFoundError(f"{where} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise McdaArgumentError(f"{where} cannot be read as a cube JSON "
                                    f"({getattr(exc, 'strerror', None) or exc})", argument="source",
                                    value=str(source)) from None
    else:
        where, text = "the cube JSON text (`source`)", source
    try:
        doc = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise McdaArgumentError(f"{where} is not JSON ({exc})", argument="source") from None
    if not isinstance(doc, dict) or doc.get("format") != JSON_FORMAT:
        found = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        raise McdaArgumentError(f"{where} is not an mcda cube JSON (format {found!r}, expected {JSON_FORMAT!r})",
                                argument="source")
    version = doc.get("version", 0)
    if isinstance(version, bool) or not isinstance(version, int):
        raise McdaArgumentError(f"{where}: its 'version' must be a whole number (this mcda writes {JSON_VERSION}); "
                                f"got {version!r}", argument="source", value=version)
    if version > JSON_VERSION:
        raise McdaArgumentError(f"{where} is cube JSON version {version}; this mcda reads up to {JSON_VERSION}",
                                argument="source")

    def part(mapping, key, kind, what):
        if not isinstance(mapping, dict) or key not in mapping:
            raise McdaArgumentError(f"{where} has no {what}: the file is incomplete or was edited; write it again "
                                    "with mcda.data.io.to_json", argument="source")
        value = mapping[key]
        if not isinstance(value, kind):
            raise McdaArgumentError(f"{where}: its {what} must be a JSON {'list' if kind is list else 'object'}; "
                                    f"got {type(value).__name__}", argument="source")
        return value

    dims = part(doc, "dims", list, "'dims'")
    stored = part(doc, "coords", dict, "'coords'")
    coords = {}
    for d in dims:
        labels = part(stored, d, list, f"labels of {d!r} in 'coords'")
        coords[d] = np.array(labels, dtype=object) if d in _STRING_DIMS else np.array(labels)
    raw = np.array(_nan_from_none(part(doc, "values", list, "'values'")), dtype=object)
    if raw.shape != tuple(len(coords[d]) for d in dims):
        raise McdaArgumentError(f"{where}: its values have shape {raw.shape} but its coords give "
                                f"{tuple(len(coords[d]) for d in dims)}", argument="source")
    values = numeric_scores(raw, lambda idx: "JSON value at " + ", ".join(f"{d} {coords[d][i]!r}" for d, i in zip(dims, idx)))
    da = xr.DataArray(values, dims=dims, coords=coords, name="score")
    for name, spec in (part(doc, "extra_coords", dict, "'extra_coords'") if "extra_coords" in doc else {}).items():
        raw = part(spec, "values", list, f"values of the coordinate {name!r}")
        arr = np.array(_nan_from_none(raw)) if _has_numbers(raw) else np.array(raw, dtype=object)
        da = da.assign_coords({name: (tuple(part(spec, "dims", list, f"dims of the coordinate {name!r}")), arr)})
    attrs = _stored_attrs(part(doc, "attrs", dict, "'attrs'") if "attrs" in doc else {})
    if attrs.get("noise_floor", 0) is None:
        attrs["noise_floor"] = math.nan
    da.attrs = attrs
    return da


def _stored_attrs(attrs) -> dict:
    """A file's attributes without the in-memory mark of an oriented view (``oriented``): a file
    holds the scores in the metric's own direction (every writer un-orients first), and the
    orientation is recomputed from the card and the direction, never taken from a stored flag. The
    file format's own fill value (``_FillValue``, read as an attribute without CF decoding) is not
    the cube's either."""
    return {k: v for k, v in dict(attrs).items() if k not in ("oriented", "_FillValue")}


def _has_numbers(raw) -> bool:
    flat = np.array(raw, dtype=object).ravel()
    return any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in flat) and not any(
        isinstance(v, str) for v in flat)


def _nan_from_none(raw):
    if isinstance(raw, list):
        return [_nan_from_none(v) for v in raw]
    return np.nan if raw is None else raw


#: The attribute a netCDF file of mcda describes its encoded labels and attributes in.
NETCDF_ENCODING = "mcda_netcdf_encoding"


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


def read_netcdf(path: str | Path, *, chunks=None) -> xr.DataArray:
    """The DataArray in a netCDF file written by :func:`mcda.data.io.to_netcdf`, labels and attrs decoded,
    not yet checked (lazily, chunked along ``dataset``, when ``chunks`` is given). The scores are read as
    stored (no CF unpacking: the cube's ``scale_factor`` attribute is not CF's packing factor)."""
    if chunks is None:
        da = xr.open_dataarray(path, mask_and_scale=False).load()
        da.close()
    else:
        da = xr.open_dataarray(path, chunks=chunks, mask_and_scale=False)
    for name in list(da.coords):  # the format's fill value, read as an attribute without CF decoding
        da.coords[name].variable.attrs.pop("_FillValue", None)
    attrs = dict(da.attrs)
    encoding = json.loads(attrs.pop(NETCDF_ENCODING)) if NETCDF_ENCODING in attrs else None
    for name in list(da.coords):
        coord = da.coords[name]
        if encoding is not None and name in encoding["coords"]:
            da = da.assign_coords({name: (coord.dims, _netcdf_decode(coord.values, encoding["coords"][name]))})
        elif coord.dtype.kind in "US":
            da = da.assign_coords({name: (coord.dims, coord.values.astype(object))})
    if encoding is not None:
        for key in encoding["json_attrs"]:
            attrs[key] = json.loads(attrs[key])
    da.attrs = _stored_attrs(attrs)
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


def read_store(path, *, chunks: int | None = None) -> xr.DataArray:
    """The lazy DataArray in a Zarr store or a netCDF file, chunked along ``dataset``, not yet
    checked (:func:`mcda.data.io.open_cube` checks it)."""
    require_dask()
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"`path` {str(path)!r} does not exist")
    spec = {"dataset": chunks} if chunks is not None else None
    if not path.is_dir():  # netCDF: read (and decoded) as from_netcdf reads it, lazily
        da = read_netcdf(path, chunks=spec or {"dataset": 100_000})
        return da.chunk({d: -1 for d in da.dims if d != "dataset"})
    return read_zarr(path, spec=spec)


def read_zarr(path, *, spec=None, dataset_labels=None) -> xr.DataArray:
    """The DataArray in a Zarr store, labels read as text, not yet checked; ``dataset_labels``: the store's dataset labels (an
    object array of ``str``) when the caller has them (:mod:`mcda.ingest.convert` just wrote them), so
    that they are not read back."""
    missing = missing_parts(path)
    path = str(path)
    if missing:
        raise McdaArgumentError(f"`path` {path!r} is an incomplete (half-written) Zarr store: it lacks "
                                f"{shown(missing)}; write it again (mcda.store.to_zarr or "
                                "mcda.store.parquet_to_zarr with overwrite=True)", argument="path", value=path)
    # the labels are loaded once, below, as text objects chunk by chunk: xarray's default index
    # would first hold them as fixed-width text too (twice the memory at millions of datasets)
    lazy_labels = {"create_default_indexes": False} if _open_zarr_makes_indexes_optional() else {}
    # mask_and_scale=False: the scores are stored as they are (NaN for missing), and the cube's own
    # attribute scale_factor (what scale= divided them by) is CF's packing factor to a CF decoder,
    # which would multiply them by it again
    ds = xr.open_zarr(path, chunks=spec if spec else {}, consolidated=False, mask_and_scale=False, **lazy_labels)
    if "score" not in ds:
        raise McdaArgumentError(f"`path` {path!r} is a Zarr store without a 'score' array; it has {list(ds)}",
                                argument="path", value=path)
    da = ds["score"]
    axes = [i for i, d in enumerate(da.dims) if d not in ("dataset", "item") and da.data.numblocks[i] > 1]
    if axes:  # one chunk along every dim but dataset and item (on the dask array: no hashing of the labels)
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
        raise McdaArgumentError(f"the store's dims must be among {DIMS}; got unknown dims {unknown}", argument=None)
    da = da.transpose(*[d for d in DIMS if d in da.dims])
    attrs = _stored_attrs(da.attrs)
    if attrs.get("noise_floor") is None or attrs.get("noise_floor") == "":
        attrs["noise_floor"] = math.nan
    da.attrs = attrs
    da.name = "score"
    return da


# --------------------------------------------------------------------------- the command line's CSV reader
# ``mcda compare SCORES.csv`` reads the file here, naming lines (the header is line 1): what a
# user can get wrong in a hand-made CSV is refused before any cube is built.

_ROLES = ("dataset", "method", "score", "item", "sample", "seed", "epoch", "split", "metric", "cluster")
_SHOWN = 5


class CliError(Exception):
    """An error in a file or a command line the user can fix; the message is one line (the command line prints it
    without a traceback)."""


def _line(index) -> int:
    """The line of a data row in the CSV (the header is line 1)."""
    return int(index) + 2


def _numeric_column(frame: pd.DataFrame, column: str, source: str) -> pd.Series:
    raw = frame[column]
    values = _numeric_or_nan(raw) if isinstance(raw.dtype, pd.CategoricalDtype) else pd.to_numeric(raw, errors="coerce")
    bad = raw.notna() & values.isna()
    if bad.any():
        where = [f"line {_line(i)} ({raw[i]!r})" for i in list(raw.index[bad])[:_SHOWN]]
        more = f" and {int(bad.sum()) - _SHOWN} more" if bad.sum() > _SHOWN else ""
        raise CliError(f"{source}: column {column!r} must hold numbers; not a number at " + ", ".join(where) + more)
    infinite = np.isinf(values)
    if infinite.any():
        where = [f"line {_line(i)}" for i in list(values.index[infinite])[:_SHOWN]]
        raise CliError(f"{source}: column {column!r} holds infinite values at " + ", ".join(where)
                       + " (leave a cell empty or write NA for a missing result)")
    return values


def read_scores(path, *, columns: dict | None = None, metric: str | None = None,
                transpose: bool | None = None) -> pd.DataFrame:
    """Read a tidy or wide CSV of scores, checking what a user can get wrong, with line numbers.

    Parameters
    ----------
    path : str or Path
        A CSV file (or a Parquet file, read as the same table). **Tidy**: one row per result, columns ``dataset, method, score`` and
        optionally ``seed, epoch, split, metric``. **Wide**: one row per dataset (first column
        or a ``dataset`` column), one column per method.
    columns : dict, optional
        Role -> column name for a tidy file, e.g. ``{"score": "ari", "dataset": "data"}``.
    metric : str, optional
        The metric: a tidy file without a ``score`` column may name its score column after it.
    transpose : bool, optional
        For a wide file: True reads its rows as methods and its columns as datasets, False as
        written (rows are datasets). None (default) reads it as written unless it has more method
        columns than dataset rows and its row labels are not headed ``dataset``, which is refused
        (:data:`TRANSPOSED_RULE`) asking for one or the other. Rows or columns labelled as summaries (Average, Mean, Total, Rank, ...:
        :data:`SUMMARY_LABELS`) are refused in either reading, naming them.

    Returns
    -------
    pandas.DataFrame
        Tidy (renamed to the standard roles) or wide (indexed by dataset), numeric scores,
        NaN for empty / NA cells.

    Raises
    ------
    CliError
        A missing or unreadable file, a named column that does not exist, no score column,
        an empty key cell, duplicate rows, a non-numeric or infinite score (by line).
    """
    path = Path(path)
    source = str(path)
    if not path.exists():
        raise CliError(f"{source}: no such file")
    if path.is_dir():
        raise CliError(f"{source}: is a directory, not a CSV file")
    if path.suffix.lower() in (".parquet", ".pq"):
        frame = _parquet_as_text(path, source)
    else:
        try:
            frame = _read_csv_text(path, source)
        except pd.errors.EmptyDataError:
            raise CliError(f"{source}: the file is empty") from None
        except pd.errors.ParserError as exc:
            raise CliError(f"{source}: not a readable CSV ({' '.join(str(exc).split())})") from None
        except UnicodeDecodeError:
            raise CliError(f"{source}: not a UTF-8 text file") from None
        try:
            check_csv_fields(frame, source)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    frame.columns = [str(c).strip() for c in frame.columns]
    if len(frame.columns) == 1:
        header = str(frame.columns[0])
        for sep, name in ((";", "semicolons"), ("\t", "tabs"), ("|", "vertical bars")):
            if sep in header:
                raise CliError(f"{source}: the header {header!r} is one column separated by {name}; mcda reads "
                               "comma-separated files (re-save it as CSV with commas)")
    if frame.empty:
        raise CliError(f"{source}: no data rows under the header")
    columns = dict(columns or {})
    if transpose:  # rows are methods: the file is wide by the user's word, its first column the methods
        if columns:
            raise CliError(f"{source}: --transpose reads a wide file (rows are methods, columns datasets); the "
                           f"--...-column options name the columns of a tidy file ({shown(sorted(columns))} given)")
        return _read_wide(frame, frame.columns[0], source, transpose=True)
    for role, name in columns.items():
        if name not in frame.columns:
            raise CliError(f"{source}: no column {name!r} (given for the {role}); the columns are "
                           f"{shown(frame.columns, 20)}")
    roles = {role: columns.get(role, role) for role in _ROLES}
    notes = []
    if "score" not in columns and "score" not in frame.columns and metric is not None and metric in frame.columns:
        roles["score"] = metric  # a tidy file whose score column is named after the metric
    if "method" not in columns and roles["method"] not in frame.columns:
        named = [c for c in frame.columns if c.lower() in _METHOD_COLUMN_NAMES]
        if len(named) == 1:  # a tidy file whose method column is called model, algorithm, classifier, ...
            roles["method"] = named[0]
            notes.append(f"read as a tidy file with {named[0]!r} as the method column (name another with "
                         "--method-column)")
        elif len(named) > 1:
            raise CliError(f"{source}: columns {shown(named)} could each be the method column; name it with "
                           "--method-column")
    if (roles["method"] in frame.columns and not columns and transpose is None and roles["dataset"] not in frame.columns
            and roles["score"] not in frame.columns and len(frame.columns) > 2
            and all(_numeric_or_nan(frame[c]).notna().sum() == frame[c].notna().sum()
                    for c in frame.columns if c != roles["method"])):
        raise CliError(f"{source}: a {roles['method']!r} column and {len(frame.columns) - 1} numeric columns "
                       f"({shown([c for c in frame.columns if c != roles['method']], 4)}) and no dataset or score "
                       "column: a wide table with one row per method. Give --transpose to read its rows as methods "
                       "and its columns as datasets")
    if "item" not in columns and roles["item"] not in frame.columns:
        roles["item"] = _csv_item_column(frame, roles, source, notes)
    if roles["method"] in frame.columns:
        if transpose is False:
            raise CliError(f"{source}: --no-transpose applies to a wide file; this one is tidy (its method column "
                           f"is {roles['method']!r})")
        out = _read_tidy(frame, roles, source, explicit_score="score" in columns, metric=metric)
        out.attrs["notes"] = notes + out.attrs.get("notes", [])
        return out
    if any(role in columns for role in ("method", "score", "seed", "epoch", "split", "metric")):
        raise CliError(f"{source}: no method column {roles['method']!r}; a tidy file needs one (name it with "
                       "--method-column), a wide file has one column per method")
    return _read_wide(frame, roles["dataset"], source, transpose=transpose)


def _parquet_as_text(path: Path, source: str) -> pd.DataFrame:
    """A Parquet file's table for the checks of the CSV reader: text columns as categoricals of their text
    (a label stored once, not once per row: ten million rows of a leaderboard stay small), numeric
    columns as numbers, missing cells NaN."""
    try:
        try:  # text columns read dictionary-encoded: a label once, not a Python string per row
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:  # pragma: no cover - pandas reads it with its own engine
            table = pd.read_parquet(path)
        else:
            text = [f.name for f in pq.read_schema(path) if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
            table = pq.read_table(path, read_dictionary=text).to_pandas()
    except Exception as exc:  # pyarrow's own errors: the file is not Parquet, or is damaged
        raise CliError(f"{source}: not a readable Parquet file ({' '.join(str(exc).split())[:200]})") from None
    out = {}
    for name in table.columns:
        column = table[name]
        if column.dtype.kind in "fiub":
            out[str(name)] = column
        else:
            codes, uniques = pd.factorize(column, use_na_sentinel=True)   # labels in their order of appearance
            out[str(name)] = pd.Categorical.from_codes(codes, categories=pd.Index(uniques).astype(str))
    return pd.DataFrame(out, index=table.index)


#: A CSV longer than this is read in pieces of this many rows, each text column with few distinct values kept as a
#: categorical (a label once, not a Python string per row: ten million rows of a leaderboard stay small).
CSV_CHUNK_ROWS = 1_000_000


def _read_csv_text(path: Path, source: str) -> pd.DataFrame:
    """The CSV as text cells (missing cells NaN); past :data:`CSV_CHUNK_ROWS` rows read piece by piece, the
    columns with few distinct values in the first piece (at most a tenth of its rows) as categoricals."""
    # the reader closes its file however this ends (a malformed row raises from inside the loop)
    with pd.read_csv(path, dtype=str, skipinitialspace=True, chunksize=CSV_CHUNK_ROWS) as reader:
        first = next(reader, None)
        if first is None:  # pragma: no cover - read_csv raises EmptyDataError first
            raise pd.errors.EmptyDataError("no rows")
        check_csv_fields(first, source)
        if len(first) < CSV_CHUNK_ROWS:
            return first
        coded = [c for c in first.columns if first[c].nunique(dropna=True) <= len(first) // 10]
        pieces = []
        for chunk in [first, *reader]:
            check_csv_fields(chunk, source)
            pieces.append(chunk.astype({c: "category" for c in coded}))
    out = {}
    for c in first.columns:
        if c in coded:
            out[c] = pd.api.types.union_categoricals([p[c] for p in pieces], ignore_order=True)
        else:
            out[c] = np.concatenate([p[c].to_numpy(dtype=object) for p in pieces])
    return pd.DataFrame(out, index=pd.RangeIndex(sum(len(p) for p in pieces)))


def _as_text(column: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """(the column as stripped text, where it is empty or missing): a categorical keeps its codes and strips
    its categories (labels that strip alike merge), any other column becomes text row by row."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        stripped = pd.Index(column.cat.categories.astype(str)).str.strip()
        merged, uniques = pd.factorize(stripped)
        blank = np.asarray(stripped == "", dtype=bool)
        empty = (codes < 0) | np.where(codes >= 0, blank[np.maximum(codes, 0)] if blank.size else False, False)
        new = np.where(codes >= 0, merged[np.maximum(codes, 0)] if merged.size else -1, -1)
        return pd.Series(pd.Categorical.from_codes(new, categories=uniques), index=column.index), empty
    empty = (column.isna() | (column.astype(str).str.strip() == "")).to_numpy()
    return column.astype(str).str.strip(), empty


def _numeric_or_nan(column: pd.Series) -> pd.Series:
    """``pd.to_numeric(column, errors="coerce")``, a categorical's categories converted once."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        values = pd.to_numeric(pd.Series(column.cat.categories.astype(str)), errors="coerce").to_numpy(float)
        codes = column.cat.codes.to_numpy()
        return pd.Series(np.where(codes >= 0, values[np.maximum(codes, 0)] if values.size else np.nan, np.nan),
                         index=column.index)
    return pd.to_numeric(column, errors="coerce")


def _csv_item_column(frame: pd.DataFrame, roles: dict, source: str, notes: list) -> str:
    """The item column of a tidy file without one called ``item``: the one column named as in
    :data:`ITEM_COLUMN_NAMES` (question, example, prompt, id), read as items when the other keys repeat
    without it (as :func:`mcda.score_cube` reads a table); else ``"item"`` (no item column)."""
    named = [c for c in frame.columns if str(c).lower() in ITEM_COLUMN_NAMES]
    keys = [roles[r] for r in ("dataset", "method", "sample", "seed", "epoch", "split", "metric")
            if roles[r] in frame.columns]
    if not named or not keys or not frame.duplicated(subset=keys).any():
        return "item"
    if len(named) > 1:
        raise CliError(f"{source}: columns {shown(named)} could each name the items; name it with --item-column")
    notes.append(f"read as per-item scores with {named[0]!r} as the item column (name another with --item-column)")
    return named[0]


def _read_tidy(frame: pd.DataFrame, roles: dict, source: str, explicit_score: bool,
               metric: str | None = None) -> pd.DataFrame:
    if roles["dataset"] not in frame.columns:
        raise CliError(f"{source}: no dataset column {roles['dataset']!r} (name it with --dataset-column); the columns "
                       f"are {shown(frame.columns, 20)}")
    if roles["score"] not in frame.columns:
        hint = "" if explicit_score else " (name it with --score-column)"
        named = [c for c in frame.columns if c not in {roles[r] for r in _ROLES if r != "score"} and _is_card(c)]
        if not explicit_score and len(named) == 1:
            hint = f" (the column {named[0]!r} names a metric card: give --metric {named[0]})"
        raise CliError(f"{source}: no score column {roles['score']!r}{hint}; the columns are "
                       f"{shown(frame.columns, 20)}")
    present = [r for r in _ROLES if roles[r] in frame.columns]
    keys = [r for r in present if r not in ("score", "cluster")]  # a cluster labels items; it keys no row
    unused = [c for c in frame.columns if c not in {roles[r] for r in present}]
    notes = []
    if unused:  # runtime, notes, ...: ignored and said; a numeric one can be analysed instead with --metric
        numeric = [c for c in unused if _numeric_or_nan(frame[c]).notna().sum() ==
                   frame[c].notna().sum() and frame[c].notna().any()]
        text = [c for c in unused if c not in numeric]
        parts = []
        if numeric:
            parts.append(f"numeric column{'s' if len(numeric) > 1 else ''} {shown(numeric, _SHOWN)} "
                         f"(analyse one instead with --metric {numeric[0]})")
        if text:
            parts.append(f"text column{'s' if len(text) > 1 else ''} {shown(text, _SHOWN)}")
        notes.append(f"ignored the extra {' and '.join(parts)}; the analysis reads {roles['score']!r} as the score")
    out = frame[[roles[r] for r in present]].rename(columns={roles[r]: r for r in present})
    for key in keys:
        text, empty = _as_text(out[key])
        empty = pd.Series(empty, index=out.index)
        if empty.any():
            lines = [str(_line(i)) for i in list(out.index[empty])[:_SHOWN]]
            raise CliError(f"{source}: empty {key} at line{'s' if len(lines) > 1 else ''} {', '.join(lines)}")
        out[key] = text
    for key in ("seed", "epoch"):
        if key in out.columns:
            as_number = _numeric_or_nan(out[key])
            if as_number.notna().all() and (as_number == as_number.round()).all():
                out[key] = as_number.astype(np.int64)
    duplicated = out.duplicated(subset=keys, keep=False)
    if duplicated.any():
        first = out[duplicated].iloc[0]
        same = out.index[(out[keys] == first[keys]).all(axis=1)]
        where = ", ".join(f"{k}={first[k]!r}" for k in keys)
        n = int(out[duplicated].drop_duplicates(subset=keys).shape[0])
        others = f" ({n} repeated keys in all)" if n > 1 else ""
        # a column the file has but the analysis does not read, which tells every repeated row apart
        # (a "run" or "fold" column): the seed column the user meant
        apart = [c for c in unused if frame[c].notna().all()
                 and not frame.duplicated(subset=[roles[k] for k in keys] + [c]).any()]
        if "seed" not in keys and apart:
            way = (f"the column {apart[0]!r} tells them apart: if it numbers the runs, give --seed-column {apart[0]}"
                   + (f" (or one of {shown(apart[1:], _SHOWN)})" if len(apart) > 1 else "") + "; else aggregate first")
        elif "seed" in keys:
            way = f"the seed column {roles['seed']!r} does not tell them apart; aggregate first, or fix the seeds"
        else:
            way = "add a seed column, or aggregate first"
        raise CliError(f"{source}: duplicate rows at lines {' and '.join(str(_line(i)) for i in same[:_SHOWN])} "
                       f"({where}){others}. Each ({', '.join(keys)}) may appear once: {way}")
    out["score"] = _numeric_column(out, "score", source)
    out.attrs["notes"] = notes
    return out


def _is_card(name: str) -> bool:
    try:
        get_card(name)
    except (KeyError, ValueError):
        return False
    return True


#: Labels of rows or columns that summarise the others (normalised: lower case, words only); a wide
#: table with one has it refused, naming it, since it is neither a dataset nor a method.
SUMMARY_LABELS = frozenset({"average", "avg", "mean", "median", "total", "sum", "overall", "rank", "ranks",
                            "mean rank", "average rank", "avg rank", "rank sum", "wins", "std", "sd", "stdev"})
#: When an unmarked wide file is refused as possibly transposed (``mcda compare`` then asks for
#: ``--transpose`` or ``--no-transpose``).
TRANSPOSED_RULE = ("more method columns than dataset rows, and no 'dataset' header over the row labels to say the rows "
                   "are datasets: benchmark tables are usually taller than wide, and a table written with one row per "
                   "method is wider than tall")


def _summary_label(label) -> bool:
    """Whether ``label`` names a summary row or column (:data:`SUMMARY_LABELS`).

    >>> _summary_label(" Average "), _summary_label("Avg. rank"), _summary_label("avg_lr0.05"), _summary_label("ds1")
    (True, True, False, False)
    """
    import re

    return " ".join(re.sub(r"[^a-z]+", " ", str(label).lower()).split()) in SUMMARY_LABELS \
        and not re.search(r"\d", str(label))


def _refuse_summaries(labels, columns, source: str, *, transpose: bool, rows_at) -> None:
    """Refuse a summary row or column of a wide table, naming it (nothing is dropped silently)."""
    row_kind, column_kind = ("method", "dataset") if transpose else ("dataset", "method")
    for position, label in enumerate(labels):
        if _summary_label(label):
            raise CliError(f"{source}: the row {str(label).strip()!r} (line {rows_at[position]}) is a summary of the "
                           f"other rows, not a {row_kind}; delete it from the file (mcda computes its own summaries; "
                           f"a {row_kind} really named so needs another name)")
    for label in columns:
        if _summary_label(label):
            raise CliError(f"{source}: the column {str(label).strip()!r} is a summary of the other columns, not a "
                           f"{column_kind}; delete it from the file (mcda computes its own summaries; a {column_kind} "
                           "really named so needs another name)")


def _read_wide(frame: pd.DataFrame, dataset_column: str, source: str, *, transpose: bool | None = None) -> pd.DataFrame:
    row_kind, column_kind = ("method", "dataset") if transpose else ("dataset", "method")
    if dataset_column in frame.columns and not transpose:
        labels_column = dataset_column
    else:
        labels_column = frame.columns[0]
        numeric = pd.to_numeric(frame[labels_column], errors="coerce")
        if numeric.notna().all() and transpose:
            raise CliError(f"{source}: with --transpose the first column holds the method labels; the first column "
                           f"{labels_column!r} holds numbers")
        if numeric.notna().all():
            raise CliError(f"{source}: a wide file needs dataset labels in its first column (or a 'dataset' column); "
                           f"the first column {labels_column!r} holds numbers. A tidy file needs a 'method' column")
    text = [m for m in frame.columns if m != labels_column if pd.to_numeric(frame[m], errors="coerce").isna().sum() > frame[m].isna().sum()
            and pd.to_numeric(frame[m], errors="coerce").isna().mean() > 0.5]
    if text:
        raise CliError(f"{source}: read as a wide file (no method column), but column{'s' if len(text) > 1 else ''} "
                       f"{shown(text, _SHOWN)} hold{'' if len(text) > 1 else 's'} text, not scores. If the file is "
                       f"tidy (one row per result), name its method column with --method-column (e.g. "
                       f"--method-column {text[0]})")
    labels = frame[labels_column].astype(str).str.strip()
    empty = frame[labels_column].isna() | (labels == "")
    if empty.any():
        raise CliError(f"{source}: empty {row_kind} label at line {_line(frame.index[empty][0])}")
    repeated = labels.duplicated(keep=False)
    if repeated.any():
        label = labels[repeated].iloc[0]
        lines = [str(_line(i)) for i in labels.index[labels == label]]
        raise CliError(f"{source}: {row_kind} {label!r} appears on lines {' and '.join(lines)}; each {row_kind} may "
                       "appear once in a wide file (use a tidy file with a seed column for several runs)")
    others = [c for c in frame.columns if c != labels_column]
    _refuse_summaries(labels.tolist(), others, source, transpose=bool(transpose),
                      rows_at=[_line(i) for i in labels.index])
    if transpose:
        if len(labels) < 2:
            raise CliError(f"{source}: with --transpose the rows are methods, and there is {len(labels)}; a comparison "
                           "needs at least 2")
        out = pd.DataFrame({d: _numeric_column(frame, d, source) for d in others})
        out.index = pd.Index(labels.tolist(), name="method")
        out = out.T
        out.index.name = "dataset"
        out.columns.name = None
        out.attrs["notes"] = [f"read with --transpose: {len(labels)} rows as methods ({shown(labels.tolist(), 4)}), "
                              f"{len(others)} columns as datasets ({shown(others, 4)})"]
        return out
    methods = others
    if len(methods) < 2:
        raise CliError(f"{source}: a wide file needs at least 2 method columns besides {labels_column!r}; it has "
                       f"{shown(methods, _SHOWN)}")
    if transpose is None and len(methods) > len(labels) and labels_column != dataset_column:
        raise CliError(
            f"{source}: this wide file has {len(labels)} rows (datasets, as written: {shown(labels.tolist(), 4)}) and "
            f"{len(methods)} method columns ({shown(methods, 4)}): {TRANSPOSED_RULE}. If its rows are methods, give "
            "--transpose (rows read as methods, columns as datasets); if they are datasets, give --no-transpose")
    out = pd.DataFrame({m: _numeric_column(frame, m, source) for m in methods})
    out.index = pd.Index(labels.tolist(), name="dataset")
    out.attrs["notes"] = []
    return out
