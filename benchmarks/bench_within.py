"""Speed and agreement of mcda's percentile bootstrap against scipy.stats.bootstrap (one vectorised call).

    python benchmarks/bench_within.py [--cells 1000] [--seeds 10] [--resamples 9999]

1,000 cells × 10 seeds × 9,999 resamples, 95 % percentile intervals of the mean:

- mcda: ``mcda.summary(cube, ci_method="bootstrap")`` (the whole call: validation, the numba
  kernel, the table) and the kernel alone;
- scipy, the fastest fair use (the main column): ONE call
  ``scipy.stats.bootstrap((cells,), np.mean, axis=-1, vectorized=True, method="percentile",
  batch=...)`` on all cells at once (shape cells × seeds), with the same number of resamples;
  ``batch`` caps its resample array at about 16 MB (without it the array is cells × resamples ×
  seeds float64, 0.8 GB at the default sizes; batches of 50, 200, 1,000 and all resamples took
  0.58, 0.55, 0.62 and 0.58 s);
- scipy in a loop over the cells (the second column, "loop"), what a user who calls it per
  cell pays.

Agreement: two bootstraps of the same cell differ by Monte Carlo error only. The table shows
the RMS difference of the endpoints (in units of the cell's bootstrap standard error s/√n)
between mcda and scipy, next to the RMS difference between two scipy runs with different
seeds: the two should be about the same size.

Times are the best of ``--repeats`` runs for mcda (after one warm-up call that compiles or
loads the kernel) and for the vectorised scipy call, and one run for the scipy loop. The kernel runs its cells in parallel on
numba's threads; the one-thread row compares it core for core with the (single-threaded) scipy
loop, which is the fair comparison on a machine whose other cores are busy.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from scipy import stats

import mcda
from _timing import best_of
from mcda._core._kernels.bootstrap import bootstrap_mean_quantiles, cell_keys




def scipy_loop(values, n_resamples, seed):
    rng = np.random.default_rng(seed)
    out = np.empty((values.shape[0], 2))
    for i, x in enumerate(values):
        ci = stats.bootstrap((x,), np.mean, method="percentile", n_resamples=n_resamples, rng=rng,
                             confidence_level=0.95).confidence_interval
        out[i] = ci.low, ci.high
    return out


def scipy_vectorised(values, n_resamples, seed):
    """All cells in one call: scipy draws one set of indices per resample for every cell."""
    batch = max(1, int(2_000_000 // values.size))  # resample array of about 16 MB per batch (fastest tried)
    ci = stats.bootstrap((values,), np.mean, axis=-1, vectorized=True, method="percentile",
                         n_resamples=n_resamples, batch=batch, rng=np.random.default_rng(seed),
                         confidence_level=0.95).confidence_interval
    return np.column_stack([ci.low, ci.high])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=1000)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--resamples", type=int, default=9999)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    n_datasets = args.cells // 10
    # skewed, bounded-looking scores so the intervals are asymmetric
    values = 0.9 - rng.gamma(2.0, 0.01, size=(n_datasets, 10, args.seeds))
    cube = mcda.score_cube(values, metric="accuracy", method_names=[f"m{j}" for j in range(10)])
    flat_cells = values.reshape(-1, args.seeds)
    n_cells = flat_cells.shape[0]

    start = time.perf_counter()
    mcda.summary(cube, ci_method="bootstrap", n_resamples=10, rng=0)  # compile or load the kernel
    warmup = time.perf_counter() - start

    t_mcda, res = best_of(lambda: mcda.summary(cube, ci_method="bootstrap", n_resamples=args.resamples, rng=1),
                          args.repeats)
    ours = res.to_frame()[["ci_low", "ci_high"]].to_numpy()

    flat = np.ascontiguousarray(flat_cells.ravel())
    offsets = np.arange(0, flat.size + 1, args.seeds, dtype=np.int64)
    keys = cell_keys(flat.view(np.uint64), offsets, np.uint64(12345))
    probs = np.array([0.025, 0.975])
    t_kernel, _ = best_of(lambda: bootstrap_mean_quantiles(flat, offsets, keys, args.resamples, probs),
                          args.repeats)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    t_one, _ = best_of(lambda: bootstrap_mean_quantiles(flat, offsets, keys, args.resamples, probs), args.repeats)
    numba.set_num_threads(threads)

    t_vec, vec = best_of(lambda: scipy_vectorised(flat_cells, args.resamples, seed=4), args.repeats)

    start = time.perf_counter()
    ref = scipy_loop(flat_cells, args.resamples, seed=2)
    t_scipy = time.perf_counter() - start
    ref2 = scipy_loop(flat_cells, args.resamples, seed=3)

    se = flat_cells.std(axis=1, ddof=1) / np.sqrt(args.seeds)
    rms = lambda a, b: float(np.sqrt(np.mean(((a - b) / se[:, None]) ** 2)))  # noqa: E731
    worst = float(np.max(np.abs(ours - ref) / se[:, None]))
    worst_scipy = float(np.max(np.abs(ref2 - ref) / se[:, None]))
    worst_vec = float(np.max(np.abs(vec - ref) / se[:, None]))

    print(f"percentile bootstrap of the mean: {n_cells} cells × {args.seeds} seeds × {args.resamples} resamples, "
          f"95 % intervals")
    print(f"(numba warm-up / cache load: {warmup:.2f} s, not counted)")
    print()
    def row(name, t):
        return f"{name:<46}{t:>10.3f}{t_vec / t:>15.1f}x |{t_scipy / t:>13.1f}x"

    print(f"{'implementation':<46}{'time (s)':>10}{'vs scipy call':>16} |{'vs scipy loop':>14}")
    print(row("scipy.stats.bootstrap, one vectorised call", t_vec))
    print(row("scipy.stats.bootstrap, loop over cells", t_scipy))
    print(row("mcda.summary(ci_method=bootstrap), whole call", t_mcda))
    print(row(f"mcda kernel alone ({threads} threads)", t_kernel))
    print(row("mcda kernel alone (1 thread)", t_one))
    print()
    print("agreement of the endpoints, in units of each cell's s/sqrt(n):")
    print(f"{'':<24}{'RMS diff':>10}{'max diff':>10}")
    print(f"{'mcda vs scipy':<24}{rms(ours, ref):>10.4f}{worst:>10.4f}")
    print(f"{'scipy call vs scipy loop':<24}{rms(vec, ref):>10.4f}{worst_vec:>10.4f}")
    print(f"{'scipy vs scipy (reseed)':<24}{rms(ref2, ref):>10.4f}{worst_scipy:>10.4f}")


if __name__ == "__main__":
    main()
