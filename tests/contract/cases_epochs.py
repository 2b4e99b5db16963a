"""Contract cases for mcda.stats.within.epochs: learning curves and the support of epoch selection.

The synthetic cube gets an ``epoch`` dim (scores rising to their final value) and, for the
selection support, a ``split`` dim whose validation series is a copy of the test series on
every third dataset (by label), so both answers appear.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

import mcda
from tests.contract.harness import Case

_EPOCHS = 4


def _with_epochs(cube):
    """Epoch e scores the final score minus 0.01 · (last − e) (rounded, so ties stay ties)."""
    gap = xr.DataArray(0.01 * np.arange(_EPOCHS - 1, -1, -1), dims="epoch", coords={"epoch": np.arange(1, _EPOCHS + 1)})
    out = (cube - gap).round(3)
    out.attrs = {}
    return mcda.score_cube(out.transpose("dataset", "method", ...), metric="accuracy")


def _with_splits(cube):
    """``test`` and ``val`` splits; ``val`` is the test series shifted by 0.005, except on every third dataset."""
    epochs = _with_epochs(cube)
    copied = xr.DataArray([int(str(d).rsplit("_", 1)[-1]) % 3 == 0 for d in epochs.coords["dataset"].values],
                          dims="dataset", coords={"dataset": epochs.coords["dataset"]})
    val = epochs.where(copied, epochs - 0.005)
    out = xr.concat([epochs, val], dim=xr.DataArray(["test", "val"], dims="split", name="split"))
    out.attrs = {}
    return mcda.score_cube(out.transpose("dataset", "method", ...), metric="accuracy")


def _curves(cube, **kwargs):
    return mcda.learning_curves(cube, **kwargs)


def _support(cube, **kwargs):
    return mcda.epoch_selection_support(cube, **kwargs)


CASES = [
    Case(name="learning_curves", call=_curves, seeds=3, prepare=_with_epochs, missing=0.05,
         fields=("table", "confidence_level", "split", "has_seeds"),
         flip_columns=("mean", "ci_low", "ci_high"), flip_swap={"ci_low": "ci_high"},
         bad_inputs=[({"confidence_level": 1.0}, ValueError, "`confidence_level`"),
                     ({"split": "test"}, ValueError, "`split` was given")]),
    Case(name="learning_curves[no seeds]", call=_curves, prepare=_with_epochs,
         fields=("table", "confidence_level", "split", "has_seeds"), flip_columns=("mean",)),
    Case(name="epoch_selection_support", call=_support, seeds=2, prepare=_with_splits, method_columns=(),
         fields=("table", "split", "validation", "supported", "unsupported", "all_supported"),
         bad_inputs=[({"criterion": "accuracy"}, ValueError, "`criterion`")]),
]
