"""Cubes larger than memory: the public namespace ``mcda.store``.

Zarr / netCDF stores opened lazily and chunked along ``dataset`` (:mod:`mcda.data.io`), the
streaming conversion of tidy Parquet or CSV files (:mod:`mcda.ingest`), and the helpers that tell
a lazy cube from an in-memory one. Per-item evaluation makes cubes of millions of "datasets"
(items); the same public functions run on a dask-backed cube, every across-dataset statistic
reducing along ``dataset`` through sufficient statistics that add up over chunks. Needs the
``dask`` extra (``pip install method-comparisons[dask]``). :func:`to_zarr` shows a store written and
opened lazily.
"""

from mcda._core.progress import progress
from mcda.data.blocks import is_lazy, require_in_memory
from mcda.data.io import open_cube
from mcda.data.io import to_zarr
from mcda.ingest import csv_to_zarr, parquet_to_zarr

__all__ = ["open_cube", "to_zarr", "parquet_to_zarr", "csv_to_zarr", "is_lazy", "require_in_memory", "progress"]
