"""200 methods × 30 datasets: time and peak memory of each view that is hard at that size.

What each stage guards against: `compare_over_datasets` overflowing from 64 methods when
Friedman rejects; Shaffer's procedure hanging beyond ~70 methods; sampled posteriors keeping
22 GiB of draws; the CD plot and the posterior bars growing without bound (``plot_posterior_bars``
draws the grid of P(row better) from the result's probabilities, sampling nothing). A stage
given as (setup, expression) times only the expression; its peak RSS includes the setup. Each
stage runs in a fresh subprocess (so its peak resident memory, ``ru_maxrss``, is its own) after a
warm-up call in the same process (numba's compile is not timed). Nothing is asserted: this prints
a table.

Run: python benchmarks/bench_200_methods.py [--methods 200] [--datasets 30]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

STAGES = {
    "compare_over_datasets (Nemenyi)": "mcda.compare_over_datasets(scores, 'higher_is_better', method_names=names)",
    "compare_over_datasets (Holm)": "mcda.compare_over_datasets(scores, 'higher_is_better', test='holm', "
                                    "method_names=names)",
    "all_pairs_test(test='shaffer')": "mcda.all_pairs_test(scores, 'higher_is_better', test='shaffer', "
                                      "method_names=names)",
    "pairwise_superiority": "mcda.pairwise_superiority(scores, 'higher_is_better', rope=0.01, method_names=names)",
    "bayesian_sign_comparison (exact)": "mcda.bayesian_sign_comparison(scores, 'higher_is_better', rope=0.01, "
                                        "method_names=names)",
    "bayesian_sign_comparison (sampling, no draws kept)": "mcda.bayesian_sign_comparison(scores, "
                                        "'higher_is_better', rope=0.01, method='sampling', n_samples=50_000, "
                                        "keep_draws=False, method_names=names, rng=0)",
    "plot_critical_difference": "(mcda.plots.plot_critical_difference(mcda.compare_over_datasets("
                                "scores, 'higher_is_better', method_names=names)), plt.close('all'))",
    # the figure alone (its result made before the clock starts), drawn by the renderer
    "plot_posterior_bars (grid; exact result, drawn)": (
        "bayes = mcda.bayesian_sign_comparison(scores, 'higher_is_better', rope=0.01, method_names=names)",
        "(mcda.plots.plot_posterior_bars(bayes)[0].canvas.draw(), plt.close('all'))"),
    "plot_posterior_bars (grid; sampled, no draws kept, drawn)": (
        "bayes = mcda.bayesian_sign_comparison(scores, 'higher_is_better', rope=0.01, method='sampling', "
        "n_samples=50_000, keep_draws=False, method_names=names, rng=0)",
        "(mcda.plots.plot_posterior_bars(bayes)[0].canvas.draw(), plt.close('all'))"),
}

_CHILD = """
import json, resource, sys, time, warnings
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import mcda
warnings.simplefilter("ignore")
k, n = {k}, {n}
rng = np.random.default_rng(21)
scores = rng.normal(size=(n, k)) * 0.02 + np.linspace(0.60, 0.90, k)
names = [f"method-{{i:03d}}" for i in range(k)]
{setup}
setup_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
def run():
    return {expr}
run()  # warm-up: numba compiles, caches fill
start = time.perf_counter()
run()
seconds = time.perf_counter() - start
print(json.dumps({{"seconds": seconds, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "setup_mib": setup_mib}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", type=int, default=200)
    parser.add_argument("--datasets", type=int, default=30)
    parser.add_argument("--only", help="run only the stages whose name contains this text")
    args = parser.parse_args()
    import mcda

    print(f"mcda {mcda.__version__}, {args.methods} methods × {args.datasets} datasets "
          f"({args.methods * (args.methods - 1) // 2} pairs); each stage in a fresh process, warm")
    print(f"{'stage':<58} {'seconds':>9} {'peak RSS MiB':>13}")
    for name, expr in STAGES.items():
        if args.only and args.only not in name:
            continue
        setup, expr = expr if isinstance(expr, tuple) else ("", expr)
        code = _CHILD.format(k=args.methods, n=args.datasets, expr=expr, setup=setup)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"{name:<58} failed: {done.stderr.strip().splitlines()[-1]}")
            continue
        row = json.loads(done.stdout.strip().splitlines()[-1])
        after = f"  (after the setup alone: {row['setup_mib']:.0f})" if setup else ""
        print(f"{name:<58} {row['seconds']:>9.3f} {row['peak_mib']:>13.0f}{after}")


if __name__ == "__main__":
    main()
