"""Contract cases for method_summary, and every chunk-wise function again on a lazy (dask) cube.

The lazy cases reuse the owners' cases as they are, with the cube chunked along ``dataset``
(12 datasets in blocks of 5, 5 and 2) before the call: relabelling, reordering, the direction
flip and the bad inputs must behave exactly as in memory. rank_stability is left out: on a lazy
cube its draws follow the store's order of datasets (documented), so reordering changes them.
"""

from __future__ import annotations

import dataclasses
import importlib.util

import mcda
from tests.contract import cases_bayesian, cases_frequentist, cases_pairwise, cases_ranks
from tests.contract.harness import Case

CASES = [
    Case(name="method_summary", call=lambda cube, **kw: mcda.method_summary(cube, **kw),
         fields=("methods", "n_results", "n_missing", "mean", "std", "min", "max", "n_datasets", "metric",
                 "direction"),
         flip_columns=("mean", "min", "max"), flip_swap={"min": "max"}, missing=0.05,
         bad_inputs=[({"direction": "up"}, ValueError, "`direction` must be one of")]),
]

_LAZY = ("bayesian_sign_comparison[exact]", "bayesian_sign_comparison[rope0]", "friedman_test", "nemenyi",
         "bonferroni_dunn", "control_test[holm]", "control_test[hochberg]", "control_test[hommel]",
         "control_test[bonferroni-dunn]", "all_pairs_test[nemenyi]", "all_pairs_test[holm]",
         "all_pairs_test[shaffer]", "all_pairs_test[bergmann-hommel]", "compare_over_datasets",
         "compare_over_datasets[missing]", "compare_over_datasets[control]", "compare_over_datasets[groups]",
         "pairwise_counts", "pairwise_superiority", "pairwise_transitivity", "bradley_terry", "marginal_means",
         "mean_ranks[uniform]", "method_summary")


def _chunked(call):
    def lazy_call(cube, **kwargs):
        return call(cube.chunk({"dataset": 5}), **kwargs)
    return lazy_call


if importlib.util.find_spec("dask") is not None:
    _OWN = {c.name: c for c in (*cases_bayesian.CASES, *cases_frequentist.CASES, *cases_pairwise.CASES,
                                *cases_ranks.CASES, *CASES)}
    CASES = CASES + [dataclasses.replace(_OWN[name], name=f"{name}[lazy]", call=_chunked(_OWN[name].call))
                     for name in _LAZY]
