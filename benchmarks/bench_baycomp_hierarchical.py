"""The hierarchical model against baycomp's ``HierarchicalTest`` (PyStan 3) on exactly the same folds.

Two designs of the Benavoli et al. (2017) nbc vs j48 folds, each run through both libraries in one
process, with the probabilities side by side and the speed ratio:

1. **The data as published** (``mcda.datasets.load("benavoli2017_uci54_folds")``): 54 datasets ×
   100 scores (10 runs of 10-fold cross-validation, ρ = 1/10), accuracy as a fraction, rope 0.01,
   ``runs=10``. The same two 54 × 100 matrices go to both.
2. **baycomp's documented example** (``docs/functions.rst``, "Multiple data sets":
   ``two_on_multiple(nbc, j48, rope=1)`` gives (0.0795, 0.0365, 0.884)): baycomp's own copy of the
   data, which is *not* design 1. It keeps only the first 10 scores of each dataset (the first run),
   in percent with 3 decimals, repeats the 6th dataset in place of the 7th (its ``accuracies.txt``
   holds "credit" twice), and leaves ``runs`` at its default 1. The matrices are rebuilt here from
   the published folds exactly that way (see ``tests/data/benavoli2017_uci54/PROVENANCE.md``).

Both samplers are Monte Carlo: baycomp's NUTS (4 chains × 10,000 draws after 1,000 warm-up: its
sampler's default; ``HierarchicalTest.probs`` would pass 50,000) and mcda's Gibbs sampler (the same
4 × 10,000). Each library runs with several seeds so
that the spread of each is printed beside the difference between them.

baycomp compiles its Stan model on first use (PyStan caches the build per model code and data
shape) and pickles its last sample into ``last-sample.pickle`` in the working folder, reusing it for
the same data: this script runs in a temporary folder and deletes the pickle before each call, so
every baycomp time is a real sampling run. The model is built first on a small problem (its time is
printed); the ratio uses the sampling runs that follow.

Needs PyStan 3 (``pip install pystan``; it builds the model with the machine's C++ compiler), which
the ``test`` extra does not install: the script says so and stops without it.

Run: ``python benchmarks/bench_baycomp_hierarchical.py [--seeds 3]``
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time

import numpy as np

import mcda

DOCUMENTED = (0.0795, 0.0365, 0.884)


def published_design(folds):
    """Design 1: the two 54 × 100 fraction matrices, run-major folds, as mcda's dataset holds them."""
    return (folds.mcda.sel(method="nbc").values.astype(float), folds.mcda.sel(method="j48").values.astype(float))


def documented_design(folds):
    """Design 2: baycomp's accuracies.txt rebuilt: first run only, percent at 3 decimals, row 7 = row 6."""
    out = []
    for name in ("nbc", "j48"):
        values = np.round(folds.mcda.sel(method=name).values[:, :10].astype(float) * 100, 3)
        values[6] = values[5]
        out.append(values)
    return tuple(out)


def run_baycomp(x, y, rope, runs, random_state, nsamples=10_000):
    import baycomp

    with contextlib.suppress(FileNotFoundError):
        os.remove("last-sample.pickle")
    start = time.perf_counter()
    # nsamples: draws per chain (HierarchicalTest.probs passes its own default of 50,000 to the sampler;
    # 10,000 is the sampler's documented default and mcda's, so both libraries keep the same draws)
    probs = baycomp.HierarchicalTest.probs(x, y, rope=rope, runs=runs, random_state=random_state, nsamples=nsamples)
    return time.perf_counter() - start, np.asarray(probs, dtype=float)


def run_mcda(x, y, rope, runs, rng):
    cube = mcda.score_cube(np.stack([x, y], axis=1), direction="higher_is_better", method_names=["nbc", "j48"])
    start = time.perf_counter()
    row = mcda.hierarchical_comparison(cube, rope=rope, runs=runs, rng=rng, progress=False).to_frame().iloc[0]
    return time.perf_counter() - start, np.array([row["prob_a_better"], row["prob_equivalent"], row["prob_b_better"]])


def show(label, probs):
    arr = np.asarray(probs)
    return (f"{label}: mean ({', '.join(f'{v:.4f}' for v in arr.mean(axis=0))}), "
            f"range over {len(arr)} seeds ({', '.join(f'{lo:.4f}–{hi:.4f}' for lo, hi in zip(arr.min(0), arr.max(0)))})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="runs of each library per design (default 3)")
    args = parser.parse_args()
    try:
        import stan  # noqa: F401  (PyStan 3, which baycomp's HierarchicalTest imports)
    except ImportError as exc:
        raise SystemExit(f"baycomp's HierarchicalTest needs PyStan 3 ({exc}): pip install pystan")
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (a busy machine inflates every time)")
    folds = mcda.datasets.load("benavoli2017_uci54_folds")
    designs = {"1. published folds (54 x 100, runs=10, rope 0.01)": (published_design(folds), 0.01, 10),
               "2. baycomp's documented copy (54 x 10, runs=1, rope 1 %)": (documented_design(folds), 1.0, 1)}
    run_mcda(*designs[next(iter(designs))][0], 0.01, 10, 0)  # numba's cache loaded before timing
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        # PyStan builds the model once per program (cached across calls and data): build it on a small
        # problem first, so that the timed calls below are sampling only
        tiny = published_design(folds)
        build, _ = run_baycomp(tiny[0][:3, :20], tiny[1][:3, :20], 0.01, 2, 0, nsamples=200)
        print(f"baycomp's first call (Stan model build, then 4 chains on 3 datasets): {build:.0f} s")
        for label, ((x, y), rope, runs) in designs.items():
            print(f"\n{label}: P(nbc better, equivalent, j48 better)")
            b = [run_baycomp(x, y, rope, runs, s) for s in range(args.seeds)]
            m = [run_mcda(x, y, rope, runs, s) for s in range(args.seeds)]
            b_probs, m_probs = np.array([p for _, p in b]), np.array([p for _, p in m])
            print("  " + show("baycomp", b_probs))
            print("  " + show("mcda   ", m_probs))
            print(f"  largest |mean difference| {np.abs(b_probs.mean(0) - m_probs.mean(0)).max():.4f}; "
                  f"largest spread within one library {max(np.ptp(b_probs, 0).max(), np.ptp(m_probs, 0).max()):.4f}")
            if runs == 1:
                print(f"  baycomp's documentation prints ({', '.join(map(str, DOCUMENTED))}) for this design")
            b_time, m_time = np.median([t for t, _ in b]), np.median([t for t, _ in m])
            print(f"  time (median of {args.seeds}, warm): baycomp {b_time:.2f} s, mcda {m_time:.2f} s; "
                  f"ratio baycomp / mcda = {b_time / m_time:.1f}")


if __name__ == "__main__":
    main()
