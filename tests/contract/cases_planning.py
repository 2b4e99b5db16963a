"""Contract cases for mcda.design_power: its per-procedure table and its per-pair table.

The simulation draws from a fixed ``rng``; the model puts methods and datasets in a canonical
order first, so relabelling and reordering change no draw."""

from __future__ import annotations

import mcda
from tests.contract.harness import Case, Framed

_SMALL = {"n_resamples": 40, "max_datasets": 16, "rng": 3}


def _design_power(cube, **kwargs):
    return mcda.design_power(cube, **(_SMALL | kwargs))


def _design_power_pairs(cube, **kwargs):
    return Framed(_design_power(cube, **kwargs), lambda result: result.pairs)


_BAD = [({"tests": ("friedman",)}, ValueError, "`tests` must be one of"),
        ({"target_power": 0.01}, ValueError, "`target_power` must exceed"),
        ({"sd": 1.0}, ValueError, "`sd` is estimated from a pilot")]

CASES = [
    Case(name="design_power", call=_design_power, method_columns=(),
         fields=("table", "pairs", "n_datasets", "n_methods", "pilot_datasets", "sd", "rope"), bad_inputs=_BAD),
    Case(name="design_power[pairs]", call=_design_power_pairs, method_columns=("method_a", "method_b"),
         pair_columns=("method_a", "method_b"), negate_columns=("mean_diff",), flip_columns=("mean_diff",),
         n_methods=5),
]
