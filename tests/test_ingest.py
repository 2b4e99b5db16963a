"""Streaming ingestion (mcda.ingest.convert): tidy Parquet / CSV files into Zarr, rows in any order.

References: the tidy table itself (each stored cell is looked up in the pandas frame it came
from), pandas' own parsing of the same CSV text, plain Python references for the kernels
(FNV-1a 64 as specified by Fowler, Noll & Vo, here over 32-bit words, the splitmix64 finaliser of Steele, Lea & Flood
2014, ``str`` decoding), and a store written by the previous writer (tests/data/zarr_store_v0).
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("dask")
pa = pytest.importorskip("pyarrow")
pytest.importorskip("zarr")
import pyarrow.parquet as pq  # noqa: E402

import mcda  # noqa: E402
from mcda import store  # noqa: E402
from mcda.ingest import convert as ingest
from mcda.ingest import _kernels as kernels

DATA = Path(__file__).parent / "data" / "zarr_store_v0"


def _tidy(n=300, k=5, seed=3) -> pd.DataFrame:
    """A tidy table with missing cells, a NaN score, unicode and look-alike labels."""
    rng = np.random.default_rng(seed)
    labels = [f"d{i}" for i in range(n - 3)] + ["café", "数据集", "d1 "]  # 'd1 ' is not 'd1'
    methods = [f"method_{j}" for j in range(k)]
    frame = pd.DataFrame({"dataset": np.repeat(labels, k), "method": np.tile(methods, n),
                          "score": np.round(rng.random(n * k), 2)})
    frame = frame.drop(index=[7, 8, 3 * k + 1]).reset_index(drop=True)  # missing cells
    frame.loc[11, "score"] = np.nan  # a row with no score: a missing result, not a missing row
    return frame


def _check_matches(cube, frame: pd.DataFrame):
    """Every cell of the cube is the frame's score for its (dataset, method), NaN where there is no row."""
    table = frame.pivot(index="dataset", columns="method", values="score")
    assert sorted(cube.coords["dataset"].values) == sorted(table.index)
    assert list(cube.coords["method"].values) == sorted(table.columns)
    expected = table.loc[list(cube.coords["dataset"].values), list(cube.coords["method"].values)].to_numpy()
    np.testing.assert_array_equal(cube.values, expected)


def _orders(frame: pd.DataFrame) -> dict:
    return {
        "grouped": frame,
        "shuffled": frame.sample(frac=1.0, random_state=7),
        "reversed": frame.iloc[::-1],
        "interleaved": frame.sort_values(["method", "dataset"], kind="stable"),  # method by method
    }


def _same_store(a, b):
    assert a.identical(b)
    np.testing.assert_array_equal(a.values, b.values)
    assert list(a.coords["dataset"].values) == list(b.coords["dataset"].values)


# --------------------------------------------------------------------------- any row order


@pytest.mark.parametrize("rows_in_memory", [200, 2_000_000])  # 200: eight partitions; the default: one
def test_any_row_order_gives_the_same_store_from_parquet_and_csv(tmp_path, rows_in_memory):
    frame = _tidy()
    cubes = {}
    for name, rows in _orders(frame).items():
        rows.to_parquet(tmp_path / f"{name}.parquet", row_group_size=97, index=False)
        rows.to_csv(tmp_path / f"{name}.csv", index=False)
        cubes[name, "parquet"] = store.parquet_to_zarr(tmp_path / f"{name}.parquet", tmp_path / f"{name}.p.zarr",
                                                       metric="accuracy", chunk_datasets=64,
                                                       rows_in_memory=rows_in_memory)
        cubes[name, "csv"] = store.csv_to_zarr(tmp_path / f"{name}.csv", tmp_path / f"{name}.c.zarr",
                                               metric="accuracy", chunk_datasets=64, rows_in_memory=rows_in_memory)
    first = cubes["grouped", "parquet"]
    assert store.is_lazy(first) and first.chunks[0][:2] == (64, 64) and first.sizes["dataset"] == 300
    _check_matches(first.compute(), frame)
    for key, cube in cubes.items():
        _same_store(cube, first)
    assert first.attrs["metric"] == "accuracy"
    # the returned cube's labels are the ones the conversion wrote, not read back: the store holds the same
    # (an edge chunk of 300 - 4 x 64 datasets among them)
    for name in ("grouped.p.zarr", "grouped.c.zarr"):
        _same_store(store.open_cube(tmp_path / name), first)


def test_the_store_order_depends_on_the_labels_only(tmp_path):
    frame = _tidy(n=50)
    frame.to_parquet(tmp_path / "all.parquet")
    whole = store.parquet_to_zarr(tmp_path / "all.parquet", tmp_path / "all.zarr", metric="accuracy")
    # fewer datasets: the ones left keep their relative order (datasets are ordered by their label's hash)
    part = frame[frame["dataset"].isin(["d3", "d17", "café", "d40", "d1 "])]
    part.to_parquet(tmp_path / "part.parquet")
    some = store.parquet_to_zarr(tmp_path / "part.parquet", tmp_path / "part.zarr", metric="accuracy")
    order = [d for d in whole.coords["dataset"].values if d in set(part["dataset"])]
    assert list(some.coords["dataset"].values) == order
    # a store far smaller than its one chunk (1,000,000 datasets): stored at the chunk's shape, read back the same
    _same_store(store.open_cube(tmp_path / "all.zarr"), whole)
    _same_store(store.open_cube(tmp_path / "part.zarr"), some)


def test_an_oversized_partition_is_split_again_with_the_same_result(tmp_path, monkeypatch):
    frame = _tidy(n=400)
    path = tmp_path / "shuffled.parquet"
    frame.sample(frac=1.0, random_state=1).to_parquet(path, row_group_size=150)
    expected = store.parquet_to_zarr(path, tmp_path / "a.zarr", metric="accuracy", chunk_datasets=50)
    # as if the row count had been badly underestimated: one partition, split on later hash bits
    monkeypatch.setattr(ingest, "_bits_for", lambda n_rows, budget: 0)
    split = store.parquet_to_zarr(path, tmp_path / "b.zarr", metric="accuracy", chunk_datasets=50,
                                  rows_in_memory=100)
    _same_store(split, expected)


@pytest.mark.parametrize("rows_in_memory", [40, 2_000_000])  # 40: the one partition is split again and again
def test_labels_sharing_a_hash_stay_apart_and_are_ordered_by_text(tmp_path, monkeypatch, rows_in_memory):
    # every label gets the same hash: the grouping must compare the labels themselves
    monkeypatch.setattr(ingest, "_HASH_MASK", np.uint64(0))
    frame = _tidy(n=60)
    frame.sample(frac=1.0, random_state=2).to_parquet(tmp_path / "s.parquet", row_group_size=50)
    cube = store.parquet_to_zarr(tmp_path / "s.parquet", tmp_path / "s.zarr", metric="accuracy", chunk_datasets=16,
                                 rows_in_memory=rows_in_memory)
    _check_matches(cube.compute(), frame)
    labels = list(cube.coords["dataset"].values)
    assert labels == sorted(labels)  # all hashes tie: the order is the labels' (code point) order


def _buffered(path):
    import os

    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600), False


@pytest.mark.parametrize("io", ["as the system allows", "through the page cache"])
@pytest.mark.parametrize("slots", ["default", "tiny"])
@pytest.mark.parametrize("rows_in_memory", [200, 2_000_000])
def test_the_spill_file_gives_the_same_store_however_it_is_written_and_read(tmp_path, monkeypatch, io, slots,
                                                                              rows_in_memory):
    # the reference: the pandas frame itself (every cell looked up); the variants: direct I/O (page-aligned
    # reads, padding segments) or the page cache, slots that gather many batches or batches too large for a
    # slot (written on their own, their chunks not on page boundaries)
    frame = _tidy(n=400)
    path = tmp_path / "s.parquet"
    frame.sample(frac=1.0, random_state=5).to_parquet(path, row_group_size=150)
    if io != "as the system allows":
        monkeypatch.setattr(ingest, "_open_spill", _buffered)
    if slots == "tiny":
        monkeypatch.setattr(ingest, "_SPILL_BUFFER", 0)
        monkeypatch.setattr(ingest, "_MIN_SLOT", 2 * 4096)
    cube = store.parquet_to_zarr(path, tmp_path / "s.zarr", metric="accuracy", chunk_datasets=64,
                                 rows_in_memory=rows_in_memory)
    _check_matches(cube.compute(), frame)


def test_a_chunk_read_back_directly_is_padded_to_whole_pages(tmp_path):
    # batches too large for a slot: each is written on its own, its partitions' segments one after the
    # other, so most chunks start inside a page; read back (directly where the system allows: from the
    # page before, a padding segment of no rows over the bytes of other partitions) they give the rows
    # laid out, partition by partition (kernels.gather_segments)
    spill = ingest._Spill(str(tmp_path), 2, rows=10)
    try:
        assert spill.slot_bytes - 4096 < 8000 * 13 // 4  # a batch's segment does not fit in a slot
        labels = pa.array([f"label-{i:05d}" for i in range(8000)])
        offsets, data = ingest._string_buffers(labels)
        codes = (np.arange(8000) % 3).astype(np.int32)
        scores = np.arange(8000.0)
        hashes = kernels.label_hashes(offsets, data)
        for number in range(3):
            spill.add(offsets, data, codes, scores + 8000 * number, np.uint64(0xFFFFFFFFFFFFFFFF), 3)
        spill.finish()
        starts = [int(w) % 4096 for p in range(4) for w in spill.segments(p)[0]]
        assert any(starts)  # chunks not on page boundaries
        for p in range(4):
            back_scores, back_codes, back_offsets, back_data = kernels.gather_segments(spill.read(p))
            mine = np.flatnonzero((hashes >> np.uint64(62)) == p)
            assert sorted(back_scores.tolist()) == sorted(np.concatenate([scores[mine] + 8000 * b
                                                                          for b in range(3)]).tolist())
            order = np.argsort(back_scores, kind="stable")
            text = ingest._arrow_labels(back_offsets, back_data).take(order).to_pylist()
            assert text == [labels[int(i) % 8000].as_py() for i in np.sort(back_scores).astype(int)]
            assert back_codes[order].tolist() == [int(i) % 8000 % 3 for i in np.sort(back_scores).astype(int)]
    finally:
        spill.close()


def test_two_threads_filling_small_slots_lose_no_row(tmp_path, monkeypatch):
    # slots of two pages: the buffers fill and are written every few batches while the other thread lays
    # out its own; every row must come back once, in its partition (the reference: the rows put in)
    import threading

    monkeypatch.setattr(ingest, "_SPILL_BUFFER", 0)
    monkeypatch.setattr(ingest, "_MIN_SLOT", 2 * 4096)
    spill = ingest._Spill(str(tmp_path), 2, rows=10)
    labels = pa.array([f"x{i:04d}" for i in range(40)])
    offsets, data = ingest._string_buffers(labels)
    hashes = kernels.label_hashes(offsets, data)
    codes = np.zeros(40, dtype=np.int32)

    def fill(first):
        for batch in range(first, 400, 2):
            spill.add(offsets, data, codes, np.arange(40.0) + 40 * batch, np.uint64(0xFFFFFFFFFFFFFFFF), 1)

    try:
        threads = [threading.Thread(target=fill, args=(t,)) for t in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        spill.finish()
        assert spill.counts.sum() == 16000 and len(spill.index()[0]) > 8  # many buffers written
        for p in range(4):
            back = np.sort(kernels.gather_segments(spill.read(p))[0])
            expected = np.sort([40.0 * b + i for b in range(400) for i in range(40) if hashes[i] >> np.uint64(62) == p])
            np.testing.assert_array_equal(back, expected)
    finally:
        spill.close()


def test_statistics_from_an_ingested_store_equal_the_in_memory_ones(tmp_path):
    frame = _tidy()
    frame.sample(frac=1.0, random_state=4).to_parquet(tmp_path / "s.parquet", row_group_size=120)
    lazy = store.parquet_to_zarr(tmp_path / "s.parquet", tmp_path / "s.zarr", metric="accuracy", chunk_datasets=40)
    in_memory = mcda.score_cube(frame, metric="accuracy")
    for function in (mcda.friedman_test, mcda.pairwise_counts):
        with pytest.warns(mcda.MissingDataWarning) if function is mcda.friedman_test else _nothing():
            here = function(in_memory).to_frame()
        with pytest.warns(mcda.MissingDataWarning) if function is mcda.friedman_test else _nothing():
            there = function(lazy).to_frame()
        pd.testing.assert_frame_equal(here.reset_index(drop=True), there.reset_index(drop=True))


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_integer_and_dictionary_labels_and_integer_scores(tmp_path):
    table = pa.table({"item": pa.array([3, 1, 3, 1, 2], pa.int64()),
                      "model": pa.array(["b", "a", "a", "b", "a"]).dictionary_encode(),
                      "value": pa.array([1, 0, 1, 1, 0], pa.int32())})
    pq.write_table(table, tmp_path / "t.parquet")
    cube = store.parquet_to_zarr(tmp_path / "t.parquet", tmp_path / "t.zarr", metric="accuracy",
                                 columns={"dataset": "item", "method": "model", "score": "value"})
    frame = pd.DataFrame({"dataset": ["3", "1", "3", "1", "2"], "method": ["b", "a", "a", "b", "a"],
                          "score": [1.0, 0.0, 1.0, 1.0, 0.0]})
    _check_matches(cube.compute(), frame)


# --------------------------------------------------------------------------- refused files


def _duplicated_far_apart(n=200, k=4) -> pd.DataFrame:
    frame = pd.DataFrame({"dataset": np.repeat([f"d{i}" for i in range(n)], k), "method": np.tile(list("wxyz"), n),
                          "score": np.linspace(0, 1, n * k)})
    extra = pd.DataFrame({"dataset": ["d3"], "method": ["y"], "score": [0.5]})
    return pd.concat([frame, extra], ignore_index=True)  # row 800 repeats row 14, hundreds of rows (and chunks) later


@pytest.mark.parametrize("rows_in_memory", [64, 2_000_000])
def test_a_duplicate_across_row_groups_and_chunks_is_refused_with_its_rows(tmp_path, rows_in_memory):
    frame = _duplicated_far_apart()
    frame.to_parquet(tmp_path / "dup.parquet", row_group_size=100, index=False)
    frame.to_csv(tmp_path / "dup.csv", index=False)
    message = r"duplicate rows: dataset 'd3', method 'y' appears 2 times \(rows 14, 800\)"
    with pytest.raises(ValueError, match=message):
        store.parquet_to_zarr(tmp_path / "dup.parquet", tmp_path / "dup.zarr", metric="accuracy", chunk_datasets=16,
                              rows_in_memory=rows_in_memory)
    assert not (tmp_path / "dup.zarr").exists()  # no half-written store is left behind
    with pytest.raises(ValueError, match=message):
        store.csv_to_zarr(tmp_path / "dup.csv", tmp_path / "dup.zarr", metric="accuracy", chunk_datasets=16,
                          rows_in_memory=rows_in_memory)


@pytest.mark.parametrize("metric, direction, message", [
    (None, None, "pass `metric=`"),
    ("runtime", "higher_is_better", "contradicts the card"),
    (None, "upwards", "direction"),
])
def test_a_bad_metric_is_refused_before_any_row_is_read(tmp_path, monkeypatch, metric, direction, message):
    # (a 100,000,000-row file took minutes of pass 1 before the missing `metric=` was named)
    _tidy().to_parquet(tmp_path / "s.parquet", index=False)

    def no_reading(*args, **kwargs):
        raise AssertionError("pass 1 started before the metric was checked")

    monkeypatch.setattr(ingest, "_partition", no_reading)
    with pytest.raises(mcda.McdaArgumentError, match=message):
        store.parquet_to_zarr(tmp_path / "s.parquet", tmp_path / "s.zarr", metric=metric, direction=direction)
    assert not (tmp_path / "s.zarr").exists()


def test_without_dask_the_install_line_comes_before_any_row_is_read(tmp_path, monkeypatch):
    import sys

    _tidy().to_parquet(tmp_path / "s.parquet", index=False)

    def no_reading(*args, **kwargs):
        raise AssertionError("pass 1 started before dask was checked")

    monkeypatch.setattr(ingest, "_partition", no_reading)
    monkeypatch.setitem(sys.modules, "dask", None)  # as if the extra were not installed
    with pytest.raises(ImportError, match=r"pip install 'mcda\[dask\]'"):
        store.parquet_to_zarr(tmp_path / "s.parquet", tmp_path / "s.zarr", metric="accuracy")


def test_a_failure_of_the_warm_up_thread_stops_the_conversion(tmp_path, monkeypatch):
    # (the thread that imports zarr and dask and loads pass 2's kernels while pass 1 runs)
    _tidy().to_parquet(tmp_path / "s.parquet", index=False)

    def broken(self):
        self._error = ImportError("zarr is broken")

    monkeypatch.setattr(ingest._WarmUp, "_run", broken)
    with pytest.raises(ImportError, match="zarr is broken"):
        store.parquet_to_zarr(tmp_path / "s.parquet", tmp_path / "s.zarr", metric="accuracy")
    assert not (tmp_path / "s.zarr").exists()


@pytest.mark.parametrize("first", [np.nan, 0.4])
def test_a_duplicate_is_refused_even_after_a_missing_score(tmp_path, first):
    tidy = pd.DataFrame({"dataset": ["a", "b", "a", "a", "b"], "method": ["x", "x", "y", "x", "y"],
                         "score": [first, 0.7, 0.6, 0.5, 0.8]})
    tidy.to_parquet(tmp_path / "dup.parquet", row_group_size=2)
    with pytest.raises(ValueError, match=r"duplicate rows: dataset 'a', method 'x' appears 2 times \(rows 0, 3\)"):
        store.parquet_to_zarr(tmp_path / "dup.parquet", tmp_path / "dup.zarr", metric="accuracy", chunk_datasets=1)


def test_non_numeric_scores_are_refused_with_their_rows(tmp_path):
    frame = pd.DataFrame({"dataset": [f"d{i // 2}" for i in range(300)], "method": ["x", "y"] * 150,
                          "score": [str(0.5)] * 300})
    frame.loc[257, "score"] = "n/a?"
    frame.loc[3, "score"] = "abc"
    frame.loc[10, "score"] = ""  # blank: a missing result, as in memory
    frame.to_parquet(tmp_path / "text.parquet", row_group_size=64)
    message = r"scores must be numeric; non-numeric values at row 3 \(dataset 'd1', method 'y'\): 'abc'"
    with pytest.raises(ValueError, match=message):
        store.parquet_to_zarr(tmp_path / "text.parquet", tmp_path / "t.zarr", metric="accuracy")
    # the same text in a CSV: pandas' reader flags the same cells as non-numeric
    frame.to_csv(tmp_path / "text.csv", index=False)
    parsed = pd.to_numeric(pd.read_csv(tmp_path / "text.csv")["score"], errors="coerce")
    assert list(np.flatnonzero(parsed.isna())) == [3, 10, 257]  # 10 is the blank field
    with pytest.raises(ValueError, match=message + r".*row 257 \(dataset 'd128', method 'y'\): 'n/a\?'"):
        store.csv_to_zarr(tmp_path / "text.csv", tmp_path / "t.zarr", metric="accuracy", rows_in_memory=100)
    assert not (tmp_path / "t.zarr").exists()


def test_row_groups_read_by_two_threads_give_file_row_numbers_and_the_first_bad_row(tmp_path, monkeypatch):
    # rows_in_memory=400: batches of up to 100 rows, so runs of two row groups of 50 (a batch each),
    # dealt to the two reading threads in turn (rows 1300-1399 are the second thread's); the rows are
    # named by their place in the file, and the first bad row in file order is the one reported
    n = 2000
    frame = pd.DataFrame({"dataset": [f"d{i // 2}" for i in range(n)], "method": ["x", "y"] * (n // 2),
                          "score": ["0.5"] * n})
    frame.loc[1334, "score"] = "bad"
    frame.loc[1777, "score"] = "later"
    frame.to_parquet(tmp_path / "t.parquet", row_group_size=50)
    source = ingest._ParquetSource(tmp_path / "t.parquet", {r: r for r in ingest._ROLES}, 100)
    first, second = source.readers(False, 2)
    assert [item[0] for item in first if item is not None][:4] == [0, 50, 200, 250]
    assert [item[0] for item in second if item is not None][:4] == [100, 150, 300, 350]
    assert [row for row, _ in ingest._prefetched(source.readers(False, 2))] == list(range(0, n, 50))
    message = r"non-numeric values at row 1334 \(dataset 'd667', method 'x'\): 'bad'"
    with pytest.raises(ValueError, match=message):
        store.parquet_to_zarr(tmp_path / "t.parquet", tmp_path / "t.zarr", metric="accuracy", rows_in_memory=400)
    # the same store with one reading thread, and with the batches laid out seven rows at a time
    good = frame.assign(score=np.linspace(0.0, 1.0, n))
    good.to_parquet(tmp_path / "g.parquet", row_group_size=50)
    two = store.parquet_to_zarr(tmp_path / "g.parquet", tmp_path / "two.zarr", metric="accuracy", rows_in_memory=400)
    monkeypatch.setattr(ingest, "_PARQUET_READERS", 1)
    monkeypatch.setattr(ingest, "_LAYOUT_ROWS", 7)
    one = store.parquet_to_zarr(tmp_path / "g.parquet", tmp_path / "one.zarr", metric="accuracy", rows_in_memory=400)
    _same_store(two.compute(), one.compute())
    _check_matches(two.compute(), good)


def test_csv_missing_markers_are_missing_results(tmp_path):
    text = "dataset,method,score\na,x,0.5\na,y,NA\nb,x,\nb,y,0.25\nNA,x,0.1\n"
    (tmp_path / "m.csv").write_text(text)
    cube = store.csv_to_zarr(tmp_path / "m.csv", tmp_path / "m.zarr", metric="accuracy").compute()
    # pandas reads the same text with the same missing markers (labels aside: a dataset may be called "NA")
    expected = pd.read_csv(io.StringIO(text), keep_default_na=False, na_values={"score": ["", "NA"]})
    _check_matches(cube, expected)


def test_infinite_and_boolean_scores_and_empty_labels_are_refused(tmp_path):
    frame = pd.DataFrame({"dataset": ["a", "a", "b"], "method": ["x", "y", "x"], "score": [0.1, np.inf, 0.3]})
    frame.to_parquet(tmp_path / "inf.parquet")
    with pytest.raises(ValueError, match=r"infinite values at row 1 \(dataset 'a', method 'y'\): inf"):
        store.parquet_to_zarr(tmp_path / "inf.parquet", tmp_path / "x.zarr", metric="accuracy")
    frame.assign(score=[True, False, True]).to_parquet(tmp_path / "bool.parquet")
    with pytest.raises(ValueError, match="scores must be numeric; the score column 'score' holds bool"):
        store.parquet_to_zarr(tmp_path / "bool.parquet", tmp_path / "x.zarr", metric="accuracy")
    frame.assign(dataset=["a", None, ""], score=0.5).to_parquet(tmp_path / "empty.parquet")
    with pytest.raises(ValueError, match=r"the dataset column 'dataset' is empty in rows 1, 2"):
        store.parquet_to_zarr(tmp_path / "empty.parquet", tmp_path / "x.zarr", metric="accuracy")
    (tmp_path / "e.csv").write_text("dataset,method,score\na,x,0.5\n,x,0.5\n")
    with pytest.raises(ValueError, match=r"the dataset column 'dataset' is empty in rows 1"):
        store.csv_to_zarr(tmp_path / "e.csv", tmp_path / "x.zarr", metric="accuracy")


def test_bad_arguments_name_themselves(tmp_path):
    frame = pd.DataFrame({"dataset": ["a"], "method": ["x"], "score": [0.5]})
    frame.to_parquet(tmp_path / "f.parquet")
    with pytest.raises(ValueError, match=r"no column\(s\) 'acc'; its columns are 'dataset', 'method', 'score'"):
        store.parquet_to_zarr(tmp_path / "f.parquet", tmp_path / "x.zarr", columns={"score": "acc"})
    with pytest.raises(ValueError, match="`columns` keys must be among"):
        store.parquet_to_zarr(tmp_path / "f.parquet", tmp_path / "x.zarr", columns={"seed": "s"})
    with pytest.raises(ValueError, match="`rows_in_memory` must be an integer >= 2; got 1"):
        store.parquet_to_zarr(tmp_path / "f.parquet", tmp_path / "x.zarr", rows_in_memory=1)
    with pytest.raises(FileNotFoundError, match="`csv`"):
        store.csv_to_zarr(tmp_path / "nope.csv", tmp_path / "x.zarr")
    two = pd.DataFrame({"dataset": ["a", "a"], "method": ["x", "y"], "score": [0.5, 0.6]})
    two.to_parquet(tmp_path / "two.parquet")
    store.parquet_to_zarr(tmp_path / "two.parquet", tmp_path / "y.zarr", metric="accuracy")
    with pytest.raises(FileExistsError, match="pass overwrite=True"):
        store.parquet_to_zarr(tmp_path / "two.parquet", tmp_path / "y.zarr", metric="accuracy")
    two.assign(score="x").to_parquet(tmp_path / "bad.parquet")
    with pytest.raises(ValueError, match="non-numeric"):
        store.parquet_to_zarr(tmp_path / "bad.parquet", tmp_path / "y.zarr", metric="accuracy", overwrite=True)
    assert store.open_cube(tmp_path / "y.zarr").sizes["dataset"] == 1  # a refused file leaves the old store alone
    with pytest.raises(ValueError, match="`work_dir`"):
        store.parquet_to_zarr(tmp_path / "f.parquet", tmp_path / "x.zarr", work_dir=tmp_path / "nope")


# --------------------------------------------------------------------------- compatibility and progress


def test_a_store_written_by_the_previous_writer_still_opens(tmp_path):
    copy = tmp_path / "old.zarr"
    shutil.copytree(DATA / "scores.zarr", copy)
    cube = store.open_cube(copy)
    assert store.is_lazy(cube) and cube.attrs["metric"] == "accuracy"
    # the table in tests/data/zarr_store_v0/PROVENANCE.md
    frame = pd.DataFrame({"dataset": ["b-2", "b-2", "b-2", "a1", "a1", "a1", "café", "café", "zz", "zz", "zz"],
                          "method": ["x", "y", "z", "x", "y", "z", "x", "z", "x", "y", "z"],
                          "score": [0.5, 0.6, 0.7, 0.9, 0.8, 0.7, 0.1, 0.3, 0.4, 0.4, 0.2]})
    assert list(cube.coords["dataset"].values) == ["b-2", "a1", "café", "zz"]  # its own (file) order
    _check_matches(cube.compute(), frame)
    # and the new writer stores the same cube (in its own order)
    frame.to_parquet(tmp_path / "f.parquet")
    new = store.parquet_to_zarr(tmp_path / "f.parquet", tmp_path / "new.zarr", metric="accuracy")
    import xarray as xr

    xr.testing.assert_equal(new.sortby("dataset").compute(), cube.sortby("dataset").compute())  # attrs aside:
    assert new.attrs["metric"] == cube.attrs["metric"]  # the card's text has grown fields since


def test_progress_lines_for_ingestion_and_lazy_statistics(tmp_path, capsys):
    frame = _tidy(n=100)
    frame.to_parquet(tmp_path / "f.parquet", row_group_size=50)
    sink = io.StringIO()
    with store.progress(out=sink):
        cube = store.parquet_to_zarr(tmp_path / "f.parquet", tmp_path / "f.zarr", metric="accuracy",
                                     chunk_datasets=20, rows_in_memory=100)
        with pytest.warns(mcda.MissingDataWarning):
            mcda.friedman_test(cube)
    text = sink.getvalue()
    assert f"mcda: reading Parquet (pass 1 of 2): {len(frame):,} / {len(frame):,} rows (100%)" in text
    assert f"mcda: writing the store (pass 2 of 2): {len(frame):,} / {len(frame):,} rows (100%)" in text
    assert "[########################################] | 100% Completed" in text  # dask's bar
    quiet = io.StringIO()
    with store.progress(False, out=quiet):
        store.parquet_to_zarr(tmp_path / "f.parquet", tmp_path / "g.zarr", metric="accuracy")
    assert quiet.getvalue() == ""
    capsys.readouterr()
    store.parquet_to_zarr(tmp_path / "f.parquet", tmp_path / "h.zarr", metric="accuracy")  # default: automatic,
    assert capsys.readouterr().err == ""  # and standard error is not a terminal here
    with pytest.raises(ValueError, match="`minimum` must be a number of seconds >= 0; got -1"):
        with store.progress(minimum=-1):
            pass


# --------------------------------------------------------------------------- kernels against plain Python


def _fnv_mix(text: str) -> int:
    mask = (1 << 64) - 1
    h = 0xCBF29CE484222325
    data = text.encode("utf-8")
    words = len(data) // 4
    for i in range(words):  # FNV-1a over little-endian 32-bit words, then the last bytes
        h = ((h ^ int.from_bytes(data[4 * i:4 * i + 4], "little")) * 0x100000001B3) & mask
    for b in data[4 * words:]:
        h = ((h ^ b) * 0x100000001B3) & mask
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & mask
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & mask
    return h ^ (h >> 31)


LABELS = ["", "a", "d1", "d1 ", "café", "数据集", "😀x", "d1", "item00012345", "abcd", "abcde", "ŝ数😀ab"]


def _buffers(labels):
    return ingest._string_buffers(pa.array(labels))


def test_label_hashes_are_fnv1a_then_splitmix():
    offsets, data = _buffers(LABELS)
    assert kernels.label_hashes(offsets, data).tolist() == [_fnv_mix(s) for s in LABELS]
    # a sliced Arrow array (an offset into its buffers) reads the right labels
    offsets, data = ingest._string_buffers(pa.array(LABELS).slice(2, 3))
    assert kernels.label_hashes(offsets, data).tolist() == [_fnv_mix(s) for s in LABELS[2:5]]


def test_code_points_and_utf8_decoding_match_python():
    offsets, data = _buffers(LABELS)
    width = kernels.max_code_points(offsets, data)
    assert width == max(len(s) for s in LABELS)
    part = np.empty(len(LABELS), dtype=np.int64)  # pass 1 counts them while it hashes
    _, _, points, longest, empty, shortest, prefix = kernels.batch_partitions(offsets, data, kernels.ALL_BITS, 64, 1,
                                                                               part)
    assert points == width and longest == max(len(s.encode()) for s in LABELS) and empty == 1
    assert shortest == 0 and prefix == 0
    for label in LABELS:  # one at a time: the ASCII shortcut and the code point count agree with Python
        one_offsets, one_data = _buffers([label])
        assert kernels.batch_partitions(one_offsets, one_data, kernels.ALL_BITS, 64, 1, part[:1])[2] == len(label)
    rows = np.array([5, 0, 6, 4], dtype=np.int64)
    decoded = kernels.utf8_to_ucs4(offsets, data, rows, width).view(f"<U{width}").reshape(-1)
    assert decoded.tolist() == [LABELS[i] for i in rows]


def _segments_by_python(labels, codes, scores, partition_of, code_width, length_width):
    """The segment layout of kernels.lay_out_segments (at segment_starts) written with struct, partition by partition:
    the prefix all the batch's labels share once per segment, then the rest of each label."""
    import os
    import struct

    encoded = [t.encode() for t in labels]
    prefix = os.path.commonprefix(encoded)
    out, starts = b"", [0]
    for p in range(max(partition_of) + 1):
        rows = [i for i in range(len(labels)) if partition_of[i] == p]
        if rows:
            rest = [encoded[i][len(prefix):] for i in rows]
            stream = b"".join(codes[i].item().to_bytes(code_width, "little")
                              + (len(t).to_bytes(length_width, "little") if length_width else b"") + t
                              for i, t in zip(rows, rest))
            uniform = max(map(len, encoded))  # the batch's longest label (all of them when no lengths)
            widths = code_width | length_width << 8 | len(prefix) << 16
            out += struct.pack("<qqqq", len(rows), sum(map(len, rest)), widths, uniform)
            out += prefix + b"\0" * (-len(prefix) % 8)
            out += struct.pack(f"<{len(rows)}d", *[scores[i] for i in rows])
            out += stream + b"\0" * (-len(stream) % 8)
        starts.append(len(out))
    return out, starts


def _segments(labels, codes, scores, bits, code_width, length_width):
    offsets, data = _buffers(labels)
    part = np.empty(len(labels), dtype=np.int64)
    counts, sizes, _, _, _, _, prefix = kernels.batch_partitions(offsets, data, kernels.ALL_BITS, 64 - bits, 1 << bits,
                                                                 part)
    out = np.full(1000, -1, dtype=np.int64)  # padding is zeroed, whatever was there
    starts = kernels.segment_starts(counts, sizes, code_width, length_width, prefix)  # one after the other
    kernels.lay_out_segments(offsets, data, codes, scores, part, counts, sizes, code_width, length_width, prefix,
                             starts[:-1], out)
    return out[:starts[-1] // 8], starts


def test_partitioning_and_segments_match_plain_python():
    labels = ["b", "a", "bb", "c", "a", "b", "数"]
    offsets, data = _buffers(labels)
    codes, scores = np.arange(7, dtype=np.int32), np.arange(7.0)
    # partitions from the top two bits of the hash
    expected_part = [_fnv_mix(s) >> 62 for s in labels]
    part = np.empty(len(labels), dtype=np.int64)
    counts, sizes, width, longest, empty, shortest, prefix = kernels.batch_partitions(offsets, data, kernels.ALL_BITS,
                                                                                      62, 4, part)
    assert part.tolist() == expected_part and width == 2 and longest == 3 and empty == 0
    assert shortest == 1 and prefix == 0
    assert counts.tolist() == [expected_part.count(p) for p in range(4)]
    assert sizes.tolist() == [sum(len(s.encode()) for s, q in zip(labels, expected_part) if q == p) for p in range(4)]
    assert [kernels.width_for(v) for v in (0, 255, 256, 65535, 65536)] == [1, 1, 2, 2, 4]
    codes = np.array([0, 1, 2, 300, 4, 70000, 6], dtype=np.int32)
    for group in (labels, ["item0042", "item0007", "item0042x", "item00", "item0007"],  # a shared prefix
                  ["ab12", "ab34", "ab12", "ab99"]):  # one length: no lengths stored
        same = len({len(t.encode()) for t in group}) == 1
        n = len(group)
        for code_width, length_width in ((4, 1), (4, 2), (4, 4), (1, 1)) if not same else ((4, 0), (1, 0)):
            small = codes[:n] if code_width == 4 else np.arange(n, dtype=np.int32)
            out, starts = _segments(group, small, scores[:n], 2, code_width, length_width)
            where = [_fnv_mix(s) >> 62 for s in group]
            reference, reference_starts = _segments_by_python(group, small, scores[:n], where + [3], code_width,
                                                              length_width)
            assert starts.tolist() == reference_starts and out.view(np.uint8).tobytes() == reference
            # gathered back, partition by partition: the rows of each partition in their order, labels whole
            back_scores, back_codes, back_offsets, back_data = kernels.gather_segments(out)
            order = sorted(range(n), key=lambda i: where[i])  # stable by partition
            rebuilt = pa.Array.from_buffers(pa.large_string(), n, [None, pa.py_buffer(back_offsets),
                                                                   pa.py_buffer(back_data)])
            assert rebuilt.to_pylist() == [group[i] for i in order]
            assert back_codes.tolist() == small[order].tolist() and back_scores.tolist() == [float(i) for i in order]
            assert kernels.rows_in_segments(out)[0] == n
    # an empty label is counted; one partition needs no hash bits
    offsets, data = _buffers(["a", "", "b", ""])
    part = np.empty(4, dtype=np.int64)
    counts, sizes, width, longest, empty, shortest, prefix = kernels.batch_partitions(offsets, data, kernels.ALL_BITS,
                                                                                      64, 1, part)
    assert part.tolist() == [0] * 4 and counts.tolist() == [4] and sizes.tolist() == [2] and empty == 2


@pytest.mark.parametrize("shared", ["", "run-2026/"])
def test_segments_of_labels_of_every_length_match_plain_python(shared):
    """Labels of 1 to 40 bytes (ASCII and not), most of them read and written 8 bytes at a time and the buffer's
    last ones byte by byte: the same bytes as the struct reference, and nothing written past the one word
    lay_out_segments may use beyond the last segment."""
    rng = np.random.default_rng(11)
    alphabet = list("abcdefghijklmnopqrstuvwxyz0123456789_-") + ["é", "数"]
    labels = [shared + "".join(rng.choice(alphabet, size=int(rng.integers(1, 30)))) for _ in range(300)]
    n = len(labels)
    offsets, data = _buffers(labels)
    scores = rng.random(n)
    bits = 3
    part = np.empty(n, dtype=np.int64)
    counts, sizes, _, longest, _, shortest, prefix = kernels.batch_partitions(offsets, data, kernels.ALL_BITS, 64 - bits,
                                                                              1 << bits, part)
    assert prefix >= len(shared.encode())
    where = [_fnv_mix(t) >> (64 - bits) for t in labels]
    assert part.tolist() == where
    for code_width, length_width in ((1, 1), (2, 1), (4, 2), (4, 4), (1, 4)):
        codes = rng.integers(0, 1 << min(8 * code_width, 31) - 1, n).astype(np.int32)
        starts = kernels.segment_starts(counts, sizes, code_width, length_width, prefix)
        out = np.full(starts[-1] // 8 + 2, -1, dtype=np.int64)  # one word it may use past the end, one it may not
        kernels.lay_out_segments(offsets, data, codes, scores, part, counts, sizes, code_width, length_width, prefix,
                                 starts[:-1], out)
        reference, reference_starts = _segments_by_python(labels, codes, scores, where + [(1 << bits) - 1], code_width,
                                                          length_width)
        assert starts.tolist() == reference_starts
        assert out[:starts[-1] // 8].view(np.uint8).tobytes() == reference
        assert out[-1] == -1


def _assembled_by_python(labels, columns, scores, mask, n_columns):
    """Groups in first-appearance order (labels compared as text), their masked hashes, the block and
    the repeated (group, column) cells."""
    groups = list(dict.fromkeys(labels))
    block = np.full((len(groups), n_columns), np.nan)
    given, repeated = set(), []
    for label, c, v in zip(labels, columns, scores):
        g = groups.index(label)
        if (g, c) in given:
            repeated.append((g, c))
        else:
            given.add((g, c))
            block[g, c] = v
    return groups, [_fnv_mix(t) & mask for t in groups], block, repeated


@pytest.mark.parametrize("mask", [kernels.ALL_BITS, np.uint64(0)])  # 0: every label on one hash
def test_assembling_a_partition_matches_plain_python(mask):
    rng = np.random.default_rng(5)
    labels = [f"d{i}" for i in range(40)] + ["café", "数据集", "d1 ", "item0000001"]
    rows = [(t, c) for t in labels for c in range(3) if rng.random() < 0.8] + [("d3", 1), ("café", 2), ("d3", 1)]
    rows = [rows[i] for i in rng.permutation(len(rows))]
    text, provisional = [t for t, _ in rows], np.array([c for _, c in rows], dtype=np.int32)
    recode = np.array([2, 0, 1])  # provisional code c is column recode[c]
    scores = rng.random(len(rows))
    scores[3] = np.nan  # a missing result is stored as NaN (not as "no row")
    # several segments (two batches of pass 1), as a partition read back from the spill file
    half = len(rows) // 2
    first, _ = _segments(text[:half], provisional[:half], scores[:half], 0, 1, 1)
    second, _ = _segments(text[half:], provisional[half:], scores[half:], 0, 1, 1)
    buffer = np.concatenate([first, second])
    scratch = kernels.Scratch(3, 8)
    for _ in range(2):  # the scratch is reused: the same result the second time
        cells, hashes, offsets, data, repeated, n_repeated = kernels.assemble_segments(buffer, mask, recode, 3, 8,
                                                                                     scratch)
        groups, expected_hashes, expected_block, expected_repeated = _assembled_by_python(
            text, recode[provisional].tolist(), scores, int(mask), 3)
        got = pa.Array.from_buffers(pa.large_string(), len(hashes), [None, pa.py_buffer(offsets.copy()),
                                                                     pa.py_buffer(data.copy())]).to_pylist()
        assert got == groups and hashes.tolist() == expected_hashes
        assert [tuple(r) for r in repeated.tolist()] == expected_repeated[:8] and n_repeated == len(expected_repeated)
        order = np.arange(len(groups))[::-1].copy()
        np.testing.assert_array_equal(kernels.take_rows(cells, order), expected_block[order])
    # in (hash, label) order, also when every hash is the same
    order = ingest._order(hashes, lambda g: [groups[i] for i in g])
    assert [groups[i] for i in order] == sorted(groups, key=lambda t: (_fnv_mix(t) & int(mask), t))
    # one row a dataset and long labels: the groups, the table and the text outgrow the first guess
    long = [f"a-long-dataset-label-of-forty-bytes-{i:04d}" for i in range(60)]
    buffer, _ = _segments(long, np.zeros(60, dtype=np.int32), np.arange(60.0), 0, 1, 0)
    cells, hashes, offsets, data, repeated, n_repeated = kernels.assemble_segments(buffer, mask, recode, 3, 8, scratch)
    got = pa.Array.from_buffers(pa.large_string(), len(hashes), [None, pa.py_buffer(offsets.copy()),
                                                                 pa.py_buffer(data.copy())]).to_pylist()
    assert got == long and n_repeated == 0 and scratch.capacity >= 60
    np.testing.assert_array_equal(kernels.take_rows(cells, np.arange(60)), [[np.nan, np.nan, i] for i in range(60)])


@pytest.mark.parametrize("prefix", ["d", "a-dataset-label-longer-than-sixteen-bytes-"])
def test_more_repeats_than_are_kept_are_counted_and_the_first_score_stays(prefix):
    """Twelve rows repeat a given cell, eight are kept to be named (in row order) and all are counted;
    the cell keeps the first row's score. Short and long labels (the two assembly loops)."""
    rows = [(f"{prefix}{i}", c) for i in range(5) for c in range(2)] + [(f"{prefix}{i % 3}", i % 2) for i in range(12)]
    text, codes = [t for t, _ in rows], np.array([c for _, c in rows], dtype=np.int32)
    scores = np.arange(len(rows), dtype=float)
    buffer, _ = _segments(text, codes, scores, 0, 1, 1)
    cells, hashes, offsets, data, repeated, n_repeated = kernels.assemble_segments(buffer, kernels.ALL_BITS,
                                                                                 np.array([0, 1]), 2, 8)
    groups, _, expected_block, expected_repeated = _assembled_by_python(text, codes.tolist(), scores,
                                                                        int(kernels.ALL_BITS), 2)
    assert n_repeated == 12 == len(expected_repeated)
    assert [tuple(r) for r in repeated.tolist()] == expected_repeated[:8]
    np.testing.assert_array_equal(kernels.take_rows(cells, np.arange(len(groups))), expected_block)
    assert expected_block[0, 0] == 0.0  # (the reference keeps the first score too)


def test_a_word_at_any_byte_is_the_bytes_there():
    raw = np.random.default_rng(1).integers(0, 256, 32, dtype=np.uint8)
    words = raw.view(np.uint64)
    for b in range(32):  # to the array's last byte (the next word is then the last one again)
        for n in range(-1, min(8, 32 - b) + 1):
            expected = int.from_bytes(raw[b:b + max(n, 0)].tobytes(), "little")
            assert int(kernels._word_at(words, b, n)) == expected, (b, n)


@pytest.mark.parametrize("code_width, length_width", [(1, 1), (2, 2), (4, 4), (1, 4), (4, 1)])
def test_assembling_reads_every_width_of_code_and_length(code_width, length_width):
    rng = np.random.default_rng(6)
    labels = ["p-" + "x" * (i % 15) + str(i) for i in range(30)] + ["q", "数据集"]  # 1 to 16 bytes, a prefix or not
    rows = [(t, c) for t in labels for c in range(3)]
    rows = [rows[i] for i in rng.permutation(len(rows))]
    text, provisional = [t for t, _ in rows], np.array([c for _, c in rows], dtype=np.int32)
    scores = rng.random(len(rows))
    recode = np.array([1, 2, 0])
    half = len(rows) // 3
    buffer = np.concatenate([_segments(text[:half], provisional[:half], scores[:half], 0, code_width, length_width)[0],
                             _segments(text[half:], provisional[half:], scores[half:], 0, code_width, length_width)[0]])
    cells, hashes, offsets, data, repeated, n_repeated = kernels.assemble_segments(buffer, kernels.ALL_BITS, recode,
                                                                                 3, 8)
    groups, expected_hashes, expected_block, _ = _assembled_by_python(text, recode[provisional].tolist(), scores,
                                                                      int(kernels.ALL_BITS), 3)
    got = pa.Array.from_buffers(pa.large_string(), len(hashes), [None, pa.py_buffer(offsets.copy()),
                                                                 pa.py_buffer(data.copy())]).to_pylist()
    assert got == groups and hashes.tolist() == expected_hashes and n_repeated == 0
    np.testing.assert_array_equal(kernels.take_rows(cells, np.arange(len(groups))), expected_block)


def test_the_work_folder_is_removed(tmp_path):
    import threading

    frame = _tidy(n=60)
    frame.to_parquet(tmp_path / "f.parquet", row_group_size=50)
    work = tmp_path / "work"
    work.mkdir()
    store.parquet_to_zarr(tmp_path / "f.parquet", tmp_path / "f.zarr", metric="accuracy", rows_in_memory=100,
                          work_dir=work)
    for thread in threading.enumerate():  # (removed in a thread once the store is written)
        if thread.name == "mcda-ingest-cleanup":
            thread.join()
    assert list(work.iterdir()) == []
    with pytest.raises(ValueError, match="duplicate rows"):  # a refused file: removed before the error
        pd.concat([frame, frame.iloc[:1]]).to_parquet(tmp_path / "d.parquet")
        store.parquet_to_zarr(tmp_path / "d.parquet", tmp_path / "d.zarr", metric="accuracy", work_dir=work)
    assert list(work.iterdir()) == []


def test_the_shared_prefix_is_the_labels_common_prefix():
    # the reference: os.path.commonprefix of the UTF-8 bytes; prefixes ending inside and beyond the first 8 bytes,
    # labels shorter than 8 bytes, one label, a label that is the others' prefix
    rng = np.random.default_rng(7)
    cases = [["item0001", "item0002", "item0101"], ["https://example.org/a/1", "https://example.org/a/22",
                                                   "https://example.org/b"], ["abcdefghij", "abcdefghij"],
             ["abc", "abcd", "ab"], ["x"], ["a", "b"], ["café-1", "café-2", "cafë"], ["longer-label-1", "longer"]]
    for _ in range(200):
        stem = "".join(rng.choice(list("ab/é"), size=rng.integers(0, 14)))
        cases.append([stem + "".join(rng.choice(list("ab"), size=rng.integers(0, 4))) for _ in range(rng.integers(1, 6))])
    for labels in cases:
        offsets, data = _buffers(labels)
        part = np.empty(len(labels), dtype=np.int64)
        *_, prefix = kernels.batch_partitions(offsets, data, kernels.ALL_BITS, 62, 4, part)
        assert prefix == len(os.path.commonprefix([s.encode() for s in labels])), labels


def test_chunks_compressed_into_a_reused_buffer_equal_numcodecs_encode():
    import numcodecs  # with zarr, in the test extra: never missing where the suite runs
    compress = ingest._blosc_into()
    assert compress is not None  # numcodecs' Blosc library reached
    rng = np.random.default_rng(3)
    arrays = [np.round(rng.normal(0.75, 0.1, (5000, 20)), 3), np.full((300, 7), np.nan),
              np.array([f"item{i:08d}" for i in range(2000)] + ["café", ""], dtype="<U12")]
    for compressor in (numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE),
                       numcodecs.Blosc(cname="zstd", clevel=3, shuffle=numcodecs.Blosc.BITSHUFFLE)):
        for array in arrays:
            out = np.empty(array.nbytes + 16, dtype=np.uint8)
            n = compress(compressor, array, out)
            assert out[:n].tobytes() == bytes(compressor.encode(array))  # the reference: numcodecs itself
