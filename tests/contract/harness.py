"""The contract every public function keeps, checked over one parametrised test.

Each module's cases live in ``tests/contract/cases_<module>.py`` as a module-level
``CASES`` list of :class:`Case`. ``tests/test_contract.py`` collects them all and checks:

- the result has the promised fields and a ``to_frame()`` returning a DataFrame;
- every p-value column lies in [0, 1] (NaN allowed: a test that does not apply);
- relabelling methods relabels the output and changes nothing else;
- reordering methods (and datasets) permutes the output and changes nothing else;
- flipping the metric's direction together with its card (scores negated, card with the
  other direction) changes nothing;
- each promised bad input raises the promised error, naming the argument.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
import xarray as xr

import mcda
from mcda.data.cards import get_card


@dataclass
class Case:
    """One public function under the contract.

    Attributes
    ----------
    name : str
        Test id.
    call : callable(cube, **bad_kwargs) -> result
        Runs the function on a cube (single metric, with a ``seed`` dim when ``seeds`` > 0).
    fields : tuple of str
        Attributes the result must have.
    seeds : int
        Seeds per cell in the synthetic cube (0: no seed dim).
    method_columns : tuple of str
        Columns of ``to_frame()`` holding method labels (relabelled and used to align rows).
    pair_columns : tuple of (str, str) or None
        (method_a, method_b) columns when rows are unordered pairs; rows are brought to a
        canonical orientation (a < b) before comparing.
    swap_columns : dict
        Columns exchanged when a pair row is reoriented (e.g. {"wins_a": "wins_b"}).
    negate_columns : tuple of str
        Columns whose sign flips when a pair row is reoriented (e.g. "mean_diff").
    flip_columns : tuple of str
        Columns in the metric's own units whose sign flips with the direction (e.g. "mean",
        "ci_low"); the flip test compares them negated (and swaps low/high pairs listed in
        ``flip_swap``).
    flip_swap : dict
        Column pairs exchanged by a direction flip (e.g. {"ci_low": "ci_high"}).
    pvalue_columns : tuple of str
    ignore_columns : tuple of str
        Columns not compared (e.g. free text).
    bad_inputs : list of (kwargs, exception type, text the message must contain)
    random : bool
        Whether the result depends on ``rng`` (then calls must pass a fixed rng themselves).
    prepare : callable(cube) -> cube, optional
        Shapes the synthetic cube before any relabelling, reordering or flip (a missing pattern
        chosen by label, an ``epoch`` or ``split`` dim), so every variant carries the same shape.
    """

    name: str
    call: Callable
    fields: tuple = ()
    seeds: int = 0
    method_columns: tuple = ("method",)
    pair_columns: tuple | None = None
    swap_columns: dict = field(default_factory=dict)
    negate_columns: tuple = ()
    flip_columns: tuple = ()
    flip_swap: dict = field(default_factory=dict)
    pvalue_columns: tuple = ()
    ignore_columns: tuple = ()
    bad_inputs: list = field(default_factory=list)
    rtol: float = 1e-9
    n_datasets: int = 12
    n_methods: int = 4
    missing: float = 0.0
    prepare: Callable | None = None


@dataclass(frozen=True)
class Framed:
    """A result read through another table than its own ``to_frame()``: ``frame(result)`` (an
    omnibus with a row per method, a comparison's groups); its fields stay readable."""

    result: object
    frame: Callable

    def __getattr__(self, name):
        return getattr(self.result, name)

    def to_frame(self) -> pd.DataFrame:
        return self.frame(self.result)


def make_cube(case: Case, rng: int = 7) -> xr.DataArray:
    """A synthetic accuracy cube with real differences, some ties and (optionally) missing cells."""
    cube = mcda.datasets.synthetic(n_datasets=case.n_datasets, n_methods=case.n_methods, n_seeds=case.seeds,
                                   effects=np.linspace(0, 0.04, case.n_methods), dataset_sd=0.05,
                                   noise_sd=0.01, missing=case.missing, rng=rng)
    values = np.round(cube.values, 3)  # rounding makes exact ties happen
    cube = mcda.score_cube(cube.copy(data=values), metric="accuracy")
    return cube if case.prepare is None else case.prepare(cube)


def relabel(cube: xr.DataArray, mapping: dict) -> xr.DataArray:
    new = [mapping[m] for m in cube.coords["method"].values]
    return cube.assign_coords(method=np.array(new, dtype=object))


def flip_direction(cube: xr.DataArray) -> xr.DataArray:
    """Scores negated and the card's direction flipped: the same information."""
    card = get_card(cube.attrs["metric"])
    flipped = replace(card, name=card.name + "_negated", aliases=(),
                      direction="lower_is_better" if card.higher_is_better else "higher_is_better",
                      lower=None if card.upper is None else -card.upper,  # negated scores: the range negated too
                      upper=None if card.lower is None else -card.lower)
    data = cube.copy(data=-cube.values)
    data.attrs = {}
    return mcda.score_cube(data, metric=flipped)


def canonical(frame: pd.DataFrame, case: Case, rename: dict | None = None) -> pd.DataFrame:
    """Rows in a canonical order and orientation, labels mapped back, text columns dropped."""
    out = frame.copy()
    if rename:
        for col in case.method_columns:
            if col in out.columns:
                out[col] = out[col].map(lambda v: rename.get(v, v))
    if case.pair_columns:
        a, b = case.pair_columns
        flip = out[a].astype(str) > out[b].astype(str)
        if flip.any():
            out.loc[flip, [a, b]] = out.loc[flip, [b, a]].to_numpy().copy()
            for x, y in case.swap_columns.items():
                out.loc[flip, [x, y]] = out.loc[flip, [y, x]].to_numpy().copy()
            for col in case.negate_columns:
                out.loc[flip, col] = -out.loc[flip, col]
    keys = [c for c in out.columns if c in case.method_columns or c in ("dataset", "metric")]
    keys += [c for c in (case.pair_columns or ()) if c not in keys]
    out = out.drop(columns=[c for c in case.ignore_columns if c in out.columns])
    if keys:
        out = out.sort_values(keys, kind="stable")
    return out.reset_index(drop=True)


def assert_frames_match(left: pd.DataFrame, right: pd.DataFrame, rtol: float) -> None:
    assert list(left.columns) == list(right.columns), (list(left.columns), list(right.columns))
    assert len(left) == len(right)
    for col in left.columns:
        lv, rv = left[col].to_numpy(), right[col].to_numpy()
        if lv.dtype.kind in "fiu" and rv.dtype.kind in "fiu":
            np.testing.assert_allclose(lv.astype(float), rv.astype(float), rtol=rtol, atol=1e-12,
                                       equal_nan=True, err_msg=col)
        else:
            assert [str(x) for x in lv] == [str(x) for x in rv], col
