"""Contract cases for the cube functions (they return cubes; wrapped to give a tidy frame)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

import mcda
from tests.contract.harness import Case


@dataclass(frozen=True)
class _CubeResult:
    cube: object

    def to_frame(self) -> pd.DataFrame:
        frame = self.cube.to_dataframe(name="score").reset_index()
        keep = [c for c in ("dataset", "method", "score", "n_seeds") if c in frame.columns]
        return frame[keep]


def _reduce(how):
    def call(cube, **kwargs):
        return _CubeResult(mcda.reduce_seeds(cube, **({"how": how} | kwargs)))
    return call


def _complete(cube, **kwargs):
    return _CubeResult(mcda.complete_cases(cube, **kwargs).cube)


CASES = [
    Case(name=f"reduce_seeds[{how}]", call=_reduce(how), seeds=3, flip_columns=("score",),
         bad_inputs=[({"how": "average"}, ValueError, "`how` must be one of"),
                     ({"missing": "drop"}, ValueError, "`missing` must be one of")])
    for how in ("mean", "median", "best", "worst")
] + [
    Case(name="complete_cases", call=_complete, missing=0.05, n_methods=6, flip_columns=("score",),
         bad_inputs=[({"policy": "impute"}, ValueError, "`policy` must be one of")]),
]
