"""Contract cases for the multi-criteria views (per criterion, dominance, PROMETHEE II, weight stability).

The harness gives a single-metric cube; each call turns it into two criteria: the harness's
metric (labelled "score", with whatever card the harness gave it) and a runtime derived from
it (100 · score², seconds, lower is better). The runtime does not change when the score is
negated, relabelled or reordered, so every contract property carries over, and the two
criteria pull against each other (better scores take longer): a real trade-off.
"""

from __future__ import annotations

import warnings

import numpy as np
import xarray as xr

import mcda
from mcda.data.checks import cube_card
from tests.contract.harness import Case


def two_criteria(cube: xr.DataArray) -> xr.DataArray:
    runtime = 100.0 * cube.values ** 2
    data = xr.DataArray(np.stack([cube.values, runtime], axis=-1), dims=("dataset", "method", "metric"),
                        coords={"dataset": cube.coords["dataset"].values, "method": cube.coords["method"].values,
                                "metric": ["score", "runtime"]})
    return mcda.score_cube(data, metric={"score": cube_card(cube), "runtime": "runtime"})


def _compare(cube, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)  # 12 datasets: some pairs cannot reach alpha
        return mcda.compare_criteria(two_criteria(cube), **kwargs)


def _dominance(cube, **kwargs):
    return mcda.practical_dominance(two_criteria(cube), **kwargs)


def _promethee(cube, **kwargs):
    return mcda.promethee(two_criteria(cube), **({"weights": {"score": 2, "runtime": 1}} | kwargs))


def _smaa(cube, **kwargs):
    return mcda.smaa(two_criteria(cube), **({"n_draws": 2_000, "rng": 3} | kwargs))


def _gsd(cube, **kwargs):
    return mcda.gsd_front(two_criteria(cube), **({"n_resamples": 9, "rng": 3} | kwargs))


def _stability(cube, **kwargs):
    return mcda.weight_stability(two_criteria(cube), **({"n_steps": 10} | kwargs))


CASES = [
    Case(name="compare_criteria", call=_compare,
         fields=("metrics", "directions", "noise_floors", "across", "superiority", "alpha", "test", "adjust"),
         pvalue_columns=("friedman_pvalue",), n_methods=5,
         bad_inputs=[({"metrics": ["accuracy"]}, ValueError, "`metrics` names metrics not among .*: 'accuracy'"),
                     ({"alpha": 2}, ValueError, "`alpha` must lie in"),
                     ({"adjust": "fdr"}, ValueError, "`adjust` must be None or one of")]),
    Case(name="practical_dominance", call=_dominance,
         fields=("methods", "metrics", "directions", "noise_floors", "dominates", "n_equivalent", "n_shared",
                 "pvalues", "majority", "front", "dominated_by", "criterion_summary", "confidence_level",
                 "n_datasets", "reasons"),
         pair_columns=("method_a", "method_b"), method_columns=("method_a", "method_b", "majority"),
         swap_columns={"a_dominates": "b_dominates"}, pvalue_columns=("p_raw",), missing=0.05, n_methods=5,
         bad_inputs=[({"metrics": ["accuracy"]}, ValueError, "`metrics` names metrics not among .*: 'accuracy'"),
                     ({"rope": 0.01}, TypeError, "`rope` must be a mapping"),
                     ({"rope": {"score": -0.01}}, ValueError, "`rope`"),
                     ({"confidence_level": 95}, ValueError, "`confidence_level` must lie in")]),
    Case(name="promethee", call=_promethee,
         fields=("methods", "metrics", "weights", "indifference", "preference", "net_flow", "positive_flow",
                 "negative_flow", "per_dataset", "criterion_flows", "order", "top", "n_datasets", "missing",
                 "excluded", "dropped_datasets"),
         n_methods=5,
         bad_inputs=[({"weights": {"score": -1, "runtime": 1}}, ValueError, "`weights` must be finite numbers"),
                     ({"preference": {"runtime": 0.05}}, ValueError, "`preference` for metric 'runtime'"),
                     ({"missing": "impute"}, ValueError, "`missing` must be one of")]),
    Case(name="promethee[available]", call=lambda cube, **kw: _promethee(cube, **({"missing": "available"} | kw)),
         fields=("net_flow", "per_dataset"), missing=0.1, n_methods=5),
    Case(name="weight_stability", call=_stability,
         fields=("methods", "metrics", "weights", "net_flows", "top", "share_first", "sampling", "n_steps",
                 "n_resamples", "criterion_flows", "indifference", "preference", "excluded", "dropped_datasets"),
         n_methods=5,
         bad_inputs=[({"n_steps": 0}, ValueError, "`n_steps` must be an integer >= 1"),
                     ({"metrics": "nope"}, ValueError, "`metrics` names metrics not among .*: 'nope'")]),
    Case(name="smaa", call=_smaa,
         fields=("methods", "metrics", "directions", "rank_acceptability", "rank_acceptability_se", "central_weights",
                 "central_weights_se", "confidence_factors", "confidence_factors_se", "ranges", "weights",
                 "weight_information", "uncertainty", "n_draws", "n_datasets", "excluded"),
         n_methods=5,
         bad_inputs=[({"weights": ["score"]}, ValueError, "must list every criterion"),
                     ({"uncertainty": "folds"}, ValueError, "`uncertainty` must be one of"),
                     ({"n_draws": 0}, ValueError, "`n_draws` must be an integer >= 1")]),
    Case(name="gsd_front", call=_gsd,
         fields=("methods", "metrics", "directions", "ordinal", "statistics", "dominates", "front", "dominated_by",
                 "tested", "pvalues", "front_pvalues", "tolerated_contamination", "alpha", "contamination",
                 "n_resamples", "n_datasets", "dropped_datasets"),
         pvalue_columns=("p_raw",), ignore_columns=("dominated_by",), n_methods=4,
         bad_inputs=[({"ordinal": ["speed"]}, ValueError, "`ordinal` names metrics not among"),
                     ({"candidates": ["nope"]}, ValueError, "`candidates` names methods not among"),
                     ({"contamination": 1.5}, ValueError, "`contamination` must lie in"),
                     ({"n_resamples": 0}, ValueError, "`n_resamples` must be an integer >= 1")]),
]
