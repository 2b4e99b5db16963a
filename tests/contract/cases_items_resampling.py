"""Contract cases for mcda.stats.items.resampling: paired permutation tests and bootstrap intervals over items.

The harness's cube (datasets × methods) becomes one test set whose items are its datasets (the
harness's dataset permutation then reorders items, which must change nothing), with a
``cluster`` coordinate taken from each item's label, so relabelling and reordering carry it along.
"""

from __future__ import annotations

import numpy as np

import mcda
from tests.contract.harness import Case


def _items(cube, clustered: bool):
    labels = [str(v) for v in cube.coords["dataset"].values]
    items = cube.drop_vars([c for c in cube.coords if c not in ("dataset", "method")])
    items = items.rename({"dataset": "item"}).expand_dims(dataset=["test set"]).transpose("dataset", "method", "item")
    if clustered:  # dataset_0 … dataset_11 → clusters by the label's last digit modulo 4
        items = items.assign_coords(cluster=("item", [f"c{int(label[-1]) % 4}" for label in labels]))
    return mcda.score_cube(items)


def _permutation(clustered):
    def call(cube, **kwargs):
        return mcda.paired_permutation_test(_items(cube, clustered), **({"n_resamples": 999, "rng": 5} | kwargs))
    return call


def _bootstrap(ci_method):
    def call(cube, **kwargs):
        return mcda.paired_bootstrap(_items(cube, ci_method == "percentile"),
                                     **({"n_resamples": 999, "rng": 5, "ci_method": ci_method} | kwargs))
    return call


# Five methods: the harness's method permutation reverses some pairs but not all.
_PAIR = dict(method_columns=("method_a", "method_b"), pair_columns=("method_a", "method_b"), n_methods=5,
             ignore_columns=("reason",))
_PERMUTATION_FIELDS = ("table", "alternative", "adjust", "alpha", "n_resamples", "clustered", "control", "notes")
_BOOTSTRAP_FIELDS = ("table", "confidence_level", "ci_method", "n_resamples", "clustered", "control", "notes")

CASES = [
    Case(name=f"items.paired_permutation_test[{'clustered' if clustered else 'items'}]",
         call=_permutation(clustered), fields=_PERMUTATION_FIELDS, negate_columns=("mean_diff",),
         flip_columns=("mean_diff",), pvalue_columns=("p_raw", "p_adjusted"), **_PAIR,
         bad_inputs=[({"alternative": "two_sided"}, ValueError, "`alternative` must be one of"),
                     ({"adjust": "shaffer"}, ValueError, "`adjust` must be one of"),
                     ({"n_resamples": 0}, ValueError, "`n_resamples` must be an integer"),
                     ({"alpha": 1.5}, ValueError, "`alpha` must lie in"),
                     ({"control": "nobody"}, ValueError, "`control` must be one of"),
                     ({"pair": ("method_0", "method_0")}, ValueError, "`pair` must name two different"),
                     ({"rng": "seven"}, TypeError, "`rng` must be")])
    for clustered in (False, True)
] + [
    Case(name=f"items.paired_bootstrap[{ci_method}]", call=_bootstrap(ci_method), fields=_BOOTSTRAP_FIELDS,
         swap_columns={"ci_low": "ci_high"}, negate_columns=("mean_diff", "ci_low", "ci_high"),
         flip_columns=("mean_diff", "ci_low", "ci_high"), flip_swap={"ci_low": "ci_high"}, **_PAIR,
         bad_inputs=[({"ci_method": "bootstrap"}, ValueError, "`ci_method` must be one of"),
                     ({"confidence_level": 1.5}, ValueError, "`confidence_level` must lie in"),
                     ({"n_resamples": 0}, ValueError, "`n_resamples` must be an integer"),
                     ({"pair": "method_0"}, TypeError, "`pair` must be two method names")])
    for ci_method in ("percentile", "bca")
]
