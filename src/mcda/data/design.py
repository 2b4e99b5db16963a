"""The design of a score cube: missing cells, complete cases, datasets without any result, the
chunk-wise complete-design flags, and the explicit reduction of seeds.

NaN means "no result": it is kept, counted and named here, never filled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.results import Result, states_scale
from mcda._core.validation import McdaArgumentError
from mcda._core.validation import MissingDataWarning, check_choice, shown, warn
from mcda.data.cards import higher_is_better
from mcda.data.checks import _sign, cube_direction
from mcda.data.cube import as_cube, orient

__all__ = [
    "missing_cells",
    "CompleteCases",
    "complete_cases",
    "complete_cases_with",
    "EMPTY_DATASET_RULE",
    "name_empty_datasets",
    "without_empty_datasets",
    "WAYS_OUT",
    "missing_rows",
    "concat_missing",
    "reduce_seeds",
    "MISSING_POLICIES",
    "MISSING_ALIASES",
    "DEFAULT_MISSING",
    "MISSING_CHOICES",
    "SEED_MISSING",
    "missing_policy",
    "missing_design",
    "incomplete_datasets",
    "warn_dropped_datasets",
    "warn_excluded",
]


def _cell_missing(cube: xr.DataArray) -> xr.DataArray:
    """True where a (dataset, method) cell has no result (all NaN; with metrics, any metric all NaN)."""
    other = [d for d in cube.dims if d not in ("dataset", "method", "metric")]
    missing = cube.isnull().all(dim=other) if other else cube.isnull()
    if "metric" in missing.dims:
        missing = missing.any("metric")
    return missing.transpose("dataset", "method")


def missing_cells(cube: xr.DataArray) -> pd.DataFrame:
    """One row per (dataset, method) cell with no result: columns ``dataset, method``."""
    miss = _cell_missing(cube).values
    ds = cube.coords["dataset"].values
    me = cube.coords["method"].values
    i, j = np.nonzero(miss)
    return pd.DataFrame({"dataset": ds[i], "method": me[j]})


@dataclass(frozen=True, repr=False)
class CompleteCases(Result):
    """The complete part of a cube and what was excluded to get it.

    Attributes
    ----------
    cube : xarray.DataArray
        The complete design (no missing (dataset, method) cell).
    excluded : dict
        ``policy="methods"``: method -> tuple of the datasets it lacks.
        ``policy="datasets"``: dataset -> tuple of the methods it lacks.
    empty_datasets : tuple
        Datasets on which no method has a result (dropped under either policy).
    policy : str
    """

    cube: xr.DataArray
    excluded: dict = field(default_factory=dict)
    empty_datasets: tuple = ()
    policy: str = "methods"

    def to_frame(self) -> pd.DataFrame:
        """The complete cube as a tidy table: ``dataset, method, score`` (and any further dims)."""
        return self.cube.rename("score").to_dataframe().reset_index()[
            [*self.cube.dims, "score"]]

    def summary(self) -> str:
        if not self.excluded and not self.empty_datasets:
            return "complete: no cell is missing"
        what = "lacks" if self.policy == "methods" else "lacks results for"
        lines = [f"excluded (incomplete): {k} {what} {list(v)}" for k, v in self.excluded.items()]
        if self.empty_datasets:
            lines.append(f"dropped datasets with no result at all: {list(self.empty_datasets)}")
        return "\n".join(lines)


def _incomplete_design_error(n_methods: int, n_datasets: int, excluded: dict, *,
                            ways_out: str) -> McdaArgumentError:
    """The error when dropping incomplete methods leaves too little to compare.

    ``ways_out`` says what the *called* function lets the user do about it (its own arguments,
    never another function's): one of :data:`WAYS_OUT`.
    """
    return McdaArgumentError(f"dropping incomplete methods leaves {n_methods} method(s) on {n_datasets} dataset(s); "
                             f"excluded {shown(excluded)}. {WAYS_OUT[ways_out]}", argument=None)


EMPTY_DATASET_RULE = ("a dataset on which no method has a result carries no comparison: every analysis leaves "
                      "it out and names it (nothing is imputed)")


def name_empty_datasets(empty, what: str) -> None:
    """The one rule for datasets without any result: left out of ``what``, and named in a warning.

    The library, the :class:`~mcda.Report` and the command line all follow it
    (:data:`EMPTY_DATASET_RULE`); a result's ``empty_datasets`` (where it has one) lists them too.
    """
    empty = list(empty)
    if empty:
        from mcda._core.validation import MissingDataWarning, warn

        warn(f"{len(empty)} dataset(s) have no result for any method and are left out of {what}: "
             f"{shown(empty, fmt=str)} ({EMPTY_DATASET_RULE}).", MissingDataWarning)


def without_empty_datasets(cube: xr.DataArray) -> xr.DataArray:
    """``cube`` without the datasets on which no method has a result (already named to the user)."""
    if hasattr(cube.data, "dask"):
        return cube
    empty = _cell_missing(cube).all("method").values
    return cube.isel(dataset=np.flatnonzero(~empty)) if empty.any() else cube


#: What a function that met an incomplete design can offer, by the arguments it takes.
WAYS_OUT = {
    "policy": "Try `policy='datasets'`, or restrict the comparison to the methods you need.",
    "missing": "Pass `missing='datasets'` (drop the incomplete datasets instead, and name them), "
               "`missing='available'` (each method ranked over the datasets it has results on), or restrict "
               "the comparison to the methods you need.",
    "missing_no_datasets": "Pass `missing='available'` (each method ranked over the datasets it has results on), drop "
                           "the incomplete datasets first (mcda.complete_cases(scores, policy='datasets').cube), or "
                           "restrict the comparison to the methods you need.",
    "missing_no_available": "Pass `missing='datasets'` (drop the incomplete datasets instead, and name them), or "
                            "restrict the comparison to the methods you need.",
    "none": "Drop the incomplete datasets first (mcda.complete_cases(scores, policy='datasets').cube), or "
            "restrict the comparison to the methods you need.",
}


@states_scale
def complete_cases(cube: xr.DataArray, *, policy: str = "methods") -> CompleteCases:
    """The complete design of a cube: drop incomplete methods (default) or incomplete datasets.

    Nothing is imputed. Datasets where no method has a result are dropped first and named.

    Parameters
    ----------
    cube : xarray.DataArray
        A score cube.
    policy : {"methods", "datasets"}
        ``"methods"`` drops every method that lacks a result on some dataset and names the
        datasets it lacks; ``"datasets"`` drops every dataset on which some method lacks a result.

    Raises
    ------
    ValueError
        When fewer than 2 methods or no dataset would remain (naming the other policy).
    """
    return complete_cases_with(as_cube(cube), policy=policy)


def complete_cases_with(cube: xr.DataArray, *, policy: str = "methods", ways_out: str = "policy") -> CompleteCases:
    """:func:`complete_cases` of a cube that :func:`as_cube` returned (validated once, by the caller);
    ``ways_out`` names the calling function's way out in the message (a key of :data:`WAYS_OUT`)."""
    check_choice("policy", policy, ("methods", "datasets"))
    miss = _cell_missing(cube)
    empty = miss.all("method").values
    ds = cube.coords["dataset"].values
    me = cube.coords["method"].values
    empty_datasets = tuple(ds[empty].tolist())
    keep_ds = ~empty
    m = miss.values[keep_ds]
    excluded: dict = {}
    if policy == "methods":
        rows = np.flatnonzero(miss.values.any(axis=1))
        columns, excluded, _ = _complete_design(ds, me, (rows, miss.values[rows]), fmt=lambda v: v, ways_out=ways_out)
        bad = np.ones(me.size, dtype=bool)
        bad[columns] = False
        out = cube if (keep_ds.all() and not bad.any()) else cube.isel(
            dataset=np.nonzero(keep_ds)[0], method=columns)
    else:
        bad = m.any(axis=1)
        kept_ds = ds[keep_ds]
        for i in np.nonzero(bad)[0]:
            excluded[str(kept_ds[i])] = tuple(me[m[i]].tolist())
        idx = np.nonzero(keep_ds)[0][~bad]
        out = cube.isel(dataset=idx)
        if out.sizes["dataset"] == 0:
            raise McdaArgumentError(f"dropping incomplete datasets leaves none; excluded {shown(excluded)}. "
                             "Try `policy='methods'`.", argument="policy", value=policy)
    return CompleteCases(cube=out, excluded=excluded, empty_datasets=empty_datasets, policy=policy)


# --------------------------------------------------------------------------- complete-case flags, chunk-wise
# The across-dataset statistics name and drop incomplete methods from one pass over the cube
# (mcda.data.blocks runs the block over every block of datasets and combines the partials).

def missing_rows(values: np.ndarray, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """Block: (positions of the datasets with a missing cell, their missing masks)."""
    missing = np.isnan(values)
    rows = np.flatnonzero(missing.any(axis=1))
    return offset + rows, missing[rows]


def concat_missing(a: tuple, b: tuple) -> tuple:
    """Combine: the flagged rows of two blocks, in dataset order."""
    return np.concatenate([a[0], b[0]]), np.concatenate([a[1], b[1]])


def _complete_design(datasets, methods, flags: tuple, *, fmt=str,
                    ways_out: str = "none") -> tuple[np.ndarray, dict, np.ndarray]:
    """Finalize: (kept method columns, excluded method -> datasets it lacks, empty dataset positions).

    Datasets without any result are dropped (they make no method incomplete); every method that
    lacks a result on another dataset is excluded. Fewer than 2 methods or no dataset left raises,
    saying what the calling function offers instead (``ways_out``, a key of :data:`WAYS_OUT`).
    """
    rows, missing = flags
    n_methods = len(methods)
    missing = np.asarray(missing, dtype=bool).reshape(-1, n_methods)
    empty = missing.all(axis=1)
    partial_rows, partial = rows[~empty], missing[~empty]
    bad = partial.any(axis=0)
    labels = np.asarray(datasets)
    excluded = {str(methods[j]): tuple(fmt(v) for v in labels[partial_rows[partial[:, j]]].tolist())
                for j in np.flatnonzero(bad)}
    columns = np.flatnonzero(~bad)
    n_kept = len(labels) - int(empty.sum())
    if columns.size < 2 or n_kept == 0:
        raise _incomplete_design_error(int(columns.size), n_kept, excluded, ways_out=ways_out)
    return columns, excluded, np.asarray(rows[empty], dtype=np.int64)


_REDUCTIONS = ("mean", "median", "min", "max", "best", "worst")


#: What a lost seed does when seeds are reduced (:func:`reduce_seeds`): the cell is reduced over the
#: seeds it has, or becomes missing.
SEED_MISSING = ("available", "complete")
#: Former words of :data:`SEED_MISSING`, still read with a FutureWarning.
_OLD_MISSING = {"propagate": "complete", "skip": "available"}


def reduce_seeds(cube: xr.DataArray, *, how: str, missing: str = "available") -> xr.DataArray:
    """Collapse the ``seed`` dim explicitly.

    Parameters
    ----------
    cube : xarray.DataArray
        A cube with a ``seed`` dim.
    how : {"mean", "median", "min", "max", "best", "worst"}
        The reduction; "best"/"worst" follow the metric's direction. There is no default:
        how seeds are collapsed is the analyst's decision.
    missing : {"available", "complete"}
        "available" (default, the rule of :class:`mcda.Report` and ``mcda compare`` too): a lost
        seed is left out and the cell is reduced over the seeds it has (a cell with no seed
        stays missing); a :class:`~mcda.MissingDataWarning` names the cells reduced over fewer
        seeds. "complete": a cell with any missing seed becomes missing (the whole cell is
        lost). Either way the seeds used per cell are in the coordinate ``n_seeds``. (The former
        words "skip" and "propagate" are still read, with a FutureWarning.)

    Returns
    -------
    xarray.DataArray
        The cube without ``seed``; ``attrs["seeds_reduced"]`` records ``how`` and
        ``attrs["seeds_missing"]`` the rule; coordinate ``n_seeds`` (dataset, method) counts
        the seeds each cell was reduced over (0 for a missing cell).
    """
    check_choice("how", how, _REDUCTIONS)
    if missing in _OLD_MISSING:
        import warnings

        warnings.warn(f"reduce_seeds(missing={missing!r}) is now missing={_OLD_MISSING[missing]!r}; the old word "
                      "will stop working in a later release", FutureWarning, stacklevel=2)
        missing = _OLD_MISSING[missing]
    check_choice("missing", missing, SEED_MISSING)
    cube = as_cube(cube)
    if "seed" not in cube.dims:
        raise McdaArgumentError(f"`cube` has no 'seed' dim to reduce; its dims are {shown(cube.dims)}", argument="cube")
    skipna = missing == "available"
    op = how
    if how in ("best", "worst"):
        if "metric" in cube.dims:
            oriented = orient(cube)
            red = oriented.max("seed", skipna=skipna) if how == "best" else oriented.min("seed", skipna=skipna)
            out = red * _sign(cube)
        else:
            higher = higher_is_better(cube_direction(cube))
            op = "max" if (how == "best") == higher else "min"
    if how not in ("best", "worst") or "metric" not in cube.dims:
        out = getattr(cube, op)("seed", skipna=skipna)
    present = cube.notnull()
    if "metric" in cube.dims:
        present = present.all("metric")
    n = present.sum("seed")
    if missing == "complete":  # a cell that lost a seed is missing: it was reduced over no seed
        n = n.where(n == cube.sizes["seed"], 0)
    out = out.assign_coords(n_seeds=n)
    out.attrs = dict(cube.attrs)
    out.attrs["seeds_reduced"] = how
    out.attrs["seeds_missing"] = missing
    out.name = "score"
    if not hasattr(cube.data, "dask"):
        counts = n.transpose("dataset", "method", ...).values
        full = int(present.sum("seed").max()) if counts.size else 0  # the most seeds any cell has
        short = (counts > 0) & (counts < full)
        if short.any() and counts.ndim == 2:
            ds = cube.coords["dataset"].values
            me = cube.coords["method"].values
            cells = [f"{ds[i]}/{me[j]} ({counts[i, j]} of {full})" for i, j in zip(*np.nonzero(short))]
            from mcda._core.validation import MissingDataWarning, warn

            warn(f"{len(cells)} cell(s) lost seeds and are reduced over the seeds they have (`missing='available'`; "
                 f"the coordinate n_seeds counts them): {shown(cells, 6, fmt=str)}.", MissingDataWarning,
                 remedy={"library": "Pass missing='complete' to treat such a cell as missing instead.",
                         "cli": "To treat such a cell as missing instead, reduce the seeds yourself: "
                                "mcda.reduce_seeds(cube, how='mean', missing='complete')."})
    return out


# --------------------------------------------------------------------------- the `missing=` policy of the across-dataset statistics

#: What a missing (dataset, method) cell does in a procedure over datasets: the one vocabulary of
#: ``missing=``, read by every statistic that takes it, by :class:`mcda.Report` and by ``mcda compare``.
MISSING_POLICIES = {
    "methods": "drop every method that lacks a result on some dataset, and name it",
    "datasets": "drop every dataset on which some method lacks a result, and name it",
    "available": "keep the incomplete design as it is: each method over the results it has",
}
#: Another name of a policy: "complete" (the complete design, by dropping methods) is "methods".
MISSING_ALIASES = {"complete": "methods"}
#: The default of every ``missing=`` over datasets.
DEFAULT_MISSING = "methods"
#: The values ``missing=`` accepts: the policies, then their other names.
MISSING_CHOICES = (*MISSING_POLICIES, *MISSING_ALIASES)


def missing_policy(missing, *, allowed=MISSING_CHOICES) -> str:
    """``missing`` checked against ``allowed`` (the error lists them) and normalised: "methods" and
    "complete" -> "complete"; "datasets"; "available"."""
    check_choice("missing", missing, allowed)
    return "complete" if MISSING_ALIASES.get(missing, missing) == "methods" else missing


def warn_dropped_datasets(excluded_datasets: dict, what: str) -> None:
    if excluded_datasets:
        lacks = shown([f"{d} lacks [{shown(ms, 4, fmt=str)}]" for d, ms in excluded_datasets.items()], fmt=str,
                      sep="; ")
        warn(f"{len(excluded_datasets)} dataset(s) lack results for some methods and are excluded from {what} "
             f"(`missing='datasets'`; nothing is imputed): {lacks}.", MissingDataWarning)


def incomplete_datasets(cube: xr.DataArray, flags: tuple) -> tuple[np.ndarray, dict]:
    """(positions of every dataset with a missing cell, dataset -> methods it lacks for the partial ones)."""
    rows, mask = flags
    methods = [str(m) for m in cube.coords["method"].values]
    mask = np.asarray(mask, dtype=bool).reshape(-1, len(methods))
    labels = cube.coords["dataset"].values
    partial = ~mask.all(axis=1)
    excluded = {str(labels[r]): tuple(m for m, miss in zip(methods, row) if miss)
                for r, row in zip(np.asarray(rows)[partial], mask[partial])}
    return np.asarray(rows, dtype=np.int64), excluded


def warn_excluded(excluded: dict, what: str) -> None:
    """Say which incomplete methods were dropped (never silently: the result carries them in ``excluded``)."""
    if excluded:
        lacks = shown([f"{m} lacks [{shown(ds, 4, fmt=str)}]" for m, ds in excluded.items()], fmt=str, sep="; ")
        warn(f"{len(excluded)} method(s) lack results on some datasets and are excluded from {what} "
             f"(nothing is imputed): {lacks}.", MissingDataWarning)


def missing_design(cube: xr.DataArray, missing: str, flags: tuple,
                   ways_out: str = "none") -> tuple[np.ndarray, dict, np.ndarray]:
    """(kept columns, excluded, empty positions) from the missing flags of every dataset."""
    methods = [str(m) for m in cube.coords["method"].values]
    rows, mask = flags
    if missing == "complete":
        columns, excluded, empty = _complete_design(cube.coords["dataset"].values, methods, flags, ways_out=ways_out)
    elif missing == "datasets":
        columns, excluded = np.arange(len(methods)), {}
        empty, _ = incomplete_datasets(cube, flags)
        if empty.size == cube.sizes["dataset"]:
            raise McdaArgumentError("dropping incomplete datasets leaves none (every dataset lacks a method); try "
                             "`missing='methods'` or `missing='available'`", argument="missing", value=missing)
    else:
        columns, excluded = np.arange(len(methods)), {}
        empty = np.asarray(rows[mask.reshape(-1, len(methods)).all(axis=1)], dtype=np.int64)
    n = cube.sizes["dataset"]
    if empty.size == n:
        raise McdaArgumentError("`data` is empty: no dataset has a result", argument="data")
    return columns, excluded, empty
