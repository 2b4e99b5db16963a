"""Streaming ingestion of per-item scores: a tidy Parquet or CSV file with an ``item`` column into a Zarr item cube.

The file's rows (``dataset, method, item, score`` and optionally ``cluster`` and ``sample``) may
come in any order. Memory is bounded by ``rows_in_memory`` scores plus the labels of the items
(one entry per distinct (dataset, item)), never by the number of rows:

1. **Labels.** One pass reads the label columns in batches and keeps the distinct datasets,
   methods, samples, (dataset, item) pairs and (item, cluster) pairs; an item given two clusters
   is refused, named. The items are laid out in the order (the first dataset holding the item,
   item label), so each dataset's items are one run along ``item``.
2. **Scores.** The datasets are taken in groups whose runs of items, times the methods and
   samples, fit in ``rows_in_memory`` scores; for each group one pass scatters the group's rows
   into a dense block (NaN where a result is missing), refusing a second row for a cell (named),
   and writes the block to the store, chunked along ``item``.

The store is the cube ``dataset × method × item [× sample]`` with a ``cluster`` coordinate on
``item`` when the file has clusters; chunks hold one dataset, every method (and sample) and
``chunk_items`` items, and chunks no result falls in are not written. Opened again
(:func:`mcda.store.open_cube`) it is a dask-backed cube with the same chunks.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError, check_positive_int, shown

__all__ = ["ITEM_ROLES", "file_columns", "items_to_zarr"]

#: The roles of a tidy file of per-item scores (``columns=`` maps them to the file's column names).
ITEM_ROLES = ("dataset", "method", "item", "score", "cluster", "sample")
_SHOWN = 5


def file_columns(kind: str, path, delimiter: str = ",") -> list[str]:
    """The column names of a Parquet or CSV file (its schema, or its header line)."""
    if kind == "Parquet":
        import pyarrow.parquet as pq

        return list(pq.read_schema(str(path)).names)  # reads the footer and closes the file
    import pyarrow.csv as pcsv

    with open(path, "rb") as handle:  # closed however the header reads (a malformed file raises)
        return list(pcsv.open_csv(handle, parse_options=pcsv.ParseOptions(delimiter=delimiter)).schema.names)


def _batches(kind: str, path, columns: list[str], batch_rows: int, delimiter: str):
    """pandas frames of ``columns`` (labels as text, scores as float64), one per batch, in file order."""
    import pyarrow as pa

    if kind == "Parquet":
        import pyarrow.parquet as pq

        reader = pq.ParquetFile(str(path)).iter_batches(batch_size=batch_rows, columns=columns)
    else:
        import pyarrow.csv as pcsv

        types = {c: pa.string() for c in columns[:-1]}
        reader = pcsv.open_csv(str(path), parse_options=pcsv.ParseOptions(delimiter=delimiter),
                               read_options=pcsv.ReadOptions(block_size=max(1 << 20, 64 * batch_rows)),
                               convert_options=pcsv.ConvertOptions(include_columns=columns, column_types=types))
    first = 0
    for batch in reader:
        frame = batch.to_pandas()
        for column in columns[:-1]:
            frame[column] = frame[column].astype(str)
        frame.index = pd.RangeIndex(first, first + len(frame))
        first += len(frame)
        yield frame


def _scores(frame: pd.DataFrame, column: str, source: str) -> np.ndarray:
    """The batch's scores as float64; text that is not a number and infinite scores are refused, rows named."""
    raw = frame[column]
    values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=np.float64)
    bad = (raw.notna().to_numpy() & np.isnan(values)) | np.isinf(values)
    if bad.any():
        rows = frame.index[bad][:_SHOWN]
        where = ", ".join(f"row {r} ({raw[r]!r})" for r in rows)
        raise McdaArgumentError(f"{source}: column {column!r} must hold finite numbers; not at {where}"
                                + (f" and {int(bad.sum()) - _SHOWN} more" if bad.sum() > _SHOWN else ""),
                                argument="columns", value=column)
    return values


class _Labels:
    """What pass 1 keeps: the distinct labels and pairs."""

    def __init__(self, clustered: bool, sampled: bool):
        self.clustered, self.sampled = clustered, sampled
        self.datasets: set = set()
        self.methods: set = set()
        self.samples: set = set()
        self.pairs: list = []  # frames of distinct (dataset, item)
        self.clusters: list = []  # frames of distinct (item, cluster)
        self.rows = 0

    def add(self, frame: pd.DataFrame, cols: dict) -> None:
        self.rows += len(frame)
        self.datasets.update(frame[cols["dataset"]].unique())
        self.methods.update(frame[cols["method"]].unique())
        if self.sampled:
            self.samples.update(frame[cols["sample"]].unique())
        self.pairs.append(frame[[cols["dataset"], cols["item"]]].drop_duplicates())
        if self.clustered:
            self.clusters.append(frame[[cols["item"], cols["cluster"]]].drop_duplicates())
        if len(self.pairs) > 64:  # keep the distinct pairs only
            self.pairs = [pd.concat(self.pairs, ignore_index=True).drop_duplicates()]
            if self.clustered:
                self.clusters = [pd.concat(self.clusters, ignore_index=True).drop_duplicates()]


def _sample_order(samples) -> list:
    """Sample labels as integers in order when every label is one, else as text in order."""
    try:
        return sorted(int(v) for v in samples)
    except ValueError:
        return sorted(samples)


def _layout(labels: _Labels, cols: dict, source: str):
    """(datasets, methods, samples, items, clusters or None, item range per dataset)."""
    datasets = sorted(labels.datasets)
    methods = sorted(labels.methods)
    samples = _sample_order(labels.samples) if labels.sampled else []
    pairs = pd.concat(labels.pairs, ignore_index=True).drop_duplicates()
    pairs.columns = ["dataset", "item"]
    pairs["code"] = pd.Index(datasets).get_indexer(pairs["dataset"])
    first = pairs.groupby("item", sort=False)["code"].min().reset_index()
    first = first.sort_values(["code", "item"], kind="stable")
    items = first["item"].to_numpy(dtype=object)
    position = pd.Series(np.arange(items.size), index=pd.Index(items))
    pairs["position"] = position.reindex(pairs["item"]).to_numpy()
    spans = pairs.groupby("code")["position"].agg(["min", "max"])
    ranges = [(int(spans.loc[d, "min"]), int(spans.loc[d, "max"]) + 1) for d in range(len(datasets))]
    clusters = None
    if labels.clustered:
        given = pd.concat(labels.clusters, ignore_index=True).drop_duplicates()
        given.columns = ["item", "cluster"]
        counts = given.groupby("item")["cluster"].nunique()
        if (counts > 1).any():
            twice = counts.index[counts > 1]
            raise McdaArgumentError(f"{source}: an item belongs to one cluster; items {shown(list(twice), 5)} are "
                                    f"given several (column {cols['cluster']!r})", argument="columns",
                                    value=cols["cluster"])
        clusters = given.drop_duplicates("item").set_index("item")["cluster"].reindex(items).to_numpy(dtype=object)
    return datasets, methods, samples, items, clusters, ranges


def _groups(ranges, cells_per_item: int, budget: int):
    """Runs of consecutive datasets whose items, times ``cells_per_item``, fit in ``budget`` cells (at least one)."""
    groups, start = [], 0
    while start < len(ranges):
        stop = start + 1
        while stop < len(ranges):
            lo = min(r[0] for r in ranges[start:stop + 1])
            hi = max(r[1] for r in ranges[start:stop + 1])
            if (stop + 1 - start) * (hi - lo) * cells_per_item > budget:
                break
            stop += 1
        groups.append((start, stop))
        start = stop
    return groups


def items_to_zarr(kind: str, path_in, path, *, cols: dict, metric, direction, chunk_items: int, rows_in_memory: int,
                  overwrite: bool, scale=None, delimiter: str = ","):
    """Both passes of a file with an ``item`` column into the store at ``path``; returns the lazily opened cube."""
    import xarray as xr
    import zarr

    from mcda.data.checks import (apply_scale, attach_metric, check_range, check_scale_needed, cube_card,
                                  cube_metric, finite_bounds, outside_range, resolve_metric, scale_factor)
    from mcda.data.io import open_zarr_cube
    from mcda.data.readers import require_dask
    from mcda.data.stores import check_target, publishing

    require_dask()
    if not isinstance(overwrite, bool):
        raise McdaArgumentTypeError(f"`overwrite` must be True or False; got {overwrite!r}",
                                    argument="overwrite", value=overwrite)
    chunk_items = check_positive_int("chunk_items", chunk_items)
    check_target(path, overwrite)
    resolve_metric(metric, direction)
    factor = scale_factor(scale)
    source = f"the {kind} file {str(path_in)!r}"
    clustered, sampled = cols.get("cluster") is not None, cols.get("sample") is not None
    label_columns = [cols[r] for r in ("dataset", "method", "item", "cluster", "sample") if cols.get(r) is not None]
    batch_rows = max(1, rows_in_memory // 4)

    labels = _Labels(clustered, sampled)
    for frame in _batches(kind, path_in, label_columns + [cols["score"]], batch_rows, delimiter):
        _scores(frame, cols["score"], source)
        labels.add(frame, cols)
    if not labels.rows:
        raise McdaArgumentError(f"{source} has no rows", argument=None)
    datasets, methods, samples, items, clusters, ranges = _layout(labels, cols, source)
    k, s = len(methods), max(1, len(samples))
    template = xr.DataArray(np.zeros((0, k)), dims=("dataset", "method"),
                            coords={"method": np.array(methods, dtype=object)})
    template = attach_metric(apply_scale(template, scale, {}), metric, direction)
    card = cube_card(template)
    label = (cube_metric(template) or card.name) if card is not None else None
    dims = ["dataset", "method", "item"] + (["sample"] if sampled else [])
    shape = (len(datasets), k, items.size) + ((s,) if sampled else ())
    low, high = math.inf, -math.inf
    method_index, item_index = pd.Index(methods), pd.Index(items)
    sample_index = pd.Index([str(v) for v in samples]) if sampled else None
    with publishing(path, overwrite=overwrite) as staging:
        root = zarr.open_group(str(staging), mode="w", zarr_format=2)
        scores = root.create_array("score", shape=shape, dtype="float64", fill_value=np.nan,
                                   chunks=(1, k, min(chunk_items, max(1, items.size))) + ((s,) if sampled else ()),
                                   config={"write_empty_chunks": False})
        for start, stop in _groups(ranges, k * s, rows_in_memory):
            lo = min(r[0] for r in ranges[start:stop])
            hi = max(r[1] for r in ranges[start:stop])
            block = np.full((stop - start, k, hi - lo, s), np.nan)
            seen = np.zeros(block.shape, dtype=bool)
            group = pd.Index(datasets[start:stop])
            for frame in _batches(kind, path_in, label_columns + [cols["score"]], batch_rows, delimiter):
                d = group.get_indexer(frame[cols["dataset"]])
                keep = d >= 0
                if not keep.any():
                    continue
                frame, d = frame[keep], d[keep]
                cell = (d, method_index.get_indexer(frame[cols["method"]]),
                        item_index.get_indexer(frame[cols["item"]]) - lo,
                        sample_index.get_indexer(frame[cols["sample"]]) if sampled else np.zeros(len(frame), int))
                flat = np.ravel_multi_index(cell, block.shape)
                twice = seen.reshape(-1)[flat] | (np.bincount(flat, minlength=seen.size)[flat] > 1)
                if twice.any():
                    rows = frame.index[twice][:_SHOWN]
                    raise McdaArgumentError(
                        f"{source}: duplicate rows (a second score for one dataset, method, item"
                        f"{' and sample' if sampled else ''}) at rows {shown([int(r) for r in rows])}; a cube holds "
                        "one score per cell: give repeated answers a `sample` column, or drop the repeated rows",
                        argument=None)
                seen.reshape(-1)[flat] = True
                block.reshape(-1)[flat] = _scores(frame, cols["score"], source)
            if factor != 1.0:
                block = block / factor
            values = block if sampled else block[..., 0]
            if card is not None and outside_range(values, card):
                check_range(xr.DataArray(values, dims=dims, coords={
                    "dataset": np.array(datasets[start:stop], dtype=object), "method": np.array(methods, dtype=object),
                    "item": items[lo:hi], **({"sample": np.array(samples, dtype=object)} if sampled else {})}),
                    card, label, " of the file")
            block_low, block_high = finite_bounds(values)
            if not math.isnan(block_low):
                low, high = min(low, block_low), max(high, block_high)
            scores[start:stop, :, lo:hi] = values
        if card is not None and low <= high:
            check_scale_needed(card, scale, low, high, label)
        scores.attrs.update({"_ARRAY_DIMENSIONS": dims,
                             **{key: ("" if v is None else v) for key, v in template.attrs.items()}})
        coords = {"dataset": (["dataset"], np.array(datasets, dtype=str)),
                  "method": (["method"], np.array(methods, dtype=str)),
                  "item": (["item"], items.astype(str))}
        if sampled:
            coords["sample"] = (["sample"], np.array(samples, dtype=np.int64 if isinstance(samples[0], int) else str))
        if clustered:
            coords["cluster"] = (["item"], clusters.astype(str))
        for name, (array_dims, values) in coords.items():
            array = root.create_array(name, data=values)
            array.attrs["_ARRAY_DIMENSIONS"] = array_dims
        if clustered:  # read back as a coordinate of the scores (CF's attribute), not as a variable of its own
            scores.attrs["coordinates"] = "cluster"
    return open_zarr_cube(str(Path(path)))
