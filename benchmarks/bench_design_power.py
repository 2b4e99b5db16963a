"""Speed and agreement of mcda.design_power's simulation against the plain simulation a user would write.

    python benchmarks/bench_design_power.py [--methods 20] [--datasets 50] [--resamples 100]

The power of the five procedures across datasets (Friedman–Nemenyi, Friedman–Holm, Wilcoxon–Holm,
sign–Holm with the rope, the Bayesian sign test) over simulated benchmarks drawn from a pilot:

- mcda: the simulation of ``mcda.design_power`` (the draws, then one numba kernel,
  :mod:`mcda._core._kernels.design_power`, deciding every procedure on every benchmark);
- plain: the same draws, each benchmark handed to mcda's own public procedures
  (``compare_over_datasets`` twice, ``pairwise_over_datasets``, ``pairwise_superiority``,
  ``bayesian_sign_comparison``), the loop a user writes without ``design_power``; they are already
  vectorised over pairs, so this is the fair peer.

Both run in the same process, the kernel after one warm-up call. The script prints both times, the
ratio, whether the powers agree exactly, and the time of a whole ``design_power`` call (power,
minimum detectable differences by bisection, no datasets-needed search).
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np

import mcda
from mcda.stats.across import power as design
from _timing import best_of


def plain(values: np.ndarray, rope: float) -> np.ndarray:
    """(5, m) counts of the pairs each procedure separates, from mcda's public procedures per benchmark."""
    k = values.shape[2]
    a, b = np.triu_indices(k, 1)
    counts = np.zeros((5, a.size), dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for x in values:
            cube = mcda.score_cube(x, direction="higher_is_better")
            for row, test in enumerate(("nemenyi", "holm")):
                comparison = mcda.compare_over_datasets(cube, test=test)
                if comparison.posthoc is not None:
                    counts[row] += comparison.posthoc.significant.to_numpy()[a, b]
            counts[2] += mcda.pairwise_over_datasets(cube).table["significant"].to_numpy()
            counts[3] += mcda.pairwise_superiority(cube, rope=rope).to_frame()["p_adjusted"].to_numpy(float) <= 0.05
            labels = mcda.bayesian_sign_comparison(cube, rope=rope).to_frame()["label"].to_numpy()
            counts[4] += np.isin(labels, ["a_better", "b_better"])
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--methods", type=int, default=20)
    parser.add_argument("--datasets", type=int, default=50)
    parser.add_argument("--resamples", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    k, n, reps, rope = args.methods, args.datasets, args.resamples, 0.01
    pilot = mcda.datasets.synthetic(n_datasets=n, n_methods=k, n_seeds=0, effects=np.linspace(0, 0.03, k), rng=0)
    model, _ = design._pilot_model(pilot, None, None)
    z = np.random.default_rng(1).standard_normal((reps, n, model.noise.shape[0]))
    values = np.ascontiguousarray(model.means + z @ model.noise)
    enabled = np.ones(5, dtype=np.int64)

    def kernel():
        return design._simulate([values], n, k, 0.05, rope, enabled)[0]

    kernel()  # warm-up: compile or load the cached kernel
    t_mcda, counts = best_of(kernel, args.repeats)
    t_plain, reference = best_of(lambda: plain(values, rope), 1)
    t_whole, _ = best_of(lambda: mcda.design_power(pilot, n_resamples=reps, max_datasets=None, rng=1), args.repeats)
    print(f"{k} methods x {n} datasets, {reps} simulated benchmarks, 5 procedures")
    print(f"  mcda kernel  {t_mcda:8.3f} s")
    print(f"  plain loop   {t_plain:8.3f} s   (mcda's public procedures per benchmark)")
    print(f"  ratio        {t_plain / t_mcda:8.1f}x")
    print(f"  powers identical: {bool(np.array_equal(counts, reference))}")
    print(f"  whole design_power call (power + 5 bisections of the detectable lead): {t_whole:.2f} s")


if __name__ == "__main__":
    main()
