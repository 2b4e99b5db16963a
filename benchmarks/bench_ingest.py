"""Streaming ingestion: a tidy Parquet file of 100,000,000 rows into a Zarr cube, and the whole
pipeline on 10,000,000 datasets x 20 methods from a Parquet file.

Part A (``--part a``): 5,000,000 datasets x 20 methods = 100,000,000 rows. The file's rows are
*interleaved* (blocks of 250,000 datasets, method by method inside a block, so a dataset's 20
rows are 250,000 rows apart and span several row groups: the old writer refused such a file).
Fresh processes: reading the file with pyarrow alone (``ParquetFile.iter_batches`` over the
three columns, what any streaming reader must do, with and without pre-buffering, and
``pq.read_table``, all threads, the whole table in memory), then ``mcda.store.parquet_to_zarr``. Prints each one's wall time,
CPU time (and the part of it in the kernel: page faults, the page cache), peak resident memory (``ru_maxrss``) and the
ratio mcda / the faster pyarrow read. ``--datasets`` sets the size (rows = datasets x 20): e.g. ``--datasets 1000000``
(20,000,000 rows) while developing.

Part B (``--part b``): 10,000,000 datasets x 20 methods (200,000,000 rows, the same layout),
end to end, every stage in a fresh process: ingest (``parquet_to_zarr``), mean ranks, Friedman,
Nemenyi, pairwise counts, the Bayesian sign comparison, and all five in one process, each with
its peak RSS.

The input files are generated once (``--dir``, default ``mcda-bench-ingest`` in the system's temporary folder) and kept for
re-runs; the Zarr stores are deleted after each part.

Run: python benchmarks/bench_ingest.py --part a [--datasets 5000000]
     python benchmarks/bench_ingest.py --part b [--datasets 10000000]
(each takes many minutes on 2 cores; nothing is asserted)
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

import numpy as np

N_METHODS = 20
BLOCK = 250_000  # datasets per generation block (rows of a block are written method by method)
ROW_GROUP = 1_000_000
CHUNK = 100_000  # datasets per Zarr chunk
STAGES = ("mean ranks", "friedman", "nemenyi", "pairwise counts", "bayesian sign", "all five")


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def make_parquet(path: str, n_datasets: int, n_methods: int = N_METHODS, seed: int = 0) -> None:
    """The tidy file: labels ``item00000000``…, scores as in bench_dask (difficulty + skill + noise)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    schema = pa.schema([("dataset", pa.string()), ("method", pa.string()), ("score", pa.float64())])
    methods = pa.array([f"m{j:02d}" for j in range(n_methods)])
    skill = np.linspace(0.0, 0.01, n_methods)
    tmp = path + ".part"
    with pq.ParquetWriter(tmp, schema) as writer:
        for start in range(0, n_datasets, BLOCK):
            rows = min(BLOCK, n_datasets - start)
            rng = np.random.default_rng([seed, start])
            values = np.round(rng.normal(0.75, 0.08, (rows, 1)) + skill + rng.normal(0.0, 0.03, (rows, n_methods)), 3)
            labels = pc.binary_join_element_wise(
                "item", pc.utf8_lpad(pc.cast(pa.array(np.arange(start, start + rows)), pa.string()), 8, "0"), "")
            # method by method inside the block: a dataset's rows are `rows` rows apart
            table = pa.table({
                "dataset": pa.concat_arrays([labels] * n_methods),
                "method": pc.take(methods, pa.array(np.repeat(np.arange(n_methods), rows))),
                "score": pa.array(values.T.ravel()),
            }, schema=schema)
            writer.write_table(table, row_group_size=ROW_GROUP)
    os.replace(tmp, path)


def read_stage(path: str, how: str) -> dict:
    import pyarrow.parquet as pq

    start = time.perf_counter()
    rows = 0
    if how.startswith("iter_batches"):
        pre_buffer = "pre_buffer=False" not in how
        for batch in pq.ParquetFile(path, pre_buffer=pre_buffer).iter_batches(
                batch_size=1 << 19, columns=["dataset", "method", "score"]):
            rows += batch.num_rows
    else:
        rows = pq.read_table(path).num_rows
    return {"seconds": time.perf_counter() - start, "peak_mib": _peak_mib(), "rows": rows}


def ingest_stage(path: str, store_path: str) -> dict:
    from mcda import store

    start = time.perf_counter()
    cube = store.parquet_to_zarr(path, store_path, metric="accuracy", chunk_datasets=CHUNK)
    return {"seconds": time.perf_counter() - start, "peak_mib": _peak_mib(),
            "shape": [int(cube.sizes["dataset"]), int(cube.sizes["method"])]}


def run_stage(stage: str, store_path: str) -> dict:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_dask import run_stage as dask_stage

    return dask_stage(stage, store_path)


def in_subprocess(*args) -> dict:
    done = subprocess.run(["/usr/bin/time", "-f", "%U %S", sys.executable, os.path.abspath(__file__), *args],
                          capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"stage {args} failed:\n{done.stderr}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    user, system = done.stderr.strip().splitlines()[-1].split()
    out["cpu"] = float(user) + float(system)  # CPU seconds of the process (the machine is shared: wall time is noisy)
    out["sys"] = float(system)  # of which in the kernel (page faults, the page cache)
    return out


def _ensure_input(folder: str, n_datasets: int) -> str:
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"tidy_{n_datasets}x{N_METHODS}.parquet")
    if not os.path.exists(path):
        start = time.perf_counter()
        in_subprocess("--stage", "make", "--path", path, "--datasets", str(n_datasets))
        print(f"(generated {path}: {os.path.getsize(path) / 2**30:.2f} GiB in {time.perf_counter() - start:.0f} s)")
    return path


def _du(path: str) -> float:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs) / 2**20


def part_a(folder: str, n_datasets: int) -> None:
    path = _ensure_input(folder, n_datasets)
    store_path = os.path.join(folder, "a.zarr")
    n_rows = n_datasets * N_METHODS
    print(f"Part A: {n_rows:,} rows ({n_datasets:,} datasets x {N_METHODS} methods, interleaved), "
          f"{os.path.getsize(path) / 2**30:.2f} GiB of Parquet; each in a fresh process")
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f} (2 cores: above 2, other work competes)".format(
        *os.getloadavg()))
    print(f"{'stage':<38} {'wall s':>8} {'CPU s':>8} {'sys s':>7} {'rows/s':>12} {'peak RSS MiB':>13}")
    reads, cpus = {}, {}
    for how in ("iter_batches", "iter_batches pre_buffer=False", "read_table"):
        out = in_subprocess("--stage", "read", "--how", how, "--path", path)
        reads[how], cpus[how] = out["seconds"], out["cpu"]
        print(f"{'pyarrow ' + how:<38} {out['seconds']:8.1f} {out['cpu']:8.1f} {out['sys']:7.1f} {n_rows / out['seconds']:12,.0f} "
              f"{out['peak_mib']:13.0f}")
    try:
        out = in_subprocess("--stage", "ingest", "--path", path, "--store", store_path)
        print(f"{'mcda parquet_to_zarr':<38} {out['seconds']:8.1f} {out['cpu']:8.1f} {out['sys']:7.1f} {n_rows / out['seconds']:12,.0f} "
              f"{out['peak_mib']:13.0f}  {out['shape']}, {_du(store_path):.0f} MiB on disk")
        fastest = min(reads, key=reads.get)
        print(f"ratio mcda / fastest pyarrow read ({fastest}): wall {out['seconds'] / reads[fastest]:.2f} "
              f"(target <= 3), CPU {out['cpu'] / cpus[fastest]:.2f}; peak {out['peak_mib'] / 1024:.2f} GiB "
              "(budget 1.5 GiB)")
        print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    finally:
        shutil.rmtree(store_path, ignore_errors=True)


def part_b(folder: str, n_datasets: int) -> None:
    path = _ensure_input(folder, n_datasets)
    store_path = os.path.join(folder, "b.zarr")
    print(f"Part B: {n_datasets:,} datasets x {N_METHODS} methods from Parquet "
          f"({n_datasets * N_METHODS:,} rows, {os.path.getsize(path) / 2**30:.2f} GiB); each stage in a fresh process")
    print(f"{'stage':<18} {'wall s':>8} {'peak RSS MiB':>13}  result")
    try:
        out = in_subprocess("--stage", "ingest", "--path", path, "--store", store_path)
        peaks = [out["peak_mib"]]
        print(f"{'ingest':<18} {out['seconds']:8.1f} {out['peak_mib']:13.0f}  {out['shape']}, "
              f"{_du(store_path):.0f} MiB on disk")
        for stage in STAGES:
            out = in_subprocess("--stage", stage, "--store", store_path)
            peaks.append(out["peak_mib"])
            shown = {k: v for k, v in out.items() if k not in ("seconds", "peak_mib")}
            print(f"{stage:<18} {out['seconds']:8.1f} {out['peak_mib']:13.0f}  {shown}")
        print(f"largest peak: {max(peaks):.0f} MiB ({max(peaks) / 1024:.2f} GiB; budget 1.5 GiB)")
    finally:
        shutil.rmtree(store_path, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["a", "b"], default="a")
    parser.add_argument("--datasets", type=int, default=None, help="default 5,000,000 (a) / 10,000,000 (b)")
    parser.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "mcda-bench-ingest"), help="where the input files are kept")
    parser.add_argument("--stage", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--how", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--path", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--store", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stage == "make":
        make_parquet(args.path, args.datasets)
        print(json.dumps({}))
    elif args.stage == "read":
        print(json.dumps(read_stage(args.path, args.how)))
    elif args.stage == "ingest":
        print(json.dumps(ingest_stage(args.path, args.store)))
    elif args.stage is not None:
        print(json.dumps(run_stage(args.stage, args.store), default=str))
    elif args.part == "a":
        part_a(args.dir, args.datasets or 5_000_000)
    else:
        part_b(args.dir, args.datasets or 10_000_000)


if __name__ == "__main__":
    main()
