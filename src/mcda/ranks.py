"""Ranks within datasets (rank 1 = best, ties averaged) and their averages across datasets.

Ranks are computed per dataset on the oriented cube, so they are chunkable along
``dataset``: the rank of a method on one dataset never depends on another dataset, and
rank sums add up across chunks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import xarray as xr
from scipy import stats

from ._validation import DescriptiveOnlyWarning, check_choice, warn
from .cube import as_cube, complete_cases, orient

__all__ = ["AcrossDatasets", "prepare_across", "rank_rows", "rank_table", "average_ranks", "MeanRanks"]

MISSING_POLICIES = ("complete", "available")


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
    cube = as_cube(scores, direction, method_names=method_names)
    extra = [d for d in cube.dims if d not in ("dataset", "method")]
    if "seed" in extra:
        raise ValueError("the scores have a 'seed' dim; the across-dataset procedure needs one score per "
                         "(dataset, method). Reduce the seeds explicitly first, e.g. "
                         "mcda.reduce_seeds(cube, how='mean').")
    if extra:
        raise ValueError(f"the scores have extra dims {extra}; select one value along each first "
                         f"(e.g. cube.sel(metric='ari')).")
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

    Examples
    --------
    >>> import mcda
    >>> table = mcda.rank_table({"d1": {"a": 0.9, "b": 0.8, "c": 0.8}}, direction="higher_is_better")
    >>> table.loc["d1"].tolist()
    [1.0, 2.5, 2.5]
    """
    prep = prepare_across(scores, direction, method_names=method_names, missing=missing)
    table = pd.DataFrame(rank_rows(prep.values), index=pd.Index(prep.datasets, name="dataset"),
                         columns=pd.Index(prep.methods, name="method"))
    table.attrs["excluded"] = prep.excluded
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
    prep = prepare_across(scores, direction, method_names=method_names, missing=missing)
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
