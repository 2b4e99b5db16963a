"""Per-item scores through the streaming ingestion and the Zarr store (mcda.ingest.items, mcda.data.io).

The reference is the in-memory cube built here from the same tidy rows with pandas (a pivot of
the rows, NaN where a row is absent): the store, read back, must hold exactly those scores,
labels and clusters, dask-backed and chunked along ``item``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import mcda
from mcda import store


def _rows(seed=0, n_datasets=3, n_methods=4, n_items=50, samples=0, missing=5):
    """A tidy frame of binary per-item scores, rows shuffled, a few results missing."""
    rng = np.random.default_rng(seed)
    frames = []
    for d in range(n_datasets):
        items = [f"d{d}/q{i:03d}" for i in range(n_items)]
        clusters = [f"d{d}/c{i // 4}" for i in range(n_items)]
        for m in range(n_methods):
            for s in range(max(samples, 1)):
                frame = pd.DataFrame({"dataset": f"bench{d}", "method": f"model{m}", "item": items,
                                      "cluster": clusters,
                                      "score": (rng.random(n_items) < 0.5 + 0.1 * m).astype(float)})
                if samples:
                    frame["sample"] = s
                frames.append(frame)
    rows = pd.concat(frames, ignore_index=True)
    rows = rows.drop(index=rng.choice(len(rows), missing, replace=False))
    return rows.sample(frac=1.0, random_state=1).reset_index(drop=True)


def _reference(rows: pd.DataFrame) -> xr.DataArray:
    """The cube the rows describe, built with pandas (independent of the ingestion)."""
    keys = ["dataset", "method", "item"] + (["sample"] if "sample" in rows else [])
    da = xr.DataArray.from_series(rows.set_index(keys)["score"])
    clusters = rows.drop_duplicates("item").set_index("item")["cluster"]
    return da.assign_coords(cluster=("item", clusters.reindex(da.coords["item"].values).to_numpy()))


def _same(lazy: xr.DataArray, reference: xr.DataArray) -> None:
    loaded = lazy.load()
    aligned = reference.reindex_like(loaded).transpose(*loaded.dims)  # the same labels in the store's order
    np.testing.assert_array_equal(loaded.values, aligned.values)
    assert list(loaded.coords["cluster"].values) == list(aligned.coords["cluster"].values)
    assert set(map(str, loaded.coords["item"].values)) == set(map(str, reference.coords["item"].values))


def test_parquet_with_items_becomes_a_lazy_item_cube_chunked_along_item(tmp_path):
    rows = _rows()
    rows.to_parquet(tmp_path / "items.parquet", index=False)
    cube = store.parquet_to_zarr(tmp_path / "items.parquet", tmp_path / "items.zarr", metric="accuracy",
                                 chunk_items=20)
    assert store.is_lazy(cube) and cube.dims == ("dataset", "method", "item")
    assert cube.chunks[2] == tuple([20] * 7 + [10])  # 150 items
    _same(cube, _reference(rows))
    # each dataset's items are one run along `item`: chunks of other datasets' items are not written
    written = [p for p in (tmp_path / "items.zarr" / "score").iterdir() if not p.name.startswith(".")]
    assert len(written) == 3 * 3  # 3 datasets, 50 items each: chunks 0-2, 2-5, 5-7 (a run shares one chunk)


def test_csv_with_samples_and_a_small_memory_budget(tmp_path):
    rows = _rows(seed=2, samples=3)
    rows.to_csv(tmp_path / "items.csv", index=False)
    # 4 methods × 3 samples × 50 items = 600 scores a dataset: a budget of 700 takes one dataset per pass
    cube = store.csv_to_zarr(tmp_path / "items.csv", tmp_path / "items.zarr", metric="accuracy",
                             rows_in_memory=700, chunk_items=64)
    assert cube.dims == ("dataset", "method", "item", "sample")
    assert cube.coords["sample"].values.tolist() == [0, 1, 2]
    _same(cube, _reference(rows))


def test_columns_rename_the_roles(tmp_path):
    rows = _rows(seed=3).rename(columns={"item": "question", "cluster": "passage", "score": "correct"})
    rows.to_parquet(tmp_path / "renamed.parquet", index=False)
    cube = store.parquet_to_zarr(tmp_path / "renamed.parquet", tmp_path / "renamed.zarr", metric="accuracy",
                                 columns={"item": "question", "cluster": "passage", "score": "correct"})
    original = rows.rename(columns={"question": "item", "passage": "cluster", "correct": "score"})
    _same(cube, _reference(original))


def test_duplicates_two_clusters_and_bad_scores_are_refused_by_row(tmp_path):
    rows = _rows(seed=4, missing=0)
    doubled = pd.concat([rows, rows.iloc[[7]]], ignore_index=True)
    doubled.to_parquet(tmp_path / "dup.parquet", index=False)
    with pytest.raises(mcda.McdaArgumentError, match="duplicate rows .* rows \\[?.*7"):
        store.parquet_to_zarr(tmp_path / "dup.parquet", tmp_path / "dup.zarr", metric="accuracy")
    assert not (tmp_path / "dup.zarr").exists()
    moved = rows.copy()
    moved.loc[moved.index[moved["item"] == "d0/q001"][0], "cluster"] = "elsewhere"
    moved.to_parquet(tmp_path / "two.parquet", index=False)
    with pytest.raises(mcda.McdaArgumentError, match="'d0/q001'"):
        store.parquet_to_zarr(tmp_path / "two.parquet", tmp_path / "two.zarr", metric="accuracy")
    outside = rows.copy()
    outside.loc[3, "score"] = 1.5
    outside.to_parquet(tmp_path / "outside.parquet", index=False)
    with pytest.raises(mcda.McdaArgumentError, match="outside the card's range"):
        store.parquet_to_zarr(tmp_path / "outside.parquet", tmp_path / "outside.zarr", metric="accuracy")
    rows.drop(columns="item").to_parquet(tmp_path / "noitem.parquet", index=False)
    with pytest.raises(mcda.McdaArgumentError, match="no 'item' column") as raised:
        store.parquet_to_zarr(tmp_path / "noitem.parquet", tmp_path / "noitem.zarr", metric="accuracy",
                              columns={"cluster": "cluster"})
    assert raised.value.argument == "columns"


def test_to_zarr_keeps_an_in_memory_item_cube_chunked_along_item(tmp_path):
    reference = _reference(_rows(seed=5))
    cube = mcda.score_cube(reference, metric="accuracy")
    store.to_zarr(cube, tmp_path / "cube.zarr", chunk_items=40)
    lazy = store.open_cube(tmp_path / "cube.zarr")
    assert store.is_lazy(lazy) and lazy.chunks[2] == (40, 40, 40, 30)
    _same(lazy, reference)


def test_resampling_on_the_store_equals_the_in_memory_cube(tmp_path):
    rows = _rows(seed=6)
    rows.to_parquet(tmp_path / "items.parquet", index=False)
    lazy = store.parquet_to_zarr(tmp_path / "items.parquet", tmp_path / "items.zarr", metric="accuracy",
                                 chunk_items=16)
    in_memory = mcda.score_cube(_reference(rows), metric="accuracy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.MissingDataWarning)  # the missing results are named in the notes
        from_store = mcda.paired_permutation_test(lazy, n_resamples=199, rng=3).table
        from_memory = mcda.paired_permutation_test(in_memory, n_resamples=199, rng=3).table
    pd.testing.assert_frame_equal(from_store, from_memory)


def test_item_means_and_paired_items_on_the_store_equal_the_in_memory_cube(tmp_path):
    # chunks of 18 items cut clusters of 4: the block-wise sums must regroup them
    rows = _rows(seed=7)
    rows.to_parquet(tmp_path / "items.parquet", index=False)
    lazy = store.parquet_to_zarr(tmp_path / "items.parquet", tmp_path / "items.zarr", metric="exact_match",
                                 chunk_items=18)
    assert store.is_lazy(lazy) and lazy.chunks[2][0] == 18
    in_memory = mcda.score_cube(_reference(rows), metric="exact_match")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.MissingDataWarning)
        for function in (mcda.item_means, mcda.paired_items):
            from_store, from_memory = function(lazy), function(in_memory)
            assert from_store.clustered and from_memory.clustered
            pd.testing.assert_frame_equal(from_store.table, from_memory.table, check_exact=False, rtol=1e-12)
