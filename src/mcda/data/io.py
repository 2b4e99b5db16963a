"""Cubes on disk: JSON (readable, versioned), netCDF, and Zarr stores opened lazily, chunked along ``dataset``.

Every reader here returns a checked cube (:func:`mcda.data.cube.as_cube`); what a file holds is
read by :mod:`mcda.data.readers`. Users reach the stores through the public namespace
:mod:`mcda.store`, whose page says how a lazy cube is computed on. Zarr and lazy netCDF need the
``dask`` extra (``pip install method-comparisons[dask]``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import xarray as xr

from mcda._core.validation import McdaArgumentTypeError
from mcda._core.validation import check_positive_int
from mcda.data.cube import as_cube
from mcda.data.readers import (JSON_FORMAT, JSON_VERSION, NETCDF_ENCODING, read_cube_json, read_netcdf, read_store,
                               read_zarr, require_dask)
from mcda.data.stores import check_target, publishing

__all__ = ["to_json", "from_json", "to_netcdf", "from_netcdf", "open_cube", "open_zarr_cube", "to_zarr"]


# --------------------------------------------------------------------------- JSON

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
    raise McdaArgumentTypeError(f"cannot write {type(obj).__name__} to JSON", argument=None)


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
    return as_cube(read_cube_json(source))


# --------------------------------------------------------------------------- netCDF

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
    attrs[NETCDF_ENCODING] = json.dumps(encoding)
    out.attrs = attrs
    out.to_netcdf(path, engine=engine)


def from_netcdf(path: str | Path, *, chunks=None) -> xr.DataArray:
    """Read a cube written by :func:`to_netcdf` (lazily, chunked along ``dataset``, when ``chunks`` is given)."""
    return as_cube(read_netcdf(path, chunks=chunks))


# --------------------------------------------------------------------------- Zarr

def open_cube(path, *, chunks: int | None = None) -> xr.DataArray:
    """Open a cube from a Zarr store or a netCDF file lazily, chunked along ``dataset``.

    Parameters
    ----------
    path : str or Path
        A ``.zarr`` directory written by :func:`mcda.store.to_zarr` / :func:`mcda.store.parquet_to_zarr`, or a
        netCDF file written by :func:`mcda.data.io.to_netcdf`.
    chunks : int, optional
        Datasets per chunk (default: the store's own chunks; for netCDF 100,000).

    Returns
    -------
    xarray.DataArray
        A dask-backed cube with its card; nothing is loaded but the labels. A cube over items
        keeps the store's chunks along ``item`` too.
    """
    return as_cube(read_store(path, chunks=chunks))


def open_zarr_cube(path, *, spec=None, dataset_labels=None) -> xr.DataArray:
    """:func:`open_cube` for a Zarr store; ``dataset_labels``: the store's dataset labels (an
    object array of ``str``) when the caller has them (:mod:`mcda.ingest.convert` just wrote them), so
    that they are not read back."""
    return as_cube(read_zarr(path, spec=spec, dataset_labels=dataset_labels))


def to_zarr(cube: xr.DataArray, path, *, chunk_datasets: int = 100_000, overwrite: bool = False,
            chunk_items: int = 100_000) -> None:
    """Write a cube to a Zarr store, chunked along ``dataset`` (labels, NaNs and card kept).

    A cube over items (an ``item`` dim) is chunked along ``item`` too, ``chunk_items`` items per
    chunk, its ``cluster`` coordinate kept.

    An existing ``path`` is refused unless ``overwrite=True`` (a store is often the result of a
    long ingestion; replacing it silently loses it).

    Examples
    --------
    >>> import mcda, tempfile, pathlib
    >>> from mcda import store
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "duo.zarr"
    >>> store.to_zarr(mcda.datasets.load("duo2018"), path, chunk_datasets=5)
    >>> lazy = store.open_cube(path)
    >>> lazy.chunks[0]
    (5, 5, 2)
    """
    require_dask()
    chunk_datasets = check_positive_int("chunk_datasets", chunk_datasets)
    chunk_items = check_positive_int("chunk_items", chunk_items)
    if not isinstance(overwrite, bool):
        raise McdaArgumentTypeError(f"`overwrite` must be True or False; got {overwrite!r}",
                                    argument="overwrite", value=overwrite)
    check_target(path, overwrite)  # before any work
    cube = as_cube(cube)
    out = cube.copy()
    for name in list(out.coords):
        if out.coords[name].dtype == object:
            out = out.assign_coords({name: (out.coords[name].dims, out.coords[name].values.astype(str))})
    out = out.chunk({"dataset": chunk_datasets, **{d: -1 for d in out.dims if d not in ("dataset", "item")},
                     **({"item": chunk_items} if "item" in out.dims else {})})
    attrs = {k: ("" if v is None else v) for k, v in out.attrs.items()}
    out.attrs = attrs
    out.name = "score"
    with publishing(path, overwrite=overwrite) as staging:
        out.to_dataset().to_zarr(str(staging), mode="w-", consolidated=False, zarr_format=2)
