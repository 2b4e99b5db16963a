"""Ranks within datasets (rank 1 = best, ties averaged) and their averages across datasets.

Ranks are computed per dataset on the oriented cube, so they are chunkable along
``dataset``: the rank of a method on one dataset never depends on another dataset, and
rank sums add up across chunks.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import xarray as xr
from scipy import stats

from ._validation import (
    DescriptiveOnlyWarning,
    MissingDataWarning,
    SmallSampleWarning,
    as_rng,
    check_choice,
    check_positive_int,
    check_probability,
    shown,
    warn,
)
from . import _chunks
from .cube import as_cube, single_score_cube, complete_cases, orient, reduce_seeds
from .store import is_lazy, require_in_memory

__all__ = ["AcrossDatasets", "prepare_across", "rank_rows", "rank_table", "average_ranks", "MeanRanks",
           "mean_ranks", "rank_stability", "RankStability"]

MISSING_POLICIES = ("complete", "available")
_KERNEL_MIN_CELLS = 200_000  # rank_rows switches to the numba kernel from this many cells


def _warn_excluded(excluded: dict, what: str) -> None:
    """Say which incomplete methods were dropped (never silently: the result carries them in ``excluded``)."""
    if excluded:
        lacks = shown([f"{m} lacks [{shown(ds, 4, fmt=str)}]" for m, ds in excluded.items()], fmt=str, sep="; ")
        warn(f"{len(excluded)} method(s) lack results on some datasets and are excluded from {what} "
             f"(nothing is imputed): {lacks}.", MissingDataWarning)


@dataclass(frozen=True)
class AcrossDatasets:
    """The input of every across-dataset statistic, prepared once.

    Attributes
    ----------
    cube : xarray.DataArray
        The cube analysed (complete design for ``missing="complete"``), in its own direction.
    values : numpy.ndarray
        Oriented scores, shape (n_datasets, n_methods), higher is better; NaN only for
        ``missing="available"``.
    methods, datasets : list of str
    excluded : dict
        Method -> datasets it lacks (dropped under ``missing="complete"``).
    empty_datasets : tuple
        Datasets with no result at all (dropped).
    """

    cube: xr.DataArray
    values: np.ndarray
    methods: list
    datasets: list
    excluded: dict = field(default_factory=dict)
    empty_datasets: tuple = ()

    @property
    def n_datasets(self) -> int:
        return self.values.shape[0]

    @property
    def n_methods(self) -> int:
        return self.values.shape[1]


def prepare_across(scores, direction=None, *, method_names=None, missing: str = "complete") -> AcrossDatasets:
    """Cube → oriented datasets × methods matrix for the across-dataset question.

    A ``seed`` dim must be reduced first (:func:`mcda.reduce_seeds`): how seeds are collapsed
    is the analyst's decision, never made silently here. ``missing="complete"`` drops
    incomplete methods and names them; ``"available"`` keeps NaN cells.
    """
    check_choice("missing", missing, MISSING_POLICIES)
    cube = single_score_cube(scores, direction, method_names=method_names, what="the across-dataset procedure")
    require_in_memory(cube, "this across-dataset view", reason="it needs the datasets x methods matrix in memory",
                      instead="the chunk-wise functions (rank_table, average_ranks, mean_ranks, rank_stability, "
                              "friedman_test, compare_over_datasets, pairwise_counts, ...) accept it directly")
    if missing == "complete":
        cc = complete_cases(cube, policy="methods")
        cube_used, excluded, empty = cc.cube, cc.excluded, cc.empty_datasets
    else:
        present = cube.notnull().any("method").values
        cube_used = cube.isel(dataset=np.nonzero(present)[0])
        excluded = {}
        empty = tuple(cube.coords["dataset"].values[~present].tolist())
    values = np.ascontiguousarray(orient(cube_used).values, dtype=np.float64)
    return AcrossDatasets(cube=cube_used, values=values,
                          methods=[str(m) for m in cube_used.coords["method"].values],
                          datasets=[str(d) for d in cube_used.coords["dataset"].values],
                          excluded=excluded, empty_datasets=empty)


def rank_rows(values: np.ndarray) -> np.ndarray:
    """Ranks within each row of an oriented matrix: 1 = highest, ties averaged, NaN stays NaN."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 2 and values.size >= _KERNEL_MIN_CELLS:
        # numba per-row ranking (same numbers as scipy.stats.rankdata, checked in the tests)
        from ._kernels.rank_positions import rank_rows_average

        out = np.empty(values.shape)
        rank_rows_average(np.ascontiguousarray(values), out)
        return out
    if np.isnan(values).any():
        return stats.rankdata(-values, axis=1, method="average", nan_policy="omit")
    return stats.rankdata(-values, axis=1, method="average")


def rank_table(scores, direction=None, *, missing: str = "complete", method_names=None) -> pd.DataFrame:
    """The ranks within each dataset as a datasets × methods table (1 = best, ties averaged).

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
    direction : str, optional
        Needed only when ``scores`` carries no card.
    missing : {"complete", "available"}
        "complete" drops incomplete methods (named in ``attrs["excluded"]``); "available"
        ranks each method among those present on each dataset (NaN where absent).

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
    if is_lazy(scores):  # a dask-backed cube: a lazy DataArray of ranks (mcda._chunks)
        table = _chunks.rank_table(scores, direction, missing=missing, method_names=method_names)
        _warn_excluded(table.attrs.get("excluded", {}), "the rank table")
        return table
    prep = prepare_across(scores, direction, method_names=method_names, missing=missing)
    table = pd.DataFrame(rank_rows(prep.values), index=pd.Index(prep.datasets, name="dataset"),
                         columns=pd.Index(prep.methods, name="method"))
    table.attrs["excluded"] = prep.excluded
    _warn_excluded(prep.excluded, "the rank table")
    return table


@dataclass(frozen=True)
class MeanRanks:
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
        "complete" or "available" ("available" is descriptive only).
    excluded : dict
        Method -> datasets it lacks (methods dropped under "complete").
    """

    mean_ranks: pd.Series
    rank_table: pd.DataFrame
    n_datasets: int
    n_methods: int
    aggregation: str = "uniform"
    weights: pd.Series | None = None
    missing: str = "complete"
    excluded: dict = field(default_factory=dict)

    @property
    def is_weighted(self) -> bool:
        return self.aggregation != "uniform"

    @property
    def supports_critical_difference(self) -> bool:
        """Only uniform mean ranks over a complete design have the Friedman/Nemenyi null."""
        return self.aggregation == "uniform" and self.missing == "complete"

    def to_frame(self) -> pd.DataFrame:
        """One row per method: ``method, mean_rank`` (best first)."""
        out = self.mean_ranks.rename("mean_rank").rename_axis("method").reset_index()
        return out.sort_values("mean_rank", kind="stable").reset_index(drop=True)

    def __repr__(self) -> str:
        head = f"MeanRanks({self.aggregation}, {self.n_methods} methods over {self.n_datasets} datasets"
        head += ", descriptive only" if not self.supports_critical_difference else ""
        body = ", ".join(f"{m}: {r:.3f}" for m, r in self.mean_ranks.sort_values(kind="stable").items())
        if self.excluded:
            body += f"\n  excluded (incomplete): {shown(self.excluded)}"
        return head + ")\n  " + body


def average_ranks(scores, direction=None, *, missing: str = "complete", method_names=None) -> MeanRanks:
    """Demšar's average ranks: rank within each dataset (1 = best, ties averaged), then average.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` (one score per dataset and method)
    direction : str, optional
        Needed only when ``scores`` carries no card.
    missing : {"complete", "available"}
        ``"complete"`` (default) drops incomplete methods and names them in ``excluded``.
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
    if is_lazy(scores):  # a dask-backed cube: rank sums chunk by chunk, the rank table stays lazy
        result = _chunks.average_ranks(scores, direction, missing=missing, method_names=method_names)
        _warn_excluded(result.excluded, "the average ranks")
        return result
    prep = prepare_across(scores, direction, method_names=method_names, missing=missing)
    _warn_excluded(prep.excluded, "the average ranks")
    ranks = rank_rows(prep.values)
    if missing == "available":
        warn("average ranks with missing='available' rank each method among the methods present on each dataset; "
             "they are descriptive only (not on a common scale) and never an input to a critical difference.",
             DescriptiveOnlyWarning)
    mean = np.nanmean(ranks, axis=0) if missing == "available" else ranks.mean(axis=0)
    table = pd.DataFrame(ranks, index=pd.Index(prep.datasets, name="dataset"),
                         columns=pd.Index(prep.methods, name="method"))
    return MeanRanks(mean_ranks=pd.Series(mean, index=pd.Index(prep.methods, name="method"), name="mean_rank"),
                     rank_table=table, n_datasets=prep.n_datasets, n_methods=prep.n_methods,
                     aggregation="uniform", weights=None, missing=missing, excluded=prep.excluded)


# =========================================================================== weighted mean ranks

AGGREGATIONS = ("uniform", "reliability", "hierarchical", "custom")
# Mean ranks closer than this are tied (positions, order, top method). Uniform sums of
# half-integer ranks are exact in float64, so a real difference is at least 0.5 / n_datasets;
# weighted sums carry rounding noise of order 1e-13, far below this.
_TIE_TOL = 1e-9
# Level of the per-cell t intervals of the reliability weighting. Every kept cell has the
# same number of seeds (reduce_seeds with missing='complete' keeps only cells with every seed), so the t quantile is one
# constant factor and cancels when the weights are normalised.
_RELIABILITY_LEVEL = 0.95
_BLOCK_CELLS = 1 << 21  # resamples × drawn datasets per block: memory stays bounded


@dataclass(frozen=True)
class _Aggregation:
    """Ranks within datasets and how they are aggregated, prepared once (internal)."""

    prep: AcrossDatasets
    ranks: np.ndarray  # (n_datasets, n_methods), 1 = best
    aggregation: str
    raw_weights: np.ndarray | None = None  # (n_datasets,), unnormalised; None = uniform
    groups: np.ndarray | None = None  # (n_datasets,) int codes into group_labels (hierarchical)
    group_labels: tuple = ()
    missing: str = "complete"
    seeds_reduced: str | None = None

    @property
    def datasets(self) -> list:
        return self.prep.datasets

    @property
    def methods(self) -> list:
        return self.prep.methods

    def weights_or_ones(self) -> np.ndarray:
        if self.raw_weights is None:
            return np.ones(self.ranks.shape[0])
        return self.raw_weights

    def mean(self) -> np.ndarray:
        """The aggregated mean rank per method."""
        if self.raw_weights is None:
            return np.nanmean(self.ranks, axis=0) if self.missing == "available" else self.ranks.mean(axis=0)
        return (self.raw_weights @ self.ranks) / self.raw_weights.sum()

    def weights_series(self) -> pd.Series | None:
        if self.raw_weights is None:
            return None
        return pd.Series(self.raw_weights / self.raw_weights.sum(), index=pd.Index(self.datasets, name="dataset"),
                         name="weight")

    def sorted_by_dataset(self) -> _Aggregation:
        """The same aggregation with datasets in label order (resamples do not depend on input order)."""
        order = np.argsort(np.array(self.datasets, dtype=object), kind="stable")
        prep = AcrossDatasets(cube=self.prep.cube.isel(dataset=order), values=self.prep.values[order],
                              methods=self.prep.methods, datasets=[self.prep.datasets[i] for i in order],
                              excluded=self.prep.excluded, empty_datasets=self.prep.empty_datasets)
        return _Aggregation(prep=prep, ranks=np.ascontiguousarray(self.ranks[order]), aggregation=self.aggregation,
                            raw_weights=None if self.raw_weights is None else self.raw_weights[order],
                            groups=None if self.groups is None else self.groups[order],
                            group_labels=self.group_labels, missing=self.missing,
                            seeds_reduced=self.seeds_reduced)


def _as_mapping(name: str, value, what: str) -> dict:
    if isinstance(value, pd.Series):
        return {str(k): v for k, v in value.items()}
    if isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    raise TypeError(f"`{name}` must be a mapping dataset -> {what} (a dict or a pandas Series); "
                    f"got {type(value).__name__}")


def _check_names(name: str, mapping: dict, prep: AcrossDatasets) -> None:
    known = set(prep.datasets) | {str(d) for d in prep.empty_datasets}
    unknown = [k for k in mapping if k not in known]
    if unknown:
        raise ValueError(f"`{name}` names datasets that are not in the scores: {shown(unknown)}; "
                         f"the datasets are {shown(prep.datasets)}")
    lacking = [d for d in prep.datasets if d not in mapping]
    if lacking:
        raise ValueError(f"`{name}` must name every dataset; it lacks {shown(lacking)}")


def _group_codes(groups, prep: AcrossDatasets) -> tuple[np.ndarray, tuple]:
    mapping = _as_mapping("groups", groups, "group")
    _check_names("groups", mapping, prep)
    labels = [mapping[d] for d in prep.datasets]
    bad = [d for d, g in zip(prep.datasets, labels) if g is None or (isinstance(g, float) and np.isnan(g))]
    if bad:
        raise ValueError(f"`groups` gives no group (None/NaN) for datasets {shown(bad)}")
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
            raise ValueError(f"`weights` must be finite numbers >= 0; got {w!r} for dataset {d!r}")
        raw.append(float(w))
    raw = np.array(raw, dtype=np.float64)
    if not (raw > 0).any():
        raise ValueError("`weights` are all zero; at least one dataset needs a positive weight")
    return raw


def _mean_interval_widths(cube: xr.DataArray, prep: AcrossDatasets) -> np.ndarray:
    """Per dataset: the mean over the kept methods of the width of each method's t interval over seeds."""
    from .within import summary

    per_seed = cube.sel({"dataset": prep.cube.coords["dataset"].values, "method": prep.cube.coords["method"].values})
    other = [d for d in per_seed.dims if d not in ("dataset", "method", "seed")]
    if other:
        raise ValueError(f"the scores have extra dims {other}; select one value along each first "
                         f"(e.g. cube.sel(metric='ari')).")
    table = summary(per_seed, ci_method="t", confidence_level=_RELIABILITY_LEVEL).table
    if int(table["n_seeds"].min()) < 2:
        raise ValueError("aggregation='reliability' needs at least 2 seeds per (dataset, method) to measure an "
                         f"interval width; the scores have {per_seed.sizes['seed']} seed(s)")
    widths = (table["ci_high"] - table["ci_low"]).groupby(table["dataset"].astype(str), sort=False).mean()
    width = widths.reindex(prep.datasets).to_numpy(dtype=np.float64)
    zero = width <= 0
    if zero.any():
        names = [prep.datasets[i] for i in np.nonzero(zero)[0]]
        raise ValueError(f"aggregation='reliability' weights a dataset by 1 / (mean interval width), but every "
                         f"method has identical scores over seeds on datasets {shown(names)} (width 0, infinite "
                         "weight). Use aggregation='custom' with explicit `weights`, or 'uniform'.")
    return width


def _prepare_aggregation(scores, *, aggregation, groups, weights, direction, method_names,
                         missing: str = "complete") -> _Aggregation:
    """Validate the aggregation arguments and prepare ranks and weights (one place for both public functions)."""
    check_choice("aggregation", aggregation, AGGREGATIONS)
    check_choice("missing", missing, MISSING_POLICIES)
    if groups is not None and aggregation != "hierarchical":
        raise ValueError(f"`groups` is used only with aggregation='hierarchical'; got aggregation={aggregation!r}")
    if weights is not None and aggregation != "custom":
        raise ValueError(f"`weights` is used only with aggregation='custom'; got aggregation={aggregation!r}")
    if aggregation == "hierarchical" and groups is None:
        raise ValueError("aggregation='hierarchical' needs `groups`, a mapping dataset -> group")
    if aggregation == "custom" and weights is None:
        raise ValueError("aggregation='custom' needs `weights`, a mapping dataset -> weight (>= 0)")
    if missing == "available" and aggregation != "uniform":
        raise ValueError(f"`missing`='available' is descriptive only and allowed only with aggregation='uniform'; "
                         f"got aggregation={aggregation!r}. Use missing='complete'.")
    seeds_reduced = None
    raw = codes = None
    labels: tuple = ()
    if aggregation == "reliability":
        cube = as_cube(scores, direction, method_names=method_names)
        if "seed" not in cube.dims:
            raise ValueError("aggregation='reliability' weights each dataset by the inverse width of its confidence "
                             f"intervals over seeds, so the scores need a 'seed' dim; their dims are {tuple(cube.dims)}. "
                             "Use aggregation='uniform', or pass the per-seed scores.")
        prep = prepare_across(reduce_seeds(cube, how="mean"), missing="complete")
        raw = 1.0 / _mean_interval_widths(cube, prep)
        seeds_reduced = "mean"
    else:
        prep = prepare_across(scores, direction, method_names=method_names, missing=missing)
        if aggregation == "hierarchical":
            codes, labels = _group_codes(groups, prep)
            raw = 1.0 / np.bincount(codes)[codes]
        elif aggregation == "custom":
            raw = _custom_weights(weights, prep)
    return _Aggregation(prep=prep, ranks=np.ascontiguousarray(rank_rows(prep.values)), aggregation=aggregation,
                        raw_weights=raw, groups=codes, group_labels=labels, missing=missing,
                        seeds_reduced=seeds_reduced)


def mean_ranks(scores, direction=None, *, aggregation: str = "uniform", groups=None, weights=None, missing: str = "complete",
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
    missing : {"complete", "available"}
        ``"complete"`` (default) drops incomplete methods and names them in ``excluded``.
        ``"available"`` (uniform only) is :func:`mcda.average_ranks`'s descriptive mode.
    direction : str, optional
        Needed only when ``scores`` carries no card.
    method_names : sequence of str, optional
        Labels for array input.

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
    if is_lazy(scores):  # a dask-backed cube: uniform rank sums chunk by chunk (mcda._chunks)
        result = _chunks.mean_ranks(scores, aggregation=aggregation, groups=groups, weights=weights,
                                    missing=missing, direction=direction, method_names=method_names)
        _warn_excluded(result.excluded, "the mean ranks")
        return result
    agg = _prepare_aggregation(scores, aggregation=aggregation, groups=groups, weights=weights, direction=direction,
                               method_names=method_names, missing=missing)
    _warn_excluded(agg.prep.excluded, "the mean ranks")
    if missing == "available":
        warn("mean ranks with missing='available' rank each method among the methods present on each dataset; "
             "they are descriptive only (not on a common scale) and never an input to a critical difference.",
             DescriptiveOnlyWarning)
    table = pd.DataFrame(agg.ranks, index=pd.Index(agg.datasets, name="dataset"),
                         columns=pd.Index(agg.methods, name="method"))
    if agg.seeds_reduced:
        table.attrs["seeds_reduced"] = agg.seeds_reduced
    table.attrs["excluded"] = agg.prep.excluded
    return MeanRanks(mean_ranks=pd.Series(agg.mean(), index=pd.Index(agg.methods, name="method"), name="mean_rank"),
                     rank_table=table, n_datasets=agg.prep.n_datasets, n_methods=agg.prep.n_methods,
                     aggregation=aggregation, weights=agg.weights_series(), missing=missing,
                     excluded=agg.prep.excluded)


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


def _kendall_tau_rows(reference: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Kendall's tau-b between ``reference`` (k,) and each row of ``rows`` (n, k); NaN when one is all tied."""
    from ._kernels.rank_positions import kendall_tau_rows

    out = np.empty(rows.shape[0])
    kendall_tau_rows(np.ascontiguousarray(reference, dtype=np.float64),
                     np.ascontiguousarray(rows, dtype=np.float64), out)
    return out


def _jackknife_means(agg: _Aggregation) -> np.ndarray:
    """(n_datasets, n_methods): the aggregated mean ranks with each dataset left out in turn, re-aggregated."""
    ranks = agg.ranks
    if agg.aggregation == "hierarchical":
        codes = agg.groups
        n_groups = len(agg.group_labels)
        sizes = np.bincount(codes, minlength=n_groups).astype(np.float64)
        sums = np.zeros((n_groups, ranks.shape[1]))
        np.add.at(sums, codes, ranks)
        group_means = sums / sizes[:, None]
        total = group_means.sum(axis=0)
        size = sizes[codes][:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            shrunk = (sums[codes] - ranks) / (size - 1.0)
            kept = (total - group_means[codes] + shrunk) / n_groups
            dropped = (total - group_means[codes]) / (n_groups - 1) if n_groups > 1 else np.full_like(ranks, np.nan)
        return np.where(size > 1, kept, dropped)
    w = agg.weights_or_ones()
    total = w @ ranks
    return (total[None, :] - w[:, None] * ranks) / (w.sum() - w)[:, None]


def _jackknife_table(agg: _Aggregation, observed: np.ndarray) -> pd.DataFrame:
    methods = np.array(agg.methods, dtype=object)
    left_out = _jackknife_means(agg)
    full_min = _tie_positions(observed, "min")[0]
    left_min = _tie_positions(left_out, "min")
    top_mask = left_min == 1
    top = methods[top_mask.argmax(axis=1)]
    for i in np.nonzero(top_mask.sum(axis=1) > 1)[0]:  # a tie for first: name them all
        top[i] = ", ".join(methods[top_mask[i]])
    return pd.DataFrame({
        "dataset": agg.datasets,
        "top_method": top,
        "top_changed": (top_mask != (full_min == 1)[None, :]).any(axis=1),
        "order_changed": (left_min != full_min[None, :]).any(axis=1),
        "max_abs_change": np.abs(left_out - observed[None, :]).max(axis=1),
        "kendall_tau": _kendall_tau_rows(_tie_positions(observed)[0], _tie_positions(left_out)),
    })


@dataclass(frozen=True)
class RankStability:
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
        text = (f"RankStability({self.aggregation}, {self.n_methods} methods over {self.n_datasets} datasets, "
                f"{self.n_resamples} bootstrap resamples")
        if self.seeds_reduced:
            text += f", ranks of the seed-{self.seeds_reduced}"
        return text + ")"

    def __repr__(self) -> str:
        return self.summary()


def _index_blocks(agg: _Aggregation, n_resamples: int, rng: np.random.Generator):
    """Resamples of dataset positions, block by block: each block is (rows, n_drawn) int64.

    uniform / reliability: n draws with replacement from all datasets. custom: from the
    datasets with positive weight. hierarchical: stratified, n_g draws within each group g.
    """
    n = len(agg.datasets)
    if agg.aggregation == "hierarchical":
        pools = [np.nonzero(agg.groups == g)[0] for g in range(len(agg.group_labels))]
    elif agg.aggregation == "custom":
        pools = [np.nonzero(agg.raw_weights > 0)[0]]
    else:
        pools = [None]
    n_drawn = sum(n if p is None else p.size for p in pools)
    rows = max(1, _BLOCK_CELLS // n_drawn)
    done = 0
    while done < n_resamples:
        size = min(rows, n_resamples - done)
        parts = [rng.integers(n, size=(size, n)) if p is None else p[rng.integers(p.size, size=(size, p.size))]
                 for p in pools]
        yield parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)
        done += size


def _stability_from_indices(agg: _Aggregation, index_blocks, *, confidence_level: float) -> RankStability:
    """The bootstrap and jackknife for given resamples (an iterable of (rows, n_drawn) index arrays).

    A resample's mean ranks are (counts · weights) @ rank_matrix / Σ counts · weights, with
    the ranks within datasets computed once; the tests feed fixed indices here.
    """
    from ._kernels.rank_positions import accumulate_positions, weighted_counts

    ranks = agg.ranks
    n, k = ranks.shape
    w = np.ascontiguousarray(agg.weights_or_ones(), dtype=np.float64)
    probabilities = np.zeros((k, k))
    draws = []
    buffer = np.empty((0, n))
    for indices in index_blocks:
        indices = np.ascontiguousarray(indices, dtype=np.int64)
        rows = indices.shape[0] if indices.ndim == 2 else 0
        if rows > buffer.shape[0]:
            buffer = np.empty((rows, n))
        counts, totals = buffer[:rows], np.empty(rows)
        if rows == 0 or indices.shape[1] == 0 or not weighted_counts(indices, w, counts, totals):
            raise ValueError(f"resample indices must be a non-empty 2-d array of dataset positions in [0, {n})")
        means = counts @ ranks
        means /= totals[:, None]
        accumulate_positions(means, _TIE_TOL, probabilities)
        draws.append(means)
    draws = np.concatenate(draws, axis=0)
    n_resamples = draws.shape[0]
    probabilities /= n_resamples
    observed = agg.mean()
    method_index = pd.Index(agg.methods, name="method")
    low, high = np.quantile(draws, [0.5 - confidence_level / 2, 0.5 + confidence_level / 2], axis=0)
    return RankStability(
        mean_ranks=pd.Series(observed, index=method_index, name="mean_rank"),
        mean_rank_draws=draws,
        position_probabilities=pd.DataFrame(probabilities, index=method_index,
                                            columns=pd.Index(np.arange(1, k + 1), name="position")),
        mean_rank_interval=pd.DataFrame({"low": low, "high": high}, index=method_index),
        prob_best=pd.Series(probabilities[:, 0], index=method_index, name="prob_best"),
        jackknife=_jackknife_table(agg, observed),
        aggregation=agg.aggregation, n_resamples=n_resamples, confidence_level=confidence_level,
        weights=agg.weights_series(), n_datasets=n, n_methods=k, excluded=agg.prep.excluded,
        seeds_reduced=agg.seeds_reduced)


def rank_stability(scores, direction=None, *, n_resamples: int = 10_000, aggregation: str = "uniform", groups=None, weights=None,
                   confidence_level: float = 0.95, rng=None, method_names=None) -> RankStability:
    """Bootstrap and jackknife over datasets: would the ranking survive another choice of datasets?

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method); per seed for ``aggregation="reliability"``.
        Incomplete methods are dropped and named in ``excluded``.
    n_resamples : int
        Bootstrap resamples of the datasets.
    aggregation : {"uniform", "reliability", "hierarchical", "custom"}
        How datasets are weighted, as in :func:`mcda.mean_ranks` (``groups`` and ``weights``
        likewise).
    groups, weights : mapping, optional
        See :func:`mcda.mean_ranks`.
    confidence_level : float
        Of the percentile interval for each mean rank.
    rng : numpy.random.Generator or seed, optional
    direction : str, optional
        Needed only when ``scores`` carries no card.
    method_names : sequence of str, optional
        Labels for array input.

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

    On a dask-backed cube (uniform aggregation) the resample counts are drawn chunk by chunk
    from the same ``rng``: per resample the multinomial split of the N draws over the chunks,
    then uniform draws within each chunk. The resampling distribution is the same, the draws
    are not: the same ``rng`` gives other numbers than in memory (within Monte Carlo error).

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
    if is_lazy(scores):  # a dask-backed cube: counts drawn per chunk from the same rng (mcda._chunks)
        result = _chunks.rank_stability(scores, n_resamples=n_resamples, aggregation=aggregation, groups=groups,
                                        weights=weights, confidence_level=confidence_level, rng=rng,
                                        direction=direction, method_names=method_names)
        _warn_excluded(result.excluded, "the rank stability")
        return result
    n_resamples = check_positive_int("n_resamples", n_resamples)
    confidence_level = check_probability("confidence_level", confidence_level)
    gen = as_rng(rng)
    agg = _prepare_aggregation(scores, aggregation=aggregation, groups=groups, weights=weights, direction=direction,
                               method_names=method_names).sorted_by_dataset()
    _warn_excluded(agg.prep.excluded, "the rank stability")
    n_positive = int(np.count_nonzero(agg.weights_or_ones() > 0))
    if n_positive < 2:
        what = "datasets with a positive weight" if aggregation == "custom" else "datasets"
        raise ValueError(f"rank_stability resamples datasets and needs at least 2 {what}; got {n_positive}")
    if n_positive < 5:
        warn(f"the bootstrap resamples only {n_positive} datasets: few distinct resamples exist and the "
             "intervals and position probabilities are coarse.", SmallSampleWarning)
    if aggregation == "hierarchical":
        single = [agg.group_labels[g] for g in np.nonzero(np.bincount(agg.groups) == 1)[0]]
        if single:
            warn(f"groups {shown(single)} have a single dataset: the stratified bootstrap keeps them fixed in "
                 "every resample, so their uncertainty is not represented.", SmallSampleWarning)
    return _stability_from_indices(agg, _index_blocks(agg, n_resamples, gen), confidence_level=confidence_level)
