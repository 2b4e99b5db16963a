"""Which epoch's score to report: the final epoch, or the epoch chosen on a validation series.

A cube with ``epoch`` and ``split`` dims holds learning curves: one score per (dataset,
method[, seed], epoch, split). Every statistic needs one score per run, so an epoch must be
chosen first, and the choice must not look at the reported (test) split:

- ``"final"``: each run's last epoch with a reported value (early-stopped runs end early);
- ``"best_val"``: each run's reported value at the epoch that maximised its **validation**
  series (direction-aware: the minimum for a lower-is-better metric). Selecting on the test
  split itself would be an optimistic, selected-on-the-test-set number, so a validation series
  distinct from the reported one is required; where none exists ``best_val`` raises, unless
  ``strict=False``, which falls back to the final epoch for those datasets and says so.

:func:`epoch_selection_support` tells which datasets can be selected on validation and why
not; :func:`selected_epochs` shows the epoch chosen per run.

Examples
--------
>>> import numpy as np, xarray as xr, mcda
>>> from mcda.stats.within.epochs import select_epoch, selected_epochs
>>> values = np.array([[[[0.70, 0.60], [0.80, 0.81], [0.78, 0.79]],     # a: (epoch, split)
...                     [[0.50, 0.50], [0.60, 0.62], [0.70, 0.71]]]])   # b
>>> cube = mcda.score_cube(xr.DataArray(values, dims=("dataset", "method", "epoch", "split"),
...                        coords={"dataset": ["d1"], "method": ["a", "b"], "epoch": [1, 2, 3],
...                                "split": ["test", "val"]}), metric="accuracy")
>>> select_epoch(cube, selection="best_val").sel(dataset="d1").values.tolist()
[0.8, 0.7]
>>> selected_epochs(cube, selection="best_val")[["method", "epoch", "rule"]].to_dict("records")
[{'method': 'a', 'epoch': 2, 'rule': 'best_val'}, {'method': 'b', 'epoch': 3, 'rule': 'best_val'}]
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.results import Result, states_scale
from mcda._core.validation import check_choice, check_probability, shown, user_stacklevel
from mcda.data.cards import direction_sign
from mcda.data.cube import as_cube, score_cube
from mcda.data.checks import cube_cards, select_metric

__all__ = [
    "EPOCH_SELECTIONS",
    "VALIDATION_NAMES",
    "EpochSelectionSupport",
    "epoch_selection_support",
    "select_epoch",
    "selected_epochs",
    "LearningCurves",
    "learning_curves",
]

EPOCH_SELECTIONS = ("final", "best_val")
#: split labels recognised as a validation split when ``validation=None`` (first match wins)
VALIDATION_NAMES = ("val", "valid", "validation", "dev", "development")
_MAX_SHOWN = 6


def _splits(cube: xr.DataArray) -> list[str]:
    return [str(s) for s in cube.coords["split"].values] if "split" in cube.dims else []


def _resolve_splits(cube: xr.DataArray, split, validation) -> tuple[str | None, str | None, str]:
    """(reported split, validation split or None, reason when there is no validation split)."""
    labels = _splits(cube)
    if not labels:
        return None, None, "the scores have no `split` dim, so there is no validation series"
    if split is None:
        split = "test" if "test" in labels else (labels[0] if len(labels) == 1 else None)
        if split is None:
            raise McdaArgumentError(f"`split` is None and the cube has no 'test' split; name the reported split, one of "
                             f"{shown(labels, _MAX_SHOWN)}", argument="split", allowed=labels)
    if split not in labels:
        raise McdaArgumentError(f"`split` must be one of the cube's splits {shown(labels, _MAX_SHOWN)}; got {split!r}",
                                argument="split", value=split, allowed=labels)
    if validation is None:
        candidates = [s for s in labels if s.lower() in VALIDATION_NAMES and s != split]
        if not candidates:
            others = [s for s in labels if s != split]
            hint = f" (other splits: {shown(others, _MAX_SHOWN)}; name one with `validation=`)" if others else ""
            return split, None, f"no validation split distinct from the reported split {split!r}{hint}"
        return split, candidates[0], ""
    if validation not in labels:
        raise McdaArgumentError(f"`validation` must be one of the cube's splits {shown(labels, _MAX_SHOWN)}; got {validation!r}",
                                argument="validation", value=validation, allowed=labels)
    if validation == split:
        return split, None, (f"the validation split {validation!r} is the reported split; selecting on it would "
                             "select on the numbers reported")
    return split, validation, ""


def _check_cube(scores, criterion):
    from mcda.data.blocks import require_in_memory

    require_in_memory(scores, "epoch selection", reason="it picks an epoch per run from each run's whole series",
                      instead="select the epochs per chunk yourself and store the selected cube, or load a subset")
    cube = as_cube(scores)
    if "metric" in cube.dims:
        labels = [str(m) for m in cube.coords["metric"].values]
        if criterion is None:
            raise McdaArgumentError("the scores have a `metric` dim: name the metric whose validation series chooses the "
                             f"epoch with `criterion=`, one of {shown(labels, _MAX_SHOWN)}",
                                    argument="criterion", value=criterion, allowed=labels)
        criterion = select_metric(criterion, labels, argument="criterion")
    elif criterion is not None:
        raise McdaArgumentError(f"`criterion` is only for cubes with a `metric` dim; got criterion={criterion!r}",
                                argument="criterion", value=criterion)
    return cube, criterion


def _sign(cube: xr.DataArray, criterion) -> float:
    if "metric" in cube.dims:
        labels = [str(m) for m in cube.coords["metric"].values]
        direction = str(cube.coords["direction"].values[labels.index(criterion)])
    else:
        direction = cube.attrs["direction"]
    return direction_sign(direction)


def _run_dims(cube: xr.DataArray) -> list[str]:
    return [d for d in ("dataset", "method", "seed") if d in cube.dims]


def _series(cube: xr.DataArray, split: str, criterion) -> xr.DataArray:
    """The series along ``epoch`` for one split, dims (dataset, method[, seed], epoch) (criterion metric only)."""
    x = cube.sel(split=split) if "split" in cube.dims else cube
    if "metric" in x.dims:
        x = x.sel(metric=criterion)
    return x.transpose(*_run_dims(cube), "epoch")


def _reported_present(cube: xr.DataArray, split) -> xr.DataArray:
    """True per (run, epoch) where the reported split has a value (any metric)."""
    x = cube.sel(split=split) if "split" in cube.dims else cube
    present = x.notnull()
    if "metric" in present.dims:
        present = present.any("metric")
    return present.transpose(*_run_dims(cube), "epoch")


@dataclass(frozen=True, repr=False)
class EpochSelectionSupport(Result):
    """Which datasets can have their epoch selected on a validation series, and why not.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per dataset: ``dataset, supported, reason`` (reason empty when supported).
    split : str or None
        The reported split.
    validation : str or None
        The validation split used (None when there is none).
    """

    table: pd.DataFrame
    split: str | None
    validation: str | None

    @property
    def supported(self) -> list:
        """The datasets whose epoch can be chosen on validation."""
        return self.table.loc[self.table["supported"], "dataset"].tolist()

    @property
    def unsupported(self) -> dict:
        """Dataset -> why its epoch cannot be chosen on validation."""
        rows = self.table.loc[~self.table["supported"]]
        return dict(zip(rows["dataset"], rows["reason"]))

    @property
    def all_supported(self) -> bool:
        return bool(self.table["supported"].all())

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> str:
        head = (f"epoch selection on validation: reported split {self.split!r}, validation split "
                f"{self.validation!r}")
        if self.all_supported:
            return head + f"\n  every dataset ({len(self.table)}) can be selected"
        lines = [head, f"  supported: {len(self.supported)} of {len(self.table)} datasets"]
        lines += [f"  not {d}: {r}" for d, r in self.unsupported.items()]
        return "\n".join(lines)


@states_scale
def epoch_selection_support(scores, *, split: str | None = "test", validation: str | None = None,
                            criterion: str | None = None) -> EpochSelectionSupport:
    """Say, per dataset, whether ``best_val`` epoch selection is possible, and why not.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with an ``epoch`` dim (and a ``split`` dim)
    split : str, default "test"
        The reported split (None: "test" if present, else the only split).
    validation : str, optional
        The validation split; None recognises one of ``VALIDATION_NAMES`` ("val", "valid",
        "validation", "dev", "development").
    criterion : str, optional
        With a ``metric`` dim: the metric whose validation series chooses the epoch.

    Returns
    -------
    EpochSelectionSupport

    Notes
    -----
    A dataset is supported when a validation split distinct from the reported split exists,
    every run (method[, seed]) with a reported value has at least one validation value, and the
    validation series is not identical to the reported series on that dataset (a copy of the
    test numbers is no validation set).

    Examples
    --------
    >>> import numpy as np, xarray as xr, mcda
    >>> values = np.array([[[[0.7]], [[0.6]]]])  # one dataset, 2 methods, 1 epoch, only a test split
    >>> cube = mcda.score_cube(xr.DataArray(values, dims=("dataset", "method", "epoch", "split"),
    ...     coords={"dataset": ["d1"], "method": ["a", "b"], "epoch": [1], "split": ["test"]}),
    ...     metric="accuracy")
    >>> epoch_selection_support(cube).unsupported
    {'d1': "no validation split distinct from the reported split 'test'"}
    """
    cube, criterion = _check_cube(scores, criterion)
    datasets = [str(d) for d in cube.coords["dataset"].values]
    if "epoch" not in cube.dims:
        reason = "the scores have no `epoch` dim: there is one score per run, nothing to select"
        table = pd.DataFrame({"dataset": datasets, "supported": False, "reason": reason})
        return EpochSelectionSupport(table=table, split=None, validation=None)
    split, validation, reason = _resolve_splits(cube, split, validation)
    if validation is None:
        table = pd.DataFrame({"dataset": datasets, "supported": False, "reason": reason})
        return EpochSelectionSupport(table=table, split=split, validation=None)
    reported = _reported_present(cube, split)
    val = _series(cube, validation, criterion)
    has_report = reported.any("epoch")
    has_val = val.notnull().any("epoch")
    lacking = (has_report & ~has_val).values  # runs reported without any validation value
    rep_vals = cube.sel(split=split).transpose(*val.dims, *[d for d in cube.sel(split=split).dims
                                                             if d not in val.dims]).values
    val_vals = cube.sel(split=validation).transpose(*val.dims, *[d for d in cube.sel(split=validation).dims
                                                                  if d not in val.dims]).values
    supported, reasons = [], []
    methods = [str(m) for m in cube.coords["method"].values]
    for i, d in enumerate(datasets):
        bad = lacking[i]
        if not has_report.values[i].any():
            supported.append(False)
            reasons.append("no reported value on this dataset")
            continue
        if bad.any():
            where = np.argwhere(bad)
            runs = []
            for idx in where[:_MAX_SHOWN]:
                text = f"method {methods[idx[0]]!r}"
                if len(idx) > 1:
                    text += f" seed {cube.coords['seed'].values[idx[1]].item()!r}"
                runs.append(text)
            more = f" (and {len(where) - _MAX_SHOWN} more)" if len(where) > _MAX_SHOWN else ""
            supported.append(False)
            reasons.append(f"no {validation!r} values for " + ", ".join(runs) + more)
            continue
        rv, vv = rep_vals[i], val_vals[i]
        same = np.array_equal(np.isnan(rv), np.isnan(vv)) and np.array_equal(rv[~np.isnan(rv)], vv[~np.isnan(vv)])
        if same:
            supported.append(False)
            reasons.append(f"the {validation!r} series equals the {split!r} series on this dataset "
                           "(a copy of the reported numbers is no validation set)")
            continue
        supported.append(True)
        reasons.append("")
    table = pd.DataFrame({"dataset": datasets, "supported": supported, "reason": reasons})
    return EpochSelectionSupport(table=table, split=split, validation=validation)


def _final_index(present: np.ndarray) -> np.ndarray:
    """Index of the last True along the last axis; -1 where none."""
    n = present.shape[-1]
    last = n - 1 - np.argmax(present[..., ::-1], axis=-1)
    return np.where(present.any(axis=-1), last, -1)


def _best_index(val: np.ndarray, sign: float) -> np.ndarray:
    """Index of the first maximum of the oriented series along the last axis (NaN skipped); -1 where all NaN."""
    oriented = np.where(np.isnan(val), -np.inf, sign * val)
    best = np.argmax(oriented, axis=-1)
    return np.where(np.isnan(val).all(axis=-1), -1, best)


def _plan(scores, selection, split, validation, strict, criterion):
    """The chosen epoch index per run, the rule per run, and the cube (one place for both public functions)."""
    check_choice("selection", selection, EPOCH_SELECTIONS)
    if selection == "final" and validation is not None:  # the final epoch reads no validation series
        raise McdaArgumentError(f"`validation` is used only with selection='best_val'; selection='final' takes each "
                                f"run's last epoch and reads no validation series (got validation={validation!r}). "
                                "Leave `validation` out, or pass selection='best_val'.",
                                argument="validation", value=validation)
    if not isinstance(strict, bool):
        raise McdaArgumentTypeError(f"`strict` must be True or False; got {strict!r}", argument="strict", value=strict)
    cube, criterion = _check_cube(scores, criterion)
    if "epoch" not in cube.dims:
        raise McdaArgumentError(f"the scores have no `epoch` dim (dims {shown(cube.dims, _MAX_SHOWN)}); there is no epoch to select",
                                argument="scores")
    support = epoch_selection_support(cube, split=split, validation=validation, criterion=criterion)
    split = support.split if support.split is not None else split
    reported = _reported_present(cube, split).values
    final = _final_index(reported)
    rules = np.full(final.shape, "final", dtype=object)
    if selection == "final":
        return cube, support, final, rules
    if not support.all_supported and strict:
        reasons = "; ".join(f"{d}: {r}" for d, r in list(support.unsupported.items())[:_MAX_SHOWN])
        n = len(support.unsupported)
        more = f" (and {n - _MAX_SHOWN} more)" if n > _MAX_SHOWN else ""
        raise McdaArgumentError(f"`selection='best_val'` needs a validation series distinct from the reported split on "
                                f"every dataset; {n} dataset(s) have none — {reasons}{more}. Pass `strict=False` to fall "
                                "back to the final epoch there (each such dataset is named with its rule), or use "
                                "`selection='final'`.", argument="selection")
    ok = support.table["supported"].to_numpy()
    chosen = final.copy()
    if support.validation is not None and ok.any():
        val = _series(cube, support.validation, criterion).values
        best = _best_index(val, _sign(cube, criterion))
        chosen[ok] = best[ok]
        rules[ok] = "best_val"
    rules[~ok] = "final (fallback: no validation)"
    return cube, support, chosen, rules


def select_epoch(scores, *, selection: str = "final", split: str | None = "test", validation: str | None = None,
                 strict: bool = True, criterion: str | None = None) -> xr.DataArray:
    """One score per run: the reported split at the chosen epoch.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with an ``epoch`` dim
        Usually with a ``split`` dim holding the reported split and a validation split.
    selection : {"final", "best_val"}
        "final": each run's last epoch with a reported value. "best_val": the epoch that
        maximises the run's validation series, oriented by the metric's direction (the first
        such epoch on ties; validation NaNs skipped).
    split : str, default "test"
        The reported split.
    validation : str, optional
        The validation split (None: one of ``VALIDATION_NAMES``). Only with "best_val": given
        with "final" it raises (the final epoch reads no validation series).
    strict : bool, default True
        With "best_val": raise when a dataset has no usable validation series; False falls
        back to the final epoch on those datasets (see :func:`selected_epochs`).
    criterion : str, optional
        With a ``metric`` dim: the metric whose validation series chooses the epoch; every
        metric is then reported at that epoch.

    Returns
    -------
    xarray.DataArray
        The cube without ``epoch`` and ``split``; coordinate ``selected_epoch`` holds the
        epoch label per run (NaN where a run has no reported value) and ``attrs
        ["epoch_selection"]`` the rule.

    Raises
    ------
    ValueError
        No ``epoch`` dim; an unknown split; "best_val" without a usable validation series
        (strict); a ``metric`` dim without ``criterion``.

    Notes
    -----
    A run whose reported value is missing at its best-validation epoch stays missing (NaN):
    nothing is imputed from neighbouring epochs.
    """
    cube, support, chosen, rules = _plan(scores, selection, split, validation, strict, criterion)
    split = support.split
    reported = cube.sel(split=split) if "split" in cube.dims else cube
    run_dims = _run_dims(cube)
    other = [d for d in reported.dims if d not in run_dims and d != "epoch"]  # metric
    arr = reported.transpose(*run_dims, "epoch", *other).values
    idx = np.where(chosen < 0, 0, chosen)
    taken = np.take_along_axis(arr, idx.reshape(idx.shape + (1,) * (1 + len(other))), axis=len(run_dims))
    taken = taken.squeeze(axis=len(run_dims))
    taken[chosen < 0] = np.nan
    epochs = cube.coords["epoch"].values
    epoch_of = np.where(chosen < 0, np.nan, epochs[idx].astype(float)) if epochs.dtype.kind in "iuf" else \
        np.where(chosen < 0, None, epochs[idx]).astype(object)
    coords = {d: cube.coords[d].values for d in run_dims + other}
    out = xr.DataArray(taken, dims=run_dims + other, coords=coords, name="score")
    out = out.assign_coords(selected_epoch=(tuple(run_dims), epoch_of))
    out.attrs = {k: v for k, v in cube.attrs.items()}
    if "metric" in cube.dims:
        out = out.assign_coords(direction=("metric", cube.coords["direction"].values),
                                noise_floor=("metric", cube.coords["noise_floor"].values))
    out = out.transpose(*[d for d in ("dataset", "method", "seed", "metric") if d in out.dims])
    rule = selection if selection == "final" or (rules == "best_val").all() else f"{selection} (with fallback)"
    out.attrs["epoch_selection"] = rule
    if split is not None:
        out.attrs["reported_split"] = split
    return as_cube(out) if "direction" in out.attrs or "direction" in out.coords else score_cube(out)


def selected_epochs(scores, *, selection: str = "final", split: str | None = "test", validation: str | None = None,
                    strict: bool = True, criterion: str | None = None) -> pd.DataFrame:
    """The epoch chosen per run, and by which rule.

    Parameters are those of :func:`select_epoch`.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, method[, seed]): ``dataset, method, [seed,] epoch, rule, score``
        where ``rule`` is "final", "best_val" or "final (fallback: no validation)" and
        ``score`` the reported value taken (NaN where a run has no reported value).
    """
    cube, support, chosen, rules = _plan(scores, selection, split, validation, strict, criterion)
    run_dims = _run_dims(cube)
    epochs = cube.coords["epoch"].values
    grids = np.meshgrid(*[np.arange(cube.sizes[d]) for d in run_dims], indexing="ij")
    frame = pd.DataFrame({d: cube.coords[d].values[g.ravel()] for d, g in zip(run_dims, grids)})
    flat = chosen.ravel()
    frame["epoch"] = pd.array([epochs[i] if i >= 0 else pd.NA for i in flat],
                              dtype="Int64" if epochs.dtype.kind in "iu" else object)
    frame["rule"] = rules.ravel()
    selected = select_epoch(cube, selection=selection, split=split, validation=validation, strict=strict,
                            criterion=criterion)
    if "metric" in selected.dims:
        selected = selected.sel(metric=select_metric(criterion, selected.coords["metric"].values, argument="criterion"))
    frame["score"] = selected.transpose(*run_dims).values.ravel()
    return frame


# --------------------------------------------------------------------------- learning curves

@dataclass(frozen=True, repr=False)
class LearningCurves(Result):
    """Each method's mean over seeds per epoch, with its t interval: what a learning-curve plot draws.

    Attributes
    ----------
    table : pandas.DataFrame
        ``dataset, method, epoch, n_seeds, mean, ci_low, ci_high`` (no interval without seeds).
    confidence_level : float
    split : str or None
        The split the curves are on (None without a ``split`` dim).
    has_seeds : bool
        Whether the cube had a ``seed`` dim (else ``mean`` is the score and there is no band).
    """

    table: pd.DataFrame
    confidence_level: float
    split: str | None
    has_seeds: bool

    def summary(self) -> str:
        t = self.table
        band = f"{self.confidence_level:.0%} t interval over seeds" if self.has_seeds else "no seeds, no interval"
        on = f" ({self.split} split)" if self.split is not None else ""
        return (f"Learning curves{on}: {t['dataset'].nunique()} datasets, {t['method'].nunique()} methods, "
                f"{t['epoch'].nunique()} epochs; {band}")


def _epoch_cube(cube, split, metric):
    cube = as_cube(cube)
    if "epoch" not in cube.dims:
        raise McdaArgumentError(f"`cube` must have an 'epoch' dim for learning curves; its dims are {tuple(cube.dims)}",
                                argument="cube")
    if "split" in cube.dims:
        labels = [str(s) for s in cube.coords["split"].values]
        if split is None:
            split = "test" if "test" in labels else (labels[0] if len(labels) == 1 else None)
        if split not in labels:
            raise McdaArgumentError(f"`split` must be one of the cube's splits {labels}; got {split!r}",
                                    argument="split", value=split, allowed=labels)
        cube = cube.sel(split=split, drop=True)
    elif split is not None:
        raise McdaArgumentError(f"`split` was given ({split!r}) but the cube has no 'split' dim",
                                argument="split", value=split)
    if "metric" in cube.dims:
        metric = select_metric(metric, cube.coords["metric"].values)
        card = cube_cards(cube).get(metric)
        direction = str(cube.coords["direction"].sel(metric=metric).values) if "direction" in cube.coords else None
        part = cube.sel(metric=metric, drop=True)
        part = part.drop_vars([c for c in part.coords if c not in part.dims])
        part.attrs = {}
        cube = score_cube(part, metric=card, direction=None if card is not None else direction)
    else:
        select_metric(metric, None)
    return cube, split


@states_scale
def learning_curves(scores, *, confidence_level: float = 0.95, split=None, metric=None) -> LearningCurves:
    """Per (dataset, method, epoch): the mean over seeds and its t interval, from :func:`mcda.summary`.

    Each epoch's slice goes through :func:`mcda.summary` (``ci_method="t"``), so the band is the
    library's own interval; a cube without a ``seed`` dim gives the scores and no band. The
    result is what :func:`mcda.plots.plot_learning_curves` draws.

    Parameters
    ----------
    scores : score cube with an ``epoch`` dim
        Usually also a ``seed`` dim.
    confidence_level : float
        Level of the t interval (default 0.95).
    split : str, optional
        With a ``split`` dim: the split (default ``"test"`` when present).
    metric : str, optional
        With a ``metric`` dim: the metric.

    Returns
    -------
    LearningCurves
        ``table`` (columns ``dataset, method, epoch, n_seeds, mean, ci_low, ci_high`` in the
        metric's units), ``confidence_level``, ``split``, ``has_seeds``.
    """
    from mcda.stats.within.seeds import summary

    confidence_level = check_probability("confidence_level", confidence_level, closed="neither")
    cube, split = _epoch_cube(scores, split, metric)
    frames = []
    caught: dict = {}
    for epoch in cube.coords["epoch"].values:
        part = cube.sel(epoch=epoch, drop=True)
        if "seed" in part.dims:
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                table = summary(part, ci_method="t", confidence_level=confidence_level).to_frame()
            for w in seen:
                caught.setdefault((w.category, str(w.message)), w)
            table = table[["dataset", "method", "n_seeds", "mean", "ci_low", "ci_high"]]
        else:
            values = part.to_series().rename("mean").reset_index()
            table = values.assign(n_seeds=1, ci_low=np.nan, ci_high=np.nan)[
                ["dataset", "method", "n_seeds", "mean", "ci_low", "ci_high"]]
        frames.append(table.assign(epoch=epoch))
    for (category, message), _w in caught.items():  # each distinct warning once, not once per epoch
        warnings.warn(message, category, stacklevel=user_stacklevel())
    out = pd.concat(frames, ignore_index=True)
    table = out[["dataset", "method", "epoch", "n_seeds", "mean", "ci_low", "ci_high"]]
    return LearningCurves(table=table, confidence_level=confidence_level, split=split, has_seeds="seed" in cube.dims)
