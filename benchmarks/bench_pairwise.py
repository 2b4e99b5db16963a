"""Speed and agreement of mcda's pairwise views against peers, side by side in one run.

- pairwise_superiority (counts + exact sign test for every pair) vs a per-pair pandas loop
  calling scipy.stats.binomtest, the way one would write it by hand;
- bradley_terry (Newton, with standard errors) vs choix.ilsr_pairwise_dense (strengths only);
- pairwise_transitivity (vectorised cycle listing) vs a Python loop over all triples.

Run: python benchmarks/bench_pairwise.py   (prints a table; nothing is asserted)
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
from scipy import stats

import mcda
from _timing import best_of
from mcda.stats.pairwise import PairwiseCounts




def by_hand_superiority(frame: pd.DataFrame, rope: float):
    pvalues = {}
    for a, b in itertools.combinations(frame.columns, 2):
        d = (frame[a] - frame[b]).dropna()
        wins, losses = int((d > rope + 1e-12).sum()), int((d < -rope - 1e-12).sum())
        pvalues[(a, b)] = stats.binomtest(wins, wins + losses).pvalue if wins + losses else np.nan
    return pvalues


def by_hand_triads(wins: np.ndarray):
    relation = wins > wins.T
    n = len(wins)
    return sum(1 for i, j, k in itertools.combinations(range(n), 3)
               if (relation[i, j] and relation[j, k] and relation[k, i])
               or (relation[i, k] and relation[k, j] and relation[j, i]))


def main():
    rng = np.random.default_rng(0)
    rows = []
    for n_datasets, n_methods in [(30, 10), (1000, 20), (5000, 50)]:
        skill = np.linspace(0, 0.05, n_methods)
        values = np.round(rng.normal(0.7, 0.1, (n_datasets, 1)) + skill + rng.normal(0, 0.02, (n_datasets, n_methods)), 3)
        names = [f"m{i}" for i in range(n_methods)]
        frame = pd.DataFrame(values, columns=names)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t_mcda, report = best_of(lambda: mcda.pairwise_superiority(values, "higher_is_better", rope=0.01,
                                                                       method_names=names))
        t_peer, pvalues = best_of(lambda: by_hand_superiority(frame, 0.01), repeats=1)
        gap = max(abs(report.pvalues.loc[a, b] - p) for (a, b), p in pvalues.items() if not np.isnan(p))
        rows.append(("pairwise_superiority", f"{n_datasets} x {n_methods}", "pandas loop + binomtest",
                     t_mcda, t_peer, f"max |dp| {gap:.1e}"))

    import choix

    for n_methods in [10, 50, 200]:
        strength = rng.normal(0, 1, n_methods)
        n = rng.integers(5, 30, (n_methods, n_methods))
        n = np.triu(n, 1) + np.triu(n, 1).T
        p = 1 / (1 + np.exp(strength[None, :] - strength[:, None]))
        wins = rng.binomial(np.triu(n, 1), np.triu(p, 1))
        wins = wins + (np.triu(n, 1) - wins).T
        counts = PairwiseCounts.from_matrix(wins)
        t_mcda, bt = best_of(lambda: mcda.bradley_terry(counts))
        t_peer, reference = best_of(lambda: choix.ilsr_pairwise_dense(wins.astype(float), tol=1e-10, max_iter=1000))
        gap = np.max(np.abs(bt.strengths.to_numpy() - (reference - reference.mean())))
        rows.append(("bradley_terry", f"{n_methods} methods", "choix.ilsr_pairwise_dense", t_mcda, t_peer,
                     f"max |d beta| {gap:.1e}"))
        t_mcda, trans = best_of(lambda: mcda.pairwise_transitivity(counts))
        t_peer, d = best_of(lambda: by_hand_triads(wins), repeats=1)
        rows.append(("pairwise_transitivity", f"{n_methods} methods", "Python loop over triples", t_mcda, t_peer,
                     f"triads {trans.n_circular_triads} vs {d}"))

    table = pd.DataFrame(rows, columns=["function", "size", "peer", "mcda_s", "peer_s", "agreement"])
    table["peer / mcda"] = table["peer_s"] / table["mcda_s"]
    with pd.option_context("display.width", 160, "display.max_columns", 10, "display.float_format", "{:.4g}".format):
        print(table.to_string(index=False))


if __name__ == "__main__":
    main()
