"""The views that are slow or unbounded at 64–200 methods: time and peak memory at real sizes.

Each stage runs in a fresh subprocess: first once at 4 methods (numba compiles, caches fill;
not timed), then once at the size asked, timed; its peak resident memory (``ru_maxrss``, what
``/usr/bin/time -v`` reports as "Maximum resident set size") includes the setup. A stage given
as (setup, expression) times only the expression. A stage that runs past ``--timeout`` seconds
is stopped and shown as "> timeout"; the CPU seconds (this process's, every thread) say more
than the wall clock on a busy machine; a stage that refuses (a cost guard) shows the first line
of its message. Nothing is asserted: this prints a table. The CI never runs it.

Data: ``mcda.datasets.synthetic`` with ``--datasets`` datasets and ``--seeds`` seeds (the
folds of one run of cross-validation for the correlated t test and the hierarchical model),
effects spread over 0–0.03, 40-character method names for the figures.

Run: python benchmarks/bench_sizes.py [--methods 64 100 200] [--datasets 30] [--seeds 5]
                                      [--only TEXT] [--timeout 600]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

# name -> expression, or (setup, expression); `cube` has a seed dim, `flat` is its mean over seeds
STAGES = {
    "paired_tests (paired, t)": "mcda.paired_tests(cube)",
    "paired_tests (paired, wilcoxon)": "mcda.paired_tests(cube, method='wilcoxon')",
    "paired_tests (paired=False, t)": "mcda.paired_tests(cube, paired=False)",
    "paired_tests (paired=False, wilcoxon)": "mcda.paired_tests(cube, paired=False, method='wilcoxon')",
    "power": "mcda.power(cube)",
    "correlated_t_test": "mcda.correlated_t_test(cube, rope=0.01)",
    "hierarchical_comparison": "mcda.hierarchical_comparison(cube, rope=0.01, runs=1, rng=0, progress=False)",
    "hierarchical_comparison (keep_draws=False)": "mcda.hierarchical_comparison(cube, rope=0.01, runs=1, rng=0, "
                                                  "progress=False, keep_draws=False)",
    "plackett_luce": "mcda.plackett_luce(flat, rng=0, progress=False)",
    "plot_rank_distribution (drawn)": (
        "res = mcda.plackett_luce(flat, rng=0, progress=False)",
        "(mcda.plots.plot_rank_distribution(res)[0].canvas.draw(), plt.close('all'))"),
    "plot_pairwise (matrix, page 1, drawn)": (
        "res = mcda.paired_tests(cube)",
        "(mcda.plots.plot_pairwise(res)[0].canvas.draw(), plt.close('all'))"),
    "plot_superiority (drawn)": (
        "res = mcda.pairwise_superiority(flat, rope=0.01)",
        "(mcda.plots.plot_superiority(res)[0].canvas.draw(), plt.close('all'))"),
    "plot_relation (drawn)": (
        "res = mcda.pairwise_transitivity(mcda.pairwise_superiority(flat, rope=0.01))",
        "(mcda.plots.plot_relation(res)[0].canvas.draw(), plt.close('all'))"),
    "pairwise_to_latex (bytes written)": (
        "res = mcda.paired_tests(cube)",
        "len(mcda.export.pairwise_to_latex(res))"),
}

_CHILD = """
import json, resource, sys, time, warnings
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import mcda, mcda.export
warnings.simplefilter("ignore")

def data(k):
    cube = mcda.datasets.synthetic(n_datasets={n}, n_methods=k, n_seeds={s}, effects=np.linspace(0.0, 0.03, k),
                                   noise_sd=0.01, rng=k)
    cube = cube.assign_coords(method=[f"gradient_boosted_trees_variant_{{i:03d}}_tuned_xx" for i in range(k)])
    return cube, mcda.reduce_seeds(cube, how="mean")

def stage(k):
    cube, flat = data(k)
{setup}
    start, cpu = time.perf_counter(), time.process_time()
    out = {expr}
    return time.perf_counter() - start, time.process_time() - cpu, out

try:
    stage(4)  # warm-up at 4 methods: numba compiles, caches fill
    seconds, cpu, out = stage({k})
    row = {{"seconds": seconds, "cpu": cpu, "out": out if isinstance(out, (int, float)) else None}}
except Exception as error:  # a refusal: its first line
    row = {{"refused": f"{{type(error).__name__}}: {{str(error).splitlines()[0]}}"}}
row["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(row))
"""


def run_stage(name: str, k: int, args) -> str:
    setup, expr = STAGES[name] if isinstance(STAGES[name], tuple) else ("", STAGES[name])
    code = _CHILD.format(k=k, n=args.datasets, s=args.seeds, expr=expr,
                         setup="\n".join("    " + line for line in setup.splitlines()))
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return f"> {args.timeout:.0f} s (stopped; {time.perf_counter() - start:.0f} s with the warm-up)"
    if done.returncode != 0 or not done.stdout.strip():
        return "failed: " + (done.stderr.strip().splitlines() or ["(no output)"])[-1]
    row = json.loads(done.stdout.strip().splitlines()[-1])
    if "refused" in row:
        return f"refused ({row['peak_mib']:.0f} MiB): {row['refused'][:150]}"
    extra = f"  -> {row['out']:,}" if row.get("out") is not None else ""
    return f"{row['seconds']:9.2f} s wall {row['cpu']:9.2f} s CPU {row['peak_mib']:8.0f} MiB{extra}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", type=int, nargs="+", default=[64, 100, 200])
    parser.add_argument("--datasets", type=int, default=30)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--only", help="run only the stages whose name contains this text")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per stage before it is stopped")
    args = parser.parse_args()
    import mcda

    print(f"mcda {mcda.__version__}; {args.datasets} datasets × {args.seeds} seeds; each stage in a fresh process, "
          "warmed up at 4 methods")
    for name in STAGES:
        if args.only and args.only not in name:
            continue
        for k in args.methods:
            print(f"{name:<40} k={k:<4} {run_stage(name, k, args)}", flush=True)


if __name__ == "__main__":
    main()
