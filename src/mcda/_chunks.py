"""Chunk-wise sufficient statistics of a dask-backed cube: a chunk is read, reduced and dropped.

A lazy cube (:func:`mcda.store.open_cube`, or any cube ``.chunk({"dataset": n})``-ed) is split
along ``dataset`` into blocks of whole datasets. Every across-dataset statistic below reduces a
block to a few numbers that add up over blocks:

- ranks within datasets depend on one dataset only, so the rank sums, the sum of squared
  ranks (which carries the tie term Σ(t³ − t)) and N add up: Friedman, Iman–Davenport and
  every post-hoc procedure that works from mean ranks (Nemenyi, Bonferroni–Dunn, Holm,
  Hochberg, Hommel, Shaffer, Bergmann–Hommel) follow exactly;
- the pairwise win / equivalence / shared counts of :func:`mcda.pairwise.count_regions` add
  up: superiority, transitivity and the Bayesian sign comparison follow exactly;
- the per-method count, mean, sum of squared deviations, minimum and maximum combine exactly
  (Chan, Golub & LeVeque's pairwise update): :func:`method_summary`;
- missing cells: one pass collects the datasets where some method lacks a result, which is
  all the complete-case policy needs to name and drop the incomplete methods;
- the rank-stability bootstrap: a resample's mean ranks are Σ_i c_i r_i / N with c_i the times
  dataset i is drawn, a sum over datasets, so each block adds its share.

The blocks are turned into ``dask.delayed`` tasks (``data.to_delayed()``) and run by whatever
dask scheduler is active: the local threads by default, a ``dask.distributed`` cluster when a
``Client`` exists. Nothing here calls ``.compute()`` on the cube itself, and an operation that
cannot be made chunk-wise says so (:func:`mcda.store.require_in_memory`) instead.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import xarray as xr

from ._validation import (
    DescriptiveOnlyWarning,
    SmallSampleWarning,
    as_rng,
    check_choice,
    check_positive_int,
    check_probability,
    shown,
    warn,
)
from .cube import single_score_cube, cube_direction, cube_metric
from .store import is_lazy, require_in_memory

__all__ = ["MethodSummary", "method_summary"]

_MISSING_POLICIES = ("complete", "available")
_BLOCK_CELLS = 1 << 21  # resamples × datasets of one block of bootstrap counts
# rank_rows runs a numba kernel that is itself parallel over rows; numba's default "workqueue"
# threading layer must not be entered by two threads at once, so the scheduler's threads take turns
_RANK_LOCK = threading.Lock()


def _rank_rows(values: np.ndarray) -> np.ndarray:
    from .ranks import rank_rows

    with _RANK_LOCK:
        return rank_rows(values)


# =========================================================================== blocks and tasks


class _InfiniteScore(ValueError):
    """An infinite score met inside a block (re-raised with the dataset's label by the driver)."""

    def __init__(self, row: int, method: str):
        super().__init__(f"scores must be finite (NaN marks a missing result); infinite value at dataset "
                         f"position {row} (0-based), method {method!r}")
        self.row, self.method = row, method


def _values(block, offset: int, sign: float, columns, methods) -> np.ndarray:
    """One block as an oriented float64 matrix (selected columns); infinite scores raise."""
    v = np.asarray(block, dtype=np.float64)
    if columns is not None:
        v = v[:, columns]
    if sign < 0:
        v = -v
    v = np.ascontiguousarray(v)
    infinite = np.isinf(v)
    if infinite.any():
        i, j = np.argwhere(infinite)[0]
        names = methods if columns is None else [methods[c] for c in columns]
        raise _InfiniteScore(int(offset + i), names[j])
    return v


def _tasks(cube: xr.DataArray, function, *args) -> list:
    """One delayed ``function(block, offset, *args)`` per block of datasets, in dataset order."""
    import dask

    data = cube.data
    if data.numblocks[1] != 1:
        data = data.rechunk({1: -1})
    blocks = data.to_delayed().ravel()
    offsets = np.concatenate([[0], np.cumsum(data.chunks[0])[:-1]]).astype(np.int64)
    task = dask.delayed(function, pure=True)
    return [task(block, int(offset), *args) for block, offset in zip(blocks, offsets)]


def _run(cube: xr.DataArray, tasks):
    """Compute the tasks (a list, or one reduced task); name the dataset of an infinite score."""
    import dask

    try:
        return dask.compute(*tasks) if isinstance(tasks, list) else dask.compute(tasks)[0]
    except _InfiniteScore as exc:
        label = cube.coords["dataset"].values[exc.row]
        raise ValueError("scores must be finite (NaN marks a missing result); infinite value at dataset "
                         f"{label!r}, method {exc.method!r}") from None


def _reduce(tasks: list, combine):
    """A binary tree of delayed ``combine`` calls over the tasks (intermediates freed as it goes)."""
    import dask

    step = dask.delayed(combine, pure=True)
    while len(tasks) > 1:
        paired = [step(tasks[i], tasks[i + 1]) for i in range(0, len(tasks) - 1, 2)]
        tasks = paired + ([tasks[-1]] if len(tasks) % 2 else [])
    return tasks[0]


def _add(a, b):
    """Element-wise sum of two tuples of arrays."""
    return tuple(x + y for x, y in zip(a, b))


# =========================================================================== the lazy cube


def _sign(cube: xr.DataArray) -> float:
    """+1 to orient (higher is better), −1 for a lower-is-better metric (an oriented view is already)."""
    if cube.attrs.get("oriented"):
        return 1.0
    return 1.0 if cube_direction(cube) == "higher_is_better" else -1.0


def _uniform_only(scores, function: str, aggregation: str, groups, weights, *, reason: str) -> None:
    """The lazy path aggregates uniformly only: a weighted aggregation is refused by name."""
    if aggregation != "uniform":
        require_in_memory(scores, f"{function}(aggregation={aggregation!r})", reason=reason,
                          instead="use aggregation='uniform' (chunk-wise), or load the cube (cube.load())")
    if groups is not None or weights is not None:
        raise ValueError("`groups` and `weights` are used only with aggregation='hierarchical' / 'custom'; "
                         "got aggregation='uniform'")


def lazy_cube(scores, direction=None, method_names=None) -> xr.DataArray:
    """The lazy cube of ``scores`` with one score per (dataset, method), method in one chunk."""
    cube = single_score_cube(scores, direction, method_names=method_names, what="the across-dataset procedure")
    if not is_lazy(cube):
        raise TypeError("expected a dask-backed cube")  # internal: callers dispatch on is_lazy
    if cube.data.numblocks[1] != 1:
        cube = cube.chunk({"method": -1})
    return cube


def _methods(cube: xr.DataArray) -> list:
    return [str(m) for m in cube.coords["method"].values]


def _labels(cube: xr.DataArray, positions) -> tuple:
    """The dataset labels at ``positions`` as text (as the in-memory cube has them)."""
    labels = cube.coords["dataset"].values
    return tuple(str(v) for v in labels[np.asarray(positions, dtype=np.int64)])


# =========================================================================== ranks within datasets


def _rank_block(block, offset, sign, columns, methods, policy):
    """Rank sums and friends of one block; with ``policy="probe"`` a block with a missing cell
    returns its missing flags instead (the complete-case policy needs them all first)."""
    v = _values(block, offset, sign, columns, methods)
    missing = np.isnan(v)
    out = {"rows": v.shape[0], "flags": None}
    if policy == "available":
        present = ~missing.all(axis=1)
        ranks = _rank_rows(v[present]) if not present.all() else _rank_rows(v)
        have = ~np.isnan(ranks)
        out.update(n=int(ranks.shape[0]), sums=np.where(have, ranks, 0.0).sum(axis=0),
                   counts=have.sum(axis=0).astype(np.int64), empty=offset + np.flatnonzero(~present))
        return out
    incomplete = missing.any(axis=1)
    if policy == "probe" and incomplete.any():
        rows = np.flatnonzero(incomplete)
        out["flags"] = (offset + rows, missing[rows])
        return out
    # policy "drop" (the kept methods): a row with a missing cell is a dataset with no result at all
    ranks = _rank_rows(v[~incomplete]) if incomplete.any() else _rank_rows(v)
    out.update(n=int(ranks.shape[0]), sums=ranks.sum(axis=0),
               squares=float(np.einsum("ij,ij->", ranks, ranks)))
    return out


@dataclass(frozen=True)
class LazyAcross:
    """The across-dataset sufficient statistics of a lazy cube (the chunk-wise ``prepare_across``).

    Attributes
    ----------
    cube : xarray.DataArray
        The lazy cube (all methods, all datasets, its own direction).
    methods : list of str
        The methods kept (complete ones under ``missing="complete"``).
    columns : numpy.ndarray
        Their positions in ``cube``.
    rank_sums : numpy.ndarray
        Σ_i r_ij per kept method.
    rank_counts : numpy.ndarray
        Datasets ranked per method (N for every method under "complete").
    sum_squared_ranks : float
        Σ_ij r_ij² (NaN under "available").
    n_datasets : int
        Datasets kept (with at least one result).
    excluded : dict
        Method -> datasets it lacks.
    empty_datasets : tuple
        Datasets with no result at all (dropped).
    empty_positions : numpy.ndarray
        Their positions in ``cube``.
    block_datasets : numpy.ndarray
        Kept datasets per block.
    """

    cube: xr.DataArray
    methods: list
    columns: np.ndarray
    rank_sums: np.ndarray
    rank_counts: np.ndarray
    sum_squared_ranks: float
    n_datasets: int
    excluded: dict = field(default_factory=dict)
    empty_datasets: tuple = ()
    empty_positions: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    block_datasets: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    missing: str = "complete"

    @property
    def n_methods(self) -> int:
        return len(self.methods)

    @property
    def mean_ranks(self) -> np.ndarray:
        return self.rank_sums / self.rank_counts


def _complete_design(cube, methods, flags) -> tuple[np.ndarray, dict, np.ndarray]:
    """(kept columns, excluded, empty positions) from the flagged rows, as mcda.complete_cases."""
    rows = np.concatenate([f[0] for f in flags])
    missing = np.concatenate([f[1] for f in flags])
    empty = missing.all(axis=1)
    bad = missing[~empty].any(axis=0)
    partial_rows, partial = rows[~empty], missing[~empty]
    excluded = {methods[j]: _labels(cube, partial_rows[partial[:, j]]) for j in np.flatnonzero(bad)}
    columns = np.flatnonzero(~bad)
    n_kept = cube.sizes["dataset"] - int(empty.sum())
    if columns.size < 2 or n_kept == 0:
        raise ValueError(f"dropping incomplete methods leaves {columns.size} method(s) on {n_kept} dataset(s); "
                         f"excluded {shown(excluded)}. Try `policy='datasets'`, or restrict the comparison to the "
                         "methods you need.")
    return columns, excluded, rows[empty]


def across(scores, direction=None, *, method_names=None, missing: str = "complete") -> LazyAcross:
    """Rank sums, the sum of squared ranks and N of a lazy cube, chunk-wise.

    One pass when no cell is missing; otherwise the first pass also collects the missing flags
    and a second pass ranks the complete methods (``missing="complete"``).
    """
    check_choice("missing", missing, _MISSING_POLICIES)
    cube = lazy_cube(scores, direction, method_names)
    sign, methods = _sign(cube), _methods(cube)
    all_columns = np.arange(len(methods))
    if missing == "available":
        parts = _run(cube, _tasks(cube, _rank_block, sign, None, methods, "available"))
        empty = np.concatenate([p["empty"] for p in parts]).astype(np.int64)
        n = sum(p["n"] for p in parts)
        if n == 0:
            raise ValueError("`data` is empty: no dataset has a result")
        return LazyAcross(cube=cube, methods=methods, columns=all_columns,
                          rank_sums=sum(p["sums"] for p in parts), rank_counts=sum(p["counts"] for p in parts),
                          sum_squared_ranks=math.nan, n_datasets=n, excluded={},
                          empty_datasets=_labels(cube, empty), empty_positions=empty,
                          block_datasets=np.array([p["n"] for p in parts]), missing=missing)
    parts = _run(cube, _tasks(cube, _rank_block, sign, None, methods, "probe"))
    flags = [p["flags"] for p in parts if p["flags"] is not None]
    columns, excluded, empty = all_columns, {}, np.zeros(0, dtype=np.int64)
    if flags:
        columns, excluded, empty = _complete_design(cube, methods, flags)
        parts = _run(cube, _tasks(cube, _rank_block, sign, columns, methods, "drop"))
    k = columns.size
    n = sum(p["n"] for p in parts)
    return LazyAcross(cube=cube, methods=[methods[j] for j in columns], columns=columns,
                      rank_sums=sum(p["sums"] for p in parts), rank_counts=np.full(k, n, dtype=np.int64),
                      sum_squared_ranks=float(sum(p["squares"] for p in parts)), n_datasets=n, excluded=excluded,
                      empty_datasets=_labels(cube, empty), empty_positions=empty,
                      block_datasets=np.array([p["n"] for p in parts]), missing=missing)


def _rank_map(block, sign, columns, methods):
    return _rank_rows(_values(block, 0, sign, columns, methods))


def _lazy_ranks(prep: LazyAcross) -> xr.DataArray:
    """The ranks within datasets (1 = best, ties averaged) as a lazy datasets × methods DataArray."""
    import dask.array as dsa

    cube = prep.cube
    data = cube.data
    ranks = dsa.map_blocks(_rank_map, data, _sign(cube), prep.columns, _methods(cube), dtype=np.float64,
                           chunks=(data.chunks[0], (prep.columns.size,)))
    out = xr.DataArray(ranks, dims=("dataset", "method"),
                       coords={"dataset": cube.coords["dataset"].values,
                               "method": np.array(prep.methods, dtype=object)}, name="rank")
    if prep.empty_positions.size:
        keep = np.ones(cube.sizes["dataset"], dtype=bool)
        keep[prep.empty_positions] = False
        out = out.isel(dataset=np.flatnonzero(keep))
    out.attrs = {"excluded": prep.excluded, "empty_datasets": prep.empty_datasets, "missing": prep.missing}
    return out


def _flag_block(block, offset, sign, methods):
    v = _values(block, offset, sign, None, methods)
    missing = np.isnan(v)
    rows = np.flatnonzero(missing.any(axis=1))
    return offset + rows, missing[rows]


def _design(cube: xr.DataArray, missing: str) -> LazyAcross:
    """Kept methods and dropped datasets from one pass over the missing flags (no ranking)."""
    methods = _methods(cube)
    flags = [f for f in _run(cube, _tasks(cube, _flag_block, _sign(cube), methods)) if f[0].size]
    columns, excluded, empty = np.arange(len(methods)), {}, np.zeros(0, dtype=np.int64)
    if flags:
        if missing == "complete":
            columns, excluded, empty = _complete_design(cube, methods, flags)
        else:
            rows = np.concatenate([f[0] for f in flags])
            empty = rows[np.concatenate([f[1] for f in flags]).all(axis=1)]
    n = cube.sizes["dataset"] - empty.size
    if n == 0:
        raise ValueError("`data` is empty: no dataset has a result")
    return LazyAcross(cube=cube, methods=[methods[j] for j in columns], columns=columns,
                      rank_sums=np.full(columns.size, np.nan), rank_counts=np.full(columns.size, n),
                      sum_squared_ranks=math.nan, n_datasets=n, excluded=excluded,
                      empty_datasets=_labels(cube, empty), empty_positions=empty, missing=missing)


def rank_table(scores, direction=None, *, missing: str = "complete", method_names=None) -> xr.DataArray:
    """:func:`mcda.rank_table` of a lazy cube: a lazy datasets × methods DataArray of ranks.

    The missing flags are computed first (one pass, no ranking); the ranks themselves are
    computed only when the result is (``.compute()``, ``.to_pandas()`` or a reduction).
    ``attrs["excluded"]`` names the incomplete methods, as the table's ``attrs`` do in memory.
    """
    check_choice("missing", missing, _MISSING_POLICIES)
    cube = lazy_cube(scores, direction, method_names)
    return _lazy_ranks(_design(cube, missing))


def _mean_ranks_result(prep: LazyAcross):
    from .ranks import MeanRanks

    index = pd.Index(prep.methods, name="method")
    return MeanRanks(mean_ranks=pd.Series(prep.mean_ranks, index=index, name="mean_rank"),
                     rank_table=_lazy_ranks(prep), n_datasets=prep.n_datasets, n_methods=prep.n_methods,
                     aggregation="uniform", weights=None, missing=prep.missing, excluded=prep.excluded)


def average_ranks(scores, direction=None, *, missing: str = "complete", method_names=None):
    """:func:`mcda.average_ranks` of a lazy cube: rank sums per block; ``rank_table`` stays lazy."""
    prep = across(scores, direction, method_names=method_names, missing=missing)
    if missing == "available":
        warn("average ranks with missing='available' rank each method among the methods present on each dataset; "
             "they are descriptive only (not on a common scale) and never an input to a critical difference.",
             DescriptiveOnlyWarning)
    return _mean_ranks_result(prep)


def mean_ranks(scores, *, aggregation: str = "uniform", groups=None, weights=None, missing: str = "complete",
               direction=None, method_names=None):
    """:func:`mcda.mean_ranks` of a lazy cube (the uniform aggregation; the weighted ones need the rank table)."""
    from .ranks import AGGREGATIONS

    check_choice("aggregation", aggregation, AGGREGATIONS)
    check_choice("missing", missing, _MISSING_POLICIES)
    _uniform_only(scores, "mcda.mean_ranks", aggregation, groups, weights,
                  reason="the weighted aggregations read a weight for every dataset next to its ranks")
    prep = across(scores, direction, method_names=method_names, missing=missing)
    if missing == "available":
        warn("mean ranks with missing='available' rank each method among the methods present on each dataset; "
             "they are descriptive only (not on a common scale) and never an input to a critical difference.",
             DescriptiveOnlyWarning)
    return _mean_ranks_result(prep)


def _table_block(block, offset):
    v = np.asarray(block, dtype=np.float64)
    return v.sum(axis=0), float(np.einsum("ij,ij->", v, v)), np.int64(v.shape[0])


def rank_table_sums(table: xr.DataArray) -> tuple[np.ndarray, float, int]:
    """(rank sums, sum of squared ranks, N) of a lazy rank table (a lazy MeanRanks' ``rank_table``)."""
    sums, squares, n = _run(table, _reduce(_tasks(table, _table_block), _add))
    return sums, float(squares), int(n)


# =========================================================================== pairwise counts


def _count_block(block, offset, sign, methods, rope, ulps):
    from ._kernels.counts import region_counts as kernel

    return kernel(_values(block, offset, sign, None, methods), rope, ulps)


def region_counts(cube: xr.DataArray, rope: float, ulps: float):
    """(wins, equivalent, shared) of :func:`mcda.pairwise.count_regions`, summed over blocks."""
    cube = lazy_cube(cube)
    return _run(cube, _reduce(_tasks(cube, _count_block, _sign(cube), _methods(cube), float(rope), float(ulps)),
                              _add))


def _pair_sum_block(block, offset, methods):
    v = _values(block, offset, 1.0, None, methods)
    present = ~np.isnan(v)
    mask = present.astype(np.float64)
    return np.where(present, v, 0.0).T @ mask, mask.T @ mask


def pair_sums(cube: xr.DataArray) -> tuple[np.ndarray, np.ndarray]:
    """(Σ_i a_i over datasets both a and b have, shared counts) per ordered pair, in the metric's units."""
    cube = lazy_cube(cube)
    sums, shared = _run(cube, _reduce(_tasks(cube, _pair_sum_block, _methods(cube)), _add))
    return sums, shared


# =========================================================================== summary per method


def _summary_block(block, offset, methods):
    v = _values(block, offset, 1.0, None, methods)
    present = ~np.isnan(v)
    n = present.sum(axis=0).astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(present, v, 0.0).sum(axis=0) / n
    deviations = np.where(present, v - mean, 0.0)
    m2 = np.einsum("ij,ij->j", deviations, deviations)
    return n, np.where(n > 0, mean, 0.0), m2, np.fmin.reduce(v, axis=0), np.fmax.reduce(v, axis=0), \
        np.int64(v.shape[0])


def _combine_summary(a, b):
    """Chan, Golub & LeVeque's update of (n, mean, M2) for the union of two blocks; min / max / rows."""
    na, ma, sa, lo_a, hi_a, ra = a
    nb, mb, sb, lo_b, hi_b, rb = b
    n = na + nb
    with np.errstate(invalid="ignore", divide="ignore"):
        delta = mb - ma
        mean = np.where(n > 0, ma + delta * np.where(n > 0, nb / n, 0.0), 0.0)
        m2 = sa + sb + np.where(n > 0, delta * delta * na * nb / np.where(n > 0, n, 1), 0.0)
    return n, mean, m2, np.fmin(lo_a, lo_b), np.fmax(hi_a, hi_b), ra + rb


@dataclass(frozen=True, repr=False)
class MethodSummary:
    """Summary statistics of each method's scores across datasets, in the metric's own units.

    Attributes
    ----------
    methods : list of str
    n_results : pandas.Series
        Datasets with a result, per method.
    n_missing : pandas.Series
        Datasets without one (NaN cells), per method.
    mean, std, min, max : pandas.Series
        Over the datasets with a result (``std`` with ddof = 1; NaN with fewer than 2 results;
        all NaN for a method without results).
    n_datasets : int
        Datasets in the cube.
    metric : str
    direction : str
    lazy : bool
        Whether it was computed chunk-wise from a dask-backed cube.
    """

    methods: list
    n_results: pd.Series
    n_missing: pd.Series
    mean: pd.Series
    std: pd.Series
    min: pd.Series
    max: pd.Series
    n_datasets: int
    metric: str
    direction: str
    lazy: bool = False

    def to_frame(self) -> pd.DataFrame:
        """One row per method, in the cube's order: ``method, n_results, n_missing, mean, std, min, max``."""
        return pd.DataFrame({"method": self.methods, "n_results": self.n_results.to_numpy(),
                             "n_missing": self.n_missing.to_numpy(), "mean": self.mean.to_numpy(),
                             "std": self.std.to_numpy(), "min": self.min.to_numpy(), "max": self.max.to_numpy()})

    def summary(self) -> str:
        what = f"{self.metric} ({self.direction})" if self.metric else self.direction
        lines = [f"MethodSummary of {what} over {self.n_datasets} datasets"
                 + (", computed chunk-wise" if self.lazy else "")]
        frame = self.to_frame()
        width = max(len("method"), *(len(m) for m in frame["method"]))
        lines.append(f"  {'method':<{width}}  {'n':>9}  {'missing':>7}  {'mean':>10}  {'std':>10}  "
                     f"{'min':>10}  {'max':>10}")
        for row in frame.itertuples(index=False):
            lines.append(f"  {row.method:<{width}}  {row.n_results:>9}  {row.n_missing:>7}  {row.mean:10.4g}  "
                         f"{row.std:10.4g}  {row.min:10.4g}  {row.max:10.4g}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()


def method_summary(scores, direction=None, *, method_names=None) -> MethodSummary:
    """Count, mean, standard deviation, minimum and maximum of each method's scores across datasets.

    The same reduction runs in memory and, block by block, on a dask-backed cube (chunked
    along ``dataset``) without loading it: the statistics of two blocks combine exactly.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` (one score per dataset and method)
        A lazy cube (:func:`mcda.store.open_cube`) is reduced chunk-wise.
    direction : {"higher_is_better", "lower_is_better"}, optional
        Needed only when ``scores`` carries no metric card.
    method_names : sequence, optional
        Labels for array input.

    Returns
    -------
    MethodSummary
        ``methods``, ``n_results``, ``n_missing``, ``mean``, ``std``, ``min``, ``max``
        (Series by method, in the metric's own units), ``n_datasets``, ``metric``,
        ``direction``, ``lazy``; ``to_frame()`` gives one row per method.

    Raises
    ------
    ValueError
        Scores with a ``seed`` or other extra dim (reduce or select first), infinite scores.

    Notes
    -----
    Missing cells (NaN) are left out of each method's statistics and counted in ``n_missing``;
    nothing is imputed. Per block B the reduction keeps n_B, the mean x̄_B, M2_B = Σ (x − x̄_B)²,
    the minimum and the maximum; two blocks combine as n = n_A + n_B,
    x̄ = x̄_A + δ n_B / n and M2 = M2_A + M2_B + δ² n_A n_B / n with δ = x̄_B − x̄_A
    (Chan, Golub & LeVeque 1983), which is numerically stable and exact up to rounding, so
    the chunk-wise and in-memory results agree to floating-point tolerance.
    ``std`` = √(M2 / (n − 1)). Medians and other quantiles are not combinable this way and
    are not reported. These are descriptive statistics of scores on different datasets,
    which are not on a common scale: compare methods with the ranks or the pairwise counts.

    References
    ----------
    Chan, T. F., Golub, G. H. & LeVeque, R. J. (1983). Algorithms for computing the sample
    variance: analysis and recommendations. The American Statistician 37(3):242–247.
    https://doi.org/10.1080/00031305.1983.10483115

    Examples
    --------
    >>> import mcda
    >>> s = mcda.method_summary(mcda.datasets.load("demsar2006"))
    >>> s.to_frame().round(4).to_dict("records")[0]
    {'method': 'C4.5', 'n_results': 14, 'n_missing': 0, 'mean': 0.8049, 'std': 0.1602, 'min': 0.583, 'max': 1.0}
    """
    cube = single_score_cube(scores, direction, method_names=method_names, what="method_summary")
    methods = _methods(cube)
    lazy = is_lazy(cube)
    if lazy:
        cube = lazy_cube(cube)
        n, mean, m2, lo, hi, rows = _run(cube, _reduce(_tasks(cube, _summary_block, methods), _combine_summary))
    else:
        n, mean, m2, lo, hi, rows = _summary_block(cube.values, 0, methods)
    with np.errstate(invalid="ignore", divide="ignore"):
        std = np.where(n > 1, np.sqrt(m2 / np.maximum(n - 1, 1)), np.nan)
    mean = np.where(n > 0, mean, np.nan)
    index = pd.Index(methods, name="method")
    series = lambda values, name: pd.Series(values, index=index, name=name)  # noqa: E731
    return MethodSummary(methods=methods, n_results=series(n, "n_results"), n_missing=series(rows - n, "n_missing"),
                         mean=series(mean, "mean"), std=series(std, "std"), min=series(lo, "min"),
                         max=series(hi, "max"), n_datasets=int(rows), metric=cube_metric(cube),
                         direction=str(cube_direction(cube)), lazy=lazy)


# =========================================================================== rank stability


def _bootstrap_block(block, offset, sign, columns, methods, n_resamples, draws, seed, fixed, observed_total,
                     n_total, kept_offset):
    """One block's share of every resample's rank sum, and its rows of the jackknife table.

    ``draws[b]`` datasets of this block enter resample b (drawn uniformly with replacement from
    the block with the generator ``seed``); or, with ``fixed`` (resamples × N dataset positions
    among the kept datasets), exactly those drawn here. Ranks are half-integers and the counts
    integers, so the sums are exact whatever the blocks.
    """
    from .ranks import _kendall_tau_rows, _tie_positions

    v = _values(block, offset, sign, columns, methods)
    complete = ~np.isnan(v).any(axis=1)
    ranks = _rank_rows(v[complete]) if not complete.all() else _rank_rows(v)
    n_block, k = ranks.shape
    sums = np.zeros((n_resamples, k))
    if n_block:
        rows = max(1, _BLOCK_CELLS // n_block)
        generator = np.random.default_rng(seed) if fixed is None else None
        for start in range(0, n_resamples, rows):
            stop = min(start + rows, n_resamples)
            if fixed is None:
                m = draws[start:stop]
                drawn = generator.integers(n_block, size=int(m.sum()))
                resample = np.repeat(np.arange(stop - start), m)
            else:
                local = fixed[start:stop] - kept_offset
                inside = (local >= 0) & (local < n_block)
                resample = np.nonzero(inside)[0]
                drawn = local[inside]
            counts = np.bincount(resample * n_block + drawn, minlength=(stop - start) * n_block)
            sums[start:stop] = counts.reshape(stop - start, n_block).astype(np.float64) @ ranks
    # the jackknife: the mean ranks without each dataset (uniform weights, as ranks._jackknife_means)
    left_out = (observed_total[None, :] - ranks) / (n_total - 1.0)
    observed = observed_total / n_total
    names = np.array(methods if columns is None else [methods[c] for c in columns], dtype=object)
    full_min = _tie_positions(observed, "min")[0]
    left_min = _tie_positions(left_out, "min") if n_block else np.zeros((0, k))
    top_mask = left_min == 1
    top = names[top_mask.argmax(axis=1)] if n_block else np.zeros(0, dtype=object)
    for i in np.nonzero(top_mask.sum(axis=1) > 1)[0]:
        top[i] = ", ".join(names[top_mask[i]])
    positions = offset + np.flatnonzero(complete)
    table = pd.DataFrame({
        "position": positions,
        "top_method": top,
        "top_changed": (top_mask != (full_min == 1)[None, :]).any(axis=1),
        "order_changed": (left_min != full_min[None, :]).any(axis=1),
        "max_abs_change": np.abs(left_out - observed[None, :]).max(axis=1) if n_block else np.zeros(0),
        "kendall_tau": _kendall_tau_rows(_tie_positions(observed)[0], _tie_positions(left_out))
        if n_block else np.zeros(0),
    })
    return sums, [table]


def _combine_bootstrap(a, b):
    return a[0] + b[0], a[1] + b[1]


def _stability(prep: LazyAcross, n_resamples: int, confidence_level: float, draws=None, seeds=None, fixed=None):
    """RankStability from the chunk-wise bootstrap sums (random per-block draws, or fixed indices)."""
    from ._kernels.rank_positions import accumulate_positions
    import dask

    from .ranks import _TIE_TOL, RankStability

    cube = prep.cube
    n, k = prep.n_datasets, prep.n_methods
    kept_offsets = np.concatenate([[0], np.cumsum(prep.block_datasets)[:-1]])
    # one task per block, each with its own share of the draws
    blocks = cube.data.to_delayed().ravel()
    offsets = np.concatenate([[0], np.cumsum(cube.data.chunks[0])[:-1]])
    task = dask.delayed(_bootstrap_block, pure=True)
    tasks = [task(block, int(offset), _sign(cube), prep.columns, _methods(cube), n_resamples,
                  None if draws is None else np.ascontiguousarray(draws[:, c]),
                  None if seeds is None else int(seeds[c]), fixed, prep.rank_sums, float(n), int(kept_offsets[c]))
             for c, (block, offset) in enumerate(zip(blocks, offsets))]
    sums, tables = _run(cube, _reduce(tasks, _combine_bootstrap))
    means = sums / float(n)
    probabilities = np.zeros((k, k))
    accumulate_positions(np.ascontiguousarray(means), _TIE_TOL, probabilities)
    probabilities /= n_resamples
    observed = prep.rank_sums / n
    method_index = pd.Index(prep.methods, name="method")
    low, high = np.quantile(means, [0.5 - confidence_level / 2, 0.5 + confidence_level / 2], axis=0)
    table = pd.concat(tables, ignore_index=True)
    labels = np.array([str(v) for v in cube.coords["dataset"].values[table["position"].to_numpy()]], dtype=object)
    table.insert(0, "dataset", labels)
    table = table.drop(columns="position").iloc[np.argsort(labels, kind="stable")].reset_index(drop=True)
    return RankStability(
        mean_ranks=pd.Series(observed, index=method_index, name="mean_rank"),
        mean_rank_draws=means,
        position_probabilities=pd.DataFrame(probabilities, index=method_index,
                                            columns=pd.Index(np.arange(1, k + 1), name="position")),
        mean_rank_interval=pd.DataFrame({"low": low, "high": high}, index=method_index),
        prob_best=pd.Series(probabilities[:, 0], index=method_index, name="prob_best"),
        jackknife=table, aggregation="uniform", n_resamples=n_resamples, confidence_level=confidence_level,
        weights=None, n_datasets=n, n_methods=k, excluded=prep.excluded, seeds_reduced=None)


def rank_stability(scores, *, n_resamples: int = 10_000, aggregation: str = "uniform", groups=None, weights=None,
                   confidence_level: float = 0.95, rng=None, direction=None, method_names=None):
    """:func:`mcda.rank_stability` of a lazy cube (uniform aggregation), block by block.

    The draws come from the one ``rng``: per resample, the multinomial split of the N draws
    over the blocks (proportional to their datasets), then, inside each block, uniform draws
    with replacement from a generator seeded from ``rng``. The resample distribution is the
    in-memory one's (N draws with replacement from all datasets), but the draws themselves
    differ from the in-memory path's for the same ``rng``.
    """
    from .ranks import AGGREGATIONS

    n_resamples = check_positive_int("n_resamples", n_resamples)
    confidence_level = check_probability("confidence_level", confidence_level)
    check_choice("aggregation", aggregation, AGGREGATIONS)
    _uniform_only(scores, "mcda.rank_stability", aggregation, groups, weights,
                  reason="the weighted bootstraps read a weight (or a group) for every dataset drawn")
    gen = as_rng(rng)
    prep = across(scores, direction, method_names=method_names, missing="complete")
    if prep.n_datasets < 2:
        raise ValueError(f"rank_stability resamples datasets and needs at least 2 datasets; got {prep.n_datasets}")
    if prep.n_datasets < 5:
        warn(f"the bootstrap resamples only {prep.n_datasets} datasets: few distinct resamples exist and the "
             "intervals and position probabilities are coarse.", SmallSampleWarning)
    share = prep.block_datasets / prep.n_datasets
    draws = gen.multinomial(prep.n_datasets, share, size=n_resamples)
    seeds = gen.integers(0, np.iinfo(np.int64).max, size=share.size)
    return _stability(prep, n_resamples, confidence_level, draws=draws, seeds=seeds)


def rank_stability_from_indices(scores, indices, *, confidence_level: float = 0.95):
    """The chunk-wise bootstrap for given resamples (resamples × N positions among the kept datasets).

    For the tests: the same indices through ``ranks._stability_from_indices`` give the
    in-memory result, which this must equal exactly.
    """
    prep = across(scores, missing="complete")
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    return _stability(prep, indices.shape[0], confidence_level, fixed=indices)
