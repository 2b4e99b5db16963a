"""Lazy (dask-backed) cubes: peak memory on a cube larger than it, and the overhead of going lazy.

Part 1 writes a 10,000,000 datasets × 20 methods accuracy cube to Zarr, generated block by block
(never the whole array in memory: 1.6 GB of float64), then runs each stage in a fresh
subprocess and reports its wall time and peak resident memory (``ru_maxrss``): mean ranks,
Friedman + Iman–Davenport, Nemenyi (compare_over_datasets), pairwise counts, the exact Bayesian
sign comparison of all 190 pairs, and all five in one process.

Part 2 runs the same at 1,000,000 × 20 three ways: in memory (numpy), lazily over the same
in-memory data (``cube.chunk``), and lazily from a Zarr store; best of 3 after a warm-up, and the
ratio lazy / in memory.

Run: python benchmarks/bench_dask.py [--datasets 10000000] [--small 1000000] [--dir DIR] [--part {1,2}]
(several minutes; prints two tables, or the one ``--part`` names; nothing is asserted)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

N_METHODS = 20
CHUNK = 100_000
STAGES = ("mean ranks", "friedman", "nemenyi", "pairwise counts", "bayesian sign", "all five")


def _block(block_id, n_methods, seed):
    """One block of scores: dataset difficulty + method skill + noise, 3 decimals (ties happen), in [0, 1]."""
    def make(x, block_info=None):
        rows = block_info[None]["chunk-shape"][0]
        start = block_info[None]["array-location"][0][0]
        rng = np.random.default_rng([seed, start])
        skill = np.linspace(0.0, 0.01, n_methods)
        values = rng.normal(0.75, 0.08, (rows, 1)) + skill + rng.normal(0.0, 0.03, (rows, n_methods))
        return np.clip(np.round(values, 3), 0.0, 1.0)  # accuracies: the card's range [0, 1] is checked
    return make


def lazy_synthetic(n_datasets: int, n_methods: int = N_METHODS, chunk: int = CHUNK, seed: int = 0):
    """A lazy synthetic cube: each block is generated when it is computed (integer dataset labels)."""
    import dask.array as dsa
    import xarray as xr

    import mcda

    template = dsa.zeros((n_datasets, n_methods), chunks=(chunk, n_methods))
    data = dsa.map_blocks(_block(None, n_methods, seed), template, dtype=np.float64)
    raw = xr.DataArray(data, dims=("dataset", "method"),
                       coords={"dataset": np.arange(n_datasets),
                               "method": np.array([f"m{j:02d}" for j in range(n_methods)], dtype=object)})
    return mcda.score_cube(raw, metric="accuracy")


def run_stage(stage: str, path: str) -> dict:
    """One stage on the Zarr cube at ``path``; returns wall time and peak RSS of this process."""
    import mcda
    from mcda import store

    start = time.perf_counter()
    cube = store.open_cube(path)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)
        if stage in ("mean ranks", "all five"):
            out["best"] = mcda.average_ranks(cube).mean_ranks.idxmin()
        if stage in ("friedman", "all five"):
            out["chi2"] = mcda.friedman_test(cube).statistic
        if stage in ("nemenyi", "all five"):
            result = mcda.compare_over_datasets(cube, test="nemenyi")
            out["separated"] = int(result.posthoc.n_significant) if result.posthoc is not None else 0
        if stage in ("pairwise counts", "all five"):
            out["wins"] = int(mcda.pairwise_counts(cube, rope=0.01).wins.to_numpy().sum())
        if stage in ("bayesian sign", "all five"):
            out["labels"] = mcda.bayesian_sign_comparison(cube, rope=0.01).to_frame()["label"].value_counts().to_dict()
    out["seconds"] = time.perf_counter() - start
    out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB
    return out


def write_stage(path: str, n_datasets: int) -> dict:
    from mcda import store

    start = time.perf_counter()
    store.to_zarr(lazy_synthetic(n_datasets), path, chunk_datasets=CHUNK)
    return {"seconds": time.perf_counter() - start,
            "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def in_subprocess(*args) -> dict:
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def best_of(function, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def overhead(n_datasets: int, folder: str) -> list:
    """Part 2: the same calls in memory, lazily over the same data, and lazily from Zarr."""
    import mcda
    from mcda import store

    lazy_generated = lazy_synthetic(n_datasets)
    in_memory = lazy_generated.compute()
    path = os.path.join(folder, "small.zarr")
    store.to_zarr(in_memory, path, chunk_datasets=CHUNK)
    cubes = {"in memory": in_memory, "dask (same data)": in_memory.chunk({"dataset": CHUNK}),
             "dask (zarr)": store.open_cube(path)}
    calls = {
        "mean ranks": lambda c: mcda.average_ranks(c),
        "friedman": lambda c: mcda.friedman_test(c),
        "nemenyi": lambda c: mcda.compare_over_datasets(c, test="nemenyi"),
        "pairwise counts": lambda c: mcda.pairwise_counts(c, rope=0.01),
        "bayesian sign": lambda c: mcda.bayesian_sign_comparison(c, rope=0.01),
    }
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)
        for name, call in calls.items():
            for cube in cubes.values():  # warm-up: numba kernels load from their cache
                call(cube)
            times = {label: best_of(lambda c=cube: call(c)) for label, cube in cubes.items()}
            rows.append((name, times))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=10_000_000)
    parser.add_argument("--small", type=int, default=1_000_000)
    parser.add_argument("--dir", default=None, help="where the Zarr stores go (default: a temporary folder)")
    parser.add_argument("--part", type=int, choices=(1, 2), default=None,
                        help="run only part 1 (the large Zarr cube) or part 2 (in memory vs lazy); default both")
    parser.add_argument("--stage", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--path", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stage == "write":
        print(json.dumps(write_stage(args.path, args.datasets)))
        return
    if args.stage is not None:
        print(json.dumps(run_stage(args.stage, args.path), default=str))
        return

    folder = args.dir or tempfile.mkdtemp(prefix="mcda-bench-dask-")
    path = os.path.join(folder, "large.zarr")
    try:
        if args.part in (None, 1):
            print(f"Part 1: {args.datasets:,} datasets x {N_METHODS} methods, Zarr chunks of {CHUNK:,} datasets "
                  f"({args.datasets * N_METHODS * 8 / 2**30:.2f} GiB of float64 scores); each stage in a fresh process")
            print(f"{'stage':<18} {'wall s':>8} {'peak RSS MiB':>13}  result")
            written = in_subprocess("--stage", "write", "--path", path, "--datasets", str(args.datasets))
            size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs) / 2**20
            print(f"{'write zarr':<18} {written['seconds']:8.1f} {written['peak_mib']:13.0f}  {size:.0f} MiB on disk")
            peaks = [written["peak_mib"]]
            for stage in STAGES:
                out = in_subprocess("--stage", stage, "--path", path)
                peaks.append(out["peak_mib"])
                shown = {k: v for k, v in out.items() if k not in ("seconds", "peak_mib")}
                print(f"{stage:<18} {out['seconds']:8.1f} {out['peak_mib']:13.0f}  {shown}")
            print(f"largest peak: {max(peaks):.0f} MiB ({max(peaks) / 1024:.2f} GiB; budget 2 GiB)")
            shutil.rmtree(path, ignore_errors=True)
        if args.part == 1:
            return
        if args.part is None:
            print()
        print(f"Part 2: {args.small:,} datasets x {N_METHODS} methods, best of 3 (seconds); load average "
              f"{os.getloadavg()[0]:.1f}")
        rows = overhead(args.small, folder)
        labels = list(rows[0][1])
        print(f"{'stage':<16} " + " ".join(f"{label:>17}" for label in labels) + f" {'ratio':>7} {'ratio zarr':>10}")
        for name, times in rows:
            base = times["in memory"]
            print(f"{name:<16} " + " ".join(f"{times[label]:17.3f}" for label in labels)
                  + f" {times['dask (same data)'] / base:7.2f} {times['dask (zarr)'] / base:10.2f}")
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
