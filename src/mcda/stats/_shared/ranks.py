"""Ranks within datasets (rank 1 = best, ties averaged) and their averages across datasets.

Ranks are computed per dataset on the oriented cube, so they are chunkable along
``dataset``: the rank of a method on one dataset never depends on another dataset, and
rank sums add up across chunks.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.numeric import TIE_TOLERANCE, rank
from mcda._core.results import Result, states_scale
from mcda._core.validation import (DescriptiveOnlyWarning, SmallSampleWarning, as_rng, check_choice, check_positive_int, check_probability, shown, warn)
from mcda.data import blocks as _chunks
from mcda.data.blocks import require_in_memory
from mcda.data.cube import as_cube, orient, single_score_cube
from mcda.data.design import (concat_missing, incomplete_datasets, missing_design, missing_policy, missing_rows,
                              name_empty_datasets, reduce_seeds, warn_dropped_datasets, warn_excluded)
from mcda.stats._shared.intervals import t_interval_widths

__all__ = ["AcrossDatasets", "prepare_across", "rank_sums", "table_rank_sums", "rank_rows", "rank_table",
           "average_ranks", "MeanRanks", "mean_ranks", "rank_stability", "RankStability"]


@dataclass(frozen=True)
class AcrossDatasets:
    """The input of every across-dataset statistic, prepared once, in memory or lazily.

    Attributes
    ----------
    cube : xarray.DataArray
        The oriented cube (higher is better; every method and dataset, lazy if the input was).
    methods : list of str
        The methods kept (the complete ones under ``missing="complete"``).
    columns : numpy.ndarray
        Their positions in ``cube``.
    empty : numpy.ndarray
        Positions in ``cube`` of the datasets without any result (dropped; ``kept`` are the others).
    excluded : dict
        Method -> datasets it lacks (dropped under ``missing="complete"``).
    empty_datasets : tuple
        Datasets with no result at all (dropped).
    missing : str
    excluded_datasets : dict
        Dataset -> methods it lacks (datasets dropped under ``missing="datasets"``).
    rank_sums, rank_counts, sum_squared_ranks, block_datasets :
        Σ_i r_ij per kept method, the datasets ranked per method, Σ_ij r_ij² and the kept
        datasets per block of the cube; None unless computed (:func:`rank_sums`).
    ranks : numpy.ndarray or dask array, optional
        The ranks within datasets (kept datasets × kept methods); lazy for a lazy cube.
    """

    cube: xr.DataArray
    methods: list
    columns: np.ndarray
    empty: np.ndarray
    excluded: dict = field(default_factory=dict)
    empty_datasets: tuple = ()
    missing: str = "complete"
    excluded_datasets: dict = field(default_factory=dict)
    rank_sums: np.ndarray | None = None
    rank_counts: np.ndarray | None = None
    sum_squared_ranks: float | None = None
    block_datasets: np.ndarray | None = None
    ranks: object = None

    @property
    def n_datasets(self) -> int:
        return int(self.cube.sizes["dataset"] - self.empty.size)

    @property
    def n_methods(self) -> int:
        return len(self.methods)

    @property
    def labels(self) -> np.ndarray:
        """The kept datasets' labels as stored (no per-label conversion, no copy when none is dropped)."""
        labels = self.cube.coords["dataset"].values
        return labels[self.kept] if self.empty.size else labels

    @property
    def kept(self) -> np.ndarray:
        """Positions in ``cube`` of the datasets kept."""
        return np.setdiff1d(np.arange(self.cube.sizes["dataset"]), self.empty)

    @property
    def datasets(self) -> list:
        return [str(d) for d in self.labels]

    @property
    def values(self) -> np.ndarray:
        """Oriented scores, kept datasets × kept methods (in memory only)."""
        require_in_memory(self.cube, "this across-dataset view", reason="it needs the datasets x methods matrix "
                          "in memory", instead="the chunk-wise functions (rank_table, average_ranks, mean_ranks, "
                          "rank_stability, friedman_test, compare_over_datasets, pairwise_counts, ...) accept it "
                          "directly")
        values = self.cube.values
        if self.empty.size:
            values = values[self.kept]
        if self.columns.size != values.shape[1]:
            values = values[:, self.columns]
        return np.ascontiguousarray(values, dtype=np.float64)

    def warn_excluded(self, what: str) -> None:
        """A :class:`~mcda.MissingDataWarning` naming the incomplete methods excluded from ``what``."""
        warn_excluded(self.excluded, what)

    def rank_matrix(self):
        """The ranks within datasets (kept datasets × kept methods): numpy, or lazy for a lazy cube."""
        if self.ranks is not None:
            return self.ranks
        columns = None if self.columns.size == self.cube.sizes["method"] else self.columns
        ranks = _chunks.map_rows(self.cube, _ranks_of, columns=columns)
        return ranks[self.kept] if self.empty.size else ranks

    def rank_table(self):
        """:meth:`rank_matrix` labelled: a DataFrame, or a lazy DataArray for a lazy cube."""
        table = _chunks.as_table(self.rank_matrix(), self.labels, self.methods, name="rank")
        table.attrs["excluded"] = self.excluded
        return table


def _ranks_of(values: np.ndarray) -> np.ndarray:
    """Map: ranks within each dataset (the numba kernel takes turns between the scheduler's threads)."""
    with _chunks.NUMBA_LOCK:
        return rank_rows(values)


def _prepared(cube, missing, columns, excluded, empty, **sums) -> AcrossDatasets:
    labels, methods = cube.coords["dataset"].values, cube.coords["method"].values  # one coordinate lookup each
    dropped = sums.get("excluded_datasets") or {}  # left out for a missing cell (missing="datasets"), named there
    name_empty_datasets([str(d) for d in labels[empty] if str(d) not in dropped], "the across-dataset analysis")
    return AcrossDatasets(cube=cube, methods=[str(methods[j]) for j in columns],
                          columns=np.asarray(columns), empty=np.asarray(empty, dtype=np.int64), excluded=excluded,
                          empty_datasets=tuple(str(d) for d in labels[empty]), missing=missing, **sums)


def prepare_across(scores, direction=None, *, method_names=None, missing: str = "methods",
                   ways_out: str = "none") -> AcrossDatasets:
    """Cube → the design of the across-dataset question (one pass over the missing flags).

    A ``seed`` dim must be reduced first (:func:`mcda.reduce_seeds`): how seeds are collapsed
    is the analyst's decision, never made silently here. ``missing="complete"`` drops
    incomplete methods and names them; ``"available"`` keeps NaN cells. A lazy cube stays lazy.
    ``ways_out`` says what the calling public function offers when too little is complete (a
    key of :data:`mcda.data.design.WAYS_OUT`: only the arguments that function takes).
    """
    missing = missing_policy(missing)
    cube = orient(single_score_cube(scores, direction, method_names=method_names,
                                    what="the across-dataset procedure"))
    flags = _chunks.reduce(cube, missing_rows, concat_missing)
    dropped = incomplete_datasets(cube, flags)[1] if missing == "datasets" else {}
    return _prepared(cube, missing, *missing_design(cube, missing, flags, ways_out), excluded_datasets=dropped)


# --------------------------------------------------------------------------- the rank-sum statistic
# block: the ranks of a slab of datasets -> sums, counts, Σ r², datasets; combine: add them up.

def _rank_sums_block(ranks: np.ndarray, offset: int, policy: str) -> dict:
    """Block (on the ranks of a slab): rank sums, counts, Σ r², N and the datasets without any result.
    ``policy="probe"`` returns the missing flags instead when the slab has a missing cell (the
    complete-case design needs every dataset's flags first)."""
    missing = np.isnan(ranks)
    incomplete = missing.any(axis=1)
    part = {"n": 0, "sums": 0.0, "counts": 0, "squares": 0.0, "blocks": (), "flags": None,
            "empty": np.zeros(0, dtype=np.int64)}
    if policy == "probe" and incomplete.any():
        part["flags"] = (offset + np.flatnonzero(incomplete), missing[incomplete])
        return part
    if policy == "available":
        empty = missing.all(axis=1)
        filled = np.where(missing, 0.0, ranks)
        part.update(sums=filled.sum(axis=0), counts=(~missing).sum(axis=0).astype(np.int64),
                    squares=float(np.einsum("ij,ij->", filled, filled)))
    else:  # complete columns: a row with a missing cell is a dataset without any result
        empty = incomplete
        ranks = ranks[~incomplete] if incomplete.any() else ranks
        part.update(sums=ranks.sum(axis=0), counts=np.full(ranks.shape[1], ranks.shape[0], dtype=np.int64),
                    squares=float(np.einsum("ij,ij->", ranks, ranks)))
    n = int(ranks.shape[0] - np.count_nonzero(empty)) if policy == "available" else int(ranks.shape[0])
    part.update(n=n, blocks=(n,), empty=offset + np.flatnonzero(empty))
    return part


def _combine_rank_sums(a: dict, b: dict) -> dict:
    """Combine: sums add up; the flags and the empty datasets of two slabs concatenate in dataset order."""
    flags = [f for f in (a["flags"], b["flags"]) if f is not None]
    return {"n": a["n"] + b["n"], "sums": a["sums"] + b["sums"], "counts": a["counts"] + b["counts"],
            "squares": a["squares"] + b["squares"], "blocks": a["blocks"] + b["blocks"],
            "flags": flags[0] if len(flags) == 1 else (concat_missing(*flags) if flags else None),
            "empty": np.concatenate([a["empty"], b["empty"]])}


def _ranks_unless_missing(values: np.ndarray) -> np.ndarray:
    """Map of the probing pass: a slab with a missing cell is only flagged, so it is not ranked."""
    return values if np.isnan(values).any() else _ranks_of(values)


def _rank_pass(cube, policy, columns, keep):
    mapper = _ranks_unless_missing if policy == "probe" else _ranks_of
    out = _chunks.reduce(cube, _rank_sums_block, _combine_rank_sums, policy, columns=columns, mapper=mapper,
                         keep=keep)
    return out if keep else (out, None)


def rank_sums(scores, direction=None, *, method_names=None, missing: str = "methods",
              keep_ranks: bool = False, ways_out: str = "none") -> AcrossDatasets:
    """The design with the rank sums, Σ r² and N: one pass over the cube when no cell is missing.

    With a missing cell under ``missing="complete"`` the first pass collects the flags and a
    second one ranks the complete methods. ``keep_ranks`` keeps the rank matrix (lazy for a lazy
    cube), so that an in-memory cube is ranked once for both.
    """
    missing = missing_policy(missing)
    cube = orient(single_score_cube(scores, direction, method_names=method_names,
                                    what="the across-dataset procedure"))
    policy = "available" if missing == "available" else "probe"
    columns, excluded, dropped = np.arange(cube.sizes["method"]), {}, {}
    part, ranks = _rank_pass(cube, policy, None, keep_ranks)
    if part["flags"] is not None:
        columns, excluded, _ = missing_design(cube, missing, part["flags"], ways_out)
        if missing == "datasets":  # every method kept; a dataset with a missing cell is dropped (and named)
            dropped = incomplete_datasets(cube, part["flags"])[1]
        part, ranks = _rank_pass(cube, "drop", None if missing == "datasets" else columns, keep_ranks)
    if part["n"] == 0:
        raise McdaArgumentError("`data` is empty: no dataset has a result", argument="data")
    empty = part["empty"]
    if ranks is not None and empty.size:
        ranks = ranks[np.setdiff1d(np.arange(cube.sizes["dataset"]), empty)]
    return _prepared(cube, missing, columns, excluded, empty, excluded_datasets=dropped, rank_sums=part["sums"],
                     rank_counts=np.asarray(part["counts"]), sum_squared_ranks=float(part["squares"]),
                     block_datasets=np.array(part["blocks"], dtype=np.int64), ranks=ranks)


def table_rank_sums(table) -> tuple[np.ndarray, float]:
    """(rank sums, Σ r²) of a complete rank table (a DataFrame, or the lazy DataArray of a lazy cube)."""
    source = table if isinstance(table, xr.DataArray) else xr.DataArray(table.to_numpy(dtype=np.float64))
    part = _chunks.reduce(source, _rank_sums_block, _combine_rank_sums, "drop")
    return part["sums"], float(part["squares"])


def rank_rows(values: np.ndarray) -> np.ndarray:
    """Ranks within each row of an oriented matrix: 1 = highest, ties (the tie rule) averaged, NaN stays NaN."""
    return rank(values, descending=True)


@states_scale
def rank_table(scores, direction=None, *, missing: str = "methods", method_names=None) -> pd.DataFrame:
    """The ranks within each dataset as a datasets × methods table (1 = best, ties averaged).

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    missing : {"methods", "datasets", "available"}
        "methods" (default; also spelt "complete") drops incomplete methods (named in
        ``attrs["excluded"]``); "datasets" drops incomplete datasets (``attrs["excluded_datasets"]``);
        "available" ranks each method among those present on each dataset (NaN where absent).

    Returns
    -------
    pandas.DataFrame or xarray.DataArray
        Datasets × methods. For a dask-backed cube, a lazy DataArray of the same ranks (only the
        missing flags are computed now; ``.to_pandas()`` gives the table).

    Examples
    --------
    >>> import mcda
    >>> table = mcda.rank_table({"d1": {"a": 0.9, "b": 0.8, "c": 0.8}}, direction="higher_is_better")
    >>> table.loc["d1"].tolist()
    [1.0, 2.5, 2.5]
    """
    prep = prepare_across(scores, direction, method_names=method_names, missing=missing, ways_out="missing")
    warn_excluded(prep.excluded, "the rank table")
    warn_dropped_datasets(prep.excluded_datasets, "the rank table")
    table = prep.rank_table()
    table.attrs["excluded_datasets"] = prep.excluded_datasets
    return table


@dataclass(frozen=True, repr=False)
class MeanRanks(Result):
    """Mean ranks of methods across datasets.

    Attributes
    ----------
    mean_ranks : pandas.Series
        Mean rank per method (1 = best), indexed by method, in the cube's method order.
    rank_table : pandas.DataFrame
        The per-dataset ranks (datasets × methods).
    n_datasets, n_methods : int
    aggregation : str
        "uniform" (Demšar: every dataset counts once; the only weighting with a
        Friedman/Nemenyi null) or a weighted scheme.
    weights : pandas.Series or None
        Per-dataset weights (summing to 1) for weighted aggregations.
    missing : str
        "complete" (incomplete methods dropped; passed as "methods" or "complete"), "datasets"
        (incomplete datasets dropped) or "available" (descriptive only).
    excluded : dict
        Method -> datasets it lacks (methods dropped under "complete").
    excluded_datasets : dict
        Dataset -> methods it lacks (datasets dropped under "datasets").
    """

    mean_ranks: pd.Series
    rank_table: pd.DataFrame
    n_datasets: int
    n_methods: int
    aggregation: str = "uniform"
    weights: pd.Series | None = None
    missing: str = "complete"
    excluded: dict = field(default_factory=dict)
    excluded_datasets: dict = field(default_factory=dict)

    @property
    def is_weighted(self) -> bool:
        return self.aggregation != "uniform"

    @property
    def supports_critical_difference(self) -> bool:
        """Only uniform mean ranks over a complete design have the Friedman/Nemenyi null."""
        return self.aggregation == "uniform" and self.missing in ("complete", "datasets")

    def to_frame(self) -> pd.DataFrame:
        """One row per method: ``method, mean_rank`` (best first)."""
        out = self.mean_ranks.rename("mean_rank").rename_axis("method").reset_index()
        return out.sort_values("mean_rank", kind="stable").reset_index(drop=True)

    def summary(self) -> str:
        """The aggregation, then the mean ranks best first, and the methods left out."""
        head = f"Mean ranks ({self.aggregation}, {self.n_methods} methods over {self.n_datasets} datasets"
        head += ", descriptive only" if not self.supports_critical_difference else ""
        body = ", ".join(f"{m}: {r:.3f}" for m, r in self.mean_ranks.sort_values(kind="stable").items())
        if self.excluded:
            body += f"\n  excluded (incomplete): {shown(self.excluded)}"
        if self.excluded_datasets:
            body += f"\n  excluded datasets (incomplete): {shown(self.excluded_datasets)}"
        return head + ")\n  " + body


@states_scale
def average_ranks(scores, direction=None, *, missing: str = "methods", method_names=None) -> MeanRanks:
    """Demšar's average ranks: rank within each dataset (1 = best, ties averaged), then average.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` (one score per dataset and method)
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    missing : {"methods", "datasets", "available"}
        ``"methods"`` (default; also spelt ``"complete"``) drops incomplete methods and names
        them in ``excluded``. ``"datasets"`` drops incomplete datasets and names them in
        ``excluded_datasets``.
        ``"available"`` ranks each method among the methods present on each dataset and
        averages over the datasets it has: **descriptive only** (ranks among different pools are
        not on a common scale, so no critical difference or test may use them); a
        :class:`~mcda.DescriptiveOnlyWarning` says so.

    Returns
    -------
    MeanRanks

    Notes
    -----
    R̄_j = (1/N) Σ_i r_ij with r_ij the rank of method j on dataset i (Demšar 2006, §3.2.2).

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7:1–30.

    Examples
    --------
    >>> import mcda
    >>> r = mcda.average_ranks(mcda.datasets.load("demsar2006_published_ranks"))
    >>> r.mean_ranks.round(3).to_dict()
    {'C4.5': 3.143, 'C4.5+m': 2.0, 'C4.5+cf': 2.893, 'C4.5+m+cf': 1.964}
    """
    return _mean_ranks(scores, aggregation="uniform", groups=None, weights=None, missing=missing,
                       direction=direction, method_names=method_names, what="average")


# =========================================================================== weighted mean ranks

AGGREGATIONS = ("uniform", "reliability", "hierarchical", "custom")
# Mean ranks closer than the tie tolerance are tied (positions, order, top method): mcda._core.numeric.
_TIE_TOL = TIE_TOLERANCE
# Level of the per-cell t intervals of the reliability weighting. Every kept cell has the
# same number of seeds (reduce_seeds with missing='complete' keeps only cells with every seed), so the t quantile is one
# constant factor and cancels when the weights are normalised.
_RELIABILITY_LEVEL = 0.95
_BLOCK_CELLS = 1 << 21  # resamples × drawn datasets per block: memory stays bounded


@dataclass(frozen=True)
class _Aggregation:
    """Ranks within datasets and how they are aggregated, prepared once (internal)."""

    prep: AcrossDatasets  # with the rank sums and the rank matrix
    aggregation: str
    raw_weights: np.ndarray | None = None  # (n_datasets,), unnormalised; None = uniform
    groups: np.ndarray | None = None  # (n_datasets,) int codes into group_labels (hierarchical)
    group_labels: tuple = ()
    missing: str = "complete"
    seeds_reduced: str | None = None
    order: np.ndarray | None = None  # kept datasets in label order (None: as stored)

    @property
    def ranks(self):
        ranks = self.prep.ranks
        return ranks if self.order is None else np.ascontiguousarray(ranks[self.order])

    @property
    def labels(self) -> np.ndarray:
        return self.prep.labels if self.order is None else self.prep.labels[self.order]

    @property
    def datasets(self) -> list:
        return [str(d) for d in self.labels]

    @property
    def methods(self) -> list:
        return self.prep.methods

    def weights_or_ones(self) -> np.ndarray:
        if self.raw_weights is None:
            return np.ones(self.prep.n_datasets)
        return self.raw_weights

    def total(self) -> np.ndarray:
        """Σ_i w_i r_ij per method (the rank sums for uniform weights)."""
        if self.raw_weights is None:
            return self.prep.rank_sums
        return self.raw_weights @ self.ranks

    def mean(self) -> np.ndarray:
        """The aggregated mean rank per method."""
        if self.raw_weights is None:
            return self.prep.rank_sums / self.prep.rank_counts
        return self.total() / self.raw_weights.sum()

    def weights_series(self) -> pd.Series | None:
        if self.raw_weights is None:
            return None
        return pd.Series(self.raw_weights / self.raw_weights.sum(), index=pd.Index(self.datasets, name="dataset"),
                         name="weight")

    def sorted_by_dataset(self) -> _Aggregation:
        """The same aggregation with datasets in label order (resamples do not depend on input order).

        A lazy cube of several blocks keeps the store's order: sorting would gather every block.
        """
        if _chunks.block_sizes(xr.DataArray(self.prep.ranks)).size > 1:
            return self
        order = np.argsort(np.array(self.datasets, dtype=object), kind="stable")
        return _Aggregation(prep=self.prep, aggregation=self.aggregation,
                            raw_weights=None if self.raw_weights is None else self.raw_weights[order],
                            groups=None if self.groups is None else self.groups[order],
                            group_labels=self.group_labels, missing=self.missing,
                            seeds_reduced=self.seeds_reduced, order=order)


def _as_mapping(name: str, value, what: str) -> dict:
    if isinstance(value, pd.Series):
        return {str(k): v for k, v in value.items()}
    if isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    raise McdaArgumentTypeError(f"`{name}` must be a mapping dataset -> {what} (a dict or a pandas Series); "
                    f"got {type(value).__name__}", argument=name, value=value)


def _check_names(name: str, mapping: dict, prep: AcrossDatasets) -> None:
    known = set(prep.datasets) | {str(d) for d in prep.empty_datasets}
    unknown = [k for k in mapping if k not in known]
    if unknown:
        raise McdaArgumentError(f"`{name}` names datasets that are not in the scores: {shown(unknown)}; "
                         f"the datasets are {shown(prep.datasets)}", argument=name)
    lacking = [d for d in prep.datasets if d not in mapping]
    if lacking:
        raise McdaArgumentError(f"`{name}` must name every dataset; it lacks {shown(lacking)}", argument=name)


def _group_codes(groups, prep: AcrossDatasets) -> tuple[np.ndarray, tuple]:
    mapping = _as_mapping("groups", groups, "group")
    _check_names("groups", mapping, prep)
    labels = [mapping[d] for d in prep.datasets]
    bad = [d for d, g in zip(prep.datasets, labels) if g is None or (isinstance(g, float) and np.isnan(g))]
    if bad:
        raise McdaArgumentError(f"`groups` gives no group (None/NaN) for datasets {shown(bad)}", argument="groups")
    names = sorted({str(g) for g in labels})
    code_of = {g: i for i, g in enumerate(names)}
    return np.array([code_of[str(g)] for g in labels], dtype=np.int64), tuple(names)


def _custom_weights(weights, prep: AcrossDatasets) -> np.ndarray:
    mapping = _as_mapping("weights", weights, "weight")
    _check_names("weights", mapping, prep)
    raw = []
    for d in prep.datasets:
        w = mapping[d]
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, numbers.Real) or not np.isfinite(float(w)) or w < 0:
            raise McdaArgumentError(f"`weights` must be finite numbers >= 0; got {w!r} for dataset {d!r}",
                                    argument="weights")
        raw.append(float(w))
    raw = np.array(raw, dtype=np.float64)
    if not (raw > 0).any():
        raise McdaArgumentError("`weights` are all zero; at least one dataset needs a positive weight",
                                argument="weights")
    return raw


def _mean_interval_widths(cube: xr.DataArray, prep: AcrossDatasets) -> np.ndarray:
    """Per dataset: the mean over the kept methods of the width of each method's t interval over seeds."""
    per_seed = cube.sel({"dataset": prep.labels, "method": prep.methods})
    other = [d for d in per_seed.dims if d not in ("dataset", "method", "seed")]
    if other:
        raise McdaArgumentError(f"the scores have extra dims {other}; select one value along each first "
                         f"(e.g. cube.sel(metric='ari')).", argument="scores")
    values = per_seed.transpose("dataset", "method", "seed").values
    d, k, s = values.shape
    cells, n = t_interval_widths(values.reshape(d * k, s), _RELIABILITY_LEVEL)
    if int(n.min()) < 2:
        raise McdaArgumentError("aggregation='reliability' needs at least 2 seeds per (dataset, method) to measure an "
                         f"interval width; the scores have {per_seed.sizes['seed']} seed(s)",
                                argument="aggregation", value="reliability")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a dataset with no finite width stays NaN
        width = np.nanmean(cells.reshape(d, k), axis=1)
    zero = width <= 0
    if zero.any():
        names = [prep.datasets[i] for i in np.nonzero(zero)[0]]
        raise McdaArgumentError(f"aggregation='reliability' weights a dataset by 1 / (mean interval width), but every "
                         f"method has identical scores over seeds on datasets {shown(names)} (width 0, infinite "
                         "weight). Use aggregation='custom' with explicit `weights`, or 'uniform'.",
                                argument="aggregation", value="reliability")
    return width


def _prepare_aggregation(scores, *, aggregation, groups, weights, direction, method_names,
                         missing: str = "methods", function: str = "mcda.mean_ranks") -> _Aggregation:
    """Validate the aggregation arguments and prepare ranks and weights (one place for both public functions).

    The uniform aggregation is the rank sums, chunk-wise on a lazy cube; a weighted one reads a
    weight (or a group) for every dataset next to its ranks and refuses a lazy cube by name.
    """
    check_choice("aggregation", aggregation, AGGREGATIONS)
    missing = missing_policy(missing)
    # the calling function's own way out: mean_ranks takes every `missing`, rank_stability all but "available"
    ways_out = "missing" if function == "mcda.mean_ranks" else "missing_no_available"
    if groups is not None and aggregation != "hierarchical":
        raise McdaArgumentError(f"`groups` is used only with aggregation='hierarchical'; got aggregation={aggregation!r}",
                                argument="groups")
    if weights is not None and aggregation != "custom":
        raise McdaArgumentError(f"`weights` is used only with aggregation='custom'; got aggregation={aggregation!r}",
                                argument="weights")
    if aggregation == "hierarchical" and groups is None:
        raise McdaArgumentError("aggregation='hierarchical' needs `groups`, a mapping dataset -> group",
                                argument="groups", value=groups)
    if aggregation == "custom" and weights is None:
        raise McdaArgumentError("aggregation='custom' needs `weights`, a mapping dataset -> weight (>= 0)",
                                argument="weights", value=weights)
    if missing == "available" and aggregation != "uniform":
        raise McdaArgumentError(f"`missing='available'` is descriptive only and allowed only with aggregation='uniform'; "
                         f"got aggregation={aggregation!r}. Use missing='complete'.", argument="missing")
    if aggregation != "uniform":
        require_in_memory(scores, f"{function}(aggregation={aggregation!r})",
                          reason="the weighted aggregations read a weight (or a group) for every dataset next to its "
                                 "ranks",
                          instead="use aggregation='uniform' (chunk-wise), or load the cube (cube.load())")
    seeds_reduced = None
    raw = codes = None
    labels: tuple = ()
    if aggregation == "reliability":
        cube = as_cube(scores, direction, method_names=method_names)
        if "seed" not in cube.dims:
            raise McdaArgumentError("aggregation='reliability' weights each dataset by the inverse width of its confidence "
                             f"intervals over seeds, so the scores need a 'seed' dim; their dims are {tuple(cube.dims)}. "
                             "Use aggregation='uniform', or pass the per-seed scores.",
                                    argument="aggregation", value=aggregation)
        prep = rank_sums(reduce_seeds(cube, how="mean", missing="complete"), missing=missing, keep_ranks=True)
        raw = 1.0 / _mean_interval_widths(cube, prep)
        seeds_reduced = "mean"
    else:
        prep = rank_sums(scores, direction, method_names=method_names, missing=missing, keep_ranks=True,
                         ways_out=ways_out)
        if aggregation == "hierarchical":
            codes, labels = _group_codes(groups, prep)
            raw = 1.0 / np.bincount(codes)[codes]
        elif aggregation == "custom":
            raw = _custom_weights(weights, prep)
    return _Aggregation(prep=prep, aggregation=aggregation, raw_weights=raw, groups=codes, group_labels=labels,
                        missing=missing, seeds_reduced=seeds_reduced)


@states_scale
def mean_ranks(scores, direction=None, *, aggregation: str = "uniform", groups=None, weights=None, missing: str = "methods",
               method_names=None) -> MeanRanks:
    """Mean ranks of methods across datasets, with every dataset counting once or weighted.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method); for ``aggregation="reliability"``, scores per seed
        (a ``seed`` dim).
    aggregation : {"uniform", "reliability", "hierarchical", "custom"}
        ``"uniform"`` (default; Demšar 2006): every dataset counts once.
        ``"reliability"``: ranks from the seed-mean (``mcda.reduce_seeds(cube, how="mean")``),
        each dataset weighted by 1 / (mean width of the methods' t intervals over seeds).
        ``"hierarchical"``: average within each group of datasets, then across groups.
        ``"custom"``: the ``weights`` given.
    groups : mapping dataset -> group, optional
        Required by (and only for) ``"hierarchical"``; every dataset must be named.
    weights : mapping dataset -> float >= 0, optional
        Required by (and only for) ``"custom"``; every dataset must be named; normalised to
        sum to 1; at least one must be positive.
    missing : {"methods", "datasets", "available"}
        ``"methods"`` (default; also spelt ``"complete"``) drops incomplete methods and names
        them in ``excluded``; ``"datasets"`` drops incomplete datasets (``excluded_datasets``).
        ``"available"`` (uniform only) is :func:`mcda.average_ranks`'s descriptive mode.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    MeanRanks
        ``mean_ranks`` (Series by method), ``rank_table`` (datasets × methods; for
        reliability, the ranks of the seed-mean), ``aggregation``, ``weights`` (Series by
        dataset summing to 1; None for uniform), ``n_datasets``, ``n_methods``,
        ``missing``, ``excluded``. ``is_weighted`` is True for every aggregation but
        uniform, and then ``supports_critical_difference`` is False: a critical difference
        is refused on such a result.

    Raises
    ------
    ValueError
        Unknown ``aggregation``; ``groups``/``weights`` missing, misplaced, or not naming
        every dataset; negative or all-zero weights; ``"reliability"`` without a ``seed``
        dim, with fewer than 2 seeds, or with a dataset whose interval widths are all 0.

    Notes
    -----
    With r_ij the rank of method j on dataset i (1 = best, ties averaged) and weights w_i,
    R̄_j = Σ_i w_i r_ij / Σ_i w_i. Uniform: w_i = 1 (Demšar 2006). Hierarchical: w_i =
    1 / n_g(i) with n_g the size of dataset i's group, which is the mean over groups of the
    within-group mean ranks. Reliability: w_i = 1 / ((1/k) Σ_j 2 t_{0.975, s−1} sd_ij / √s),
    sd_ij the standard deviation over the s seeds; since every kept cell has all s seeds,
    the t factor is common and only the mean standard error matters.

    Only the uniform mean ranks have the Friedman / Nemenyi null distribution. Weighted
    mean ranks are descriptive: no critical difference or post-hoc test may be computed on
    them (the result records this in ``is_weighted``).

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    JMLR 7:1–30. https://jmlr.org/papers/v7/demsar06a.html

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.load("demsar2006_published_ranks")
    >>> mcda.mean_ranks(cube).mean_ranks.round(3).to_dict()
    {'C4.5': 3.143, 'C4.5+m': 2.0, 'C4.5+cf': 2.893, 'C4.5+m+cf': 1.964}
    >>> groups = {d: ("medical" if d in {"breast cancer", "breast cancer wisconsin", "liver disorders",
    ...                                  "lung cancer", "primary tumor", "rheum", "lymphography"} else "other")
    ...           for d in cube.coords["dataset"].values}
    >>> r = mcda.mean_ranks(cube, aggregation="hierarchical", groups=groups)
    >>> r.is_weighted, round(float(r.weights.sum()), 12)
    (True, 1.0)
    """
    return _mean_ranks(scores, aggregation=aggregation, groups=groups, weights=weights, missing=missing,
                       direction=direction, method_names=method_names, what="mean")


def _mean_ranks(scores, *, aggregation, groups, weights, missing, direction, method_names, what) -> MeanRanks:
    """Both public mean-rank functions: ``what`` ("average" or "mean") names them in the warnings."""
    missing = missing_policy(missing)
    agg = _prepare_aggregation(scores, aggregation=aggregation, groups=groups, weights=weights, direction=direction,
                               method_names=method_names, missing=missing)
    warn_excluded(agg.prep.excluded, f"the {what} ranks")
    warn_dropped_datasets(agg.prep.excluded_datasets, f"the {what} ranks")
    if missing == "available":
        warn(f"{what} ranks with `missing='available'` rank each method among the methods present on each dataset; "
             "they are descriptive only (not on a common scale) and never an input to a critical difference.",
             DescriptiveOnlyWarning)
    table = agg.prep.rank_table()
    if agg.seeds_reduced:
        table.attrs["seeds_reduced"] = agg.seeds_reduced
    return MeanRanks(mean_ranks=pd.Series(agg.mean(), index=pd.Index(agg.methods, name="method"), name="mean_rank"),
                     rank_table=table, n_datasets=agg.prep.n_datasets, n_methods=agg.prep.n_methods,
                     aggregation=aggregation, weights=agg.weights_series(), missing=missing,
                     excluded=agg.prep.excluded, excluded_datasets=agg.prep.excluded_datasets)


# =========================================================================== rank stability

def _tie_positions(values, how: str = "average") -> np.ndarray:
    """Positions (1 = smallest value) within each row; values within ``_TIE_TOL`` (chained) are tied.

    ``how="min"`` gives tied values their best position (1, 1, 3), ``"average"`` the mean of the
    positions they share (1.5, 1.5, 3).
    """
    v = np.atleast_2d(np.asarray(values, dtype=np.float64))
    n, k = v.shape
    order = np.argsort(v, axis=1, kind="stable")
    ordered = np.take_along_axis(v, order, axis=1)
    first = np.ones((n, k), dtype=bool)
    first[:, 1:] = np.diff(ordered, axis=1) > _TIE_TOL
    last = np.ones((n, k), dtype=bool)
    last[:, :-1] = first[:, 1:]
    slot = np.broadcast_to(np.arange(k), (n, k))
    start = np.maximum.accumulate(np.where(first, slot, 0), axis=1)
    stop = np.minimum.accumulate(np.where(last, slot, k - 1)[:, ::-1], axis=1)[:, ::-1]
    positions = start + 1.0 if how == "min" else (start + stop) / 2.0 + 1.0
    out = np.empty((n, k))
    np.put_along_axis(out, order, positions, axis=1)
    return out


_PAIRS_PER_BLOCK = 1 << 20  # rows × method pairs compared at once by _kendall_tau_rows


def _kendall_tau_rows(reference: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Kendall's tau-b between ``reference`` (k,) and each row of ``rows`` (n, k); NaN when one is all tied.

    tau-b = Σ_{i<j} sign(x_i − x_j) sign(y_i − y_j) / √(untied pairs of x · untied pairs of y)
    (what ``scipy.stats.kendalltau`` gives), counted in integers over blocks of rows.
    """
    reference = np.asarray(reference, dtype=np.float64)
    rows = np.asarray(rows, dtype=np.float64)
    first, second = np.triu_indices(reference.shape[0], 1)
    dx = reference[first] - reference[second]
    untied_reference = np.count_nonzero(dx != 0)
    out = np.empty(rows.shape[0])
    step = max(1, _PAIRS_PER_BLOCK // max(1, first.size))
    for start in range(0, rows.shape[0], step):
        dy = rows[start:start + step, first] - rows[start:start + step, second]
        untied = np.count_nonzero(dy != 0, axis=1)
        concordance = np.where((dy != 0) & (dx != 0), np.where((dx > 0) == (dy > 0), 1, -1), 0).sum(axis=1)
        denominator = untied_reference * untied
        with np.errstate(divide="ignore", invalid="ignore"):
            out[start:start + step] = np.where(denominator > 0, concordance / np.sqrt(denominator), np.nan)
    return out


def _jackknife_totals(agg: _Aggregation) -> dict:
    """What leaving one dataset out needs besides its own ranks: the weighted totals (or the group sums)."""
    if agg.aggregation == "hierarchical":
        ranks, codes = agg.ranks, agg.groups
        n_groups = len(agg.group_labels)
        sizes = np.bincount(codes, minlength=n_groups).astype(np.float64)
        sums = np.zeros((n_groups, ranks.shape[1]))
        np.add.at(sums, codes, ranks)
        group_means = sums / sizes[:, None]
        return {"sizes": sizes, "sums": sums, "group_means": group_means, "total": group_means.sum(axis=0),
                "n_groups": n_groups}
    return {"total": agg.total(), "weight_total": agg.weights_or_ones().sum()}


def _left_out_means(ranks: np.ndarray, w: np.ndarray, codes, totals: dict) -> np.ndarray:
    """(rows, n_methods): the aggregated mean ranks with each of these datasets left out in turn."""
    if "sizes" in totals:
        n_groups, group_means, sums = totals["n_groups"], totals["group_means"], totals["sums"]
        size = totals["sizes"][codes][:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            shrunk = (sums[codes] - ranks) / (size - 1.0)
            kept = (totals["total"] - group_means[codes] + shrunk) / n_groups
            dropped = ((totals["total"] - group_means[codes]) / (n_groups - 1) if n_groups > 1
                       else np.full_like(ranks, np.nan))
        return np.where(size > 1, kept, dropped)
    return (totals["total"][None, :] - w[:, None] * ranks) / (totals["weight_total"] - w)[:, None]


def _jackknife_rows(left_out: np.ndarray, observed: np.ndarray, methods, positions) -> pd.DataFrame:
    methods = np.array(methods, dtype=object)
    full_min = _tie_positions(observed, "min")[0]
    left_min = _tie_positions(left_out, "min")
    top_mask = left_min == 1
    top = methods[top_mask.argmax(axis=1)]
    for i in np.nonzero(top_mask.sum(axis=1) > 1)[0]:  # a tie for first: name them all
        top[i] = ", ".join(methods[top_mask[i]])
    return pd.DataFrame({
        "position": positions,
        "top_method": top,
        "top_changed": (top_mask != (full_min == 1)[None, :]).any(axis=1),
        "order_changed": (left_min != full_min[None, :]).any(axis=1),
        "max_abs_change": np.abs(left_out - observed[None, :]).max(axis=1),
        "kendall_tau": _kendall_tau_rows(_tie_positions(observed)[0], _tie_positions(left_out)),
    })


@dataclass(frozen=True, repr=False)
class RankStability(Result):
    """How much the mean ranks depend on which datasets are in the benchmark.

    Attributes
    ----------
    mean_ranks : pandas.Series
        The observed (aggregated) mean rank per method, 1 = best.
    mean_rank_draws : numpy.ndarray
        (n_resamples, n_methods): the mean ranks of each bootstrap resample, columns in the
        order of ``mean_ranks.index``.
    position_probabilities : pandas.DataFrame
        Methods × positions 1..k: P(position = r) over the resamples (ties share their
        positions equally, so rows and columns sum to 1).
    mean_rank_interval : pandas.DataFrame
        Index method; columns ``low``, ``high``: percentile bootstrap interval of the mean rank.
    prob_best : pandas.Series
        P(position = 1) per method (a tie for first shares the credit).
    jackknife : pandas.DataFrame
        One row per left-out dataset: ``dataset``, ``top_method`` (the best without it; tied
        methods joined by ", "), ``top_changed``, ``order_changed`` (any method's position
        differs), ``max_abs_change`` (max over methods of |Δ mean rank|), ``kendall_tau``
        (tau-b between the positions with and without it).
    aggregation : str
    n_resamples : int
    confidence_level : float
    weights : pandas.Series or None
        Per-dataset weights (summing to 1); None for uniform.
    n_datasets, n_methods : int
    excluded : dict
        Method -> datasets it lacks (incomplete methods are dropped).
    """

    mean_ranks: pd.Series
    mean_rank_draws: np.ndarray
    position_probabilities: pd.DataFrame
    mean_rank_interval: pd.DataFrame
    prob_best: pd.Series
    jackknife: pd.DataFrame
    aggregation: str
    n_resamples: int
    confidence_level: float = 0.95
    weights: pd.Series | None = None
    n_datasets: int = 0
    n_methods: int = 0
    excluded: dict = field(default_factory=dict)
    seeds_reduced: str | None = None

    @property
    def is_weighted(self) -> bool:
        return self.aggregation != "uniform"

    @property
    def expected_position(self) -> pd.Series:
        """Σ_r r · P(position = r) per method."""
        positions = self.position_probabilities.columns.to_numpy(dtype=np.float64)
        return (self.position_probabilities @ positions).rename("expected_position")

    def to_frame(self) -> pd.DataFrame:
        """One row per method (best first): ``method, mean_rank, position, mean_rank_low, mean_rank_high,
        prob_best, expected_position`` (``position`` is the observed one, ties averaged)."""
        out = pd.DataFrame({
            "method": self.mean_ranks.index.to_numpy(),
            "mean_rank": self.mean_ranks.to_numpy(),
            "position": _tie_positions(self.mean_ranks.to_numpy())[0],
            "mean_rank_low": self.mean_rank_interval["low"].to_numpy(),
            "mean_rank_high": self.mean_rank_interval["high"].to_numpy(),
            "prob_best": self.prob_best.to_numpy(),
            "expected_position": self.expected_position.to_numpy(),
        })
        return out.sort_values(["mean_rank", "method"], kind="stable").reset_index(drop=True)

    def summary(self) -> str:
        """A readable table with the jackknife's findings."""
        level = f"{100 * self.confidence_level:g}%"
        lines = [self._header()]
        frame = self.to_frame()
        width = max(len("method"), *(len(str(m)) for m in frame["method"]))
        lines.append(f"  {'method':<{width}}  mean rank  {level + ' interval':<18}  P(best)  E[position]")
        for row in frame.itertuples(index=False):
            interval = f"[{row.mean_rank_low:.3f}, {row.mean_rank_high:.3f}]"
            lines.append(f"  {row.method:<{width}}  {row.mean_rank:9.3f}  {interval:<18}  {row.prob_best:7.3f}  "
                         f"{row.expected_position:11.3f}")
        jk = self.jackknife
        lines.append("Jackknife (leave one dataset out):")
        for column, what in (("top_changed", "the top method"), ("order_changed", "the order")):
            names = jk.loc[jk[column], "dataset"].tolist()
            lines.append(f"  leaving out any one of {shown(names)} changes {what}" if names
                         else f"  no single dataset's removal changes {what}")
        if len(jk):
            worst = jk.loc[jk["max_abs_change"].idxmax()]
            lines.append(f"  largest |Δ mean rank|: {worst['max_abs_change']:.3f} (without {worst['dataset']!r})")
        if self.excluded:
            lines.append(f"Excluded (incomplete): {shown(self.excluded)}")
        return "\n".join(lines)

    def _header(self) -> str:
        text = (f"Rank stability ({self.aggregation}, {self.n_methods} methods over {self.n_datasets} datasets, "
                f"{self.n_resamples} bootstrap resamples")
        if self.seeds_reduced:
            text += f", ranks of the seed-{self.seeds_reduced}"
        return text + ")"


@dataclass(frozen=True)
class _Resamples:
    """Resamples of positions among the kept datasets: the blocks given, or drawn from ``rng`` block by block.

    uniform / reliability: n draws with replacement from all datasets. custom: from the
    datasets with positive weight. hierarchical: stratified, n_g draws within each group g.
    """

    n: int
    n_resamples: int
    given: tuple | None = None
    rng: object = None
    pools: tuple = (None,)

    def __iter__(self):
        if self.given is not None:
            yield from self.given
            return
        n_drawn = sum(self.n if p is None else p.size for p in self.pools)
        rows = max(1, _BLOCK_CELLS // n_drawn)
        done = 0
        while done < self.n_resamples:
            size = min(rows, self.n_resamples - done)
            parts = [self.rng.integers(self.n, size=(size, self.n)) if p is None
                     else p[self.rng.integers(p.size, size=(size, p.size))] for p in self.pools]
            yield parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)
            done += size


def _pools(agg: _Aggregation) -> tuple:
    if agg.aggregation == "hierarchical":
        return tuple(np.nonzero(agg.groups == g)[0] for g in range(len(agg.group_labels)))
    if agg.aggregation == "custom":
        return (np.nonzero(agg.raw_weights > 0)[0],)
    return (None,)


def _index_blocks(agg: _Aggregation, n_resamples: int, rng: np.random.Generator):
    """Resamples of dataset positions, block by block: each block is (rows, n_drawn) int64."""
    return iter(_Resamples(n=agg.prep.n_datasets, n_resamples=n_resamples, rng=rng, pools=_pools(agg)))


# --------------------------------------------------------------------------- the bootstrap statistic
# block: the ranks of a slab of (kept) datasets -> its share of every resample's weighted rank sum
# and weight total, and its rows of the jackknife table; combine: add the sums, stack the rows.

def _bootstrap_block(ranks, offset, weights, codes, draws, n_resamples, totals, observed, methods):
    """Block. ``draws`` is a :class:`_Resamples` (positions among all kept datasets; those in this
    slab count here) or, per block, ``(m, seed)``: resample b draws ``m[b]`` datasets of this slab
    uniformly with replacement from a generator seeded with ``seed``. Ranks are half-integers
    and the counts integers, so uniform sums are exact whatever the blocks."""
    from mcda._core._kernels.rank_positions import weighted_counts

    n_block, k = ranks.shape
    w = np.ones(n_block) if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    sums, weight_sums = np.zeros((n_resamples, k)), np.zeros(n_resamples)
    if isinstance(draws, _Resamples):
        done, buffer = 0, np.empty((0, n_block))
        for indices in draws:
            rows = indices.shape[0]
            if offset == 0 and n_block == draws.n:  # every dataset is here: the kernel counts directly
                if rows > buffer.shape[0]:
                    buffer = np.empty((rows, n_block))
                counts, drawn_weight = buffer[:rows], weight_sums[done:done + rows]
                weighted_counts(np.ascontiguousarray(indices, dtype=np.int64), w, counts, drawn_weight)
            else:
                local = indices - offset
                resample, position = np.nonzero((local >= 0) & (local < n_block))
                drawn = local[resample, position]
                counts = np.bincount(resample * n_block + drawn, weights=w[drawn],
                                     minlength=rows * n_block).reshape(rows, n_block)
                weight_sums[done:done + rows] = np.bincount(resample, weights=w[drawn], minlength=rows)
            sums[done:done + rows] = counts @ ranks
            done += rows
    elif n_block:
        m, seed = draws
        generator = np.random.default_rng(seed)
        rows = max(1, _BLOCK_CELLS // n_block)
        for start in range(0, n_resamples, rows):
            stop = min(start + rows, n_resamples)
            resample = np.repeat(np.arange(stop - start), m[start:stop])
            drawn = generator.integers(n_block, size=resample.size)
            counts = np.bincount(resample * n_block + drawn, minlength=(stop - start) * n_block)
            sums[start:stop] = counts.reshape(stop - start, n_block).astype(np.float64) @ ranks
        weight_sums = m.astype(np.float64)
    left_out = _left_out_means(ranks, w, codes, totals) if n_block else np.zeros((0, k))
    return sums, weight_sums, [_jackknife_rows(left_out, observed, methods, offset + np.arange(n_block))]


def _combine_bootstrap(a, b):
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _position_sums(mean_ranks: np.ndarray, tol: float, k: int) -> np.ndarray:
    """Each method's share of each position, summed over the resamples (rows) of ``mean_ranks``: (k, k).

    In each row the methods are sorted by mean rank (smaller = better, stable); consecutive
    sorted values within ``tol`` of each other form one tie (chained), and a tie of t methods
    over positions p … p + t − 1 gives each of them 1/t at each of those positions (the
    average over every way of breaking the tie), so every row and column of one resample
    sums to 1. Vectorised: rows without a tie add whole counts (exact in any order); the rows
    with one give an entry per (resample, method, position) shared, summed by ``np.bincount`` in
    resample order, the order a loop over those resamples adds them in.
    """
    n = mean_ranks.shape[0]
    if n == 0 or k == 0:
        return np.zeros((k, k))
    order = np.argsort(mean_ranks, axis=1, kind="stable")
    ranked = np.take_along_axis(mean_ranks, order, axis=1)
    starts_tie = np.ones((n, k), dtype=bool)
    starts_tie[:, 1:] = ~(ranked[:, 1:] - ranked[:, :-1] <= tol)  # NaN breaks a tie too
    untied = starts_tie.all(axis=1)
    if untied.any():  # rows without a tie (most): each method 1 at its sorted position, summed as exact counts
        cells = order[untied] * k + np.arange(k)
        counts = np.bincount(cells.ravel(), minlength=k * k).reshape(k, k).astype(np.float64)
        if untied.all():
            return counts
        tied = ~untied
        return counts + _position_sums(mean_ranks[tied], tol, k)
    ends_tie = np.ones((n, k), dtype=bool)
    ends_tie[:, :-1] = starts_tie[:, 1:]
    column = np.arange(k)
    start = np.maximum.accumulate(np.where(starts_tie, column, 0), axis=1).ravel()
    stop = np.minimum.accumulate(np.where(ends_tie, column + 1, k)[:, ::-1], axis=1)[:, ::-1].ravel()
    size = stop - start
    share = 1.0 / size
    element = np.repeat(np.arange(n * k), size)              # row-major: resample by resample
    first = np.cumsum(size) - size
    position = start[element] + (np.arange(element.size) - np.repeat(first, size))
    cells = order.ravel()[element] * k + position
    return np.bincount(cells, weights=share[element], minlength=k * k).reshape(k, k)


def _stability(agg: _Aggregation, draws, n_resamples: int, confidence_level: float) -> RankStability:
    """Finalize: RankStability from the combined bootstrap sums and the jackknife rows of every block."""
    source = xr.DataArray(agg.ranks, dims=("dataset", "method"))
    sizes = _chunks.block_sizes(source)
    bounds = np.cumsum(sizes)[:-1]
    weights = None if agg.raw_weights is None else _chunks.PerBlock(np.split(agg.raw_weights, bounds))
    codes = None if agg.groups is None else _chunks.PerBlock(np.split(agg.groups, bounds))
    observed = agg.mean()
    sums, weight_sums, tables = _chunks.reduce(source, _bootstrap_block, _combine_bootstrap, weights, codes, draws,
                                               n_resamples, _jackknife_totals(agg), observed, agg.methods,
                                               whole=True)
    means = sums
    means /= weight_sums[:, None]
    k = agg.prep.n_methods
    probabilities = _position_sums(means, _TIE_TOL, k)
    probabilities /= n_resamples
    method_index = pd.Index(agg.methods, name="method")
    low, high = np.quantile(means, [0.5 - confidence_level / 2, 0.5 + confidence_level / 2], axis=0)
    table = pd.concat(tables, ignore_index=True)
    labels = np.array([str(v) for v in agg.labels[table["position"].to_numpy()]], dtype=object)
    table.insert(0, "dataset", labels)
    table = table.drop(columns="position").iloc[np.argsort(labels, kind="stable")].reset_index(drop=True)
    return RankStability(
        mean_ranks=pd.Series(observed, index=method_index, name="mean_rank"),
        mean_rank_draws=means,
        position_probabilities=pd.DataFrame(probabilities, index=method_index,
                                            columns=pd.Index(np.arange(1, k + 1), name="position")),
        mean_rank_interval=pd.DataFrame({"low": low, "high": high}, index=method_index),
        prob_best=pd.Series(probabilities[:, 0], index=method_index, name="prob_best"),
        jackknife=table, aggregation=agg.aggregation, n_resamples=n_resamples, confidence_level=confidence_level,
        weights=agg.weights_series(), n_datasets=agg.prep.n_datasets, n_methods=k, excluded=agg.prep.excluded,
        seeds_reduced=agg.seeds_reduced)


def _stability_from_indices(agg: _Aggregation, index_blocks, *, confidence_level: float) -> RankStability:
    """The bootstrap and jackknife for given resamples (an iterable of (rows, n_drawn) index arrays).

    A resample's mean ranks are (counts · weights) @ rank_matrix / Σ counts · weights, with
    the ranks within datasets computed once; the tests feed fixed indices here.
    """
    n = agg.prep.n_datasets
    given = []
    for indices in index_blocks:
        indices = np.ascontiguousarray(indices, dtype=np.int64)
        if indices.ndim != 2 or 0 in indices.shape or indices.min() < 0 or indices.max() >= n:
            raise McdaArgumentError(f"resample indices must be a non-empty 2-d array of dataset positions in [0, {n})",
                                    argument="index_blocks")
        given.append(indices)
    if not given:
        raise McdaArgumentError(f"resample indices must be a non-empty 2-d array of dataset positions in [0, {n})",
                                argument="index_blocks")
    draws = _Resamples(n=n, n_resamples=sum(g.shape[0] for g in given), given=tuple(given))
    return _stability(agg, draws, draws.n_resamples, confidence_level)


@states_scale
def rank_stability(scores, direction=None, *, n_resamples: int = 9999, aggregation: str = "uniform", groups=None,
                   weights=None, confidence_level: float = 0.95, rng=None, method_names=None,
                   missing: str = "methods") -> RankStability:
    """Bootstrap and jackknife over datasets: would the ranking survive another choice of datasets?

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method); per seed for ``aggregation="reliability"``.
        Incomplete methods are dropped and named in ``excluded``.
    n_resamples : int
        Bootstrap resamples of the datasets (default 9999, as :meth:`mcda.Report.rank_stability`
        and scipy's bootstrap).
    aggregation : {"uniform", "reliability", "hierarchical", "custom"}
        How datasets are weighted, as in :func:`mcda.mean_ranks` (``groups`` and ``weights``
        likewise).
    groups, weights : mapping, optional
        See :func:`mcda.mean_ranks`.
    confidence_level : float
        Of the percentile interval for each mean rank.
    rng : numpy.random.Generator or seed, optional
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    missing : {"methods", "datasets"}
        Which incomplete part is dropped and named: the incomplete methods (default) or the
        incomplete datasets.

    Returns
    -------
    RankStability
        ``mean_ranks``, ``mean_rank_draws``, ``position_probabilities``,
        ``mean_rank_interval``, ``prob_best``, ``jackknife``, ``aggregation``, ``n_resamples``,
        ``confidence_level``, ``weights``, ``n_datasets``, ``n_methods``, ``excluded``;
        ``to_frame()`` gives one row per method, ``summary()`` a readable report.

    Raises
    ------
    ValueError
        Bad ``n_resamples`` or ``confidence_level``, fewer than 2 datasets to resample, and
        every error of :func:`mcda.mean_ranks`.

    Notes
    -----
    Ranks within a dataset do not depend on the other datasets, so the rank matrix r_ij is
    computed once. A resample draws datasets with replacement; with c_bi the number of times
    dataset i is drawn in resample b and w_i its weight (1 for uniform),
    R̄_bj = Σ_i c_bi w_i r_ij / Σ_i c_bi w_i: one matrix product for all resamples.
    Every dataset keeps its weight (the bootstrap of a weighted mean resamples (rank row,
    weight) pairs), which re-aggregates exactly: for reliability the weights are per
    dataset; for custom weights only datasets with positive weight are drawn; for
    hierarchical the bootstrap is stratified (n_g draws within each group g, so every group
    keeps its share 1/G and the groups, chosen by design, are not resampled; a group of one
    dataset is then fixed in every resample). Reliability ranks the seed-mean.

    Positions: methods are ordered by mean rank; mean ranks within 1e-9 of each other
    (chained) are tied, and a tie of t methods over positions p … p + t − 1 gives each
    1/t at each of them (the average over every way of breaking the tie).
    ``mean_rank_interval`` is the percentile interval, which says how far the mean rank of
    each method moves with the choice of datasets (datasets are assumed exchangeable draws
    from the population of interest; Efron & Tibshirani 1993, ch. 13).

    The jackknife leaves each dataset out in turn and re-aggregates (a hierarchical group
    that loses its only dataset leaves the average). ``order_changed`` compares the
    positions (ties at their best position) with and without the dataset.

    The mean ranks are descriptive: only uniform mean ranks have the Friedman / Nemenyi
    null, and neither the bootstrap interval nor P(best) is a test.

    On a dask-backed cube of several chunks (uniform aggregation) the resample counts are drawn
    chunk by chunk from the same ``rng``: per resample the multinomial split of the N draws over
    the chunks, then uniform draws within each chunk, and the datasets keep the store's order.
    The resampling distribution is the same, the draws are not: the same ``rng`` gives other
    numbers than in memory (within Monte Carlo error). A lazy cube of one chunk is drawn as in
    memory.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
    https://doi.org/10.1201/9780429246593

    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    JMLR 7:1–30. https://jmlr.org/papers/v7/demsar06a.html

    Examples
    --------
    Demšar's Table 6 (the published ranks): C4.5+m+cf leads C4.5+m by 0.036, and six
    datasets each decide the top method on their own.

    >>> import mcda
    >>> cube = mcda.datasets.load("demsar2006_published_ranks")
    >>> result = mcda.rank_stability(cube, n_resamples=2000, rng=0)
    >>> result.mean_ranks.round(3).to_dict()
    {'C4.5': 3.143, 'C4.5+m': 2.0, 'C4.5+cf': 2.893, 'C4.5+m+cf': 1.964}
    >>> result.position_probabilities.shape
    (4, 4)
    >>> result.prob_best.round(2).to_dict()
    {'C4.5': 0.0, 'C4.5+m': 0.45, 'C4.5+cf': 0.0, 'C4.5+m+cf': 0.54}
    >>> result.jackknife.loc[result.jackknife["top_changed"], "dataset"].tolist()
    ['adult (sample)', 'ionosphere', 'liver disorders', 'lung cancer', 'lymphography', 'rheum']
    """
    n_resamples = check_positive_int("n_resamples", n_resamples)
    confidence_level = check_probability("confidence_level", confidence_level)
    missing = missing_policy(missing)
    if missing == "available":
        raise McdaArgumentError("`missing='available'` ranks methods among different pools on each dataset, which a "
                         "bootstrap of mean ranks cannot compare; use `missing='methods'` or `missing='datasets'`",
                                argument="missing")
    gen = as_rng(rng)
    agg = _prepare_aggregation(scores, aggregation=aggregation, groups=groups, weights=weights, direction=direction,
                               method_names=method_names, missing=missing,
                               function="mcda.rank_stability").sorted_by_dataset()
    warn_excluded(agg.prep.excluded, "the rank stability")
    warn_dropped_datasets(agg.prep.excluded_datasets, "the rank stability")
    from mcda._core.options import check_count_allocation

    k = len(agg.prep.methods)
    # the result keeps every resample's mean ranks (n_resamples × k) and sorts a copy of them
    check_count_allocation("n_resamples", n_resamples, 2 * 8 * k,
                           f"keeps n_resamples × {k} resampled mean ranks (10,000 give each position "
                           "probability to about ±0.005)")
    n_positive = int(np.count_nonzero(agg.weights_or_ones() > 0))
    if n_positive < 2:
        what = "datasets with a positive weight" if aggregation == "custom" else "datasets"
        raise McdaArgumentError(f"rank_stability resamples datasets and needs at least 2 {what}; got {n_positive}",
                                argument="weights" if aggregation == "custom" else None)
    if n_positive < 5:
        warn(f"the bootstrap resamples only {n_positive} datasets: few distinct resamples exist and the "
             "intervals and position probabilities are coarse.", SmallSampleWarning)
    if aggregation == "hierarchical":
        single = [agg.group_labels[g] for g in np.nonzero(np.bincount(agg.groups) == 1)[0]]
        if single:
            warn(f"groups {shown(single)} have a single dataset: the stratified bootstrap keeps them fixed in "
                 "every resample, so their uncertainty is not represented.", SmallSampleWarning)
    n = agg.prep.n_datasets
    sizes = _chunks.block_sizes(xr.DataArray(agg.prep.ranks))
    if sizes.size == 1:
        draws = _Resamples(n=n, n_resamples=n_resamples, rng=gen, pools=_pools(agg))
    else:  # several blocks (uniform): per resample, the multinomial split of the n draws over the blocks
        split = gen.multinomial(n, sizes / n, size=n_resamples)
        seeds = gen.integers(0, np.iinfo(np.int64).max, size=sizes.size)
        draws = _chunks.PerBlock((np.ascontiguousarray(split[:, c]), int(seeds[c])) for c in range(sizes.size))
    return _stability(agg, draws, n_resamples, confidence_level)
