"""Speed and agreement of mcda's pairwise Wilcoxon–Holm over datasets against scipy + statsmodels.

    python benchmarks/bench_pairwise_over_datasets.py [--methods 50] [--datasets 1000]

The full all-pairs Wilcoxon–Holm procedure over 50 methods × 1,000 datasets (1,225 pairs):

- mcda: ``mcda.pairwise_over_datasets(cube)`` — the whole call: validation, the numba kernel
  (:mod:`mcda._core._kernels.paired_ranks`), the p-values, Holm, the cliques and the table;
- peer, the fastest fair use (the main ratio): ONE call ``scipy.stats.wilcoxon(x[:, a], x[:, b],
  axis=0)`` on every pair at once (columns a and b index the 1,225 pairs), then
  ``statsmodels.stats.multitest.multipletests(p, method="holm")``;
- peer in a loop (the second ratio, "loop"): ``scipy.stats.wilcoxon`` called once per pair, what a
  user who writes the obvious loop pays.

Both run in the same process; mcda after one warm-up call (which compiles or loads the cached
kernel). The script prints both times, their ratio, and the largest |Δp| of the raw and the
adjusted p-values (agreement, not only speed). Scores are rounded to 3 decimals, as published
tables are, so that ties and zero differences occur.
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np
from scipy import stats
from statsmodels.stats.multitest import multipletests

import mcda
from _timing import best_of


def peer_vectorised(x: np.ndarray):
    a, b = np.array(list(itertools.combinations(range(x.shape[1]), 2))).T
    p = stats.wilcoxon(x[:, a], x[:, b], axis=0).pvalue
    reject, adjusted, _, _ = multipletests(p, alpha=0.05, method="holm")
    return p, adjusted


def peer(x: np.ndarray):
    pairs = list(itertools.combinations(range(x.shape[1]), 2))
    p = np.array([stats.wilcoxon(x[:, a], x[:, b]).pvalue for a, b in pairs])
    reject, adjusted, _, _ = multipletests(p, alpha=0.05, method="holm")
    return p, adjusted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--methods", type=int, default=50)
    parser.add_argument("--datasets", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    effects = np.linspace(0.0, 0.02, args.methods)
    x = np.round(0.8 + rng.normal(0, 0.05, (args.datasets, 1)) + effects + rng.normal(0, 0.02, (args.datasets,
                                                                                                  args.methods)), 3)
    names = [f"m{i:02d}" for i in range(args.methods)]
    cube = mcda.score_cube(x, method_names=names, direction="higher_is_better")  # no card: 1.001 may occur
    mcda.pairwise_over_datasets(cube)  # warm-up: compile or load the cached kernel
    t_mcda, res = best_of(lambda: mcda.pairwise_over_datasets(cube), args.repeats)
    t_vec, (p_vec, adj_vec) = best_of(lambda: peer_vectorised(x), args.repeats)
    t_peer, (p_peer, adj_peer) = best_of(lambda: peer(x), 1)
    frame = res.to_frame()
    dp = np.max(np.abs(frame["p_raw"].to_numpy() - p_peer))
    dadj = np.max(np.abs(frame["p_adjusted"].to_numpy() - adj_peer))
    dp_vec = np.max(np.abs(frame["p_raw"].to_numpy() - p_vec))
    dadj_vec = np.max(np.abs(frame["p_adjusted"].to_numpy() - adj_vec))
    n_pairs = len(frame)
    print(f"{args.methods} methods x {args.datasets} datasets, {n_pairs} pairs, Wilcoxon-Holm")
    print(f"  mcda.pairwise_over_datasets                   {t_mcda * 1e3:9.1f} ms")
    print(f"  scipy.wilcoxon(axis=0) one call + multipletests {t_vec * 1e3:7.1f} ms")
    print(f"  scipy.wilcoxon loop + multipletests           {t_peer * 1e3:9.1f} ms")
    print(f"  ratio (peer one call / mcda)                  {t_vec / t_mcda:9.1f}x")
    print(f"  ratio (peer loop / mcda), loop                {t_peer / t_mcda:9.1f}x")
    print(f"  max |dp| one call: raw {dp_vec:.2e}, adjusted {dadj_vec:.2e}; loop: raw {dp:.2e}, adjusted {dadj:.2e}; "
          f"significant pairs {int(frame['significant'].sum())}")


if __name__ == "__main__":
    main()
