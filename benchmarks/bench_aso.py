"""Speed and agreement of mcda.almost_stochastic_order against deepsig (multi_aso / aso), side by side.

    python benchmarks/bench_aso.py [--resamples 1000] [--repeats 3]

Two designs, the same scores for both packages, 1,000 bootstrap resamples (deepsig's default):

- one dataset, 5 methods × 20 seeds: deepsig ``multi_aso(scores, seed=...)`` (its all-pairs call)
  against ``mcda.almost_stochastic_order`` on a one-dataset cube (Bonferroni over the 10 pairs);
  deepsig is given Bonferroni's level itself (``use_bonferroni=False, confidence_level=1 - 0.05/10``)
  because its own adjustment, level + (1 − level)/m, is not Bonferroni's for m > 2;
- 10 datasets × 2 methods × 20 seeds: deepsig ``aso(a, b, num_comparisons=10)`` per dataset (its
  README's "several datasets" use) against one mcda call on the cube with ``adjust=None`` at the
  level Bonferroni gives for 10 comparisons.

deepsig is used as a careful user would: ``num_jobs=1`` (one core, as mcda's kernel),
``show_progress=False``. Its estimator loops in Python over resamples (``np.vectorize`` quantile
functions); mcda's resampling and ratio kernels are numba. Times are the best of ``--repeats``
runs for mcda (after a warm-up that compiles or loads the kernels) and one run for deepsig (it is
the slow side). Agreement: the largest |ε_min(mcda) − ε_min(deepsig)| over the pairs; the two
differ by the bootstrap's Monte Carlo error and by deepsig's quadrature: it sums on a grid of step
0.005 and leaves the first grid point (the two minima) out of the numerator, and ``multi_aso`` fills
the row (b, a) with 1 − ε_W(a, b) of that sum, which moves ε_W of close distributions by a few
hundredths (0.064 on one pair of the first design: 0.097 against the exact 0.033). The column
shows the size of those differences.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mcda
from _timing import best_of


def _multi_design(gen, n_methods=5, n_seeds=20):
    effects = np.linspace(0.0, 0.02, n_methods)
    values = 0.85 + effects[:, None] + gen.normal(0.0, 0.01, (n_methods, n_seeds))
    names = [f"m{j}" for j in range(n_methods)]
    cube = mcda.score_cube(values[None], metric="accuracy", method_names=names, dataset_names=["d0"])
    return cube, {name: values[j] for j, name in enumerate(names)}


def _datasets_design(gen, n_datasets=10, n_seeds=20):
    values = 0.8 + gen.normal(0.0, 0.01, (n_datasets, 2, n_seeds))
    values[:, 0] += 0.005
    cube = mcda.score_cube(values, metric="accuracy", method_names=["a", "b"],
                           dataset_names=[f"d{i}" for i in range(n_datasets)])
    return cube, values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    from deepsig import aso, multi_aso

    gen = np.random.default_rng(0)
    rows = []

    cube, scores = _multi_design(gen)
    run = lambda: mcda.almost_stochastic_order(cube, n_resamples=args.resamples, rng=1)  # noqa: E731
    run()
    mcda_time, res = best_of(run, args.repeats)
    start = time.perf_counter()
    pairs = len(scores) * (len(scores) - 1) // 2
    theirs = multi_aso(scores, confidence_level=1 - 0.05 / pairs, use_bonferroni=False,
                       num_bootstrap_iterations=args.resamples, seed=1, num_jobs=1, show_progress=False,
                       return_df=True)
    deepsig_time = time.perf_counter() - start
    ours = res.matrix().to_numpy()
    off = ~np.eye(len(scores), dtype=bool)
    rows.append(("1 dataset, 5 methods x 20 seeds (multi_aso)", mcda_time, deepsig_time,
                 float(np.abs(ours[off] - theirs.to_numpy()[off]).max())))

    cube, values = _datasets_design(gen)
    level = 1 - 0.05 / values.shape[0]
    run = lambda: mcda.almost_stochastic_order(cube, confidence_level=level, adjust=None,  # noqa: E731
                                               n_resamples=args.resamples, rng=1)
    run()
    mcda_time, res = best_of(run, args.repeats)
    start = time.perf_counter()
    # deepsig's num_comparisons gives level + (1 - level)/m, not Bonferroni's: the Bonferroni level is passed
    theirs = [aso(a, b, confidence_level=level, num_bootstrap_iterations=args.resamples, seed=1, num_jobs=1,
                  show_progress=False) for a, b in values]
    deepsig_time = time.perf_counter() - start
    table = res.to_frame()
    ours = table[table["method_a"] == "a"]["epsilon_min"].to_numpy()
    rows.append((f"{values.shape[0]} datasets x 2 methods x 20 seeds (aso per dataset)", mcda_time, deepsig_time,
                 float(np.abs(ours - np.array(theirs)).max())))

    print(f"almost stochastic order, {args.resamples} resamples, one core (deepsig num_jobs=1)")
    print(f"{'design':<52} {'mcda s':>9} {'deepsig s':>10} {'ratio':>8} {'max |d eps_min|':>16}")
    for name, ours_s, theirs_s, diff in rows:
        print(f"{name:<52} {ours_s:>9.4f} {theirs_s:>10.2f} {theirs_s / ours_s:>7.0f}x {diff:>16.3f}")


if __name__ == "__main__":
    main()
