"""Contract cases for mcda.stats.items: per-model means and per-pair tests over the items of a test set."""

from __future__ import annotations

import numpy as np
import xarray as xr

import mcda
from tests.contract.harness import Case

_CLUSTER_SIZE = 3


def _items(binary: bool):
    """The synthetic datasets × methods cube read as one test set: its datasets become the items (in clusters
    of three); with ``binary`` each score becomes 1 above 0.75 (a correct answer), else 0."""
    def prepare(cube):
        values = cube.values.T[None]  # 1 × methods × items
        if binary:
            values = (values > 0.75).astype(float)
        n_items = values.shape[2]
        items = xr.DataArray(values, dims=("dataset", "method", "item"),
                             coords={"dataset": ["test set"], "method": cube.coords["method"].values,
                                     "item": [f"item_{i}" for i in range(n_items)],
                                     "cluster": ("item", [f"passage_{i // _CLUSTER_SIZE}" for i in range(n_items)])})
        return mcda.score_cube(items, metric="accuracy")
    return prepare


def _means(cube, **kwargs):
    return mcda.item_means(cube, **kwargs)


def _paired(test):
    def call(cube, **kwargs):
        return mcda.paired_items(cube, **({"test": test} | kwargs))
    return call


_INTERVALS = {"ci_low": "ci_high", "naive_ci_low": "naive_ci_high", "wilson_low": "wilson_high", "exact_low": "exact_high"}
_PAIR = dict(method_columns=("method_a", "method_b"), pair_columns=("method_a", "method_b"), n_methods=5,
             ignore_columns=("reason", "superior"), n_datasets=18, pvalue_columns=("p_raw", "p_adjusted"),
             swap_columns={"mean_a": "mean_b", "n_a_only": "n_b_only", "ci_low": "ci_high"},
             flip_columns=("mean_a", "mean_b", "mean_diff", "ci_low", "ci_high"), flip_swap={"ci_low": "ci_high"})
_BAD = [({"confidence_level": 1.5}, ValueError, "`confidence_level` must lie in")]

CASES = [
    Case(name=f"items.item_means[{kind}]", call=_means, prepare=_items(kind == "binary"), n_datasets=18,
         fields=("table", "confidence_level", "clustered", "binary", "metric", "missing_items", "notes"),
         ignore_columns=("reason",), flip_columns=("mean", *_INTERVALS, *_INTERVALS.values()), flip_swap=_INTERVALS,
         bad_inputs=_BAD)
    for kind in ("binary", "continuous")
] + [
    Case(name="items.paired_items[t]", call=_paired("paired-items-t"), prepare=_items(False),
         **(_PAIR | {"flip_columns": (*_PAIR["flip_columns"], "statistic")}), negate_columns=("mean_diff", "ci_low", "ci_high", "statistic"),
         fields=("table", "test", "adjust", "alpha", "confidence_level", "power", "control", "clustered", "binary",
                 "methods", "direction", "notes", "n_significant"),
         bad_inputs=_BAD + [({"test": "wilcoxon"}, ValueError, "`test` must be one of"),
                            ({"adjust": "shaffer"}, ValueError, "`adjust` must be"),
                            ({"power": 1.0}, ValueError, "`power` must lie in"),
                            ({"control": "nobody"}, ValueError, "`control`")]),
] + [
    Case(name=f"items.paired_items[{test}]", call=_paired(test), prepare=_items(True), **_PAIR,
         negate_columns=("mean_diff", "ci_low", "ci_high"), fields=("table", "test", "binary"),
         bad_inputs=[({"alpha": 0}, ValueError, "`alpha` must lie in")])
    for test in ("mcnemar-exact", "mcnemar-mid-p", "mcnemar-asymptotic")
]

CASES += [
    Case(name=f"items.item_omnibus[{kind}]", call=lambda cube, **kw: mcda.item_omnibus(cube, **kw),
         prepare=_items(kind == "binary"), n_datasets=18, n_methods=5, method_columns=(), ignore_columns=("reason",),
         fields=("table", "mean_ranks", "alpha", "clustered", "notes"), pvalue_columns=("p_raw",),
         bad_inputs=[({"test": "anova"}, ValueError, "`test` must be one of"),
                     ({"alpha": 2}, ValueError, "`alpha` must lie in")])
    for kind in ("binary", "continuous")
] + [
    Case(name="items.item_leaderboard", call=lambda cube, **kw: mcda.item_leaderboard(cube, **kw),
         prepare=_items(False), n_datasets=18, n_methods=5,
         fields=("table", "pairs", "confidence_level", "alpha", "notes"),
         flip_columns=("mean", "ci_low", "ci_high"), flip_swap={"ci_low": "ci_high"},
         bad_inputs=[({"test": "nemenyi"}, ValueError, "`test` must be one of"),
                     ({"adjust": "bogus"}, ValueError, "`adjust` must be")]),
    Case(name="items.items_needed", call=lambda cube, **kw: mcda.items_needed(cube, **({"difference": 0.01} | kw)),
         prepare=_items(False), n_datasets=18, n_methods=5, method_columns=("method_a", "method_b"),
         pair_columns=("method_a", "method_b"), negate_columns=("mean_diff",), flip_columns=("mean_diff",),
         ignore_columns=("reason",), fields=("table", "difference", "alpha", "power", "clustered", "notes"),
         bad_inputs=[({"difference": -1.0}, ValueError, "`difference` must be a positive number"),
                     ({"power": 1.5}, ValueError, "`power` must lie in")]),
]
