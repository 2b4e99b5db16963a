"""Speed of mcda.rank_stability against plain vectorised numpy, the naive loop and the floor.

    python benchmarks/bench_ranks.py [--naive-resamples N]

1. ``rank_stability`` with 10,000 resamples at 50 methods × 1,000 datasets (uniform weights),
   against
   - plain vectorised numpy, the fastest fair use (the main ratio): rank every dataset once
     (``scipy.stats.rankdata(axis=1)``), then, in chunks of 200 resamples, count how often each
     dataset is drawn (``np.bincount``) and multiply the counts by the rank matrix, and turn the
     mean ranks into position probabilities (``rankdata(axis=1)`` min/max, ties shared) with
     ``np.add.at``; on the same resamples. It computes the bootstrap only (mcda's call also runs
     the jackknife). The same with fancy indexing (chunk × datasets × methods, averaged over
     datasets) is a second row, "indexing": it is slower;
   - the naive loop (the second ratio, "loop"): for every resample, take the resampled scores, re-rank every dataset with
     ``scipy.stats.rankdata``, average, and rank the averages (on the same resamples, and the
     two must agree exactly);
   - the floor of this computation: drawing the resample indices (``rng.integers``,
     10,000 × 1,000) plus one matrix product (resample counts × rank matrix) of the same size.
2. ``rank_rows`` (numba per-row ranks, ties averaged) at 1,000,000 datasets × 20 methods
   against ``scipy.stats.rankdata(axis=1)``.

Times are the best of ``--repeats`` runs (the naive loop runs once). By default the naive loop
runs all 10,000 resamples; ``--naive-resamples N`` times N of them and scales linearly (said so
in the table).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

import mcda
from _timing import best_of
from mcda.stats._shared.ranks import _index_blocks, _prepare_aggregation, rank_rows

N_DATASETS, N_METHODS, N_RESAMPLES = 1_000, 50, 10_000




def naive(values, indices):
    """Re-rank every resample from the scores: the loop rank_stability replaces."""
    k = values.shape[1]
    draws = np.empty((len(indices), k))
    probabilities = np.zeros((k, k))
    for b, idx in enumerate(indices):
        means = stats.rankdata(-values[idx], axis=1).mean(axis=0)
        lo = stats.rankdata(means, method="min").astype(int)
        hi = stats.rankdata(means, method="max").astype(int)
        for j in range(k):
            probabilities[j, lo[j] - 1:hi[j]] += 1.0 / (hi[j] - lo[j] + 1)
        draws[b] = means
    return draws, probabilities / len(indices)


def vectorised(values, indices, chunk=200, product=False):
    """Plain numpy: rank once, then per chunk of resamples fancy-index the ranks (or, with
    ``product``, count how often each dataset is drawn and multiply the counts by the ranks)."""
    k = values.shape[1]
    n = values.shape[0]
    ranks = stats.rankdata(-values, axis=1)
    draws = np.empty((len(indices), k))
    counts = np.zeros((k, k + 1))  # per method, a difference array over positions
    for start in range(0, len(indices), chunk):
        idx = indices[start:start + chunk]
        if product:
            rows = np.arange(len(idx))[:, None] * n
            drawn = np.bincount((rows + idx).ravel(), minlength=len(idx) * n).reshape(len(idx), n)
            means = (drawn @ ranks) / idx.shape[1]
        else:
            means = ranks[idx].mean(axis=1)
        draws[start:start + chunk] = means
        lo = stats.rankdata(means, method="min", axis=1).astype(int) - 1
        hi = stats.rankdata(means, method="max", axis=1).astype(int)
        share = 1.0 / (hi - lo)
        methods = np.broadcast_to(np.arange(k), lo.shape)
        np.add.at(counts, (methods, lo), share)
        np.add.at(counts, (methods, hi), -share)
    return draws, np.cumsum(counts, axis=1)[:, :k] / len(indices)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--naive-resamples", type=int, default=N_RESAMPLES)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    # scores with real differences and ties (rounded), one per (dataset, method)
    values = np.round(0.7 + 0.05 * rng.standard_normal((N_DATASETS, 1)) + np.linspace(0, 0.02, N_METHODS)
                      + 0.02 * rng.standard_normal((N_DATASETS, N_METHODS)), 3)
    cube = mcda.score_cube(values, metric="accuracy", method_names=[f"m{j:02d}" for j in range(N_METHODS)],
                           dataset_names=[f"d{i:04d}" for i in range(N_DATASETS)])
    mcda.rank_stability(cube.isel(dataset=slice(0, 20)), n_resamples=10, rng=0)  # compile / load the kernels

    t_mcda, result = best_of(lambda: mcda.rank_stability(cube, n_resamples=N_RESAMPLES, rng=1), args.repeats)

    # the floor: draw the indices + one matrix product counts × rank matrix of the same size
    ranks = rank_rows(values)
    counts = np.zeros((N_RESAMPLES, N_DATASETS))
    draws_idx = np.random.default_rng(1).integers(N_DATASETS, size=(N_RESAMPLES, N_DATASETS))
    np.add.at(counts, (np.repeat(np.arange(N_RESAMPLES), N_DATASETS), draws_idx.ravel()), 1.0)

    def floor():
        np.random.default_rng(1).integers(N_DATASETS, size=(N_RESAMPLES, N_DATASETS))
        return counts @ ranks

    t_floor, _ = best_of(floor, args.repeats)

    # the naive loop on the very resamples rank_stability drew (datasets in label order, as it resamples)
    agg = _prepare_aggregation(cube, aggregation="uniform", groups=None, weights=None, direction=None,
                               method_names=None).sorted_by_dataset()
    indices = np.concatenate(list(_index_blocks(agg, N_RESAMPLES, np.random.default_rng(1))))
    t_vec, (vec_draws, vec_probabilities) = best_of(lambda: vectorised(agg.prep.values, indices, product=True),
                                                    args.repeats)
    t_fancy, (fancy_draws, _) = best_of(lambda: vectorised(agg.prep.values, indices), args.repeats)
    fancy_draws_diff = float(np.max(np.abs(fancy_draws - result.mean_rank_draws)))
    vec_draws_diff = float(np.max(np.abs(vec_draws - result.mean_rank_draws)))
    vec_pos_diff = float(np.max(np.abs(vec_probabilities - result.position_probabilities.to_numpy())))
    m = min(args.naive_resamples, N_RESAMPLES)
    start = time.perf_counter()
    naive_draws, naive_probabilities = naive(agg.prep.values, indices[:m])
    t_naive = (time.perf_counter() - start) * (N_RESAMPLES / m)
    agree_draws = np.array_equal(naive_draws, result.mean_rank_draws[:m])
    agree_positions = (m == N_RESAMPLES
                       and np.array_equal(naive_probabilities, result.position_probabilities.to_numpy()))

    # rank_rows at 1,000,000 × 20
    big = np.round(rng.random((1_000_000, 20)), 2)
    rank_rows(big[:20_000])
    t_kernel, kernel_ranks = best_of(lambda: rank_rows(big), args.repeats)
    t_scipy, scipy_ranks = best_of(lambda: stats.rankdata(-big, axis=1), 1)

    scaled = "" if m == N_RESAMPLES else f" (timed {m}, scaled ×{N_RESAMPLES / m:g})"
    rows = [
        ("rank_stability 10,000 × (1,000 datasets × 50 methods)", "", ""),
        ("  mcda.rank_stability (bootstrap + jackknife)", f"{t_mcda:9.3f} s", "1.0"),
        ("  floor: rng.integers + counts @ rank matrix", f"{t_floor:9.3f} s", f"{t_mcda / t_floor:.2f}× of floor"),
        ("  numpy, vectorised: rank once, bincount @ ranks", f"{t_vec:9.3f} s",
         f"{t_vec / t_mcda:.2f}× slower than mcda"),
        ("  agreement with vectorised numpy", f"mean ranks max |diff| {vec_draws_diff:.1e}",
         f"positions max |diff| {vec_pos_diff:.1e}"),
        ("  numpy, vectorised: rank once, fancy-index", f"{t_fancy:9.3f} s",
         f"{t_fancy / t_mcda:.2f}× slower than mcda (indexing)"),
        ("  agreement with fancy-indexing numpy", f"mean ranks max |diff| {fancy_draws_diff:.1e}", ""),
        ("  naive: scipy re-rank every resample" + scaled, f"{t_naive:9.3f} s",
         f"{t_naive / t_mcda:.0f}× slower than mcda (loop)"),
        ("  agreement with the naive loop", "mean ranks " + ("identical" if agree_draws else "DIFFER"),
         "positions " + ("identical" if agree_positions else ("n/a (subset)" if m < N_RESAMPLES else "DIFFER"))),
        ("rank_rows 1,000,000 × 20", "", ""),
        ("  mcda.rank_rows (numba, ties averaged)", f"{t_kernel:9.3f} s", "1.0"),
        ("  scipy.stats.rankdata(axis=1)", f"{t_scipy:9.3f} s", f"{t_scipy / t_kernel:.1f}× slower than mcda"),
        ("  agreement", "identical" if np.array_equal(kernel_ranks, scipy_ranks) else "DIFFER", ""),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'time':>22}  ratio")
    for name, t, ratio in rows:
        print(f"{name:<{width}}  {t:>22}  {ratio}")


if __name__ == "__main__":
    main()
