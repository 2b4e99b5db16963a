"""Speed and memory of the all-pairs tables over items: 200 models × 50,000 items, clustered, binary.

    python benchmarks/bench_items.py [--models 200] [--items 50000] [--cluster-size 10] [--resamples 1999]

The data (fixed rng): binary scores of ``--models`` models on ``--items`` items in clusters of
``--cluster-size`` items (a model's chance of being right depends on its skill, the item's
difficulty and a cluster effect), one test set.

1. **Closed form** (``mcda.paired_items``, when the library has it): every pair's mean difference,
   its clustered standard error and the exact McNemar p-value, against the fastest fair numpy /
   scipy version a careful user would write: the k × k products ``X.T @ X`` (items) and
   ``S.T @ S`` (cluster sums) give every pair's discordant counts and clustered variance at once,
   ``scipy.stats.binom.cdf`` the exact McNemar p-values of all pairs in one call; and,
   labelled as a loop, statsmodels' ``mcnemar(exact=True)`` called pair by pair.
2. **Resampling** (``mcda.paired_permutation_test`` and ``mcda.paired_bootstrap``, clusters as the
   units): against vectorised numpy doing the same work: random signs / multinomial cluster
   counts in blocks, one product with the cluster sums per block, the pairs' exceedances and
   ``np.quantile`` of their resampled differences a block of pairs at a time.

Each line prints the best of ``--repeats`` wall-clock runs of both sides and their ratio
(peer / mcda: above 1, mcda is faster), and the peak of the memory Python allocates during one
mcda call (``tracemalloc``, numpy's arrays included); the last line the process's peak resident
memory (``resource.getrusage``), the bound the whole analysis must stay under (2 GiB).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc
import warnings

import numpy as np
import xarray as xr
from scipy import stats

import mcda
from _timing import best_of


def make_scores(n_models: int, n_items: int, cluster_size: int, seed: int = 20261206):
    """(binary scores models × items, cluster code per item), reproducible."""
    rng = np.random.default_rng(seed)
    n_clusters = max(1, n_items // cluster_size)
    cluster = np.sort(rng.integers(0, n_clusters, n_items))
    skill = rng.normal(0.0, 0.5, n_models)[:, None]
    difficulty = rng.normal(0.0, 1.0, n_items)[None, :]
    shared = rng.normal(0.0, 0.7, (n_models, n_clusters))[:, cluster]  # what a model knows of a cluster's topic
    logit = skill - difficulty + shared
    scores = (rng.random((n_models, n_items)) < 1.0 / (1.0 + np.exp(-logit))).astype(np.float64)
    return scores, cluster


def make_cube(scores, cluster):
    k, n = scores.shape
    da = xr.DataArray(scores[None], dims=("dataset", "method", "item"),
                      coords={"dataset": ["bench"], "method": [f"model_{i:03d}" for i in range(k)],
                              "item": np.arange(n), "cluster": ("item", cluster)})
    return mcda.score_cube(da, metric="accuracy")


def cluster_sums(scores, cluster):
    """(sums clusters × models, items per cluster) with numpy (clusters sorted)."""
    starts = np.flatnonzero(np.r_[True, np.diff(cluster) != 0])
    return np.add.reduceat(scores.T, starts, axis=0), np.diff(np.r_[starts, cluster.size]).astype(np.float64)


# --------------------------------------------------------------------------- closed form, numpy and scipy


def numpy_closed_form(scores, cluster):
    """Every pair's mean difference, clustered SE (CR1, as statsmodels cov_type="cluster") and exact McNemar p."""
    k, n = scores.shape
    a, b = np.triu_indices(k, 1)
    x = scores.T  # items × models
    gram = x.T @ x  # items both get right, per pair
    right = np.diag(gram)
    means = right / n
    a_only = right[a] - gram[a, b]
    b_only = right[b] - gram[a, b]
    diff = means[a] - means[b]
    sums, sizes = cluster_sums(scores, cluster)
    g = sizes.size
    cross = sums.T @ sums  # Σ_c S_ca S_cb
    weighted = sizes @ sums  # Σ_c n_c S_ca
    dd = cross[a, a] + cross[b, b] - 2 * cross[a, b]  # Σ_c D_c²
    nd = weighted[a] - weighted[b]  # Σ_c n_c D_c
    centred = dd - 2 * diff * nd + diff**2 * (sizes**2).sum()  # Σ_c (D_c − n_c d̄)²
    se = np.sqrt(g / (g - 1) * centred) / n  # CR1 of an intercept-only model: (n − 1)/(n − K) = 1
    low = np.minimum(a_only, b_only)
    p = np.minimum(1.0, 2.0 * stats.binom.cdf(low, a_only + b_only, 0.5))
    p = np.where(a_only + b_only == 0, 1.0, p)
    return diff, se, p


def statsmodels_mcnemar_loop(scores):
    from statsmodels.stats.contingency_tables import mcnemar

    k, n = scores.shape
    gram = scores @ scores.T
    right = np.diag(gram)
    out = []
    for i in range(k):
        for j in range(i + 1, k):
            both = gram[i, j]
            table = [[both, right[i] - both], [right[j] - both, n - right[i] - right[j] + both]]
            out.append(mcnemar(table, exact=True).pvalue)
    return np.array(out)


# --------------------------------------------------------------------------- resampling, numpy


def _pair_blocks(k, size):
    a, b = np.triu_indices(k, 1)
    for start in range(0, a.size, size):
        yield slice(start, start + size), a[start:start + size], b[start:start + size]


def numpy_permutation(sums, n_resamples, rng, block=256):
    k = sums.shape[1]
    a, b = np.triu_indices(k, 1)
    total = sums.sum(axis=0)
    observed = np.abs(total[a] - total[b])
    hits = np.zeros(a.size, dtype=np.int64)
    for first in range(0, n_resamples, block):
        rows = min(block, n_resamples - first)
        signs = rng.choice(np.array([-1.0, 1.0]), size=(rows, sums.shape[0]))
        null = signs @ sums
        hits += (np.abs(null[:, a] - null[:, b]) >= observed - 1e-9).sum(axis=0)
    return (hits + 1) / (n_resamples + 1)


def numpy_bootstrap(sums, sizes, n_resamples, rng, block=256, pairs_per_block=2048):
    c, k = sums.shape
    resampled = np.empty((n_resamples, k))
    items = np.empty(n_resamples)
    for first in range(0, n_resamples, block):
        rows = min(block, n_resamples - first)
        counts = rng.multinomial(c, np.full(c, 1.0 / c), size=rows).astype(np.float64)
        resampled[first:first + rows] = counts @ sums
        items[first:first + rows] = counts @ sizes
    a, _ = np.triu_indices(k, 1)
    out = np.empty((a.size, 2))
    for where, pa, pb in _pair_blocks(k, pairs_per_block):
        diffs = (resampled[:, pa] - resampled[:, pb]) / items[:, None]
        out[where] = np.quantile(diffs, [0.025, 0.975], axis=0).T
    return out


# --------------------------------------------------------------------------- driver


def peak_of(fn) -> float:
    """MiB Python allocated at the peak of one call of ``fn``."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def line(name, mcda_s, peer_s, peak, loop_s=None):
    loop = f" | loop {loop_s:8.2f} s  ratio {loop_s / mcda_s:6.1f}x" if loop_s is not None else ""
    print(f"{name:<34} mcda {mcda_s:8.2f} s   peer {peer_s:8.2f} s   ratio {peer_s / mcda_s:6.2f}x"
          f"{loop}   mcda peak {peak:7.0f} MiB", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=int, default=200)
    parser.add_argument("--items", type=int, default=50_000)
    parser.add_argument("--cluster-size", type=int, default=10)
    parser.add_argument("--resamples", type=int, default=1999)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    scores, cluster = make_scores(args.models, args.items, args.cluster_size)
    cube = make_cube(scores, cluster)
    sums, sizes = cluster_sums(scores, cluster)
    pairs = args.models * (args.models - 1) // 2
    print(f"{args.models} models x {args.items:,} items in {sizes.size:,} clusters ({pairs:,} pairs), "
          f"{args.resamples} resamples; data ready in {time.perf_counter() - start:.1f} s")
    warnings.simplefilter("ignore")

    if hasattr(mcda, "paired_items"):
        def ours():
            return mcda.paired_items(cube, test="mcnemar-exact")

        ours()  # compile / load the kernels
        mcda_s, result = best_of(ours, args.repeats)
        peer_s, (diff, se, p) = best_of(lambda: numpy_closed_form(scores, cluster), args.repeats)
        loop_s, loop_p = best_of(lambda: statsmodels_mcnemar_loop(scores), 1)
        table = result.table
        assert np.allclose(table["mean_diff"], diff) and np.allclose(table["p_raw"], p, rtol=1e-9)
        assert np.allclose(table["standard_error_clustered"], se, rtol=1e-9) and np.allclose(loop_p, p, rtol=1e-9)
        line("closed form (diff, cluster SE, McNemar)", mcda_s, peer_s, peak_of(ours), loop_s)
    else:
        print("closed form: this mcda has no paired_items (skipped)")

    def permutation():
        return mcda.paired_permutation_test(cube, n_resamples=args.resamples, rng=1)

    def bootstrap():
        return mcda.paired_bootstrap(cube, n_resamples=args.resamples, rng=1)

    permutation(), bootstrap()  # compile / load the kernels
    mcda_s, result = best_of(permutation, args.repeats)
    peer_s, p = best_of(lambda: numpy_permutation(sums, args.resamples, np.random.default_rng(2)), args.repeats)
    agree = np.sqrt(np.mean((result.table["p_raw"].to_numpy() - p) ** 2))
    line("permutation, all pairs", mcda_s, peer_s, peak_of(permutation))
    mcda_s, result = best_of(bootstrap, args.repeats)
    peer_s, ci = best_of(lambda: numpy_bootstrap(sums, sizes, args.resamples, np.random.default_rng(2)),
                         args.repeats)
    width = (ci[:, 1] - ci[:, 0]).mean()
    spread = np.sqrt(np.mean((result.table[["ci_low", "ci_high"]].to_numpy() - ci) ** 2)) / width
    line("bootstrap (percentile), all pairs", mcda_s, peer_s, peak_of(bootstrap))
    print(f"agreement with numpy (Monte Carlo error only): p-values RMS {agree:.4f}; interval ends RMS "
          f"{spread:.3f} of the mean width")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # Linux: KiB
    print(f"peak resident memory of this whole run (data, cube, both sides): {rss:.2f} GiB "
          f"({'under' if rss < 2 else 'OVER'} 2 GiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
