"""Contract cases for mcda.stats._shared.ranks: mean_ranks and rank_stability under every aggregation, and
Demšar's average ranks."""

from __future__ import annotations

import warnings

import mcda
from tests.contract.harness import Case


def _groups(cube):
    # by dataset label, so that reordering datasets changes nothing
    return {d: f"g{int(str(d).rsplit('_', 1)[-1]) % 3}" for d in cube.coords["dataset"].values}


def _weights(cube):
    return {d: 1.0 + int(str(d).rsplit("_", 1)[-1]) % 4 for d in cube.coords["dataset"].values}


def _options(aggregation, cube):
    if aggregation == "hierarchical":
        return {"aggregation": aggregation, "groups": _groups(cube)}
    if aggregation == "custom":
        return {"aggregation": aggregation, "weights": _weights(cube)}
    return {"aggregation": aggregation}


def _mean_ranks(aggregation):
    def call(cube, **kwargs):
        return mcda.mean_ranks(cube, **(_options(aggregation, cube) | kwargs))
    return call


def _rank_stability(aggregation):
    def call(cube, **kwargs):
        return mcda.rank_stability(cube, **({"n_resamples": 300, "rng": 0} | _options(aggregation, cube) | kwargs))
    return call


def _average_ranks(missing):
    def call(cube, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", mcda.MissingDataWarning)  # the methods or datasets left out are named
            return mcda.average_ranks(cube, **({"missing": missing} | kwargs))
    return call


_SEEDS = {"reliability": 3}
_COMMON_BAD = [({"aggregation": "weighted"}, ValueError, "`aggregation` must be one of")]

CASES = [
    Case(name=f"mean_ranks[{aggregation}]", call=_mean_ranks(aggregation), seeds=_SEEDS.get(aggregation, 0),
         fields=("mean_ranks", "rank_table", "aggregation", "weights", "n_datasets", "n_methods", "excluded"),
         bad_inputs=_COMMON_BAD + [({"missing": "impute"}, ValueError, "`missing` must be one of")])
    for aggregation in ("uniform", "reliability", "hierarchical", "custom")
] + [
    Case(name=f"rank_stability[{aggregation}]", call=_rank_stability(aggregation),
         seeds=_SEEDS.get(aggregation, 0),
         fields=("mean_ranks", "mean_rank_draws", "position_probabilities", "mean_rank_interval", "prob_best",
                 "jackknife", "aggregation", "n_resamples"),
         pvalue_columns=("prob_best",),
         bad_inputs=_COMMON_BAD + [({"n_resamples": 0}, ValueError, "`n_resamples`"),
                                   ({"confidence_level": 1.5}, ValueError, "`confidence_level`")])
    for aggregation in ("uniform", "reliability", "hierarchical", "custom")
] + [
    Case(name=f"average_ranks[{missing}]", call=_average_ranks(missing), missing=0.04,
         fields=("mean_ranks", "rank_table", "aggregation", "weights", "n_datasets", "n_methods", "excluded"),
         bad_inputs=[({"missing": "impute"}, ValueError, "`missing` must be one of"),
                     ({"direction": "up"}, ValueError, "`direction` must be one of")])
    for missing in ("methods", "datasets")
]
