"""mcda's effect sizes with bootstrap intervals against autorank's formulas in a numpy loop.

20 methods × 50 datasets (synthetic accuracies), all 190 pairs, 500 bootstrap resamples per
pair (units = datasets, pairing kept), for Cliff's δ, Akinshin's γ and the pooled d. The peer
is autorank 1.3's own ``_cliffs_delta`` / ``_akinshin_gamma`` / ``_cohen_d`` (it gives no
intervals) called on numpy-resampled columns in a Python loop, the way a user would add
intervals to autorank's numbers. Agreement: the point estimates must be equal (max |diff|),
and the interval ends agree within the Monte Carlo error of two different random streams.

Run: ``python benchmarks/bench_effect_sizes.py [--resamples 500]``
"""

from __future__ import annotations

import argparse
import contextlib
import io
import platform

import numpy as np
import pandas as pd
from autorank import _util as autorank_util

import mcda
from _timing import best_of

N_METHODS, N_DATASETS, SEED = 20, 50, 2024
PEERS = {"cliff_delta": autorank_util._cliffs_delta, "akinshin_gamma": autorank_util._akinshin_gamma,
         "cohen_d_pooled": autorank_util._cohen_d}


def make_scores() -> pd.DataFrame:
    g = np.random.default_rng(SEED)
    scores = (0.75 + g.normal(0.0, 0.05, (N_DATASETS, 1)) + np.linspace(0.0, 0.04, N_METHODS)[None, :]
              + g.normal(0.0, 0.015, (N_DATASETS, N_METHODS)))
    return pd.DataFrame(np.round(scores, 3), index=[f"d{i:02d}" for i in range(N_DATASETS)],
                        columns=[f"m{j:02d}" for j in range(N_METHODS)])


def peer(frame: pd.DataFrame, kind: str, n_resamples: int):
    """autorank's statistic per pair, with a percentile interval from a numpy bootstrap loop."""
    f = PEERS[kind]
    g = np.random.default_rng(SEED)
    rows = []
    values = frame.to_numpy()
    cols = list(frame.columns)
    for i in range(len(cols)):
        for j in range(i + 1, len(cols)):
            x, y = values[:, i], values[:, j]
            idx = g.integers(0, len(x), size=(n_resamples, len(x)))
            with np.errstate(divide="ignore", invalid="ignore"):
                draws = np.array([f(x[r], y[r]) for r in idx])
            rows.append((cols[i], cols[j], f(x, y), *np.nanquantile(draws, [0.025, 0.975])))
    return pd.DataFrame(rows, columns=["method_a", "method_b", "effect_size", "ci_low", "ci_high"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--resamples", type=int, default=500)
    args = parser.parse_args()
    frame = make_scores()
    cube = mcda.score_cube(frame, metric="accuracy")
    mcda.effect_sizes(cube.isel(method=[0, 1]), n_resamples=10, rng=0)  # compile / load the numba cache
    print(f"{N_METHODS} methods x {N_DATASETS} datasets, 190 pairs, {args.resamples} resamples; "
          f"{platform.python_version()}, {platform.machine()}")
    for kind in PEERS:
        t_mcda, ours = best_of(lambda: mcda.effect_sizes(cube, kind=kind, against="all", n_resamples=args.resamples,
                                                         rng=SEED).to_frame(), 3)
        with contextlib.redirect_stdout(io.StringIO()):
            t_peer, theirs = best_of(lambda: peer(frame, kind, args.resamples), 1)
        merged = ours.merge(theirs, on=["method_a", "method_b"], suffixes=("", "_peer"))
        point = float(np.max(np.abs(merged["effect_size"] - merged["effect_size_peer"])))
        ends = float(np.max(np.abs(np.r_[merged["ci_low"] - merged["ci_low_peer"],
                                         merged["ci_high"] - merged["ci_high_peer"]])))
        print(f"{kind:15s} mcda {t_mcda:7.3f} s   autorank+numpy loop {t_peer:7.2f} s   ratio {t_peer / t_mcda:6.1f}x"
              f"   max |point diff| {point:.1e}   max |interval end diff| {ends:.3f} (Monte Carlo)")


if __name__ == "__main__":
    main()
