"""Contract cases for mcda.stats.rank_sets: rank confidence sets from a cube (mean ranks, mean scores) and from
estimates with a covariance."""

from __future__ import annotations

import numpy as np
import pandas as pd

import mcda
from tests.contract.cases_items import _items
from tests.contract.harness import Case

_BAD = [({"confidence_level": 1.5}, ValueError, "`confidence_level`"),
        ({"n_resamples": 0}, ValueError, "`n_resamples`"),
        ({"simultaneous": "yes"}, TypeError, "`simultaneous`")]


def _from_cube(estimate, simultaneous):
    def call(cube, **kwargs):
        return mcda.rank_confidence_sets(cube, **({"estimate": estimate, "simultaneous": simultaneous,
                                                   "n_resamples": 400, "rng": 0} | kwargs))
    return call


def _from_estimates(cube, **kwargs):
    # the per-method means in the metric's own direction and their covariance over the datasets
    values = cube.transpose("dataset", "method").values
    labels = [str(m) for m in cube.coords["method"].values]
    estimates = pd.Series(values.mean(axis=0), index=labels)
    covariance = pd.DataFrame(np.cov(values, rowvar=False) / values.shape[0], index=labels, columns=labels)
    options = {"direction": cube.attrs["direction"], "n_resamples": 400, "rng": 0} | kwargs
    return mcda.rank_confidence_sets_from_estimates(estimates, covariance, **options)


CASES = [
    Case(name=f"rank_confidence_sets[{estimate},{'simultaneous' if simultaneous else 'marginal'}]",
         call=_from_cube(estimate, simultaneous), n_methods=5,
         fields=("estimates", "std_errors", "covariance", "ranks", "rank_low", "rank_high", "best_set",
                 "critical_values"),
         flip_columns=("estimate",) if estimate == "mean" else (),
         bad_inputs=_BAD + [({"estimate": "median"}, ValueError, "`estimate` must be one of"),
                            ({"missing": "available"}, ValueError, "`missing` must be one of")])
    for estimate in ("mean_rank", "mean") for simultaneous in (True, False)
] + [
    Case(name="rank_confidence_sets_from_estimates", call=_from_estimates, n_methods=5,
         fields=("estimates", "covariance", "rank_low", "rank_high", "best_set"), flip_columns=("estimate",),
         bad_inputs=_BAD + [({"direction": "up"}, ValueError, "`direction` must be one of")]),
    Case(name="rank_confidence_sets_over_items", prepare=_items(False), n_datasets=18, n_methods=5,
         call=lambda cube, **kwargs: mcda.rank_confidence_sets_over_items(cube, **({"n_resamples": 400, "rng": 0}
                                                                                 | kwargs)),
         fields=("estimates", "covariance", "rank_low", "rank_high", "best_set", "n_items", "n_clusters"),
         flip_columns=("estimate",), bad_inputs=_BAD),
]
