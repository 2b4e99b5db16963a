"""Writing stores loses nothing a user owns: foreign folders refused, one writer, staged and published whole."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("zarr")
pytest.importorskip("pyarrow")

import mcda  # noqa: E402
from mcda import store  # noqa: E402
from mcda.data.stores import COMPLETE, staging_folders, store_entries_not_ours  # noqa: E402

SRC = Path(mcda.__file__).parents[1]


def _cube():
    return mcda.score_cube(np.random.default_rng(0).uniform(0.5, 0.9, (6, 3)), metric="accuracy")


def _parquet(path: Path, n_datasets: int = 50) -> Path:
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"dataset": np.repeat([f"d{i}" for i in range(n_datasets)], 3),
                          "method": np.tile(["a", "b", "c"], n_datasets),
                          "score": rng.uniform(0.5, 0.9, 3 * n_datasets)})
    frame.to_parquet(path)
    return path


def _thesis(tmp_path: Path) -> Path:
    folder = tmp_path / "thesis"
    folder.mkdir()
    (folder / "ch1.tex").write_text("\\chapter{One}\n")
    return folder


@pytest.mark.parametrize("writer", ["to_zarr", "parquet_to_zarr"])
def test_overwrite_refuses_a_folder_that_is_not_a_store(tmp_path, writer):
    folder = _thesis(tmp_path)
    with pytest.raises(FileExistsError, match=r"not a store written by mcda \(it holds 'ch1.tex'\)"):
        if writer == "to_zarr":
            store.to_zarr(_cube(), folder, overwrite=True)
        else:
            store.parquet_to_zarr(_parquet(tmp_path / "s.parquet"), folder, metric="accuracy", overwrite=True)
    assert (folder / "ch1.tex").read_text() == "\\chapter{One}\n"
    assert sorted(os.listdir(tmp_path)) == sorted(["thesis"] + (["s.parquet"] if writer != "to_zarr" else []))


def test_a_store_with_a_file_added_by_hand_is_not_ours_any_more(tmp_path):
    path = tmp_path / "s.zarr"
    store.to_zarr(_cube(), path)
    assert store_entries_not_ours(path) == []
    (path / "notes.txt").write_text("mine")
    assert store_entries_not_ours(path) == ["notes.txt"]
    with pytest.raises(FileExistsError, match="notes.txt"):
        store.to_zarr(_cube(), path, overwrite=True)
    assert (path / "notes.txt").exists()


def test_overwrite_replaces_a_store_of_mcda_whole(tmp_path):
    path = tmp_path / "s.zarr"
    store.to_zarr(_cube(), path)
    store.parquet_to_zarr(_parquet(tmp_path / "s.parquet"), path, metric="accuracy", overwrite=True)
    assert json.loads((path / ".zattrs").read_text())[COMPLETE] is True
    assert store.open_cube(path).sizes["dataset"] == 50
    assert sorted(os.listdir(tmp_path)) == ["s.parquet", "s.zarr"]  # no staging folder, no lock file left


def _run(code: str, **kwargs):
    env = dict(os.environ, PYTHONPATH=str(SRC))
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], env=env, **kwargs)


def test_a_killed_conversion_leaves_the_old_store_and_the_next_one_cleans_up(tmp_path):
    path, work = tmp_path / "s.zarr", tmp_path / "work"
    work.mkdir()
    store.to_zarr(_cube(), path)
    before = store.open_cube(path).values.copy()
    # the conversion is killed (SIGKILL: nothing of it runs after) in pass 2, at its first write
    child = _run(f"""
        import os, signal
        from mcda.ingest import convert
        def killed(self, *args, **kwargs):
            os.kill(os.getpid(), signal.SIGKILL)
        convert._Writer.add = killed
        convert.parquet_to_zarr({str(_parquet(tmp_path / 's.parquet'))!r}, {str(path)!r}, metric="accuracy",
                                overwrite=True, work_dir={str(work)!r})
    """)
    assert child.wait(timeout=300) == -signal.SIGKILL
    np.testing.assert_array_equal(store.open_cube(path).values, before)  # the old store, untouched
    assert staging_folders(path), "the killed writer's staging folder is there to be cleaned"
    assert os.listdir(work), "the killed writer's spill folder is there to be cleaned"
    cube = store.parquet_to_zarr(tmp_path / "s.parquet", path, metric="accuracy", overwrite=True, work_dir=work)
    assert cube.sizes["dataset"] == 50
    assert staging_folders(path) == [] and os.listdir(work) == []


def test_a_second_writer_is_refused_while_the_first_writes(tmp_path):
    path = tmp_path / "s.zarr"
    ready = tmp_path / "ready"
    child = _run(f"""
        import pathlib, time
        from mcda.data.stores import publishing
        with publishing({str(path)!r}, overwrite=False) as staging:
            pathlib.Path({str(ready)!r}).touch()
            time.sleep(60)
    """)
    try:
        deadline = time.monotonic() + 120
        while not ready.exists():
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.05)
        with pytest.raises(FileExistsError, match="is being written by another process"):
            store.to_zarr(_cube(), path)
        with pytest.raises(FileExistsError, match="is being written by another process"):
            store.parquet_to_zarr(_parquet(tmp_path / "s.parquet"), path, metric="accuracy")
    finally:
        child.kill()
        child.wait()
    store.to_zarr(_cube(), path)  # the first writer gone (killed): its lock went with it
    assert store.open_cube(path).sizes["method"] == 3


def test_an_error_in_a_conversion_leaves_nothing_behind(tmp_path):
    bad = tmp_path / "bad.parquet"
    pd.DataFrame({"dataset": ["d0", "d0"], "method": ["a", "a"], "score": [0.5, 0.6]}).to_parquet(bad)
    with pytest.raises(ValueError, match="duplicate rows"):
        store.parquet_to_zarr(bad, tmp_path / "s.zarr", metric="accuracy")
    assert sorted(os.listdir(tmp_path)) == ["bad.parquet"]


@pytest.mark.parametrize("lost", [".zattrs", "score/.zarray", "score/.zattrs", "method", "dataset/.zarray"])
def test_a_half_store_is_recognised_and_named_on_open(tmp_path, lost):
    path = tmp_path / "s.zarr"
    store.to_zarr(_cube(), path)
    part = path / lost
    if part.is_dir():
        import shutil

        shutil.rmtree(part)
    else:
        part.unlink()
    # (without the check: xarray's KeyError, or worse a cube with made-up labels or no card)
    with pytest.raises(mcda.McdaArgumentError, match=rf"`path` '{path}' is an incomplete \(half-written\) Zarr store: "
                                                     rf"it lacks '{lost.split('/')[0]}"):
        store.open_cube(path)


def test_a_store_without_its_completion_mark_beside_a_writers_staging_folder_is_half_written(tmp_path):
    path = tmp_path / "s.zarr"
    store.to_zarr(_cube(), path)
    attrs = json.loads((path / ".zattrs").read_text())
    del attrs[COMPLETE]
    (path / ".zattrs").write_text(json.dumps(attrs))
    assert store.open_cube(path).sizes["method"] == 3  # (a store of an older version: no mark, no writer seen)
    (tmp_path / ".s.zarr.mcda-staging-1").mkdir()  # an interrupted writer's staging folder
    with pytest.raises(mcda.McdaArgumentError, match="incomplete .* lacks 'the completion mark"):
        store.open_cube(path)


def test_a_failed_write_names_the_users_path_not_the_hidden_staging_folder(tmp_path):
    from mcda.data.stores import publishing

    path = tmp_path / "s.zarr"
    store.to_zarr(_cube(), path)
    before = store.open_cube(path).values.copy()
    with pytest.raises(FileNotFoundError) as caught:
        with publishing(path, overwrite=True) as staging:
            (staging / "no-such-folder" / "chunk").write_text("x")  # an OSError inside the staging folder
    assert str(path) in str(caught.value) and "staging" not in str(caught.value)
    np.testing.assert_array_equal(store.open_cube(path).values, before)
    assert sorted(os.listdir(tmp_path)) == ["s.zarr"]
