"""Speed of the across-dataset procedure against scikit-posthocs, and at a million datasets.

    python benchmarks/bench_frequentist.py [--repeats R] [--big-datasets N]

1. The full procedure at 50 methods × 1,000 datasets: Friedman χ², Iman–Davenport F, the
   Nemenyi p-values of all 1,225 pairs and the cliques (``mcda.compare_over_datasets``),
   against scikit-posthocs' ``posthoc_nemenyi_friedman`` plus ``scipy.stats.friedmanchisquare``
   (which give no Iman–Davenport F and no cliques), on the same array. mcda is timed from the
   raw array (building and checking the cube included) and from a ready cube. The two must
   agree: the Nemenyi p-values to 1e-12, the tie-corrected χ² to 1e-12 (relative).
2. The same procedure at 20 methods × 1,000,000 datasets in memory, with the time split into
   building the cube (``prepare_across``), ranking (``rank_rows``) and the rest.

Times are the best of ``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import warnings

import numpy as np
import pandas as pd
from scipy import stats

import mcda
from _timing import best_of
from mcda.stats._shared.ranks import prepare_across, rank_rows




def scores(n_datasets, n_methods, rng):
    """Accuracies with real differences between methods and ties (3 decimals), one per cell."""
    return np.round(0.7 + 0.05 * rng.standard_normal((n_datasets, 1)) + np.linspace(0, 0.02, n_methods)
                    + 0.02 * rng.standard_normal((n_datasets, n_methods)), 3)


def result_ranks(values, names):
    return mcda.average_ranks(values, "higher_is_better", method_names=names).mean_ranks.reindex(names).to_numpy()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--big-datasets", type=int, default=1_000_000)
    args = parser.parse_args()
    import scikit_posthocs as sp
    from autorank import autorank

    rng = np.random.default_rng(0)
    values = scores(1_000, 50, rng)
    names = [f"m{j:02d}" for j in range(50)]
    run = lambda data: mcda.compare_over_datasets(data, "higher_is_better", method_names=names)  # noqa: E731
    run(values[:30])  # first call: imports
    cube = mcda.score_cube(values, metric="accuracy", method_names=names)

    def peers():
        return stats.friedmanchisquare(*values.T), sp.posthoc_nemenyi_friedman(values)

    t_array, result = best_of(lambda: run(values), args.repeats)
    t_cube, _ = best_of(lambda: mcda.compare_over_datasets(cube), args.repeats)
    t_peer, (scipy_chi2, peer_p) = best_of(peers, args.repeats)
    frame = pd.DataFrame(values, columns=names)
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):  # autorank prints its table
        warnings.simplefilter("ignore")
        t_auto, auto = best_of(lambda: autorank(frame, alpha=0.05, verbose=False, force_mode="nonparametric"),
                               args.repeats)
    auto_rank_gap = float(np.abs(auto.rankdf["meanrank"].reindex(names).to_numpy()
                                 - result_ranks(values, names)).max())
    auto_cd_gap = abs(auto.cd - mcda.critical_difference(50, 1_000))
    peer = peer_p.to_numpy().copy()
    np.fill_diagonal(peer, np.nan)
    p_gap = float(np.nanmax(np.abs(result.posthoc.pvalues_adjusted.to_numpy() - peer)))
    chi2_gap = abs(result.friedman.statistic_tied / scipy_chi2.statistic - 1)

    big = scores(args.big_datasets, 20, np.random.default_rng(1))
    big_names = [f"m{j:02d}" for j in range(20)]
    mcda.compare_over_datasets(big[:50_000], "higher_is_better", method_names=big_names)  # load the rank kernel
    t_big, big_result = best_of(lambda: mcda.compare_over_datasets(big, "higher_is_better", method_names=big_names),
                                max(1, args.repeats // 2))
    t_prep, prep = best_of(lambda: prepare_across(big, "higher_is_better", method_names=big_names), 1)
    t_rank, _ = best_of(lambda: rank_rows(prep.values), 1)

    rows = [
        ("full procedure, 1,000 datasets × 50 methods", "", ""),
        ("  mcda.compare_over_datasets (from the array)", f"{t_array * 1e3:8.1f} ms", "1.0"),
        ("  mcda.compare_over_datasets (from a cube)", f"{t_cube * 1e3:8.1f} ms", f"{t_cube / t_array:.2f}"),
        ("  scipy friedmanchisquare + scikit-posthocs nemenyi", f"{t_peer * 1e3:8.1f} ms",
         f"{t_peer / t_array:.2f}  (> 1: mcda faster)"),
        ("  agreement", f"Nemenyi p max |diff| {p_gap:.1e}", f"tied chi2 rel. diff {chi2_gap:.1e}"),
        ("  autorank (force_mode='nonparametric': Friedman + Nemenyi)", f"{t_auto * 1e3:8.1f} ms",
         f"{t_auto / t_array:.2f}  (> 1: mcda faster)"),
        ("  agreement with autorank", f"mean rank max |diff| {auto_rank_gap:.1e}",
         f"CD |diff| {auto_cd_gap:.1e} (autorank's q table)"),
        (f"full procedure, {args.big_datasets:,} datasets × 20 methods (in memory)", "", ""),
        ("  mcda.compare_over_datasets (from the array)", f"{t_big:8.2f} s", ""),
        ("    of which: building the cube (prepare_across)", f"{t_prep:8.2f} s", ""),
        ("    of which: ranking (rank_rows)", f"{t_rank:8.2f} s", ""),
        ("  result", f"F = {big_result.friedman.f_statistic:.1f}",
         f"{int(big_result.posthoc.significant.to_numpy().sum()) // 2} of 190 pairs separated"
         if big_result.posthoc is not None else "omnibus does not reject"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'time':>30}  ratio")
    for name, t, ratio in rows:
        print(f"{name:<{width}}  {t:>30}  {ratio}")


if __name__ == "__main__":
    main()
