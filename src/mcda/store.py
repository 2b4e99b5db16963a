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

from ._chunks import is_lazy, require_in_memory
from ._validation import check_positive_int
from .cube import attach_metric, as_cube, open_cube, require_dask

__all__ = ["open_cube", "to_zarr", "parquet_to_zarr", "is_lazy", "require_in_memory"]


def to_zarr(cube: xr.DataArray, path, *, chunk_datasets: int = 100_000, overwrite: bool = False) -> None:
    """Write a cube to a Zarr store, chunked along ``dataset`` (labels, NaNs and card kept).

    An existing ``path`` is refused unless ``overwrite=True`` (a store is often the result of a
    long ingestion; replacing it silently loses it).
    """
    require_dask()
    chunk_datasets = check_positive_int("chunk_datasets", chunk_datasets)
    if not isinstance(overwrite, bool):
        raise TypeError(f"`overwrite` must be True or False; got {overwrite!r}")
    if Path(path).exists() and not overwrite:
        raise FileExistsError(f"`path` {str(path)!r} already exists; pass overwrite=True to replace it")
    cube = as_cube(cube)
    out = cube.copy()
    for name in list(out.coords):
        if out.coords[name].dtype == object:
            out = out.assign_coords({name: (out.coords[name].dims, out.coords[name].values.astype(str))})
    out = out.chunk({"dataset": chunk_datasets, **{d: -1 for d in out.dims if d != "dataset"}})
    attrs = {k: ("" if v is None else v) for k, v in out.attrs.items()}
    out.attrs = attrs
    out.name = "score"
    out.to_dataset().to_zarr(str(path), mode="w", consolidated=False, zarr_format=2)


def parquet_to_zarr(parquet, path, *, metric=None, direction=None, chunk_datasets: int = 1_000_000,
                    columns: dict | None = None) -> xr.DataArray:
    """Turn a tidy Parquet file of scores into a Zarr cube, one row group at a time.

    Parameters
    ----------
    parquet : str or Path
        A tidy file with columns ``dataset, method, score`` (rename with ``columns``). Rows must
        be grouped by dataset (all rows of a dataset together, as any sort or group-by writes
        them); a dataset that reappears after its chunk was written is an error.
    path : str or Path
        The Zarr store to write.
    metric, direction :
        As in :func:`mcda.score_cube`.
    chunk_datasets : int
        Datasets per chunk of the store.
    columns : dict, optional
        Role -> column name.

    Returns
    -------
    xarray.DataArray
        The lazily opened cube.

    Notes
    -----
    Memory bound: one Parquet row group (as a pandas frame), plus one chunk of
    ``chunk_datasets × n_methods`` float64 values (8 bytes each), plus every dataset label seen
    so far, kept as Python strings in a list and a set (to catch a dataset that reappears) and
    written as one fixed-width array at the end. The labels grow with the number of datasets:
    measured at about 280 bytes per dataset for 13-character labels (1M datasets × 5 methods,
    row groups of 250,000 rows, chunks of 100,000: 0.59 GiB peak; 2M: 0.83 GiB), so a file of
    10M datasets needs about 3 GiB for its labels alone. The method labels are read in a first
    pass over the ``method`` column only.
    """
    require_dask()
    import pyarrow.parquet as pq
    import zarr

    chunk_datasets = check_positive_int("chunk_datasets", chunk_datasets)
    cols = {"dataset": "dataset", "method": "method", "score": "score"} | dict(columns or {})
    pf = pq.ParquetFile(str(parquet))
    missing = [c for c in cols.values() if c not in pf.schema_arrow.names]
    if missing:
        raise ValueError(f"the Parquet file has no column(s) {missing}; its columns are {pf.schema_arrow.names}")
    methods: list = []
    seen_methods: set = set()
    n_rows = 0
    for i in range(pf.num_row_groups):
        col = pf.read_row_group(i, columns=[cols["method"]]).column(0).to_pandas()
        n_rows += len(col)
        for m in pd.unique(col.astype(str)):
            if m not in seen_methods:
                seen_methods.add(m)
                methods.append(m)
    method_index = pd.Index(methods)
    k = len(methods)
    store_path = str(path)
    root = zarr.open_group(store_path, mode="w", zarr_format=2)
    # an upper bound on the datasets; trimmed when done
    capacity = max(1, n_rows)
    scores = root.create_array("score", shape=(capacity, k), chunks=(chunk_datasets, k), dtype="f8",
                               fill_value=np.nan)
    labels: list = []
    written: set = set()
    buffer = np.full((chunk_datasets, k), np.nan)
    filled = np.zeros((chunk_datasets, k), dtype=bool)    # a cell already given (its score may be NaN)
    buffer_labels: list = []
    buffer_lookup: dict = {}
    offset = 0

    def flush():
        nonlocal offset, buffer, filled, buffer_labels, buffer_lookup
        n = len(buffer_labels)
        if n:
            scores[offset:offset + n, :] = buffer[:n]
            labels.extend(buffer_labels)
            written.update(buffer_labels)
            offset += n
        buffer = np.full((chunk_datasets, k), np.nan)
        filled = np.zeros((chunk_datasets, k), dtype=bool)
        buffer_labels = []
        buffer_lookup = {}

    for i in range(pf.num_row_groups):
        table = pf.read_row_group(i, columns=[cols["dataset"], cols["method"], cols["score"]]).to_pandas()
        ds = table[cols["dataset"]].astype(str).to_numpy()
        me = method_index.get_indexer(table[cols["method"]].astype(str))
        val = pd.to_numeric(table[cols["score"]], errors="coerce").to_numpy(dtype=float)
        bad = np.isnan(val) & table[cols["score"]].notna().to_numpy()
        if bad.any() or np.isinf(val).any():
            j = int(np.nonzero(bad | np.isinf(val))[0][0])
            raise ValueError(f"scores must be numeric and finite; row group {i}, dataset {ds[j]!r}: "
                             f"{table[cols['score']].iloc[j]!r}")
        for label, m, v in zip(ds, me, val):
            row = buffer_lookup.get(label)
            if row is None:
                if label in written:
                    raise ValueError(f"dataset {label!r} reappears after its chunk was written: the Parquet rows "
                                     "must be grouped by dataset (sort them by dataset first)")
                if len(buffer_labels) == chunk_datasets:
                    flush()
                row = len(buffer_labels)
                buffer_lookup[label] = row
                buffer_labels.append(label)
            if filled[row, m]:
                raise ValueError(f"duplicate rows: dataset {label!r}, method {methods[m]!r} appears more than once")
            filled[row, m] = True
            buffer[row, m] = v
    flush()
    scores.resize((offset, k))
    cube = xr.DataArray(np.zeros((0, k)), dims=("dataset", "method"))  # only to resolve the card attrs
    cube = attach_metric(cube.assign_coords(method=np.array(methods, dtype=object)), metric, direction)
    root.create_array("dataset", data=np.array(labels, dtype=str))
    root.create_array("method", data=np.array(methods, dtype=str))
    scores.attrs.update({"_ARRAY_DIMENSIONS": ["dataset", "method"],
                         **{k2: ("" if v is None else v) for k2, v in cube.attrs.items()}})
    root["dataset"].attrs["_ARRAY_DIMENSIONS"] = ["dataset"]
    root["method"].attrs["_ARRAY_DIMENSIONS"] = ["method"]
    return open_cube(path)
