"""Contract cases for mcda.stats.within.aso: the almost stochastic order over seeds."""

from __future__ import annotations

import mcda
from tests.contract.harness import Case


def _aso(cube, **kwargs):
    # the resamples are keyed by the caller's rng and each method's own scores, so relabelling,
    # reordering and flipping the direction change nothing
    return mcda.almost_stochastic_order(cube, **({"n_resamples": 200, "rng": 3} | kwargs))


CASES = [
    Case(name="within.almost_stochastic_order", call=_aso, seeds=8, missing=0.05, n_datasets=6, n_methods=4,
         method_columns=("method_a", "method_b"), ignore_columns=("reason",),
         fields=("table", "confidence_level", "threshold", "adjust", "n_resamples", "direction", "metric", "notes"),
         bad_inputs=[({"threshold": 0.7}, ValueError, "`threshold` must lie in"),
                     ({"adjust": "holm"}, ValueError, "`adjust` must be one of"),
                     ({"n_resamples": 0}, ValueError, "`n_resamples` must be an integer"),
                     ({"rng": "seven"}, TypeError, "`rng` must be")]),
]
