"""The across-dataset pipeline on a real dask.distributed cluster (two worker processes) from Zarr.

Reference: the in-memory path on the very same scores (itself checked against published
tables and scipy in the other test files). Besides equal results, the test checks what runs
where: the client process never reads a chunk of scores (the workers do), and what the
client gathers from the cluster is the per-method sufficient statistics only (a few
kilobytes for a cube of a megabyte).
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
zarr = pytest.importorskip("zarr")

import mcda  # noqa: E402
from mcda import store  # noqa: E402

N_DATASETS, N_METHODS, CHUNK = 12_000, 8, 1_500  # 0.77 MB of scores in 8 chunks


def _cube():
    raw = mcda.datasets.synthetic(n_datasets=N_DATASETS, n_methods=N_METHODS, n_seeds=0,
                                  effects=np.linspace(0, 0.02, N_METHODS), dataset_sd=0.05, noise_sd=0.02, rng=5)
    return mcda.score_cube(np.round(raw.values, 2), metric="accuracy",
                           method_names=list(raw.coords["method"].values),
                           dataset_names=list(raw.coords["dataset"].values))


def _pipeline(cube) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)
        return {
            "ranks": mcda.average_ranks(cube).mean_ranks,
            "friedman": mcda.friedman_test(cube).to_frame(),
            "nemenyi": mcda.compare_over_datasets(cube, test="nemenyi").to_frame(),
            "counts": mcda.pairwise_counts(cube, rope=0.01).to_frame(),
            "sign": mcda.bayesian_sign_comparison(cube, rope=0.01).to_frame(),
        }


def test_the_pipeline_on_a_two_process_cluster_equals_in_memory(tmp_path, monkeypatch):
    cube = _cube()
    path = tmp_path / "cube.zarr"
    store.to_zarr(cube, path, chunk_datasets=CHUNK)
    expected = _pipeline(cube)

    # what the client process reads from the store, and what it gathers from the workers
    from zarr.storage import LocalStore

    read_here: list = []
    real_get = LocalStore.get

    async def get(self, key, *args, **kwargs):
        read_here.append(key)
        return await real_get(self, key, *args, **kwargs)

    monkeypatch.setattr(LocalStore, "get", get)
    from dask.sizeof import sizeof

    gathered: list = []
    real_gather = distributed.Client.gather

    def gather(self, futures, *args, **kwargs):
        out = real_gather(self, futures, *args, **kwargs)
        gathered.append(sizeof(out))
        return out

    monkeypatch.setattr(distributed.Client, "gather", gather)

    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                  worker_dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        lazy = store.open_cube(path)
        got = _pipeline(lazy)
        worker_pids = set(client.run(lambda: __import__("os").getpid()).values())
    assert len(worker_pids) == 2

    pd.testing.assert_series_equal(got["ranks"], expected["ranks"], rtol=0, atol=0)
    for name in ("friedman", "nemenyi", "counts", "sign"):
        pd.testing.assert_frame_equal(got[name], expected[name], check_exact=False, rtol=1e-12, obj=name)

    # the client read labels and metadata only: no chunk of scores (``score/<i>.<j>``)
    import re

    assert "dataset/0" in read_here and not [key for key in read_here if re.fullmatch(r"score/(c/)?\d+[./]\d+", key)]
    # it gathered per-method sufficient statistics: well under the cube's size, and bounded per call
    assert gathered, "nothing went through the cluster"
    assert sum(gathered) < 0.05 * cube.nbytes and max(gathered) < 16 * 1024
