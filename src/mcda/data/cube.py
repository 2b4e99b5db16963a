"""The score cube: every input becomes one ``xarray.DataArray`` here, in one place.

Dims are ``dataset`` and ``method`` and, when present, ``item``, ``sample``, ``seed``, ``metric``,
``epoch`` and ``split`` (in that order); per-item scores may carry a ``cluster`` coordinate along
``item``. Coordinates carry the labels. The metric's card travels in the
attrs (single metric: ``metric``, ``direction``, ``noise_floor``, ``card`` as JSON) or, with
a ``metric`` dim, as the coordinates ``direction(metric)`` and ``noise_floor(metric)`` plus
the attr ``cards`` (JSON). NaN means "no result": it is kept, counted and reported, never
filled. Every statistic works on :func:`orient` (higher is better).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.validation import nearest, shown
from mcda.data.cards import MetricCard
from mcda.data.checks import (_META_ATTRS, apply_scale, _narrow_to_metric, _one_metric_from_coords, _sign,
                              _stored_direction, _stored_metric, _stored_noise_floor, attach_metric,
                              check_card_ranges)
from mcda.data.readers import (DIMS, _METHOD_COLUMN_NAMES, _DEFAULT_COLUMNS, _STRING_DIMS, _from_array,
                               _from_dataarray, _from_dict, _from_tidy, _from_wide, read_path)

__all__ = [
    "DIMS",
    "score_cube",
    "as_cube",
    "single_score_cube",
    "orient",
    "select",
    "CubeAccessor",
]


def score_cube(data, *, metric=None, direction=None, method_names: Sequence | None = None,
               dataset_names: Sequence | None = None, seed_names: Sequence | None = None,
               columns: Mapping[str, str] | None = None, chunks: int | None = None,
               scale=None) -> xr.DataArray:
    """Turn any accepted input into the score cube.

    Parameters
    ----------
    data : DataFrame, dict, array or DataArray
        - a **tidy** DataFrame with columns ``dataset``, ``method``, ``score`` and optionally
          ``item``, ``sample``, ``seed``, ``metric``, ``epoch``, ``split`` (rename with ``columns``).
          Per-item scores: the item column may be called ``item``, ``question``, ``example``,
          ``prompt`` or ``id`` (read as items when the other keys repeat without it); a
          ``cluster`` column (one value per item: a passage, a repository, a task) becomes the
          ``cluster`` coordinate on ``item``; ``sample`` numbers several generations per item;
        - a **wide** DataFrame, datasets × methods (the index, or a ``dataset`` column, gives the
          datasets);
        - a nested dict ``{dataset: {method: score or [scores per seed]}}``;
        - a 2-D (datasets × methods) or 3-D (datasets × methods × seeds) array with
          ``method_names`` (and optionally ``dataset_names``, ``seed_names``);
        - an existing cube (re-validated; its card kept);
        - a path: a ``.csv`` or ``.parquet`` file (tidy or wide), a cube written by
          :func:`to_json` (``.json``) or :func:`to_netcdf` (``.nc``), or a Zarr store (a
          ``.zarr`` directory, opened lazily, chunked along ``dataset``; needs the ``dask``
          extra).
    metric : str or MetricCard, optional
        The metric; its card gives the direction and noise floor. With a ``metric`` dim, a
        mapping label -> card name (default: each label is looked up).
    direction : {"higher_is_better", "lower_is_better"}, optional
        Needed when the metric has no card; must agree with the card otherwise. With a
        ``metric`` dim, a mapping label -> direction.
    method_names, dataset_names, seed_names : sequence, optional
        Labels for array input.
    columns : mapping, optional
        Role -> column name for tidy frames, e.g. ``{"dataset": "data", "score": "ari"}`` or
        ``{"item": "question_id", "cluster": "passage"}``. A column named for one role is not
        read for another.
    chunks : int, optional
        Datasets per chunk when opening a Zarr store or a netCDF file: the cube stays lazy
        (dask-backed) and every chunk-wise function reads it a chunk at a time. A netCDF file
        without ``chunks`` is loaded into memory.
    scale : {"percent", "fraction"}, optional
        The unit the scores are written in, when it is not the card's. ``"percent"`` divides
        every score by 100 (accuracy 97.8 becomes 0.978), so the card's range and noise floor
        (the default rope) apply; ``"fraction"`` states that the scores are already in the
        card's units. With a ``metric`` dim, a mapping label -> scale. The conversion is
        recorded in ``attrs["scale"]`` (e.g. ``"percent -> fraction (divided by 100)"``; with one
        scale, the divisor in ``attrs["scale_factor"]``) and shown in the report, its summaries and
        its exports.

    Returns
    -------
    xarray.DataArray
        Dims ``dataset``, ``method`` and, when present, ``item``, ``sample``, ``seed``,
        ``metric``, ``epoch``, ``split`` (in that order); float64 values with NaN for missing
        results; per-item scores may carry a ``cluster`` coordinate along ``item``.

    Notes
    -----
    A card with a range (accuracy: [0, 1]) is checked against every score of its metric (every
    metric of a multi-metric cube): a score outside it is refused with one error naming the
    metric, the range, how many cells and the first few, and the way on (``scale="percent"``,
    or another card). Nothing is clipped. A lazy (dask-backed) cube is not scanned here.

    Raises
    ------
    ValueError
        Empty input, fewer than 2 methods, duplicate rows (named), non-numeric or infinite
        scores (named by cell), a direction that contradicts the card, unknown columns,
        scores outside the card's range (see Notes), an unknown ``scale``.
    UnknownMetricError
        A metric with no card and no ``direction`` (the nearest names are suggested).

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.score_cube({"iris": {"a": 0.9, "b": 0.8}, "wine": {"a": 0.7, "b": 0.75}},
    ...                        metric="accuracy")
    >>> cube.dims, cube.attrs["direction"]
    (('dataset', 'method'), 'higher_is_better')
    """
    if isinstance(data, (str, Path)):
        data = read_path(Path(data), chunks=chunks, columns=columns)
    keep_attrs = {}
    noise_floor = None
    is_array = isinstance(data, (np.ndarray, list, tuple))
    if isinstance(data, xr.DataArray):
        data = _one_metric_from_coords(data)
        if data.attrs.get("oriented"):  # back to the metric's own direction before re-validating
            attrs = dict(data.attrs)
            data = data * _sign(data)
            data.attrs = {k: v for k, v in attrs.items() if k != "oriented"}
        da = _from_dataarray(data)
        keep_attrs = {k: v for k, v in data.attrs.items() if k not in _META_ATTRS}
        if metric is None:
            metric = _stored_metric(data)
        if direction is None:
            direction = _stored_direction(data)
        noise_floor = _stored_noise_floor(data, metric)
    elif isinstance(data, pd.DataFrame):
        if data.shape[0] == 0 or data.shape[1] == 0:
            raise McdaArgumentError(f"`data` is empty (a DataFrame of shape {data.shape})", argument="data")
        cols = dict(_DEFAULT_COLUMNS) | dict(columns or {})
        is_tidy = cols["method"] in data.columns
        named = [str(c) for c in data.columns if str(c).lower() in _METHOD_COLUMN_NAMES and str(c) != "method"]
        if not is_tidy and "method" not in (columns or {}) and named:
            raise McdaArgumentError(f"the table has no 'method' column but a {named[0]!r} column: if it is tidy (one row per "
                             f"result), pass `columns={{'method': {named[0]!r}}}` (and the score column, e.g. "
                             f"`columns={{'method': {named[0]!r}, 'score': 'accuracy'}}`); a wide table has one "
                             "numeric column per method", argument="columns", value=columns)
        da = _from_tidy(data, columns) if is_tidy else _from_wide(data, columns)
    elif isinstance(data, Mapping):
        if len(data) == 0:
            raise McdaArgumentError("`data` is empty (a dict with no datasets)", argument="data")
        da = _from_dict(data)
    elif is_array:
        try:
            data = data if np.ma.isMaskedArray(data) else np.asarray(data)
        except ValueError as exc:  # a ragged nested list
            raise McdaArgumentError(f"`data` as a list must be rectangular (datasets × methods [× seeds]); numpy "
                                    f"cannot make an array of it ({' '.join(str(exc).split())[:120]})",
                                    argument="data") from None
        if np.size(data) == 0:
            raise McdaArgumentError(f"`data` is empty (an array of shape {np.shape(data)})", argument="data")
        da = _from_array(data, method_names, dataset_names, seed_names)
    else:
        raise McdaArgumentTypeError("`data` must be a tidy or wide pandas DataFrame, a nested dict, a numpy array (with "
                        f"`method_names`) or an xarray DataArray; got {type(data).__name__}", argument="data")
    if not is_array:
        for dim, names in (("method", method_names), ("dataset", dataset_names), ("seed", seed_names)):
            if names is not None:
                da = _order_by_names(da, dim, names)
    if "metric" in da.dims and isinstance(metric, (str, MetricCard)):
        da, metric, direction = _narrow_to_metric(da, metric, direction)
    da = apply_scale(da, scale, keep_attrs)
    da = attach_metric(da, metric, direction, noise_floor=noise_floor)
    for k, v in keep_attrs.items():
        da.attrs.setdefault(k, v)
    check_card_ranges(da, scale=scale)
    return _check_shape(da)

def _order_by_names(da: xr.DataArray, dim: str, names) -> xr.DataArray:
    """Labelled scores given ``<dim>_names``: the names must be the scores' own labels; they set the order.

    They never relabel by position (that silently renamed a DataFrame's columns): to rename,
    rename the labels themselves (``frame.rename(columns=...)``, ``cube.assign_coords(...)``).
    """
    arg = f"{dim}_names"
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise McdaArgumentTypeError(f"`{arg}` must be a sequence of labels; got {names!r}", argument=arg)
    if dim not in da.dims:
        raise McdaArgumentError(f"`{arg}` is given but the scores have no {dim!r} dim (dims {shown(da.dims)})",
                                argument=arg)
    names = list(names)
    have = da.coords[dim].values.tolist()
    key = (lambda v: str(v)) if dim in _STRING_DIMS else (lambda v: v)
    wanted = [key(v) for v in names]
    if len(set(wanted)) != len(wanted):
        raise McdaArgumentError(f"`{arg}` has duplicates: {shown(pd.Series(wanted)[pd.Series(wanted).duplicated()])}",
                                argument=arg)
    unknown = [v for v in wanted if v not in set(have)]
    absent = [v for v in have if v not in set(wanted)]
    if unknown or absent:
        raise McdaArgumentError(
            f"`{arg}` relabels only array input (by position); these scores carry their own {dim} labels, so "
            f"`{arg}` may only list them (to set their order). Not in the scores: {shown(unknown) or 'none'}; "
            f"not listed: {shown(absent) or 'none'}. To rename, rename the labels in the data itself.",
            argument=arg)
    if wanted == have:
        return da
    return da.sel({dim: wanted})

def _check_shape(da: xr.DataArray) -> xr.DataArray:
    if da.sizes["dataset"] == 0:
        raise McdaArgumentError("`data` is empty: no datasets", argument="data")
    if da.sizes["method"] < 2:
        raise McdaArgumentError(f"a comparison needs at least 2 methods; got {da.sizes['method']} "
                         f"({shown(da.coords['method'].values)})", argument=None)
    return da


def as_cube(scores, direction=None, *, metric=None, method_names=None) -> xr.DataArray:
    """The cube for a statistic's ``scores`` argument (any input :func:`score_cube` takes).

    The one validation every route into a statistic goes through: a DataArray that already
    carries a direction (a cube, or one narrowed by ``.sel``/``.isel``/``.where``) is checked
    exactly as :func:`score_cube` checks new input (finite real scores, distinct labels, a
    known direction that agrees with its card, a noise floor >= 0). ``direction`` and
    ``metric``, when given, must agree with the card it carries.

    The parameters below are read the same way by every statistic that takes ``scores``; their
    docstrings point here.

    Parameters
    ----------
    scores : any input of :func:`score_cube`
        A tidy or wide DataFrame, a nested dict, an array (with ``method_names``) or a cube.
    direction : {"higher_is_better", "lower_is_better"}, optional
        Needed only when ``scores`` carries no metric card (a card name in ``metric``, or a
        cube built with one); when given, it must agree with the card.
    metric : str or MetricCard, optional
        The metric's card. With a ``metric`` dim, the one metric to use, chosen by
        :func:`select_metric` (its label, the label in another case, or its card's name).
    method_names : sequence of str, optional
        Labels for array input, by position. Input that carries its own method labels may
        only list them (to set their order).
    """
    return score_cube(scores, metric=metric, direction=direction, method_names=method_names)


def single_score_cube(scores, direction=None, *, method_names=None,
                      what: str = "this comparison") -> xr.DataArray:
    """:func:`as_cube`, refusing any dim beyond ``dataset`` and ``method`` (one score per cell).

    A ``seed`` dim is never collapsed here: how seeds are reduced is the analyst's decision
    (:func:`reduce_seeds`). ``what`` names the computation in the message.
    """
    cube = as_cube(scores, direction, method_names=method_names)
    if "metric" in cube.dims and cube.sizes["metric"] == 1:  # cube.sel(metric=["ari"]): that one metric
        cube = as_cube(cube, metric=str(cube.coords["metric"].values[0]))
    extra = [d for d in cube.dims if d not in ("dataset", "method")]
    if "item" in extra:
        raise McdaArgumentError(f"the scores have an 'item' dim (extra dims {extra}); {what} needs one score per "
                                "(dataset, method). Reduce the items explicitly first, e.g. "
                                "mcda.reduce_items(cube), or compare over the items with mcda.paired_items(cube).",
                                argument="scores")
    if "seed" in extra:
        raise McdaArgumentError(f"the scores have a 'seed' dim (extra dims {extra}); {what} needs one score per "
                         "(dataset, method). Reduce the seeds explicitly first, e.g. "
                         "mcda.reduce_seeds(cube, how='mean').", argument="scores")
    if extra:
        raise McdaArgumentError(f"the scores have extra dims {extra}; {what} needs one score per (dataset, method): "
                         "select one value along each first (e.g. cube.sel(metric='ari')).", argument="scores")
    return cube


# --------------------------------------------------------------------------- selection

def select(cube: xr.DataArray, indexers: Mapping | None = None, /, *, drop: bool = False,
           **labels) -> xr.DataArray:
    """Select labels along the cube's dims, ``method`` included: ``mcda.select(cube, method="SC3")``.

    The same as ``cube.mcda.sel(method="SC3")``. xarray's own ``DataArray.sel`` is a trap
    here: it reads a ``method=`` keyword as its own argument (the fill method of inexact
    lookups) and, given no other label, returns the whole cube without a word. Here every keyword is a dim, every label must exist
    (a typo gets the nearest labels), and nothing else is done: the result is what
    ``cube.sel({"method": "SC3"})``, xarray's dict form, gives.

    Parameters
    ----------
    cube : xarray.DataArray
        A score cube (or any DataArray with the cube's dims).
    indexers : mapping, optional
        dim -> label or list of labels (xarray's dict form), combined with ``labels``.
    drop : bool, default False
        As in ``xarray.DataArray.sel``: drop the coordinates of the dims selected by a scalar.
    **labels
        dim -> label or list of labels, e.g. ``method=["SC3", "Seurat"]``, ``metric="ari"``.

    Returns
    -------
    xarray.DataArray
        The selection. Every mcda function accepts it where it accepts a cube (a single metric
        selected from a ``metric`` dim keeps its card).

    Raises
    ------
    McdaArgumentError
        A keyword that is not a dim of the cube, or a label that is not in it.

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.load("duo2018")
    >>> mcda.select(cube, method=["SC3", "Seurat"]).sizes["method"]
    2
    >>> cube.mcda.sel(method="SC3").dims
    ('dataset',)
    """
    if not isinstance(cube, xr.DataArray):
        raise McdaArgumentTypeError(f"`cube` must be an xarray.DataArray; got {type(cube).__name__}", argument="cube")
    if indexers is not None and not isinstance(indexers, Mapping):
        raise McdaArgumentTypeError(f"`indexers` must be a mapping dim -> labels; got {indexers!r}",
                                    argument="indexers")
    wanted = dict(indexers or {})
    for dim, value in labels.items():
        if dim in wanted:
            raise McdaArgumentError(f"`{dim}` is given twice (in `indexers` and as a keyword)", argument=dim)
        wanted[dim] = value
    if not isinstance(drop, bool):
        raise McdaArgumentTypeError(f"`drop` must be True or False; got {drop!r}", argument="drop")
    chosen = {}
    for dim, value in wanted.items():
        if dim not in cube.dims:
            close = nearest(str(dim), [str(d) for d in cube.dims])
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise McdaArgumentError(f"`{dim}` is not a dim of the cube; its dims are {shown(cube.dims)}.{hint}",
                                    argument=str(dim))
        have = cube.coords[dim].values.tolist() if dim in cube.coords else list(range(cube.sizes[dim]))
        many = isinstance(value, (list, tuple, np.ndarray, pd.Index, pd.Series))
        asked = list(value) if many else [value]
        text = dim in _STRING_DIMS
        lookup = {(str(v) if text else v): v for v in have}
        resolved = []
        for v in asked:
            key = str(v) if text and isinstance(v, (str, numbers.Number)) else v
            try:
                resolved.append(lookup[key])
            except (KeyError, TypeError):
                close = nearest(str(v), [str(h) for h in have]) if text else []
                hint = f" Did you mean {close[0]!r}?" if close else ""
                raise McdaArgumentError(f"`{dim}` label {v!r} is not in the cube; its {dim} labels are "
                                        f"{shown(have)}.{hint}", argument=str(dim)) from None
        if many and len(set(map(str, resolved))) != len(resolved):
            raise McdaArgumentError(f"`{dim}` lists a label twice: {shown(asked)}", argument=str(dim))
        chosen[dim] = resolved if many else resolved[0]
    return cube.sel(chosen, drop=drop)


@xr.register_dataarray_accessor("mcda")
class CubeAccessor:
    """``cube.mcda``: mcda's helpers on any DataArray (registered when ``mcda.data.cube`` is imported).

    ``cube.mcda.sel(method="SC3")`` selects methods (xarray's own ``sel`` does not: it reads
    a ``method=`` keyword as its fill-method argument).
    """

    def __init__(self, obj: xr.DataArray):
        self._obj = obj

    def sel(self, indexers: Mapping | None = None, /, *, drop: bool = False, **labels) -> xr.DataArray:
        """:func:`mcda.select` on this DataArray."""
        return select(self._obj, indexers, drop=drop, **labels)

    def validate(self, direction=None, *, metric=None) -> xr.DataArray:
        """This DataArray as a checked cube (:func:`mcda.data.cube.as_cube`): what every statistic sees."""
        return as_cube(self._obj, direction, metric=metric)
# --------------------------------------------------------------------------- views

def orient(cube: xr.DataArray) -> xr.DataArray:
    """The higher-is-better view every statistic works on (lower-is-better metrics negated).

    The attrs are kept and ``attrs["oriented"] = 1`` marks the view; the card still says the
    metric's own direction.
    """
    if cube.attrs.get("oriented"):
        return cube
    sign = _sign(cube)
    if isinstance(sign, float) and not hasattr(cube.data, "dask"):
        out = cube.copy(data=cube.values if sign > 0 else -cube.values)  # one numpy pass, no alignment
    elif isinstance(sign, float) and sign > 0:
        out = cube.copy(deep=False)  # lazy and higher is better: no extra array per chunk
    else:
        out = cube * sign
    out.attrs = dict(cube.attrs)
    out.attrs["oriented"] = 1
    out.name = cube.name
    return out
