"""Speed of SMAA-2 (``mcda.smaa``) against the R package smaa on the same draws.

    python benchmarks/bench_smaa.py [--repeats R] [--sizes 20x3x100000,200x5x10000]

Each size is methods × criteria × draws on a benchmark of 30 datasets. mcda makes its draws
(a bootstrap over datasets, uniform weights) and the very same measurement and weight arrays
are written for R; R's ``smaa(meas, pref)`` (rank acceptabilities and central weights) and
``smaa.cf(meas, cw)`` (confidence factors) run on them in ONE ``Rscript`` call
(tests/oracles/run_smaa.R), timed inside R with ``proc.time()`` so R's start-up and the reading
of the arrays are excluded. The R package is built from tests/oracles/smaa into a temporary
library first (needs r-base-dev).

Two ratios per size, R's seconds over mcda's:

- ``kernels``: mcda's two compiled passes (``rank_counts``, ``first_counts``) on the same
  arrays: the same work R's C loop and ``smaa.cf`` do, nothing else;
- ``whole call``: ``mcda.smaa`` end to end, which also draws the bootstrap resamples and the
  weights, normalises, and streams in blocks (R is handed its draws ready-made).

The rank counts must agree exactly (checked here as in tests/test_smaa.py), except through a
draw in which two methods' values lie within mcda's tie tolerance (1e-9): mcda ties them, R's
exact comparison does not (rare; the benchmark prints how many such draws there were). Times are the
best of ``--repeats`` runs for mcda; R runs once per size.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import mcda
from _timing import best_of
from mcda.stats import smaa as smaa_module

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.test_smaa import _collect, _write, install_r_smaa  # noqa: E402


def make_cube(n_methods: int, n_criteria: int, n_datasets: int = 30, rng: int = 0):
    gen = np.random.default_rng(rng)
    skill = gen.normal(size=(n_methods, n_criteria)) * 0.3
    data = skill[None] + gen.normal(size=(n_datasets, n_methods, n_criteria))
    return mcda.score_cube(pd.DataFrame({
        "dataset": np.repeat([f"d{i:02d}" for i in range(n_datasets)], n_methods * n_criteria),
        "method": np.tile(np.repeat([f"m{j:03d}" for j in range(n_methods)], n_criteria), n_datasets),
        "metric": np.tile([f"c{c}" for c in range(n_criteria)], n_datasets * n_methods), "score": data.ravel()}),
        direction={f"c{c}": "higher_is_better" for c in range(n_criteria)})


def kernels(meas, weights):
    from mcda._core._kernels.smaa import first_counts, rank_counts

    k, m = meas.shape[1], meas.shape[2]
    counts, sums, squares = np.zeros((k, k), np.int64), np.zeros((k, m)), np.zeros((k, m))
    rank_counts(meas, weights, smaa_module._TOL, counts, sums, squares)
    first = counts[:, 0]
    active = np.flatnonzero(first > 0).astype(np.int64)
    central = np.zeros((k, m))
    central[active] = sums[active] / first[active, None]
    hits = np.zeros(active.size, np.int64)
    first_counts(meas, central, active, smaa_module._TOL, hits)
    return counts


def near_ties(meas, weights) -> int:
    """Draws in which two methods' values lie within mcda's tie tolerance (R ranks them apart)."""
    values = np.einsum("nkm,nm->nk", meas, np.broadcast_to(weights, (meas.shape[0], meas.shape[2])))
    gaps = np.diff(np.sort(values, axis=1), axis=1)
    return int((gaps <= smaa_module._TOL).any(axis=1).sum())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", default="20x3x100000,200x5x10000")
    args = parser.parse_args()
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    work = Path(tempfile.mkdtemp(prefix="bench_smaa_"))
    install_r_smaa("Rscript", work / "library")
    rows, agreement = [], []
    for k, m, n_draws in sizes:
        cube = make_cube(k, m)
        name = f"s{k}x{m}x{n_draws}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, meas, weights = _collect(cube, n_draws, 1)
        _write(work, name, meas, weights)
        kernels(meas[:10], weights[:10])  # compile (or load the cache) outside the timing
        mcda.smaa(cube, n_draws=10, rng=1)
        t_kernels, counts = best_of(lambda: kernels(meas, weights), args.repeats)
        t_call, res = best_of(lambda: mcda.smaa(cube, n_draws=n_draws, rng=1), args.repeats)
        done = subprocess.run(["Rscript", str(ROOT / "tests" / "oracles" / "run_smaa.R"), str(work / "library"),
                               str(work), name], capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        r_ranks, r_cf = (float(x) for x in (work / f"{name}.seconds").read_text().split())
        r_counts = np.loadtxt(work / f"{name}.counts", ndmin=2)
        assert np.array_equal(np.round(res.rank_acceptability.to_numpy() * n_draws), counts)
        near = near_ties(meas, weights)
        # mcda ties values closer than its tolerance (they share the better rank), R compares them exactly: the
        # counts may differ only through the draws that hold such a pair
        assert np.array_equal(counts, r_counts) or near > 0, "rank counts differ from R's without a near tie"
        agreement.append(f"{k} x {m} x {n_draws:,}: rank counts "
                         + ("identical" if np.array_equal(counts, r_counts) else
                            f"differ by {int(np.abs(counts - r_counts).sum())} in total, through {near} draw(s) with "
                            f"two values within {smaa_module._TOL:g}"))
        r_total = r_ranks + r_cf
        rows.append((f"{k} methods x {m} criteria x {n_draws:,} draws", r_total, t_kernels, t_call))
    print("SMAA-2: rank acceptabilities, central weights and confidence factors on the same draws")
    print("(R: smaa() + smaa.cf() timed inside R, start-up excluded; mcda: best of "
          f"{args.repeats})")
    print(f"{'size':<40} {'R smaa':>9} {'mcda kernels':>13} {'ratio':>7} | {'mcda.smaa':>10} {'ratio':>7}")
    for label, r_total, t_kernels, t_call in rows:
        print(f"{label:<40} {r_total:>8.3f}s {t_kernels:>12.3f}s {r_total / t_kernels:>6.1f}x | "
              f"{t_call:>9.3f}s {r_total / t_call:>6.1f}x")
    print("agreement with R on the same draws:")
    for line in agreement:
        print("  " + line)


if __name__ == "__main__":
    main()
