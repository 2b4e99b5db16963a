"""Cubes larger than memory: Zarr / netCDF stores opened lazily, chunked along ``dataset``.

Per-item evaluation makes cubes of millions of "datasets" (items). The same public functions
run on a dask-backed cube: every across-dataset statistic reduces along ``dataset`` through
sufficient statistics that add up over chunks (rank sums, tie terms, pairwise region counts),
so a chunk is read, reduced and dropped. Needs the ``dask`` extra (``pip install mcda[dask]``).

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

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.validation import McdaArgumentTypeError
from mcda._core.validation import McdaArgumentError
from mcda.data.blocks import is_lazy, require_in_memory
from mcda._core.validation import check_positive_int
from mcda._core.progress import progress
from mcda.data.cube import as_cube, open_cube, require_dask
from mcda.data.stores import check_target, publishing

__all__ = ["to_zarr"]


def to_zarr(cube: xr.DataArray, path, *, chunk_datasets: int = 100_000, overwrite: bool = False) -> None:
    """Write a cube to a Zarr store, chunked along ``dataset`` (labels, NaNs and card kept).

    An existing ``path`` is refused unless ``overwrite=True`` (a store is often the result of a
    long ingestion; replacing it silently loses it).
    """
    require_dask()
    chunk_datasets = check_positive_int("chunk_datasets", chunk_datasets)
    if not isinstance(overwrite, bool):
        raise McdaArgumentTypeError(f"`overwrite` must be True or False; got {overwrite!r}")
    check_target(path, overwrite)  # before any work
    cube = as_cube(cube)
    out = cube.copy()
    for name in list(out.coords):
        if out.coords[name].dtype == object:
            out = out.assign_coords({name: (out.coords[name].dims, out.coords[name].values.astype(str))})
    out = out.chunk({"dataset": chunk_datasets, **{d: -1 for d in out.dims if d != "dataset"}})
    attrs = {k: ("" if v is None else v) for k, v in out.attrs.items()}
    out.attrs = attrs
    out.name = "score"
    with publishing(path, overwrite=overwrite) as staging:
        out.to_dataset().to_zarr(str(staging), mode="w-", consolidated=False, zarr_format=2)
