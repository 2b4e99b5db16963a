"""Streaming ingestion: tidy Parquet or CSV files of any size → a Zarr score cube.

The engine reads the files in two passes with bounded memory (see :mod:`mcda.ingest.convert`).
It builds on :mod:`mcda.data` only; no statistic or figure imports it, so ``import mcda`` and the
statistics never load it.
"""

from mcda.ingest.convert import csv_to_zarr, parquet_to_zarr

__all__ = ["parquet_to_zarr", "csv_to_zarr"]
