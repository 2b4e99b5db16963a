"""mcda's Bayesian comparisons against baycomp 1.0.3: speed and agreement, side by side.

20 methods × 50 datasets (synthetic accuracies, rope 0.01), all 190 pairs, 50,000 posterior
draws where baycomp samples:

- Bayesian sign test: baycomp ``SignTest.probs`` per pair vs ``bayesian_sign_comparison``
  (exact: no sampling; and sampled);
- Bayesian signed-rank test: baycomp ``SignedRankTest.probs`` per pair vs
  ``bayesian_signed_rank_comparison`` (50,000 draws; with and without keeping the draws).

baycomp's signed-rank test is O(n²) per draw and takes about a second per pair, so by default
it runs on every 5th pair and its time is extrapolated to 190 pairs (the output says so);
``--all-pairs`` runs it on all of them. Agreement is the largest absolute difference between
the two libraries' probabilities over the pairs both ran (Monte Carlo error of baycomp, and of
mcda where it samples, included), plus the same with ``reproduce="baycomp"`` (baycomp's own
draws), which must be exactly 0.

Run: ``python benchmarks/bench_bayesian.py [--all-pairs]``
"""

from __future__ import annotations

import argparse
import os
import platform

import numpy as np
import pandas as pd

import mcda
from _timing import best_of
from mcda import bayesian_sign_comparison, bayesian_signed_rank_comparison, score_cube

N_METHODS, N_DATASETS, ROPE, N_SAMPLES, SEED = 20, 50, 0.01, 50_000, 2024


def make_scores(decimals=None) -> pd.DataFrame:
    g = np.random.default_rng(SEED)
    dataset_effect = g.normal(0.0, 0.05, (N_DATASETS, 1))
    method_effect = np.linspace(0.0, 0.04, N_METHODS)[None, :]
    scores = 0.75 + dataset_effect + method_effect + g.normal(0.0, 0.015, (N_DATASETS, N_METHODS))
    if decimals is not None:
        scores = np.round(scores, decimals)
    return pd.DataFrame(scores, index=[f"d{i:02d}" for i in range(N_DATASETS)],
                        columns=[f"m{j:02d}" for j in range(N_METHODS)])




def timed(fn, repeat=1):
    seconds, out = best_of(fn, repeat)
    return out, seconds


def baycomp_probs(test, frame, pairs, rope, two):
    """baycomp's (p_left, p_rope, p_right) per pair (x = method_a, y = method_b)."""
    out = {}
    for a, b in pairs:
        p = test.probs(frame[a].to_numpy(), frame[b].to_numpy(), rope, random_state=SEED, nsamples=N_SAMPLES)
        out[(a, b)] = np.array([p[0], 0.0, p[1]]) if two else np.array(p)
    return out


def max_difference(result, reference) -> float:
    frame = result.to_frame().set_index(["method_a", "method_b"])
    cols = ["prob_a_better", "prob_equivalent", "prob_b_better"]
    return max(float(np.abs(frame.loc[pair, cols].to_numpy(dtype=float) - p).max()) for pair, p in reference.items())


def main(all_pairs: bool) -> None:
    import baycomp

    frame = make_scores()
    cube = score_cube(frame, metric="accuracy")
    methods = list(frame.columns)
    pairs = [(methods[i], methods[j]) for i in range(N_METHODS) for j in range(i + 1, N_METHODS)]
    subset = pairs if all_pairs else pairs[::5]
    print(f"mcda {mcda.__version__}, baycomp 1.0.3, numpy {np.__version__}, Python {platform.python_version()}, "
          f"{os.cpu_count()} CPU(s), load average {os.getloadavg()[0]:.1f}")
    print(f"{N_METHODS} methods × {N_DATASETS} datasets, {len(pairs)} pairs, rope {ROPE}, {N_SAMPLES:,} draws\n")

    # warm up: imports, numba compilation / cache load
    bayesian_sign_comparison(cube, rope=ROPE)
    bayesian_sign_comparison(cube.isel(method=[0, 1]), rope=ROPE, method="sampling", n_samples=100, rng=0)
    bayesian_signed_rank_comparison(cube.isel(method=[0, 1]), rope=ROPE, n_samples=100, rng=0)

    rows = []
    # --- sign test
    ref_sign, t_ref_sign = timed(lambda: baycomp_probs(baycomp.SignTest, frame, pairs, ROPE, False))
    exact, t_exact = timed(lambda: bayesian_sign_comparison(cube, rope=ROPE), repeat=5)
    rows.append(("sign", "exact", t_ref_sign, t_exact, max_difference(exact, ref_sign), "all 190 pairs"))
    sampled, t_sampled = timed(lambda: bayesian_sign_comparison(cube, rope=ROPE, method="sampling", rng=1,
                                                                progress=False))
    rows.append(("sign", "sampling", t_ref_sign, t_sampled, max_difference(sampled, ref_sign), "all 190 pairs"))
    reproduced = bayesian_sign_comparison(cube, rope=ROPE, method="sampling", rng=SEED, reproduce="baycomp",
                                          keep_draws=False, progress=False)
    rows.append(("sign", "reproduce='baycomp'", np.nan, np.nan, max_difference(reproduced, ref_sign),
                 "baycomp's draws: must be 0"))

    # --- signed-rank test
    ref_sr, t_ref_subset = timed(lambda: baycomp_probs(baycomp.SignedRankTest, frame, subset, ROPE, False))
    t_ref_sr = t_ref_subset * len(pairs) / len(subset)
    note = "all 190 pairs" if all_pairs else (f"baycomp timed on {len(subset)} of {len(pairs)} pairs "
                                              f"({t_ref_subset:.1f} s), extrapolated ×{len(pairs) / len(subset):g}")
    sr, t_sr = timed(lambda: bayesian_signed_rank_comparison(cube, rope=ROPE, rng=1, progress=False))
    rows.append(("signed-rank", "keep draws (default)", t_ref_sr, t_sr, max_difference(sr, ref_sr), note))
    sr2, t_sr2 = timed(lambda: bayesian_signed_rank_comparison(cube, rope=ROPE, rng=1, keep_draws=False,
                                                               progress=False))
    rows.append(("signed-rank", "keep_draws=False", t_ref_sr, t_sr2, max_difference(sr2, ref_sr), note))
    reproduced = bayesian_signed_rank_comparison(cube, rope=ROPE, rng=SEED, reproduce="baycomp", keep_draws=False,
                                                 progress=False)
    rows.append(("signed-rank", "reproduce='baycomp'", np.nan, np.nan, max_difference(reproduced, ref_sr),
                 "baycomp's draws: must be 0"))

    table = pd.DataFrame(rows, columns=["test", "mcda mode", "baycomp s", "mcda s", "max |Δp|", "note"])
    table["speed-up"] = table["baycomp s"] / table["mcda s"]
    table = table[["test", "mcda mode", "baycomp s", "mcda s", "speed-up", "max |Δp|", "note"]]
    with pd.option_context("display.width", 200, "display.max_colwidth", 80):
        print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}", na_rep="–"))
    print("\ntargets: exact sign ≥ 100× SignTest; signed-rank ≥ 50× SignedRankTest; every |Δp| ≤ 0.01")
    print(f"  exact sign speed-up {t_ref_sign / t_exact:.0f}×, signed-rank speed-up {t_ref_sr / t_sr:.0f}× "
          f"(keep_draws=False: {t_ref_sr / t_sr2:.0f}×), largest |Δp| {table['max |Δp|'].max():.4f}")

    # --- the same scores rounded to 2 decimals: differences equal to the rope up to float rounding
    rounded = make_scores(decimals=2)
    rcube = score_cube(rounded, metric="accuracy")
    values = rounded.to_numpy()
    upper = np.triu_indices(N_METHODS, 1)
    diffs = np.abs(values[:, upper[0]] - values[:, upper[1]])
    boundary = int(np.sum((diffs > ROPE) & np.isclose(diffs, ROPE, rtol=0, atol=1e-12)))
    ref = baycomp_probs(baycomp.SignTest, rounded, pairs, ROPE, False)
    exact = bayesian_sign_comparison(rcube, rope=ROPE)
    reproduced = bayesian_sign_comparison(rcube, rope=ROPE, method="sampling", rng=SEED, reproduce="baycomp",
                                          keep_draws=False, progress=False)
    print(f"\nscores rounded to 2 decimals: {boundary} of {diffs.size} (dataset, pair) differences are the rope "
          "up to float rounding (baycomp: a win; mcda: an equivalence, as pairwise_counts)")
    print(f"  sign test max |Δp| vs baycomp: exact {max_difference(exact, ref):.4f}, "
          f"reproduce='baycomp' {max_difference(reproduced, ref):.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all-pairs", action="store_true", help="run baycomp's signed-rank test on all 190 pairs")
    main(parser.parse_args().all_pairs)
